//! Draw and resign policy for one game: when to resign, accept, offer or claim a draw,
//! and whether an abort request is acceptable. Pure logic over the scores wily's own
//! searches reported (centipawns from wily's side; mates as large values).

use crate::play::opponent::OpponentProfile;
use config::OpponentsSection;

/// Scores at or beyond this magnitude are mate scores.
pub const MATE_CP: i32 = 30_000;

/// The remaining clocks when wily considers resigning (milliseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    pub mine_ms: i64,
    pub theirs_ms: i64,
    /// False in untimed games.
    pub timed: bool,
}

/// The running draw/resign state of one game.
#[derive(Debug, Clone)]
pub struct GamePolicy {
    profile: OpponentProfile,
    offer_min_move: u32,
    offer_margin: i32,
    offer_moves: u32,
    abort_max_move: u32,
    /// Wily's search scores, one per move wily made (book moves add nothing).
    scores: Vec<i32>,
    /// Move number of wily's last draw offer.
    last_offer: Option<u32>,
}

/// Wait at least this many moves between two draw offers.
const OFFER_GAP: u32 = 10;

/// The opponent "could still flag" while its clock is under this many milliseconds and
/// not above wily's own.
const FLAG_CHANCE_MS: i64 = 60_000;

impl GamePolicy {
    pub fn new(profile: OpponentProfile, s: &OpponentsSection) -> GamePolicy {
        GamePolicy {
            profile,
            offer_min_move: s.draw_offer_min_move,
            offer_margin: s.draw_offer_margin,
            offer_moves: s.draw_offer_moves.max(1),
            abort_max_move: s.abort_max_move,
            scores: Vec::new(),
            last_offer: None,
        }
    }

    pub fn profile(&self) -> &OpponentProfile {
        &self.profile
    }

    /// Replaces the profile (an operator changed the lists or thresholds mid-game).
    pub fn set_profile(&mut self, p: OpponentProfile) {
        self.profile = p;
    }

    /// Records the score of the search behind the move wily just chose.
    pub fn record_score(&mut self, cp: i32) {
        self.scores.push(cp);
    }

    /// Forgets the scores of wily's last `n` moves (they were taken back).
    pub fn take_back(&mut self, n: usize) {
        let keep = self.scores.len().saturating_sub(n);
        self.scores.truncate(keep);
    }

    /// The last search score, if any.
    pub fn last_score(&self) -> Option<i32> {
        self.scores.last().copied()
    }

    /// Resign now? True when the last `resign_moves` scores are all below the threshold
    /// and the opponent could not plausibly lose on time instead.
    pub fn should_resign(&self, clocks: Clocks) -> bool {
        let Some(threshold) = self.profile.resign_cp else {
            return false;
        };
        let n = self.profile.resign_moves as usize;
        if self.scores.len() < n {
            return false;
        }
        let all_low = self.scores[self.scores.len() - n..]
            .iter()
            .all(|&s| s < -threshold);
        if !all_low {
            return false;
        }
        let could_flag =
            clocks.timed && clocks.theirs_ms < FLAG_CHANCE_MS && clocks.theirs_ms <= clocks.mine_ms;
        !could_flag
    }

    /// Accept the opponent's draw offer? Only when the last score is not above what a
    /// draw is worth against this opponent.
    pub fn accept_draw(&self) -> bool {
        matches!(self.last_score(), Some(s) if s <= self.profile.draw_score)
    }

    /// Offer a draw with the move just made? `move_number` is the full-move number;
    /// `repetition_coming` when the position after wily's move occurred before.
    pub fn offer_draw(&mut self, move_number: u32, repetition_coming: bool) -> bool {
        if let Some(last) = self.last_offer {
            if move_number < last + OFFER_GAP {
                return false;
            }
        }
        let Some(last) = self.last_score() else {
            return false;
        };
        let drawish = |s: i32| {
            s.abs() <= self.offer_margin && s <= self.profile.draw_score + self.offer_margin
        };
        let n = self.offer_moves as usize;
        let long_quiet = move_number >= self.offer_min_move
            && self.scores.len() >= n
            && self.scores[self.scores.len() - n..]
                .iter()
                .all(|&s| drawish(s));
        let offer = long_quiet || (repetition_coming && drawish(last));
        if offer {
            self.last_offer = Some(move_number);
        }
        offer
    }

    /// Claim a draw (threefold repetition or fifty moves) that is available now? Only
    /// when wily does not expect more than a draw.
    pub fn claim_draw(&self) -> bool {
        match self.last_score() {
            Some(s) => s <= self.profile.draw_score,
            None => true,
        }
    }

    /// Accept an abort request at this full-move number?
    pub fn accept_abort(&self, move_number: u32) -> bool {
        move_number <= self.abort_max_move
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lists::{Category, OpponentClass};

    fn policy(category: Category, special: bool) -> GamePolicy {
        let s = OpponentsSection::default();
        let class = OpponentClass {
            special,
            ..OpponentClass::of(category)
        };
        GamePolicy::new(OpponentProfile::new(class, &s), &s)
    }

    const PLENTY: Clocks = Clocks {
        mine_ms: 100_000,
        theirs_ms: 200_000,
        timed: true,
    };

    #[test]
    fn resigns_after_five_low_scores_against_default() {
        let mut p = policy(Category::Other, false);
        for _ in 0..4 {
            p.record_score(-1000);
            assert!(!p.should_resign(PLENTY));
        }
        p.record_score(-1000);
        assert!(p.should_resign(PLENTY));
        p.record_score(-100);
        assert!(
            !p.should_resign(PLENTY),
            "one better score resets the count"
        );
    }

    #[test]
    fn gm_threshold_is_three_pawns() {
        let mut gm = policy(Category::Gm, false);
        let mut other = policy(Category::Other, false);
        for _ in 0..5 {
            gm.record_score(-400);
            other.record_score(-400);
        }
        assert!(gm.should_resign(PLENTY));
        assert!(!other.should_resign(PLENTY));
    }

    #[test]
    fn never_resigns_while_opponent_could_flag() {
        let mut p = policy(Category::Other, false);
        for _ in 0..5 {
            p.record_score(-MATE_CP);
        }
        let low = Clocks {
            mine_ms: 40_000,
            theirs_ms: 20_000,
            timed: true,
        };
        assert!(!p.should_resign(low));
        assert!(p.should_resign(Clocks {
            timed: false,
            ..low
        }));
        let i_am_lower = Clocks {
            mine_ms: 5_000,
            theirs_ms: 20_000,
            timed: true,
        };
        assert!(p.should_resign(i_am_lower));
    }

    #[test]
    fn draw_acceptance_follows_draw_score() {
        let mut p = policy(Category::Other, false);
        assert!(!p.accept_draw(), "no score yet: decline");
        p.record_score(0);
        assert!(p.accept_draw());
        p.record_score(20);
        assert!(!p.accept_draw());
        let mut s = policy(Category::Other, true);
        s.record_score(-30);
        assert!(
            !s.accept_draw(),
            "special: contempt 50 means -30 is still worth playing"
        );
        s.record_score(-60);
        assert!(s.accept_draw());
        let mut c = policy(Category::Computer, true);
        c.record_score(0);
        assert!(c.accept_draw(), "computers: draw score exactly 0");
    }

    #[test]
    fn offers_draw_late_when_quiet_and_not_twice_in_a_row() {
        let mut p = policy(Category::Other, false);
        for _ in 0..6 {
            p.record_score(5);
        }
        assert!(!p.offer_draw(30, false), "too early");
        assert!(p.offer_draw(41, false));
        p.record_score(3);
        assert!(!p.offer_draw(42, false), "just offered");
        assert!(p.offer_draw(51, false));
        let mut q = policy(Category::Other, false);
        q.record_score(4);
        assert!(q.offer_draw(20, true), "repetition coming");
        let mut s = policy(Category::Other, true);
        for _ in 0..6 {
            s.record_score(0);
        }
        assert!(
            !s.offer_draw(60, true),
            "no offers against special opponents"
        );
    }

    #[test]
    fn abort_only_early() {
        let p = policy(Category::Other, false);
        assert!(p.accept_abort(1));
        assert!(p.accept_abort(2));
        assert!(!p.accept_abort(3));
    }
}
