//! Crafty's kinds of search extension, as the search applies them: the check extension
//! (`incheck`), the one legal reply to a check (`onerep`), a passed pawn's push in the
//! endgame (`pushpp`), the recapture of an equal piece (`recapture`) and the reply to a
//! mate threat (`mate`). Each kind adds its amount, in hundredths of a ply (the `ext_*`
//! tunables, set at the console with `extensions KIND N`), to the move; the sum is held to
//! one ply, and what is left below a whole ply is carried down the line until it makes one
//! (so two 0.50 extensions in a row give one ply). Only the check extension is on by
//! default; the predicates here are pure, the search asks them only of a kind that is on.

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank};

/// One ply, in the extensions' hundredths.
pub const PLY: i32 = 100;

/// The whole plies a move is extended by and the fraction carried to the next ply, given
/// the fraction carried to this one and the move's amount in hundredths (held to a ply).
#[inline]
pub(crate) fn add_fraction(carry: i32, hundredths: i32) -> (i32, i32) {
    let total = carry + hundredths.clamp(0, PLY);
    (total / PLY, total % PLY)
}

/// Whether the side to move, in check, has exactly one legal move.
pub(crate) fn one_reply(board: &Board) -> bool {
    let mut n = 0usize;
    board.generate_moves(|ms| {
        n += ms.len();
        n > 1
    });
    n == 1
}

/// Crafty's piece values in pawns, for "an equal-valued piece" (bishop and knight are equal).
fn value(p: Piece) -> i32 {
    match p {
        Piece::Pawn => 1,
        Piece::Knight | Piece::Bishop => 3,
        Piece::Rook => 5,
        Piece::Queen => 9,
        Piece::King => 100,
    }
}

/// A recapture: the previous move (by `prev_piece`, onto `prev_to`) took a piece of the same
/// value as itself (`prev_victim`), and this move takes it on that square (BxN, then PxB;
/// BxR, then PxB is not one).
pub(crate) fn is_recapture(
    mv: Move,
    victim: Option<Piece>,
    prev_piece: Piece,
    prev_to: cozy_chess::Square,
    prev_victim: Option<Piece>,
) -> bool {
    let Some(taken_before) = prev_victim else {
        return false;
    };
    mv.to == prev_to && victim == Some(prev_piece) && value(prev_piece) == value(taken_before)
}

/// A passed pawn's push to the sixth or seventh rank (its side's view) in the endgame: no
/// queen on the board, and no pawn of the other side ahead of it on its file or a file beside.
pub(crate) fn passed_pawn_push(board: &Board, mv: Move, piece: Piece, us: Color) -> bool {
    if piece != Piece::Pawn || !board.pieces(Piece::Queen).is_empty() {
        return false;
    }
    let rank = mv.to.rank().relative_to(us);
    if rank != Rank::Sixth && rank != Rank::Seventh {
        return false;
    }
    let file = mv.to.file() as usize;
    let mut files = BitBoard::EMPTY;
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        files |= File::index(f).bitboard();
    }
    let mut ahead = BitBoard::EMPTY;
    for r in (rank as usize + 1)..8 {
        ahead |= Rank::index(r).relative_to(us).bitboard();
    }
    (board.colored_pieces(!us, Piece::Pawn) & files & ahead).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(b: &Board, s: &str) -> Move {
        let m: Move = s.parse().unwrap();
        assert!(b.is_legal(m), "{s}");
        m
    }

    #[test]
    fn fractions_carry_until_they_make_a_ply_and_a_move_gets_at_most_one() {
        assert_eq!(add_fraction(0, 100), (1, 0));
        assert_eq!(add_fraction(0, 0), (0, 0));
        assert_eq!(add_fraction(0, 50), (0, 50));
        assert_eq!(add_fraction(50, 50), (1, 0));
        assert_eq!(add_fraction(75, 75), (1, 50));
        assert_eq!(add_fraction(0, 300), (1, 0));
        assert_eq!(add_fraction(99, 300), (1, 99));
    }

    #[test]
    fn one_reply_counts_the_legal_moves() {
        // The king on h8, checked by the rook on a8, has only h7 (g7 and g8 are covered).
        let b: Board = "R6k/8/5K2/8/8/8/8/8 b - - 0 1".parse().unwrap();
        assert!(one_reply(&b));
        let b: Board = "R6k/8/8/8/8/8/8/K7 b - - 0 1".parse().unwrap();
        assert!(!one_reply(&b));
    }

    #[test]
    fn recaptures_are_equal_pieces_taken_back_on_the_same_square() {
        // Black's knight has just taken a knight (or a bishop) on e4; White's knight takes it.
        let b: Board = "4k3/8/8/8/4n3/2N5/8/4K3 w - - 0 1".parse().unwrap();
        let m = mv(&b, "c3e4");
        let e4 = m.to;
        assert!(is_recapture(
            m,
            Some(Piece::Knight),
            Piece::Knight,
            e4,
            Some(Piece::Knight)
        ));
        // The earlier capture took a bishop with the knight: still equal value.
        assert!(is_recapture(
            m,
            Some(Piece::Knight),
            Piece::Knight,
            e4,
            Some(Piece::Bishop)
        ));
        // A pawn took the piece before: not equal.
        assert!(!is_recapture(
            m,
            Some(Piece::Pawn),
            Piece::Pawn,
            e4,
            Some(Piece::Knight)
        ));
        // The previous move captured nothing.
        assert!(!is_recapture(
            m,
            Some(Piece::Knight),
            Piece::Knight,
            e4,
            None
        ));
        // Another square.
        let d4 = "d4".parse().unwrap();
        assert!(!is_recapture(
            m,
            Some(Piece::Knight),
            Piece::Knight,
            d4,
            Some(Piece::Knight)
        ));
    }

    #[test]
    fn passed_pushes_to_the_sixth_and_seventh_in_the_endgame() {
        let b: Board = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1".parse().unwrap();
        assert!(passed_pawn_push(
            &b,
            mv(&b, "d5d6"),
            Piece::Pawn,
            Color::White
        ));
        let b: Board = "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1".parse().unwrap();
        assert!(
            !passed_pawn_push(&b, mv(&b, "d4d5"), Piece::Pawn, Color::White),
            "5th rank"
        );
        // A black pawn on e7 stops it being passed.
        let b: Board = "4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1".parse().unwrap();
        assert!(!passed_pawn_push(
            &b,
            mv(&b, "d5d6"),
            Piece::Pawn,
            Color::White
        ));
        // A queen on the board: not the endgame.
        let b: Board = "4k3/8/8/3P4/8/8/8/Q3K3 w - - 0 1".parse().unwrap();
        assert!(!passed_pawn_push(
            &b,
            mv(&b, "d5d6"),
            Piece::Pawn,
            Color::White
        ));
        // Black's pawn to its seventh rank (the second).
        let b: Board = "4k3/8/8/8/8/p7/8/4K3 b - - 0 1".parse().unwrap();
        assert!(passed_pawn_push(
            &b,
            mv(&b, "a3a2"),
            Piece::Pawn,
            Color::Black
        ));
    }
}
