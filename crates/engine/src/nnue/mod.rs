//! The efficiently updatable neural evaluation (`Eval=nnue`), trained on wily's own games
//! by `wily nnue train` (`tools/nnue/`); `docs/nnue.md` is the manual.
//!
//! [`Nnue`] keeps one accumulator per ply, each with the piece sets of the position it
//! sums. Copy-make needs no undo: the position at ply `p` is reached from the one at ply
//! `p - 1` (its parent, usually evaluated just before) or ply `p` (an earlier sibling),
//! and the evaluation starts from whichever of the two differs from it in fewer pieces,
//! adding and removing only those pieces' weight rows; a full refresh is the fallback
//! when both differ more than the position has pieces. Whatever the starting point, the
//! result equals a refresh (a test plays random games to check). Nothing is allocated
//! per node: the stack is made once.

mod accumulator;
pub mod data;
pub mod embedded;
pub mod features;
pub mod kernels;
pub mod network;

pub use accumulator::Accumulator;
pub use embedded::{embedded, embedded_checksum};
pub use kernels::Path;
pub use network::{Activation, Arch, Network, INPUTS, MAX_HIDDEN, QA, QB, SCALE};

use accumulator::{distance, piece_sets};
use cozy_chess::{Board, Color};
use std::sync::Arc;

/// Plies with their own accumulator (deeper ones share the last).
const STACK: usize = crate::types::MAX_PLY + 2;

#[derive(Clone, Copy)]
struct Slot {
    acc: Accumulator,
    sets: [u64; 12],
    valid: bool,
}

/// One search thread's network evaluator.
pub struct Nnue {
    net: Arc<Network>,
    stack: Vec<Slot>,
    path: Path,
}

impl Nnue {
    /// An evaluator running the fastest loops this processor has.
    pub fn new(net: Arc<Network>) -> Nnue {
        Nnue::with_path(net, Path::detect())
    }

    /// An evaluator running the given loops (one of [`Path::available`]; the tests
    /// compare them).
    pub fn with_path(net: Arc<Network>, path: Path) -> Nnue {
        let path = if Path::available().contains(&path) {
            path
        } else {
            Path::Scalar
        };
        let empty = Slot {
            acc: Accumulator::zeroed(),
            sets: [0; 12],
            valid: false,
        };
        Nnue {
            net,
            stack: vec![empty; STACK],
            path,
        }
    }

    /// The loops in use.
    pub fn path(&self) -> Path {
        self.path
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Brings the accumulator of `ply` to `board` and returns it.
    pub fn accumulator(&mut self, board: &Board, ply: usize) -> &Accumulator {
        let ply = ply.min(STACK - 1);
        let sets = piece_sets(board);
        let refresh_cost = board.occupied().len();
        let here = if self.stack[ply].valid {
            distance(&self.stack[ply].sets, &sets)
        } else {
            u32::MAX
        };
        let parent = if ply > 0 && self.stack[ply - 1].valid {
            distance(&self.stack[ply - 1].sets, &sets)
        } else {
            u32::MAX
        };
        let net = &*self.net;
        if parent < here && parent <= refresh_cost {
            let (low, high) = self.stack.split_at_mut(ply);
            let from = &low[ply - 1];
            high[0]
                .acc
                .update_from(&from.acc, net, &from.sets, &sets, self.path);
        } else if here <= refresh_cost {
            let slot = &mut self.stack[ply];
            let old = slot.sets;
            slot.acc.update(net, &old, &sets, self.path);
        } else {
            self.stack[ply].acc = Accumulator::refresh(net, &sets, self.path);
        }
        let slot = &mut self.stack[ply];
        slot.sets = sets;
        slot.valid = true;
        &slot.acc
    }

    /// Centipawns from the side to move's view.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, ply: usize) -> i32 {
        let stm = usize::from(board.side_to_move() == Color::Black);
        self.accumulator(board, ply);
        self.stack[ply.min(STACK - 1)]
            .acc
            .output(&self.net, stm, board.occupied().len(), self.path)
    }
}

#[cfg(test)]
mod tests;
