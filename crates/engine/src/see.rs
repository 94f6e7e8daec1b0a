//! Static exchange evaluation: does a capture sequence on one square win at least a given
//! amount? Used to order captures, to prune losing ones and in quiescence search.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Move, Piece, Square,
};

/// Exchange values of the pieces (Pawn..King), indexed by `Piece as usize`.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline]
pub fn piece_value(p: Piece) -> i32 {
    SEE_VALUE[p as usize]
}

/// True when `mv` captures something (castling, encoded king-takes-own-rook, does not).
#[inline]
pub fn is_capture(board: &Board, mv: Move) -> bool {
    board.colors(!board.side_to_move()).has(mv.to) || is_en_passant(board, mv)
}

/// True for an en-passant capture.
#[inline]
pub fn is_en_passant(board: &Board, mv: Move) -> bool {
    mv.from.file() != mv.to.file()
        && board.pieces(Piece::Pawn).has(mv.from)
        && !board.occupied().has(mv.to)
}

/// The piece a move captures (a pawn for en passant), if any.
#[inline]
pub fn captured_piece(board: &Board, mv: Move) -> Option<Piece> {
    if board.colors(!board.side_to_move()).has(mv.to) {
        board.piece_on(mv.to)
    } else if is_en_passant(board, mv) {
        Some(Piece::Pawn)
    } else {
        None
    }
}

/// All pieces of both colours attacking `sq` given the occupancy `occ`.
#[inline]
pub fn attackers_to(board: &Board, sq: Square, occ: BitBoard) -> BitBoard {
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    (get_pawn_attacks(sq, Color::Black) & board.colored_pieces(Color::White, Piece::Pawn))
        | (get_pawn_attacks(sq, Color::White) & board.colored_pieces(Color::Black, Piece::Pawn))
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (get_king_moves(sq) & board.pieces(Piece::King))
        | (get_bishop_moves(sq, occ) & bishops)
        | (get_rook_moves(sq, occ) & rooks)
}

/// Static exchange: true when playing `mv` and the best exchange sequence that follows on
/// the target square leaves the mover at least `threshold` centipawns ahead.
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    let Some(moved) = board.piece_on(mv.from) else {
        return threshold <= 0;
    };
    let captured = if is_en_passant(board, mv) {
        Some(Piece::Pawn)
    } else {
        board.piece_on(mv.to)
    };
    see_ge_known(board, mv, moved, captured, threshold)
}

/// [`see_ge`] for a caller that already knows the moving piece and the captured one (a
/// pawn for en passant, `None` for a quiet move or castling), as the move picker does.
pub fn see_ge_known(
    board: &Board,
    mv: Move,
    moved: Piece,
    captured: Option<Piece>,
    threshold: i32,
) -> bool {
    let us = board.side_to_move();
    // Castling never loses material on the "target" (our own rook's) square.
    if board.colors(us).has(mv.to) {
        return threshold <= 0;
    }
    let ep = moved == Piece::Pawn && captured.is_some() && !board.occupied().has(mv.to);
    let mut balance = captured.map_or(0, piece_value) - threshold;
    let mut on_square = moved;
    if let Some(p) = mv.promotion {
        balance += piece_value(p) - piece_value(Piece::Pawn);
        on_square = p;
    }
    if balance < 0 {
        return false;
    }
    balance -= piece_value(on_square);
    if balance >= 0 {
        return true;
    }
    let mut occ = board.occupied() ^ mv.from.bitboard() | mv.to.bitboard();
    if ep {
        let cap_sq = Square::new(mv.to.file(), mv.from.rank());
        occ ^= cap_sq.bitboard();
    }
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut attackers = attackers_to(board, mv.to, occ) & occ;
    let mut stm = !us;
    loop {
        attackers &= occ;
        let ours = attackers & board.colors(stm);
        if ours.is_empty() {
            break;
        }
        let mut pt = Piece::King;
        let mut from_bb = BitBoard::EMPTY;
        for p in [
            Piece::Pawn,
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
            Piece::King,
        ] {
            let bb = ours & board.pieces(p);
            if let Some(sq) = bb.next_square() {
                pt = p;
                from_bb = sq.bitboard();
                break;
            }
        }
        stm = !stm;
        balance = -balance - 1 - piece_value(pt);
        if balance >= 0 {
            // A king may not recapture into a defended square.
            if pt == Piece::King && !(attackers & board.colors(stm)).is_empty() {
                stm = !stm;
            }
            break;
        }
        occ ^= from_bb;
        if matches!(pt, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= get_bishop_moves(mv.to, occ) & bishops;
        }
        if matches!(pt, Piece::Rook | Piece::Queen) {
            attackers |= get_rook_moves(mv.to, occ) & rooks;
        }
    }
    stm != us
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().expect("valid move text")
    }

    #[test]
    fn see_judges_simple_exchanges() {
        // Pawn takes defended pawn: equal trade.
        let b: Board = "4k3/8/3p4/4p3/3P4/8/8/4K3 w - - 0 1".parse().expect("fen");
        assert!(see_ge(&b, mv("d4e5"), 0));
        assert!(!see_ge(&b, mv("d4e5"), 1));
        // Queen takes pawn defended by pawn: loses.
        let b: Board = "4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1".parse().expect("fen");
        assert!(!see_ge(&b, mv("e2e5"), 0));
        // Rook takes undefended knight.
        let b: Board = "4k3/8/8/4n3/8/8/8/4RK2 w - - 0 1".parse().expect("fen");
        assert!(see_ge(&b, mv("e1e5"), 300));
        // X-ray: two rooks against rook defended once.
        let b: Board = "4r1k1/8/8/8/8/8/4R3/4R1K1 w - - 0 1".parse().expect("fen");
        assert!(see_ge(&b, mv("e2e8"), 0));
        // A bishop moving to a square a pawn attacks is a losing quiet move.
        let b: Board = "4k3/8/3p4/8/8/8/8/B3K3 w - - 0 1".parse().expect("fen");
        assert!(!see_ge(&b, mv("a1e5"), 0));
    }
}
