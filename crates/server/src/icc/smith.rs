//! ICC's "smith" move notation (`formats.txt`, DG_MOVE_SMITH): from and to squares, then
//! the captured piece (`pnbrqk`), `E` for en passant, `c`/`C` for short/long castling (the
//! squares are the king's, also in Chess960), then the promotion piece (`NBRQ`):
//! `e2e4`, `e4g5p`, `e1g1c`, `f7g8nQ`.

use crate::games::notation::is_castle;
use cozy_chess::{Board, File, Move, Piece, Square};

fn lower(p: Piece) -> char {
    match p {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    }
}

/// The smith form of legal move `mv` on `board` (the position before it).
pub fn smith_move(board: &Board, mv: Move) -> String {
    if is_castle(board, mv) {
        let short = mv.to.file() > mv.from.file();
        let file = if short { File::G } else { File::C };
        let to = Square::new(file, mv.from.rank());
        return format!("{}{}{}", mv.from, to, if short { 'c' } else { 'C' });
    }
    let mut s = format!("{}{}", mv.from, mv.to);
    let pawn = board.piece_on(mv.from) == Some(Piece::Pawn);
    match board.piece_on(mv.to) {
        Some(p) => s.push(lower(p)),
        None if pawn && mv.from.file() != mv.to.file() => s.push('E'),
        None => {}
    }
    if let Some(p) = mv.promotion {
        s.push(lower(p).to_ascii_uppercase());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::fen::parse_fen;

    fn smith(fen: &str, uci: &str) -> String {
        let b = parse_fen(fen).expect("fen");
        let mv = crate::games::notation::legal_moves(&b)
            .into_iter()
            .find(|m| {
                let mut t = format!("{}{}", m.from, m.to);
                if let Some(p) = m.promotion {
                    t.push(lower(p));
                }
                t == uci
            })
            .expect("legal");
        smith_move(&b, mv)
    }

    #[test]
    fn the_examples_of_the_description() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(smith(start, "e2e4"), "e2e4");
        assert_eq!(smith("4k3/8/8/6p1/4N3/8/8/4K3 w - - 0 1", "e4g5"), "e4g5p");
        assert_eq!(smith("6n1/5P2/8/8/8/8/8/k3K3 w - - 0 1", "f7f8q"), "f7f8Q");
        assert_eq!(smith("6n1/5P2/8/8/8/8/8/k3K3 w - - 0 1", "f7g8q"), "f7g8nQ");
        // cozy-chess writes castling king-takes-rook; smith gives the king's squares.
        assert_eq!(smith("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1h1"), "e1g1c");
        assert_eq!(smith("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1"), "e1c1C");
        assert_eq!(smith("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"), "e5d6E");
        // Chess960: king on b1, rook on a1, long castling lands the king on c1.
        assert_eq!(smith("1k6/8/8/8/8/8/8/RK5R w HA - 0 1", "b1a1"), "b1c1C");
    }
}
