//! Public value types of the engine facade: scores, bounds, search info and results, and
//! the internal score scale (mate encoding) they are converted from.

use cozy_chess::{Color, Move};
use std::time::Duration;

/// Deepest ply the search ever reaches (stacks are sized by it).
pub const MAX_PLY: usize = 128;
/// Internal score of "mate right now" (the side to move is mated at ply 0).
pub const MATE: i32 = 32_000;
/// Internal scores at or beyond this magnitude encode a forced mate.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Internal score of a tablebase win at ply 0: a tablebase win found `p` plies from the
/// root scores `TB_WIN - p`, so the search prefers reaching it sooner, and real mates
/// (above [`MATE_BOUND`]) still score higher. Reported as centipawns.
pub const TB_WIN: i32 = 20_000;
/// Scores at or beyond this magnitude are proven results (tablebase or mate); static
/// evaluations stay below it.
pub const TB_WIN_BOUND: i32 = TB_WIN - 1_000;
/// Larger than any score (window limits).
pub const INF: i32 = MATE + 1;
/// Marker for "no static evaluation" (side in check).
pub const NO_EVAL: i32 = -INF;

/// A search score from the point of view of the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves (full moves); negative when the side to move gets mated.
    Mate(i32),
}

impl Default for Score {
    fn default() -> Self {
        Score::Cp(0)
    }
}

impl Score {
    /// Converts an internal score (side to move, plies to mate) into a `Score`.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// The same score seen from the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }

    /// The score from White's point of view, given the side to move it refers to.
    pub fn white_pov(self, side_to_move: Color) -> Score {
        if side_to_move == Color::White {
            self
        } else {
            self.negate()
        }
    }

    /// The score in `view`, given the side to move it refers to (a search's score is
    /// the mover's).
    pub fn in_view(self, side_to_move: Color, view: ScoreView) -> Score {
        match view {
            ScoreView::White => self.white_pov(side_to_move),
            ScoreView::Mover => self,
        }
    }

    /// A single ordering number (mates dominate centipawns), useful for comparisons.
    pub fn as_ordinal(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => MATE - 2 * m,
            Score::Mate(m) => -MATE - 2 * m,
        }
    }

    /// The UCI rendering: `cp 34` or `mate -3`.
    pub fn to_uci(self) -> String {
        match self {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        }
    }
}

/// Whether a reported score is exact or only a bound (aspiration fail-high/low).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// Progress report of the search, sent to the `on_info` callback.
#[derive(Clone, Debug, Default)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// Permill of the transposition table in use by this search.
    pub hashfull: u32,
    /// Tablebase probes that found the position (all threads).
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

/// Whose point of view a shown score takes. wily shows White's view in every output
/// meant for people (search lines, analysis, annotations, whispers and kibitzes, as
/// Crafty does since version 18); protocols fix their own (UCI and xboard thinking
/// output: the engine's side). Game files' `{score/depth}` move comments follow a
/// setting, the mover's view by default, as PGN tools read them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreView {
    /// Positive when White stands better.
    White,
    /// Positive when the side that moved (the engine, for its own moves) stands better.
    #[default]
    Mover,
}

impl ScoreView {
    /// `white` or `mover`.
    pub fn name(self) -> &'static str {
        match self {
            ScoreView::White => "white",
            ScoreView::Mover => "mover",
        }
    }
}

impl std::str::FromStr for ScoreView {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "white" => Ok(ScoreView::White),
            "mover" | "engine" => Ok(ScoreView::Mover),
            _ => Err(format!("'{s}' is not a score view (white or mover)")),
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The expected reply (for pondering).
    pub ponder: Option<Move>,
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// The callback receiving progress reports (called by the main search thread).
pub type InfoCallback = Box<dyn FnMut(&SearchInfo) + Send>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_views() {
        let s = Score::Cp(40);
        assert_eq!(s.in_view(Color::Black, ScoreView::White), Score::Cp(-40));
        assert_eq!(s.in_view(Color::Black, ScoreView::Mover), Score::Cp(40));
        assert_eq!(s.in_view(Color::White, ScoreView::White), Score::Cp(40));
        assert_eq!("White".parse::<ScoreView>(), Ok(ScoreView::White));
        assert_eq!("mover".parse::<ScoreView>(), Ok(ScoreView::Mover));
        assert!("black".parse::<ScoreView>().is_err());
    }

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(57), Score::Cp(57));
        assert!(Score::Mate(1).as_ordinal() > Score::Mate(2).as_ordinal());
        assert!(Score::Mate(-1).as_ordinal() < Score::Mate(-2).as_ordinal());
        assert!(Score::Cp(900).as_ordinal() < Score::Mate(30).as_ordinal());
    }
}
