//! `MoveList`: a fixed-capacity list of moves on the stack (no allocation), for legal move
//! lists and the quiet checks of quiescence search.

use cozy_chess::{Board, Move, Square};

/// Capacity of a move list (legal moves never exceed 218).
pub const MAX_MOVES: usize = 256;

/// A placeholder for slots not yet written (never returned as a move).
pub(crate) const NULL_MOVE: Move = Move {
    from: Square::A1,
    to: Square::A1,
    promotion: None,
};

/// A fixed-capacity list of moves (legal moves never exceed 218).
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [NULL_MOVE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Empties the list (the slots keep their old moves until overwritten).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// All legal moves of `board`.
    pub fn legal(board: &Board) -> MoveList {
        let mut list = MoveList::new();
        board.generate_moves(|pm| {
            for mv in pm {
                list.push(mv);
            }
            false
        });
        list
    }
}
