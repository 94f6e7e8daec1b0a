//! A game's position history and the repetition rule, the one place that counts
//! repetitions: the console's and the protocols' [`Position`](super::position::Position),
//! the bot's game and the local server's game all keep a [`GameHistory`].
//!
//! Two positions are the same for the rule when the same pieces stand on the same
//! squares, the same side is to move, and the castling and en-passant rights are the
//! same, where an en-passant right counts only when a capture there is legal (FIDE
//! 9.2.3). cozy-chess records the en-passant square after every double pawn step, and
//! `Board::hash` includes it, so raw hashes would miss a repetition whose first position
//! came right after a double step; [`repetition_key`] leaves such a square out.

use cozy_chess::{get_pawn_attacks, Board, Move, Piece, Rank, Square};

/// True when an en-passant capture is actually legal on `board`.
pub fn ep_capture_possible(board: &Board) -> bool {
    let Some(file) = board.en_passant() else {
        return false;
    };
    let us = board.side_to_move();
    let ep = Square::new(file, Rank::Sixth.relative_to(us));
    let pawns = get_pawn_attacks(ep, !us) & board.colored_pieces(us, Piece::Pawn);
    pawns.iter().any(|from| {
        board.is_legal(Move {
            from,
            to: ep,
            promotion: None,
        })
    })
}

/// The key that identifies a position for the repetition rule: the en-passant square
/// counts only when a capture there is legal (cozy-chess records it after every double
/// step, which `Board::hash` includes).
pub fn repetition_key(board: &Board) -> u64 {
    if ep_capture_possible(board) {
        board.hash()
    } else {
        board.hash_without_ep()
    }
}

/// Every position of a game so far, the start first and the current one last: its
/// `Board::hash` (what the engine's `SearchRequest::history` takes) and its repetition
/// key. Repetitions are counted over the whole game, not only since the halfmove clock
/// was last reset: a position after a capture, a pawn move or lost castling rights
/// cannot match an earlier one anyway, and a server's clock field is not trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameHistory {
    hashes: Vec<u64>,
    keys: Vec<u64>,
}

impl GameHistory {
    /// A history whose first position is `start`.
    pub fn new(start: &Board) -> GameHistory {
        let mut h = GameHistory {
            hashes: Vec::new(),
            keys: Vec::new(),
        };
        h.push(start);
        h
    }

    /// Starts again from `start` (a resynchronised or a new game).
    pub fn reset(&mut self, start: &Board) {
        self.hashes.clear();
        self.keys.clear();
        self.push(start);
    }

    /// Adds the position a move led to.
    pub fn push(&mut self, board: &Board) {
        self.hashes.push(board.hash());
        self.keys.push(repetition_key(board));
    }

    /// Takes back the last position (never the first).
    pub fn pop(&mut self) {
        if self.hashes.len() > 1 {
            self.hashes.pop();
            self.keys.pop();
        }
    }

    /// Keeps the first `positions` positions (at least the start): a takeback.
    pub fn truncate(&mut self, positions: usize) {
        let n = positions.max(1);
        self.hashes.truncate(n);
        self.keys.truncate(n);
    }

    /// Positions so far, the start and the current one included.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Never empty: the start is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `Board::hash` of every position before the current one, oldest first (the
    /// engine's history).
    pub fn earlier_hashes(&self) -> &[u64] {
        &self.hashes[..self.hashes.len() - 1]
    }

    /// How many times the position at `index` had occurred by then (1 = the first time).
    /// Only positions with the same side to move (every second one back) can be the same.
    pub fn occurrences_at(&self, index: usize) -> usize {
        let Some(&key) = self.keys.get(index) else {
            return 0;
        };
        (0..=index)
            .rev()
            .step_by(2)
            .filter(|&i| self.keys[i] == key)
            .count()
    }

    /// How many times the current position has occurred (1 = the first time).
    pub fn repetitions(&self) -> usize {
        self.occurrences_at(self.len() - 1)
    }

    /// How many times `next`, a position one move on from the current one, would then
    /// have occurred (itself included).
    pub fn repetitions_after(&self, next: &Board) -> usize {
        let key = repetition_key(next);
        // `next` would stand at index len(); the same side is to move at len() - 2, ...
        let earlier = (0..self.len().saturating_sub(1))
            .rev()
            .step_by(2)
            .filter(|&i| self.keys[i] == key)
            .count();
        earlier + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{move_from_uci, parse_fen};

    fn play(h: &mut GameHistory, b: &mut Board, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = move_from_uci(b, m, false).unwrap();
            b.play(mv);
            h.push(b);
        }
    }

    #[test]
    fn a_double_step_without_a_capture_is_the_same_position_again() {
        let mut b = Board::default();
        let mut h = GameHistory::new(&b);
        play(&mut h, &mut b, "e2e4");
        assert_eq!(h.repetitions(), 1);
        play(&mut h, &mut b, "b8c6 g1f3 c6b8 f3g1");
        assert_eq!(h.repetitions(), 2, "the en-passant square e3 did not count");
        play(&mut h, &mut b, "b8c6 g1f3 c6b8");
        let mut next = b.clone();
        next.play(move_from_uci(&b, "f3g1", false).unwrap());
        assert_eq!(h.repetitions_after(&next), 3);
        play(&mut h, &mut b, "f3g1");
        assert_eq!(h.repetitions(), 3);
        assert_eq!(h.occurrences_at(1), 1);
        assert_eq!(h.occurrences_at(5), 2);
        assert_eq!(h.earlier_hashes().len(), 9);
        h.pop();
        assert_eq!(h.repetitions(), 2, "after 4... Nb8, as after 2... Nb8");
    }

    #[test]
    fn a_capturable_en_passant_square_makes_another_position() {
        // After 1... d5 White's e5 pawn can take on d6: the first occurrence differs.
        let mut b =
            parse_fen("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2").unwrap();
        let mut h = GameHistory::new(&b);
        play(&mut h, &mut b, "d7d5");
        play(&mut h, &mut b, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(h.repetitions(), 2, "the first had a legal capture on d6");
    }

    #[test]
    fn the_side_to_move_counts_and_a_wrong_clock_does_not() {
        // A start whose halfmove clock says 0 though the game shuffles on: the count
        // does not lean on it.
        let mut b = Board::default();
        let mut h = GameHistory::new(&b);
        play(&mut h, &mut b, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(h.repetitions(), 2);
        play(&mut h, &mut b, "g1f3");
        assert_eq!(
            h.repetitions(),
            2,
            "after 3. Nf3, Black to move: second time"
        );
        let mut h2 = GameHistory::new(&Board::default());
        h2.reset(&b);
        assert_eq!((h2.len(), h2.repetitions()), (1, 1));
        let mut after = b.clone();
        after.play(move_from_uci(&b, "g8f6", false).unwrap());
        assert_eq!(
            h.repetitions_after(&after),
            2,
            "White to move after 3... Nf6"
        );
    }
}
