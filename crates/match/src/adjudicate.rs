//! Adjudication: ending a game early when both engines agree on its outcome (resign and
//! draw rules over their reported scores), at a maximum length, or from an endgame
//! tablebase through the [`Tablebase`] seam.
//!
//! Scores are the movers' own (an engine that reports from White's side is converted by
//! the engine layer first). c-chess-cli's rules: resign when an engine has scored at or
//! below −X on each of its last N moves, once M moves of the game have been played
//! (wily's `both=on` also wants the winner at or above +X on each of its last N moves);
//! draw when both have scored within ±Y on each of their last N moves, once M moves of
//! the game have been played. A move without a score breaks the engine's run.

use super::engine::Score;
use super::outcome::Outcome;
use cozy_chess::{Board, Color};
use std::sync::Arc;

/// `-resign [number=M] count=N score=X [both=on]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Moves of the game (by each side, opening moves included) before the rule applies
    /// (c-chess-cli's `number`, 0 by default).
    pub number: u32,
    pub count: u32,
    /// Centipawns.
    pub score: i32,
    /// wily's stricter rule: the winner's own scores must agree too.
    pub both: bool,
}

/// `-draw number=M count=N score=Y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Moves of the game (by each side, opening moves included) before the rule applies.
    pub number: u32,
    pub count: u32,
    /// Centipawns.
    pub score: i32,
}

/// A tablebase's verdict from the side to move's point of view (the engine's own type).
pub use engine::Wdl;

/// The seam for tablebase adjudication (Syzygy probing lives in the engine module; the
/// match runner only needs this).
pub trait Tablebase: Send + Sync {
    /// Most pieces (kings included) the tables cover.
    fn max_pieces(&self) -> u32;
    /// The result with best play, counting the fifty-move rule from `board`'s halfmove
    /// clock; `None` when the position is not in the tables or the probe failed.
    fn probe_wdl(&self, board: &Board) -> Option<Wdl>;
}

/// All adjudication rules of a match.
#[derive(Clone, Default)]
pub struct Rules {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// Draw once the game has this many moves (by each side, opening moves included).
    pub max_moves: Option<u32>,
    pub tablebase: Option<Arc<dyn Tablebase>>,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules")
            .field("resign", &self.resign)
            .field("draw", &self.draw)
            .field("max_moves", &self.max_moves)
            .field("tablebase", &self.tablebase.is_some())
            .finish()
    }
}

/// A game ended by a rule: the result and the words for the PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub outcome: Outcome,
    pub reason: String,
}

/// Per-game state of the score rules.
#[derive(Default)]
pub struct Adjudicator {
    /// Consecutive moves of each side (White, Black) with a score at or below −X.
    losing: [u32; 2],
    /// ... at or above +X.
    winning: [u32; 2],
    /// ... within ±Y.
    drawn: [u32; 2],
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Adjudicator {
    /// Records the move just played by `mover` with its `score` and judges the position
    /// `after` it; `plies` is the game's length so far (opening moves included).
    pub fn after_move(
        &mut self,
        rules: &Rules,
        mover: Color,
        score: Option<Score>,
        after: &Board,
        plies: usize,
    ) -> Option<Adjudication> {
        let i = idx(mover);
        let cp = score.map(Score::as_cp);
        let bump = |n: &mut u32, ok: bool| *n = if ok { *n + 1 } else { 0 };
        if let Some(r) = rules.resign {
            bump(&mut self.losing[i], cp.is_some_and(|c| c <= -r.score));
            bump(&mut self.winning[i], cp.is_some_and(|c| c >= r.score));
            for loser in [Color::White, Color::Black] {
                let (l, w) = (idx(loser), idx(!loser));
                let agreed = !r.both || self.winning[w] >= r.count;
                if plies as u32 >= 2 * r.number && self.losing[l] >= r.count && agreed {
                    let who = if r.both {
                        "both engines".to_string()
                    } else {
                        format!("{}'s engine", side(loser))
                    };
                    return Some(Adjudication {
                        outcome: Outcome::win_for(!loser),
                        reason: format!(
                            "resign adjudication: {who} scored {} at least {:.2} for {} moves",
                            side(!loser),
                            r.score as f64 / 100.0,
                            r.count
                        ),
                    });
                }
            }
        }
        if let Some(r) = rules.draw {
            bump(&mut self.drawn[i], cp.is_some_and(|c| c.abs() <= r.score));
            if plies as u32 >= 2 * r.number && self.drawn.iter().all(|&n| n >= r.count) {
                return Some(Adjudication {
                    outcome: Outcome::Draw,
                    reason: format!(
                        "draw adjudication: both engines scored within {:.2} for {} moves",
                        r.score as f64 / 100.0,
                        r.count
                    ),
                });
            }
        }
        if let Some(tb) = &rules.tablebase {
            if after.occupied().len() <= tb.max_pieces() {
                if let Some(wdl) = tb.probe_wdl(after) {
                    let stm = after.side_to_move();
                    let outcome = match wdl {
                        Wdl::Win => Outcome::win_for(stm),
                        Wdl::Loss => Outcome::win_for(!stm),
                        _ => Outcome::Draw,
                    };
                    return Some(Adjudication {
                        outcome,
                        reason: format!(
                            "tablebase adjudication ({wdl:?} for {} to move)",
                            side(stm)
                        ),
                    });
                }
            }
        }
        if let Some(m) = rules.max_moves {
            if plies as u32 >= 2 * m {
                return Some(Adjudication {
                    outcome: Outcome::Draw,
                    reason: format!("draw adjudication: maximum length of {m} moves"),
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(resign: Option<(u32, i32)>, draw: Option<(u32, u32, i32)>) -> Rules {
        Rules {
            resign: resign.map(|(count, score)| ResignRule {
                number: 0,
                count,
                score,
                both: true,
            }),
            draw: draw.map(|(number, count, score)| DrawRule {
                number,
                count,
                score,
            }),
            ..Rules::default()
        }
    }

    /// Plays alternating scores (White's, Black's, ...) from the movers' points of view.
    fn run(r: &Rules, scores: &[Option<i32>]) -> Option<(usize, Adjudication)> {
        let mut a = Adjudicator::default();
        let b = Board::default();
        for (ply, s) in scores.iter().enumerate() {
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            if let Some(x) = a.after_move(r, mover, s.map(Score::Cp), &b, ply + 1) {
                return Some((ply, x));
            }
        }
        None
    }

    #[test]
    fn resign_needs_both_engines() {
        let r = rules(Some((2, 500)), None);
        // White is winning by its own account but Black disagrees: no adjudication.
        assert!(run(
            &r,
            &[Some(600), Some(-100), Some(700), Some(-100), Some(800)]
        )
        .is_none());
        // Both agree for two moves each.
        let (ply, a) = run(&r, &[Some(600), Some(-600), Some(700), Some(-700)]).unwrap();
        assert_eq!(ply, 3);
        assert_eq!(a.outcome, Outcome::WhiteWins);
        // Black wins; the streak restarts after a missing score.
        let (ply, a) = run(
            &r,
            &[
                Some(-600),
                Some(600),
                None,
                Some(600),
                Some(-600),
                Some(600),
                Some(-600),
            ],
        )
        .unwrap();
        assert_eq!(ply, 6);
        assert_eq!(a.outcome, Outcome::BlackWins);
    }

    #[test]
    fn mate_scores_count_for_resign() {
        let r = rules(Some((1, 1000)), None);
        let mut a = Adjudicator::default();
        let b = Board::default();
        assert!(a
            .after_move(&r, Color::White, Some(Score::Mate(3)), &b, 1)
            .is_none());
        let x = a
            .after_move(&r, Color::Black, Some(Score::Mate(-2)), &b, 2)
            .unwrap();
        assert_eq!(x.outcome, Outcome::WhiteWins);
    }

    #[test]
    fn draw_waits_for_move_number() {
        let r = rules(None, Some((3, 2, 10)));
        // Quiet scores from the start, but the rule applies from the sixth ply only.
        let (ply, a) = run(&r, &[Some(0); 10]).unwrap();
        assert_eq!(ply, 5);
        assert_eq!(a.outcome, Outcome::Draw);
        // One side out of the window breaks it.
        assert!(run(
            &r,
            &[
                Some(0),
                Some(50),
                Some(0),
                Some(50),
                Some(0),
                Some(50),
                Some(0),
                Some(50)
            ]
        )
        .is_none());
    }

    /// c-chess-cli's `-resign [number=N] count=C score=S`: a loss when an engine's own
    /// score is at least S below zero for C consecutive moves, after N moves; the
    /// winner's scores do not matter.
    #[test]
    fn resign_on_the_losers_score_alone_after_number_moves() {
        let one_sided = |number| Rules {
            resign: Some(ResignRule {
                number,
                count: 2,
                score: 500,
                both: false,
            }),
            ..Rules::default()
        };
        // White thinks it is fine (+100); Black's own score is lost twice: Black loses.
        let scores = [
            Some(100),
            Some(-600),
            Some(100),
            Some(-700),
            Some(100),
            Some(-800),
        ];
        let (ply, a) = run(&one_sided(0), &scores).unwrap();
        assert_eq!((ply, a.outcome), (3, Outcome::WhiteWins));
        assert!(a.reason.contains("Black's engine"), "{}", a.reason);
        // number=3: not before three moves each (six plies) have been played.
        let (ply, _) = run(&one_sided(3), &scores).unwrap();
        assert_eq!(ply, 5);
        assert!(run(&one_sided(4), &scores).is_none());
    }

    struct AllDrawn;
    impl Tablebase for AllDrawn {
        fn max_pieces(&self) -> u32 {
            3
        }
        fn probe_wdl(&self, _: &Board) -> Option<Wdl> {
            Some(Wdl::Win)
        }
    }

    #[test]
    fn tablebase_only_when_few_pieces() {
        let r = Rules {
            tablebase: Some(Arc::new(AllDrawn)),
            ..Rules::default()
        };
        let mut a = Adjudicator::default();
        assert!(a
            .after_move(&r, Color::White, None, &Board::default(), 1)
            .is_none());
        let kpk = chess::parse_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        let x = a.after_move(&r, Color::White, None, &kpk, 1).unwrap();
        assert_eq!(x.outcome, Outcome::BlackWins);
    }

    #[test]
    fn max_length() {
        let r = Rules {
            max_moves: Some(2),
            ..Rules::default()
        };
        let (ply, a) = run(&r, &[None; 6]).unwrap();
        assert_eq!((ply, a.outcome), (3, Outcome::Draw));
    }
}
