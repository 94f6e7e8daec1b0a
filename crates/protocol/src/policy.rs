//! When to accept or offer a draw and when to resign, from the scores of wily's own
//! searches (centipawns from wily's side), as Crafty decides them.

use engine::Score;

/// A mate score as a large centipawn value so it compares with ordinary scores.
pub fn as_cp(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 30_000 - m,
        Score::Mate(m) => -30_000 - m,
    }
}

/// Settings the decisions depend on.
#[derive(Clone, Copy, Debug)]
pub struct PolicySettings {
    /// Draw value in centipawns from wily's side (contempt).
    pub draw_score: i32,
    /// Resign when the score stays below minus this many pawns (0 = never).
    pub resign_pawns: i32,
    /// For this many consecutive searches.
    pub resign_count: u32,
    /// Swindle mode: accept a draw only when clearly worse.
    pub swindle: bool,
}

/// The history of wily's scores in the current game.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    scores: Vec<i32>,
}

impl Policy {
    pub fn new_game(&mut self) {
        self.scores.clear();
    }

    /// Records the score of a search wily moved from.
    pub fn record(&mut self, s: Score) {
        self.scores.push(as_cp(s));
    }

    /// Forgets the last score (after a take-back).
    pub fn undo(&mut self) {
        self.scores.pop();
    }

    pub fn last(&self) -> Option<i32> {
        self.scores.last().copied()
    }

    /// Accept an offered draw when the last score is not above the draw score (in swindle
    /// mode only when at least half a pawn worse than it).
    pub fn accept_draw(&self, s: &PolicySettings) -> bool {
        let Some(last) = self.last() else {
            return false;
        };
        if s.swindle {
            last < s.draw_score - 50
        } else {
            last <= s.draw_score
        }
    }

    /// Offer a draw after `full_moves` moves when the last five scores were all within a
    /// tenth of a pawn of the draw score or below it but not lost (never in swindle mode,
    /// never in the first 40 moves).
    pub fn offer_draw(&self, s: &PolicySettings, full_moves: u32) -> bool {
        if s.swindle || full_moves < 40 || self.scores.len() < 5 {
            return false;
        }
        self.scores[self.scores.len() - 5..]
            .iter()
            .all(|&v| v <= s.draw_score + 10 && v >= s.draw_score - 30)
    }

    /// Resign when the last `resign_count` scores were all below the threshold.
    pub fn resign(&self, s: &PolicySettings) -> bool {
        let n = s.resign_count.max(1) as usize;
        if s.resign_pawns <= 0 || self.scores.len() < n {
            return false;
        }
        let limit = -100 * s.resign_pawns;
        self.scores[self.scores.len() - n..]
            .iter()
            .all(|&v| v < limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> PolicySettings {
        PolicySettings {
            draw_score: 0,
            resign_pawns: 9,
            resign_count: 3,
            swindle: false,
        }
    }

    #[test]
    fn draw_acceptance() {
        let mut p = Policy::default();
        assert!(!p.accept_draw(&settings()));
        p.record(Score::Cp(30));
        assert!(!p.accept_draw(&settings()));
        p.record(Score::Cp(-5));
        assert!(p.accept_draw(&settings()));
        let sw = PolicySettings {
            swindle: true,
            ..settings()
        };
        assert!(!p.accept_draw(&sw));
        p.record(Score::Mate(-3));
        assert!(p.accept_draw(&sw));
    }

    #[test]
    fn resign_needs_consecutive_low_scores() {
        let mut p = Policy::default();
        p.record(Score::Cp(-1000));
        p.record(Score::Cp(-1000));
        assert!(!p.resign(&settings()));
        p.record(Score::Mate(-4));
        assert!(p.resign(&settings()));
        p.record(Score::Cp(0));
        assert!(!p.resign(&settings()));
        let never = PolicySettings {
            resign_pawns: 0,
            ..settings()
        };
        for _ in 0..5 {
            p.record(Score::Cp(-5000));
        }
        assert!(p.resign(&settings()));
        assert!(!p.resign(&never));
    }

    #[test]
    fn draw_offers_late_and_level() {
        let mut p = Policy::default();
        for _ in 0..5 {
            p.record(Score::Cp(0));
        }
        assert!(!p.offer_draw(&settings(), 20));
        assert!(p.offer_draw(&settings(), 45));
        p.record(Score::Cp(80));
        assert!(!p.offer_draw(&settings(), 45));
    }
}
