//! Optional observers of a search besides its progress lines (`on_info`): the root move
//! the search is on (the console's `display moves`, UCI's `currmove`). A search nobody
//! watches pays one test of an empty option per root move.

use cozy_chess::Move;
use std::time::Duration;

/// The root move the main search thread starts searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoveInfo {
    /// The iteration's depth.
    pub depth: u32,
    /// 1-based place of the move in the root move list (of `total`).
    pub number: usize,
    pub total: usize,
    pub mv: Move,
    /// Nodes of the main thread so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
}

/// Receives each root move as the main thread reaches it.
pub type RootMoveCallback = Box<dyn FnMut(&RootMoveInfo) + Send>;

/// The observers of one search (all off by default).
#[derive(Default)]
pub struct Watchers {
    pub root_move: Option<RootMoveCallback>,
}
