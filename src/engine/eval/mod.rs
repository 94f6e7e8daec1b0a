//! Static evaluation: the interface the search calls.
//!
//! This first version counts material only; the evaluation work replaces the body with the
//! full hand-crafted, tapered evaluation while keeping this interface.

use cozy_chess::{Board, Color, Piece};

/// Centipawn value of each piece kind, indexed by `Piece as usize`.
const MATERIAL: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Every tunable weight of the evaluation (one table, so it can be tuned from data).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalParams {
    pub material: [i32; 6],
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams { material: MATERIAL }
    }
}

/// Per-thread evaluator (owns caches such as the pawn hash table).
pub struct Evaluator {
    params: EvalParams,
}

impl Evaluator {
    pub fn new(params: EvalParams) -> Self {
        Evaluator { params }
    }

    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Score of `board` in centipawns from the side to move's point of view.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let mut score = 0;
        for piece in Piece::ALL {
            let v = self.params.material[piece as usize];
            let w = (board.pieces(piece) & board.colors(Color::White)).len() as i32;
            let b = (board.pieces(piece) & board.colors(Color::Black)).len() as i32;
            score += v * (w - b);
        }
        if board.side_to_move() == Color::White {
            score
        } else {
            -score
        }
    }
}
