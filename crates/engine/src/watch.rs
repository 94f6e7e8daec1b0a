//! Optional observers of a search besides its progress lines (`on_info`): the root move
//! the search is on (the console's `display moves`, UCI's `currmove`), and the tree down
//! to a given ply (the console's `trace n`). A search nobody watches pays one test of an
//! empty option per root move, and one comparison with 0 per move searched.

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

/// The deepest ply a trace may show.
pub const MAX_TRACE_PLY: usize = 10;

/// One node of the traced tree, told when its search returns to its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceNode {
    /// The node's ply (1: a root move), the length of [`TraceNode::line`].
    pub ply: usize,
    moves: [Option<Move>; MAX_TRACE_PLY],
    /// The depth left the node was searched with.
    pub depth: i32,
    /// The window it was searched with and the score it returned, all internal scores
    /// from the root's side to move's view.
    pub alpha: i32,
    pub beta: i32,
    pub score: i32,
    /// Nodes of the main thread so far.
    pub nodes: u64,
}

impl TraceNode {
    /// A node at `ply` reached by `line` (its first `ply` moves are kept).
    pub fn new(line: &[Move], depth: i32, alpha: i32, beta: i32, score: i32, nodes: u64) -> Self {
        let ply = line.len().min(MAX_TRACE_PLY);
        let mut moves = [None; MAX_TRACE_PLY];
        for (slot, mv) in moves.iter_mut().zip(line) {
            *slot = Some(*mv);
        }
        TraceNode {
            ply,
            moves,
            depth,
            alpha,
            beta,
            score,
            nodes,
        }
    }

    /// The moves from the root to the node.
    pub fn line(&self) -> Vec<Move> {
        self.moves
            .iter()
            .take(self.ply)
            .flatten()
            .copied()
            .collect()
    }
}

/// Receives each traced node.
pub type TraceCallback = Box<dyn FnMut(&TraceNode) + Send>;

/// The observers of one search (all off by default).
#[derive(Default)]
pub struct Watchers {
    pub root_move: Option<RootMoveCallback>,
    /// The nodes to this ply (1..=[`MAX_TRACE_PLY`]) as they are searched, main thread only.
    pub trace: Option<(usize, TraceCallback)>,
}
