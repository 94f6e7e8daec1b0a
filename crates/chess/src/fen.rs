//! FEN reading and writing, with a precise error for every way a FEN can be wrong.
//!
//! Reads standard FEN, X-FEN (`KQkq` meaning the outermost rook, or a rook's file letter
//! for an inner rook) and Shredder-FEN (`HAha`) castling, so Chess960 positions work.
//! Missing trailing fields default to `- - 0 1`. Writes X-FEN, which for standard chess
//! is plain FEN.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, BoardBuilder, Color, File, Piece, Rank, Square,
};
use std::fmt;

/// The FEN of the standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN string does not describe a legal position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but whitespace.
    Empty,
    /// More than six space-separated fields.
    TooManyFields(usize),
    /// The placement field does not have eight ranks separated by `/`.
    RankCount(usize),
    /// A character in the placement field that is neither a piece letter nor 1-8.
    BadPiece {
        /// The offending character.
        ch: char,
        /// The rank (1-8) it appears on.
        rank: u8,
    },
    /// A rank that does not describe exactly eight squares.
    RankLength {
        /// The rank (1-8).
        rank: u8,
        /// How many squares it describes.
        squares: usize,
    },
    /// A side without exactly one king.
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many there are.
        count: usize,
    },
    /// A pawn on the first or eighth rank.
    PawnOnBackRank(Square),
    /// More than 16 pieces or more than 8 pawns for one side.
    TooManyPieces(Color),
    /// The side-to-move field is not `w` or `b`.
    BadSide(String),
    /// The side that just moved is in check.
    OpponentInCheck,
    /// The side to move is in check from more than two pieces.
    TooManyCheckers(usize),
    /// A castling letter that cannot be honoured.
    BadCastling {
        /// The castling field.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// An en-passant square that is malformed or impossible.
    BadEnPassant {
        /// The field as given.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A half-move clock or full-move number that is not a number.
    BadCounter {
        /// Which counter.
        which: &'static str,
        /// The field as given.
        field: String,
    },
    /// The position was rejected by the board library for another reason.
    Invalid(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 expected"),
            FenError::RankCount(n) => {
                write!(f, "FEN board has {n} ranks, 8 expected (separated by '/')")
            }
            FenError::BadPiece { ch, rank } => write!(
                f,
                "bad piece letter '{}' on rank {rank} (expected one of KQRBNPkqrbnp or 1-8)",
                ch.escape_default()
            ),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, 8 expected")
            }
            FenError::KingCount { color, count } => {
                write!(
                    f,
                    "{} has {count} kings, exactly one expected",
                    side_name(*color)
                )
            }
            FenError::PawnOnBackRank(sq) => write!(
                f,
                "pawn on {sq}: pawns cannot stand on the first or last rank"
            ),
            FenError::TooManyPieces(c) => write!(
                f,
                "{} has too many pieces (at most 16, of which at most 8 pawns)",
                side_name(*c)
            ),
            FenError::BadSide(s) => write!(f, "bad side to move '{s}', expected 'w' or 'b'"),
            FenError::OpponentInCheck => {
                write!(f, "the side not to move is in check")
            }
            FenError::TooManyCheckers(n) => {
                write!(
                    f,
                    "the side to move is in check from {n} pieces (at most 2 possible)"
                )
            }
            FenError::BadCastling { field, reason } => {
                write!(f, "impossible castling rights '{field}': {reason}")
            }
            FenError::BadEnPassant { field, reason } => {
                write!(f, "bad en-passant square '{field}': {reason}")
            }
            FenError::BadCounter { which, field } => {
                write!(f, "bad {which} '{field}', expected a non-negative number")
            }
            FenError::Invalid(s) => write!(f, "invalid position: {s}"),
        }
    }
}

impl std::error::Error for FenError {}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn piece_from_letter(c: char) -> Option<(Piece, Color)> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let piece = match c.to_ascii_lowercase() {
        'p' => Piece::Pawn,
        'n' => Piece::Knight,
        'b' => Piece::Bishop,
        'r' => Piece::Rook,
        'q' => Piece::Queen,
        'k' => Piece::King,
        _ => return None,
    };
    Some((piece, color))
}

/// Squares attacked by `color` on a builder's board.
fn attackers_of(b: &BoardBuilder, target: Square, by: Color) -> usize {
    let mut occ = BitBoard::EMPTY;
    for sq in Square::ALL {
        if b.square(sq).is_some() {
            occ |= sq.bitboard();
        }
    }
    let mut n = 0;
    for sq in Square::ALL {
        let Some((piece, color)) = b.square(sq) else {
            continue;
        };
        if color != by {
            continue;
        }
        let attacks = match piece {
            Piece::Pawn => get_pawn_attacks(sq, by),
            Piece::Knight => get_knight_moves(sq),
            Piece::Bishop => get_bishop_moves(sq, occ),
            Piece::Rook => get_rook_moves(sq, occ),
            Piece::Queen => get_bishop_moves(sq, occ) | get_rook_moves(sq, occ),
            Piece::King => get_king_moves(sq),
        };
        if attacks.has(target) {
            n += 1;
        }
    }
    n
}

fn parse_placement(field: &str, b: &mut BoardBuilder) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank_no = 8 - i as u8;
        let rank = Rank::ALL[7 - i];
        let mut file = 0usize;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::BadPiece { ch, rank: rank_no });
                }
                file += d as usize;
            } else if let Some(pc) = piece_from_letter(ch) {
                if let Some(f) = File::try_index(file) {
                    *b.square_mut(Square::new(f, rank)) = Some(pc);
                }
                file += 1;
            } else {
                return Err(FenError::BadPiece { ch, rank: rank_no });
            }
            if file > 64 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank_no,
                squares: file,
            });
        }
    }
    Ok(())
}

fn check_material(b: &BoardBuilder) -> Result<(), FenError> {
    for color in Color::ALL {
        let mut kings = 0;
        let mut pawns = 0;
        let mut all = 0;
        for sq in Square::ALL {
            if let Some((p, c)) = b.square(sq) {
                if c != color {
                    continue;
                }
                all += 1;
                match p {
                    Piece::King => kings += 1,
                    Piece::Pawn => {
                        pawns += 1;
                        if sq.rank() == Rank::First || sq.rank() == Rank::Eighth {
                            return Err(FenError::PawnOnBackRank(sq));
                        }
                    }
                    _ => {}
                }
            }
        }
        if kings != 1 {
            return Err(FenError::KingCount {
                color,
                count: kings,
            });
        }
        if all > 16 || pawns > 8 {
            return Err(FenError::TooManyPieces(color));
        }
    }
    Ok(())
}

fn king_square(b: &BoardBuilder, color: Color) -> Option<Square> {
    Square::ALL
        .into_iter()
        .find(|&sq| b.square(sq) == Some((Piece::King, color)))
}

fn parse_castling(field: &str, b: &mut BoardBuilder) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let bad = |reason: String| FenError::BadCastling {
        field: field.to_string(),
        reason,
    };
    for ch in field.chars() {
        if !ch.is_ascii_alphabetic() {
            return Err(bad(format!(
                "unexpected character '{}'",
                ch.escape_default()
            )));
        }
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = Rank::First.relative_to(color);
        let king = king_square(b, color).ok_or_else(|| bad("no king".into()))?;
        if king.rank() != back {
            return Err(bad(format!(
                "{} king is on {king}, not on its first rank",
                side_name(color)
            )));
        }
        let rook_at = |f: File| b.square(Square::new(f, back)) == Some((Piece::Rook, color));
        let lower = ch.to_ascii_lowercase();
        let rook_file = match lower {
            'k' => {
                // Outermost rook on the king's side (X-FEN); standard chess: the h-file.
                File::ALL
                    .into_iter()
                    .rev()
                    .take_while(|&f| f > king.file())
                    .find(|&f| rook_at(f))
                    .ok_or_else(|| {
                        bad(format!("no {} rook on the king's side", side_name(color)))
                    })?
            }
            'q' => File::ALL
                .into_iter()
                .take_while(|&f| f < king.file())
                .find(|&f| rook_at(f))
                .ok_or_else(|| bad(format!("no {} rook on the queen's side", side_name(color))))?,
            'a'..='h' => {
                let f = File::ALL[(lower as u8 - b'a') as usize];
                if !rook_at(f) {
                    return Err(bad(format!(
                        "no {} rook on {}",
                        side_name(color),
                        Square::new(f, back)
                    )));
                }
                if f == king.file() {
                    return Err(bad("rook file equals king file".into()));
                }
                f
            }
            _ => return Err(bad(format!("unexpected letter '{ch}'"))),
        };
        let rights = b.castle_rights_mut(color);
        let slot = if rook_file > king.file() {
            &mut rights.short
        } else {
            &mut rights.long
        };
        if slot.is_some() {
            return Err(bad(format!("'{ch}' repeats a right already given")));
        }
        *slot = Some(rook_file);
    }
    Ok(())
}

fn parse_en_passant(field: &str, b: &mut BoardBuilder) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let bad = |reason: &str| FenError::BadEnPassant {
        field: field.to_string(),
        reason: reason.to_string(),
    };
    let bytes = field.as_bytes();
    if bytes.len() != 2 {
        return Err(bad("expected a square like e3 or '-'"));
    }
    let sq = super::coord::parse_square(bytes[0], bytes[1])
        .ok_or_else(|| bad("expected a square like e3 or '-'"))?;
    let us = b.side_to_move;
    if sq.rank() != Rank::Sixth.relative_to(us) {
        return Err(bad(match us {
            Color::White => "with White to move it must be on rank 6",
            Color::Black => "with Black to move it must be on rank 3",
        }));
    }
    let pawn_sq = Square::new(sq.file(), Rank::Fifth.relative_to(us));
    let origin = Square::new(sq.file(), Rank::Seventh.relative_to(us));
    if b.square(pawn_sq) != Some((Piece::Pawn, !us)) {
        return Err(bad("no pawn that just made a double step"));
    }
    if b.square(sq).is_some() || b.square(origin).is_some() {
        return Err(bad("the squares the pawn passed are not empty"));
    }
    b.en_passant = Some(sq);
    Ok(())
}

/// Parses a FEN (or X-FEN / Shredder-FEN) string. The halfmove clock and fullmove number
/// may be missing (defaults 0 and 1); a clock above 100 is capped at 100 and a fullmove
/// number of 0 is read as 1, as other tools write them.
pub fn parse_fen(fen: &str) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() > 6 {
        return Err(FenError::TooManyFields(fields.len()));
    }
    let mut b = BoardBuilder::empty();
    parse_placement(fields[0], &mut b)?;
    check_material(&b)?;
    b.side_to_move = match fields.get(1).copied().unwrap_or("w") {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string())),
    };
    let us = b.side_to_move;
    if let Some(k) = king_square(&b, !us) {
        if attackers_of(&b, k, us) > 0 {
            return Err(FenError::OpponentInCheck);
        }
    }
    if let Some(k) = king_square(&b, us) {
        let n = attackers_of(&b, k, !us);
        if n > 2 {
            return Err(FenError::TooManyCheckers(n));
        }
    }
    parse_castling(fields.get(2).copied().unwrap_or("-"), &mut b)?;
    parse_en_passant(fields.get(3).copied().unwrap_or("-"), &mut b)?;
    if let Some(&f) = fields.get(4) {
        let n: u64 = f.parse().map_err(|_| FenError::BadCounter {
            which: "halfmove clock",
            field: f.to_string(),
        })?;
        b.halfmove_clock = n.min(100) as u8;
    }
    if let Some(&f) = fields.get(5) {
        let n: u16 = f.parse().map_err(|_| FenError::BadCounter {
            which: "fullmove number",
            field: f.to_string(),
        })?;
        b.fullmove_number = n.max(1);
    }
    b.build().map_err(|e| FenError::Invalid(e.to_string()))
}

/// Reads a `setboard` argument: a FEN, or Crafty's short form of one, where a rank may
/// stop after its last piece (`4b` for `4b3`), an empty rank may be left empty
/// (`k2r/ppp////Q/5PPP/7K/ b`), the eighth `/` may end the placement, and ranks not
/// given at all are empty. Everything after the placement is read as in FEN; the result
/// passes the same checks as [`parse_fen`], whose error is returned when neither reads.
pub fn parse_setboard(text: &str) -> Result<Board, FenError> {
    let fen_err = match parse_fen(text) {
        Ok(b) => return Ok(b),
        Err(e) => e,
    };
    let mut fields = text.split_whitespace();
    let Some(placement) = fields.next() else {
        return Err(fen_err);
    };
    let mut ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() == 9 && ranks[8].is_empty() {
        ranks.pop();
    }
    if ranks.len() > 8 {
        return Err(fen_err);
    }
    let mut full = Vec::with_capacity(8);
    for (i, r) in ranks.iter().enumerate() {
        let mut squares = 0usize;
        for ch in r.chars() {
            match ch.to_digit(10) {
                Some(d) if (1..=8).contains(&d) => squares += d as usize,
                Some(_) => {
                    return Err(FenError::BadPiece {
                        ch,
                        rank: 8 - i as u8,
                    })
                }
                None if piece_from_letter(ch).is_some() => squares += 1,
                None => {
                    return Err(FenError::BadPiece {
                        ch,
                        rank: 8 - i as u8,
                    })
                }
            }
        }
        if squares > 8 {
            return Err(FenError::RankLength {
                rank: 8 - i as u8,
                squares,
            });
        }
        full.push(if squares == 8 {
            r.to_string()
        } else {
            format!("{r}{}", 8 - squares)
        });
    }
    full.resize(8, "8".to_string());
    let rest: Vec<&str> = fields.collect();
    parse_fen(&format!("{} {}", full.join("/"), rest.join(" ")))
}

/// Writes the board as FEN. Castling rights use `KQkq` for the outermost rook on each
/// side (so standard chess gives ordinary FEN) and the rook's file letter otherwise
/// (X-FEN).
pub fn to_fen(board: &Board) -> String {
    write_fen(board, false)
}

/// Writes the board as Shredder-FEN (castling rights always as rook file letters).
pub fn to_shredder_fen(board: &Board) -> String {
    write_fen(board, true)
}

fn write_fen(board: &Board, shredder: bool) -> String {
    let mut s = String::with_capacity(90);
    for (i, &rank) in Rank::ALL.iter().rev().enumerate() {
        if i > 0 {
            s.push('/');
        }
        let mut empty = 0u8;
        for file in File::ALL {
            let sq = Square::new(file, rank);
            match (board.piece_on(sq), board.color_on(sq)) {
                (Some(p), Some(c)) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    let ch = char::from(p);
                    s.push(if c == Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    });
                }
                _ => empty += 1,
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
    }
    s.push(' ');
    s.push(if board.side_to_move() == Color::White {
        'w'
    } else {
        'b'
    });
    s.push(' ');
    let mut any = false;
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        let back = Rank::First.relative_to(color);
        let rooks = board.colored_pieces(color, Piece::Rook);
        for (file, short) in [(rights.short, true), (rights.long, false)] {
            let Some(file) = file else { continue };
            // Is this the outermost rook on that side of the king?
            let outermost = File::ALL.iter().all(|&f| {
                let beyond = if short { f > file } else { f < file };
                !(beyond && rooks.has(Square::new(f, back)))
            });
            let ch = if !shredder && outermost {
                if short {
                    'k'
                } else {
                    'q'
                }
            } else {
                char::from(file)
            };
            s.push(if color == Color::White {
                ch.to_ascii_uppercase()
            } else {
                ch
            });
            any = true;
        }
    }
    if !any {
        s.push('-');
    }
    s.push(' ');
    match board.en_passant() {
        Some(f) => {
            let rank = Rank::Sixth.relative_to(board.side_to_move());
            s.push_str(&Square::new(f, rank).to_string());
        }
        None => s.push('-'),
    }
    s.push_str(&format!(
        " {} {}",
        board.halfmove_clock(),
        board.fullmove_number()
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crafty_short_setboard() {
        let b = parse_setboard("k2r/ppp////Q/5PPP/7K/ b").unwrap();
        assert_eq!(to_fen(&b), "k2r4/ppp5/8/8/8/Q7/5PPP/7K b - - 0 1");
        let b = parse_setboard("r2q1knr/pp2bppp/4b/1BPp/6PP/2N1P/PP3P/2RQK1NR/ w K").unwrap();
        assert_eq!(
            to_fen(&b),
            "r2q1knr/pp2bppp/4b3/1BPp4/6PP/2N1P3/PP3P2/2RQK1NR w K - 0 1"
        );
        assert!(parse_setboard("k7/8/8/8/8/8/8/7K w").is_ok());
        for bad in [
            "",
            "k2r/ppp/ppppppppp/7K w",
            "kx/7K w",
            "k/8/8/8/8/8/8/8/8/K w",
            "k2r/ppp w",
        ] {
            assert!(parse_setboard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn startpos_round_trip() {
        let b = parse_fen(STARTPOS_FEN).expect("startpos");
        assert_eq!(b, Board::default());
        assert_eq!(to_fen(&b), STARTPOS_FEN);
        assert_eq!(
            to_shredder_fen(&b),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn short_fen_gets_defaults() {
        let b = parse_fen("4k3/8/8/8/8/8/8/4K3 b").expect("two fields");
        assert_eq!(to_fen(&b), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    }
}
