//! What a search is asked to do: the position, its game history, the limits (clock, depth,
//! nodes, ...) and the engine-wide options.

use cozy_chess::{Board, Move};
use std::time::Duration;

/// How long / how deep to search. `Default` is "no limit at all" (infinite false, all None):
/// the search then runs until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Analyse until stopped; never return on its own.
    pub infinite: bool,
    /// Pondering: the clock starts at `ponderhit`; never return before `ponderhit` or `stop`.
    pub ponder: bool,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// One search job.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub board: Board,
    /// `Board::hash()` of the earlier positions of the game, oldest first (for repetitions).
    pub history: Vec<u64>,
    pub limits: Limits,
    /// Restrict the root to these moves (empty = all legal moves).
    pub searchmoves: Vec<Move>,
}

impl SearchRequest {
    pub fn new(board: Board, limits: Limits) -> SearchRequest {
        SearchRequest {
            board,
            history: Vec::new(),
            limits,
            searchmoves: Vec::new(),
        }
    }
}

/// Engine-wide settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Time kept in reserve per move for lag (ms).
    pub move_overhead_ms: u64,
    /// Value of a draw in centipawns from wily's side (contempt: negative avoids draws).
    pub draw_score: i32,
    /// Number of principal variations reported.
    pub multipv: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            move_overhead_ms: 50,
            draw_score: 0,
            multipv: 1,
        }
    }
}
