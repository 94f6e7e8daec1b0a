//! Moves as xboard writes them: coordinates (`e2e4`, `e7e8q`, standard castling as the
//! king's step `e1g1`), and in Fischer random chess (`variant fischerandom`) castling as
//! `O-O` / `O-O-O`, the form xboard itself sends and documents for that variant.
//!
//! Reading needs nothing of its own: the rules layer's move reader takes coordinates,
//! `O-O`/`O-O-O` (also `0-0`, `o-o`) and king-takes-rook (`e1h1`) castling alike.

use chess::coord::{is_castling, move_to_uci};
use cozy_chess::{Board, Move};

/// `mv` (legal on `board`) as xboard expects it.
pub fn move_text(board: &Board, mv: Move, fischerandom: bool) -> String {
    if fischerandom && is_castling(board, mv) {
        let short = mv.to.file() > mv.from.file();
        return if short { "O-O" } else { "O-O-O" }.to_string();
    }
    move_to_uci(board, mv, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{parse_any_move, parse_fen};

    #[test]
    fn castling_in_both_variants() {
        let b = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let short = parse_any_move(&b, "O-O").unwrap();
        let long = parse_any_move(&b, "O-O-O").unwrap();
        assert_eq!(move_text(&b, short, false), "e1g1");
        assert_eq!(move_text(&b, long, false), "e1c1");
        assert_eq!(move_text(&b, short, true), "O-O");
        assert_eq!(move_text(&b, long, true), "O-O-O");
        // King on b1, rooks a1 and h1: both castlings are legal, and b1c1 is a plain
        // king move, not castling.
        let b = parse_fen("4k3/8/8/8/8/8/8/RK5R w HA - 0 1").unwrap();
        for (text, want) in [
            ("O-O-O", "O-O-O"),
            ("b1a1", "O-O-O"),
            ("O-O", "O-O"),
            ("b1h1", "O-O"),
        ] {
            let mv = parse_any_move(&b, text).unwrap();
            assert!(is_castling(&b, mv), "{text}");
            assert_eq!(move_text(&b, mv, true), want, "{text}");
        }
        let step = parse_any_move(&b, "b1c1").unwrap();
        assert_eq!(move_text(&b, step, true), "b1c1");
        let e4 = parse_any_move(&Board::default(), "e2e4").unwrap();
        assert_eq!(move_text(&Board::default(), e4, true), "e2e4");
    }
}
