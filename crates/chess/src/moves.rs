//! Small move helpers every part shares: the legal moves of a board as a list, and the
//! English piece letters of SAN, FEN and the chess servers' notations.

use cozy_chess::{Board, Move, Piece};

/// All legal moves of `board`.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut v = Vec::with_capacity(48);
    board.generate_moves(|pm| {
        v.extend(pm);
        false
    });
    v
}

/// The upper-case letter of a piece: `P N B R Q K`.
pub fn piece_letter(p: Piece) -> char {
    match p {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_moves_at_the_start_and_six_letters() {
        assert_eq!(legal_moves(&Board::default()).len(), 20);
        let letters: String = Piece::ALL.iter().map(|&p| piece_letter(p)).collect();
        assert_eq!(letters, "PNBRQK");
    }
}
