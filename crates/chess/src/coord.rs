//! Coordinate (UCI / xboard) move notation and the move-parsing error shared by every
//! notation reader in `chess`.
//!
//! cozy-chess encodes castling as "king captures own rook" (`e1h1`). Standard chess
//! front ends want the king's two-square step (`e1g1`); Chess960 front ends want the
//! king-takes-rook form. [`move_to_uci`] and [`move_from_uci`] convert between the two,
//! and the reader accepts both forms in either mode.

use cozy_chess::{Board, File, Move, Piece, Rank, Square};
use std::fmt;

/// Why a move in some notation could not be turned into a legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveParseError {
    /// The input was empty (or only whitespace / annotation glyphs).
    Empty,
    /// The text is not a move in any notation wily understands.
    Syntax {
        /// The text as given.
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text is well formed but names no legal move in this position.
    Illegal {
        /// The text as given.
        input: String,
        /// Why no legal move matches.
        reason: String,
    },
    /// The text matches more than one legal move.
    Ambiguous {
        /// The text as given.
        input: String,
        /// The matching moves in coordinate notation (king-takes-rook castling form).
        candidates: Vec<String>,
    },
}

impl MoveParseError {
    pub(crate) fn syntax(input: &str, reason: impl Into<String>) -> Self {
        MoveParseError::Syntax {
            input: input.to_string(),
            reason: reason.into(),
        }
    }

    pub(crate) fn illegal(input: &str, reason: impl Into<String>) -> Self {
        MoveParseError::Illegal {
            input: input.to_string(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Empty => write!(f, "empty move"),
            MoveParseError::Syntax { input, reason } => {
                write!(f, "not a move: '{input}' ({reason})")
            }
            MoveParseError::Illegal { input, reason } => {
                write!(f, "illegal move '{input}': {reason}")
            }
            MoveParseError::Ambiguous { input, candidates } => {
                write!(
                    f,
                    "ambiguous move '{input}': matches {}",
                    candidates.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

/// True when `mv` is a castling move in cozy-chess's encoding (the king "captures" a
/// rook of its own colour).
pub fn is_castling(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    mv.from == board.king(us) && board.colored_pieces(us, Piece::Rook).has(mv.to)
}

/// The square the king lands on for a castling move in cozy-chess's encoding.
pub fn castling_king_target(mv: Move) -> Square {
    let file = if mv.to.file() > mv.from.file() {
        File::G
    } else {
        File::C
    };
    Square::new(file, mv.from.rank())
}

/// Writes `mv` in coordinate notation: `e2e4`, `e7e8q`; castling is `e1g1`/`e1c1` in
/// standard chess and king-takes-rook (`e1h1`) when `chess960` is set.
pub fn move_to_uci(board: &Board, mv: Move, chess960: bool) -> String {
    let to = if !chess960 && is_castling(board, mv) {
        castling_king_target(mv)
    } else {
        mv.to
    };
    let mut s = String::with_capacity(5);
    s.push_str(&mv.from.to_string());
    s.push_str(&to.to_string());
    if let Some(p) = mv.promotion {
        s.push(char::from(p));
    }
    s
}

/// The legal castling move (king-takes-rook) that puts the king on `king_to`, if any.
pub(crate) fn castle_to(board: &Board, from: Square, king_to: Square) -> Option<Move> {
    let us = board.side_to_move();
    let back = Rank::First.relative_to(us);
    if from != board.king(us) || from.rank() != back || king_to.rank() != back {
        return None;
    }
    let rights = board.castle_rights(us);
    let rook_file = match king_to.file() {
        File::G => rights.short?,
        File::C => rights.long?,
        _ => return None,
    };
    let mv = Move {
        from,
        to: Square::new(rook_file, back),
        promotion: None,
    };
    board.is_legal(mv).then_some(mv)
}

/// Parses a square from two characters (file letter may be upper case).
pub(crate) fn parse_square(file: u8, rank: u8) -> Option<Square> {
    let f = file.to_ascii_lowercase();
    if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&rank) {
        return None;
    }
    let file = File::try_index(usize::from(f - b'a'))?;
    let rank = Rank::try_index(usize::from(rank - b'1'))?;
    Some(Square::new(file, rank))
}

/// Parses a promotion piece letter (either case); kings and pawns are refused.
pub(crate) fn promotion_piece(c: u8) -> Option<Piece> {
    match c.to_ascii_lowercase() {
        b'q' => Some(Piece::Queen),
        b'r' => Some(Piece::Rook),
        b'b' => Some(Piece::Bishop),
        b'n' => Some(Piece::Knight),
        _ => None,
    }
}

/// Reads a move in coordinate notation and checks it is legal on `board`.
///
/// Accepts `e2e4`, `e7e8q` (also `e7e8Q`, `e7e8=q`), and castling both as the king's
/// two-square step (`e1g1`) and as king-takes-rook (`e1h1`) whatever `chess960` says;
/// a plain legal king move always wins over the castling reading (Chess960 `f1g1`).
pub fn move_from_uci(board: &Board, s: &str, chess960: bool) -> Result<Move, MoveParseError> {
    let _ = chess960; // both castling encodings are accepted in either mode
    let t = s.trim();
    if t.is_empty() {
        return Err(MoveParseError::Empty);
    }
    let b = t.as_bytes();
    if !(4..=6).contains(&b.len()) {
        return Err(MoveParseError::syntax(
            t,
            "coordinate moves look like e2e4 or e7e8q",
        ));
    }
    let from =
        parse_square(b[0], b[1]).ok_or_else(|| MoveParseError::syntax(t, "bad from-square"))?;
    let to = parse_square(b[2], b[3]).ok_or_else(|| MoveParseError::syntax(t, "bad to-square"))?;
    let promo_text = match b.len() {
        4 => None,
        5 => Some(b[4]),
        _ if b[4] == b'=' => Some(b[5]),
        _ => return Err(MoveParseError::syntax(t, "trailing characters")),
    };
    let promotion = match promo_text {
        None => None,
        Some(c) => Some(
            promotion_piece(c).ok_or_else(|| MoveParseError::syntax(t, "bad promotion piece"))?,
        ),
    };
    let mv = Move {
        from,
        to,
        promotion,
    };
    if board.is_legal(mv) {
        return Ok(mv);
    }
    if promotion.is_none() {
        if let Some(castle) = castle_to(board, from, to) {
            return Ok(castle);
        }
    }
    let us = board.side_to_move();
    let reason = match board.piece_on(from) {
        None => format!("no piece on {from}"),
        Some(_) if board.color_on(from) != Some(us) => {
            format!("the piece on {from} is not the side to move's")
        }
        Some(Piece::Pawn) if promotion.is_none() && to.rank() == Rank::Eighth.relative_to(us) => {
            "a promotion needs a piece letter (e7e8q)".to_string()
        }
        Some(_) => "not legal in this position".to_string(),
    };
    Err(MoveParseError::illegal(t, reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(fen: &str) -> Board {
        Board::from_fen(fen, false).expect("test FEN")
    }

    #[test]
    fn castling_both_forms() {
        let board = b("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = move_from_uci(&board, "e1g1", false).expect("e1g1");
        assert_eq!(short.to, Square::H1);
        assert_eq!(move_from_uci(&board, "e1h1", false), Ok(short));
        assert_eq!(move_to_uci(&board, short, false), "e1g1");
        assert_eq!(move_to_uci(&board, short, true), "e1h1");
        let long = move_from_uci(&board, "e1c1", true).expect("e1c1");
        assert_eq!(long.to, Square::A1);
        assert_eq!(move_to_uci(&board, long, false), "e1c1");
    }

    #[test]
    fn promotions_and_errors() {
        let board = b("8/P6k/8/8/8/8/8/K7 w - - 0 1");
        let mv = move_from_uci(&board, "a7a8q", false).expect("promo");
        assert_eq!(mv.promotion, Some(Piece::Queen));
        assert_eq!(
            move_from_uci(&board, "a7a8=N", false).map(|m| m.promotion),
            Ok(Some(Piece::Knight))
        );
        assert!(matches!(
            move_from_uci(&board, "a7a8", false),
            Err(MoveParseError::Illegal { .. })
        ));
        assert!(matches!(
            move_from_uci(&board, "a7a8k", false),
            Err(MoveParseError::Syntax { .. })
        ));
        assert!(matches!(
            move_from_uci(&board, "z9a8", false),
            Err(MoveParseError::Syntax { .. })
        ));
        assert_eq!(
            move_from_uci(&board, "  ", false),
            Err(MoveParseError::Empty)
        );
        assert!(move_from_uci(&board, "h7h8", false).is_err());
        assert!(move_from_uci(&board, "é7e8q", false).is_err());
    }
}
