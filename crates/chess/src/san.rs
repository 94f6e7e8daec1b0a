//! Standard Algebraic Notation in and out, the ICS verbose move form (`P/e2-e4`, `o-o`),
//! the move form every FICS-lineage server accepts, and a reader for any of them.
//!
//! The SAN reader is tolerant: `0-0`, missing or extra `+`/`#`, annotation glyphs,
//! `e.p.`, an omitted `x`, `e8Q`/`e8=Q`/`e8q`, long algebraic `Ng1-f3`, and lower-case
//! piece letters where they cannot be read as a file (`bxc3` is a pawn move when a pawn
//! can make it).

use super::coord::{
    castle_to, is_castling, move_from_uci, move_to_uci, parse_square, promotion_piece,
    MoveParseError,
};
use super::moves::piece_letter;
use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};

/// Errors from the SAN reader (the same type every move reader uses).
pub type SanError = MoveParseError;

fn piece_name(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `+`, `#` or nothing: the check suffix `mv` earns on `board` (`mv` must be legal).
fn check_suffix(board: &Board, mv: Move) -> &'static str {
    let mut after = board.clone();
    after.play_unchecked(mv);
    if after.checkers().is_empty() {
        ""
    } else if after.generate_moves(|_| true) {
        "+"
    } else {
        "#"
    }
}

/// Writes `mv` in SAN (`Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`). An illegal move is written
/// in coordinate notation rather than panicking.
pub fn to_san(board: &Board, mv: Move) -> String {
    if !board.is_legal(mv) {
        return move_to_uci(board, mv, false);
    }
    let mut s = String::with_capacity(8);
    if is_castling(board, mv) {
        s.push_str(if mv.to.file() > mv.from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
        s.push_str(check_suffix(board, mv));
        return s;
    }
    let us = board.side_to_move();
    let Some(piece) = board.piece_on(mv.from) else {
        return move_to_uci(board, mv, false);
    };
    let capture =
        board.colors(!us).has(mv.to) || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
    if piece == Piece::Pawn {
        if capture {
            s.push(char::from(mv.from.file()));
            s.push('x');
        }
        s.push_str(&mv.to.to_string());
        if let Some(p) = mv.promotion {
            s.push('=');
            s.push(piece_letter(p));
        }
    } else {
        s.push(piece_letter(piece));
        // Other pieces of the same kind that can also legally reach the target.
        let others = board.colored_pieces(us, piece) & !mv.from.bitboard();
        let mut rivals = BitBoard::EMPTY;
        if !others.is_empty() {
            board.generate_moves_for(others, |pm| {
                if pm.to.has(mv.to) {
                    rivals |= pm.from.bitboard();
                }
                false
            });
        }
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|sq| sq.file() == mv.from.file());
            let same_rank = rivals.iter().any(|sq| sq.rank() == mv.from.rank());
            if !same_file {
                s.push(char::from(mv.from.file()));
            } else if !same_rank {
                s.push(char::from(mv.from.rank()));
            } else {
                s.push_str(&mv.from.to_string());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&mv.to.to_string());
    }
    s.push_str(check_suffix(board, mv));
    s
}

/// Writes `mv` in long algebraic notation, the piece letter (none for a pawn), both
/// squares and `x` for a capture: `Ng1f3`, `e2e4`, `Bb5xc6`, `e7e8=Q+`; castling stays
/// `O-O` / `O-O-O` (also in Chess960). Check and mate marks as in SAN. An illegal move is
/// written in coordinate notation.
pub fn to_long_algebraic(board: &Board, mv: Move) -> String {
    if !board.is_legal(mv) {
        return move_to_uci(board, mv, false);
    }
    if is_castling(board, mv) {
        return to_san(board, mv);
    }
    let Some(piece) = board.piece_on(mv.from) else {
        return move_to_uci(board, mv, false);
    };
    let us = board.side_to_move();
    let capture =
        board.colors(!us).has(mv.to) || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
    let mut s = String::with_capacity(8);
    if piece != Piece::Pawn {
        s.push(piece_letter(piece));
    }
    s.push_str(&mv.from.to_string());
    if capture {
        s.push('x');
    }
    s.push_str(&mv.to.to_string());
    if let Some(p) = mv.promotion {
        s.push('=');
        s.push(piece_letter(p));
    }
    s.push_str(check_suffix(board, mv));
    s
}

/// SAN of each move of `moves` played in turn from `board`; stops at the first illegal
/// move (handy for printing a principal variation).
pub fn line_to_san(board: &Board, moves: &[Move]) -> Vec<String> {
    let mut b = board.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !b.is_legal(mv) {
            break;
        }
        out.push(to_san(&b, mv));
        b.play_unchecked(mv);
    }
    out
}

/// Removes check marks, annotation glyphs and `e.p.` from the end of a move.
fn strip_suffixes(s: &str) -> &str {
    let mut t = s.trim();
    loop {
        let before = t.len();
        t = t.trim_end_matches(['+', '#', '!', '?']).trim_end();
        for suffix in ["e.p.", "e.p", "ep"] {
            if t.len() > suffix.len() && t.is_char_boundary(t.len() - suffix.len()) {
                let (head, tail) = t.split_at(t.len() - suffix.len());
                if tail.eq_ignore_ascii_case(suffix) {
                    t = head.trim_end();
                }
            }
        }
        if t.len() == before {
            return t;
        }
    }
}

/// `Some(true)` for O-O-O, `Some(false)` for O-O (also `0-0`, `o-o`, `OO`).
fn castle_kind(s: &str) -> Option<bool> {
    let mut n = 0;
    for c in s.chars() {
        match c {
            'O' | 'o' | '0' => n += 1,
            '-' => {}
            _ => return None,
        }
    }
    match n {
        2 => Some(false),
        3 => Some(true),
        _ => None,
    }
}

fn parse_castle(board: &Board, input: &str, long: bool) -> Result<Move, SanError> {
    let us = board.side_to_move();
    let rights = board.castle_rights(us);
    let rook = if long { rights.long } else { rights.short };
    let side = if long { "queen" } else { "king" };
    let Some(rook) = rook else {
        return Err(MoveParseError::illegal(
            input,
            format!(
                "{} has no right to castle on the {side} side",
                color_name(us)
            ),
        ));
    };
    let mv = Move {
        from: board.king(us),
        to: Square::new(rook, Rank::First.relative_to(us)),
        promotion: None,
    };
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(MoveParseError::illegal(
            input,
            "castling is blocked, or the king is in or passes through check",
        ))
    }
}

/// What a SAN move says about the move it names.
struct SanParts {
    piece: Option<Piece>,
    /// The first letter was a lower-case `b` that may be a file or a bishop.
    maybe_bishop: bool,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Piece>,
}

fn split_san(input: &str, core: &str) -> Result<SanParts, SanError> {
    let syntax = |r: &str| MoveParseError::syntax(input, r.to_string());
    let b = core.as_bytes();
    let mut end = b.len();
    let mut promotion = None;
    if end >= 4 && b[end - 1] == b')' && b[end - 3] == b'(' {
        promotion = Some(promotion_piece(b[end - 2]).ok_or_else(|| syntax("bad promotion piece"))?);
        end -= 3;
    } else if end >= 3 && b[end - 1].is_ascii_alphabetic() {
        let prev = b[end - 2];
        if prev == b'=' || prev == b'/' {
            promotion =
                Some(promotion_piece(b[end - 1]).ok_or_else(|| syntax("bad promotion piece"))?);
            end -= 2;
        } else if prev.is_ascii_digit() {
            promotion =
                Some(promotion_piece(b[end - 1]).ok_or_else(|| syntax("bad promotion piece"))?);
            end -= 1;
        }
    } else if end >= 2 && b[end - 1] == b'=' {
        return Err(syntax("promotion piece missing after '='"));
    }
    if end < 2 {
        return Err(syntax("no destination square"));
    }
    let to = parse_square(b[end - 2], b[end - 1]).ok_or_else(|| syntax("no destination square"))?;
    let mut prefix = &b[..end - 2];
    let mut piece = None;
    let mut maybe_bishop = false;
    if let Some(&c) = prefix.first() {
        let p = match c {
            b'K' | b'k' => Some(Piece::King),
            b'Q' | b'q' => Some(Piece::Queen),
            b'R' | b'r' => Some(Piece::Rook),
            b'B' => Some(Piece::Bishop),
            b'N' | b'n' => Some(Piece::Knight),
            b'P' | b'p' => Some(Piece::Pawn),
            _ => None,
        };
        if p.is_some() {
            piece = p;
            prefix = &prefix[1..];
        } else if c == b'b' {
            maybe_bishop = true;
        }
    }
    if let Some((&last, rest)) = prefix.split_last() {
        if matches!(last, b'x' | b'X' | b':' | b'-') {
            prefix = rest;
        }
    }
    let mut file = None;
    let mut rank = None;
    let mut i = 0;
    if let Some(&c) = prefix.get(i) {
        if (b'a'..=b'h').contains(&c) {
            file = File::try_index(usize::from(c - b'a'));
            i += 1;
        }
    }
    if let Some(&c) = prefix.get(i) {
        if (b'1'..=b'8').contains(&c) {
            rank = Rank::try_index(usize::from(c - b'1'));
            i += 1;
        }
    }
    if i != prefix.len() {
        return Err(syntax(
            "unexpected characters before the destination square",
        ));
    }
    Ok(SanParts {
        piece,
        maybe_bishop,
        file,
        rank,
        to,
        promotion,
    })
}

/// Matching moves, kept on the stack (parsing SAN is on the book-building hot path).
struct Found {
    n: usize,
    moves: [Move; 16],
}

impl Found {
    fn new() -> Self {
        Found {
            n: 0,
            moves: [Move {
                from: Square::A1,
                to: Square::A1,
                promotion: None,
            }; 16],
        }
    }

    fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.n) {
            *slot = mv;
        }
        self.n += 1;
    }

    fn kept(&self) -> &[Move] {
        &self.moves[..self.n.min(self.moves.len())]
    }
}

/// Adds the legal moves of `piece` matching the parts to `out`.
fn matches(board: &Board, piece: Piece, p: &SanParts, out: &mut Found) {
    let us = board.side_to_move();
    let mut mask = board.colored_pieces(us, piece);
    if let Some(f) = p.file {
        mask &= f.bitboard();
    }
    if let Some(r) = p.rank {
        mask &= r.bitboard();
    }
    if mask.is_empty() {
        return;
    }
    let own = board.colors(us);
    let last_rank = Rank::Eighth.relative_to(us);
    board.generate_moves_for(mask, |pm| {
        if !pm.to.has(p.to) || own.has(p.to) {
            return false;
        }
        let promo_square = pm.piece == Piece::Pawn && p.to.rank() == last_rank;
        let promotion = match (promo_square, p.promotion) {
            (true, Some(pr)) => Some(pr),
            (true, None) => Some(Piece::Queen),
            (false, None) => None,
            (false, Some(_)) => return false,
        };
        out.push(Move {
            from: pm.from,
            to: p.to,
            promotion,
        });
        false
    });
}

/// Reads a SAN move (tolerantly, see the module doc) and returns the legal move it names.
/// A pawn reaching the last rank without a promotion letter promotes to a queen.
pub fn parse_san(board: &Board, san: &str) -> Result<Move, SanError> {
    let input = san.trim();
    let core = strip_suffixes(input);
    if core.is_empty() {
        return Err(MoveParseError::Empty);
    }
    if core == "--" || core.eq_ignore_ascii_case("z0") || core == "0000" {
        return Err(MoveParseError::syntax(input, "null moves cannot be played"));
    }
    if let Some(long) = castle_kind(core) {
        return parse_castle(board, input, long);
    }
    let parts = split_san(input, core)?;
    let mut found = Found::new();
    let piece = if parts.maybe_bishop {
        matches(board, Piece::Pawn, &parts, &mut found);
        if found.n == 0 {
            // `b` was no file after all: read it as a bishop, e.g. `bc3` or `bxc3`.
            let bishop = SanParts {
                file: None,
                ..parts
            };
            let rest = &core[1..];
            let reparsed = split_san(input, rest).unwrap_or(bishop);
            let as_bishop = SanParts {
                piece: Some(Piece::Bishop),
                maybe_bishop: false,
                ..reparsed
            };
            matches(board, Piece::Bishop, &as_bishop, &mut found);
            Piece::Bishop
        } else {
            Piece::Pawn
        }
    } else {
        let piece = parts.piece.unwrap_or(Piece::Pawn);
        matches(board, piece, &parts, &mut found);
        piece
    };
    match found.n {
        1 => Ok(found.moves[0]),
        0 => {
            let us = board.side_to_move();
            let reason = if board.colored_pieces(us, piece).is_empty() {
                format!("{} has no {}", color_name(us), piece_name(piece))
            } else {
                format!(
                    "no {} {} can move to {}",
                    color_name(us),
                    piece_name(piece),
                    parts.to
                )
            };
            Err(MoveParseError::illegal(input, reason))
        }
        _ => Err(MoveParseError::Ambiguous {
            input: input.to_string(),
            candidates: found.kept().iter().map(|m| m.to_string()).collect(),
        }),
    }
}

/// Reads the ICS verbose move of a style-12 line (`P/e2-e4`, `N/g1-f3`, `o-o`, `o-o-o`,
/// `P/g7-h8=Q`). The promotion piece comes from the verbose text when present, else from
/// `san_hint` (the SAN the server sends alongside, `gxh8=Q`), else a queen.
pub fn parse_ics_verbose(
    board: &Board,
    verbose: &str,
    san_hint: Option<&str>,
) -> Result<Move, MoveParseError> {
    let input = verbose.trim();
    if input.is_empty() {
        return Err(MoveParseError::Empty);
    }
    if input.eq_ignore_ascii_case("none") {
        return Err(MoveParseError::syntax(input, "'none' names no move"));
    }
    let core = strip_suffixes(input);
    if let Some(long) = castle_kind(core) {
        return parse_castle(board, input, long);
    }
    let syntax = || MoveParseError::syntax(input, "verbose moves look like P/e2-e4");
    let b = core.as_bytes();
    if b.len() < 7 || b[1] != b'/' || b[4] != b'-' {
        return Err(syntax());
    }
    let piece = match b[0].to_ascii_uppercase() {
        b'P' => Piece::Pawn,
        b'N' => Piece::Knight,
        b'B' => Piece::Bishop,
        b'R' => Piece::Rook,
        b'Q' => Piece::Queen,
        b'K' => Piece::King,
        _ => return Err(syntax()),
    };
    let from = parse_square(b[2], b[3]).ok_or_else(syntax)?;
    let to = parse_square(b[5], b[6]).ok_or_else(syntax)?;
    let mut promotion = match &b[7..] {
        [] => None,
        [b'=', c] | [c] => Some(promotion_piece(*c).ok_or_else(syntax)?),
        _ => return Err(syntax()),
    };
    if board.piece_on(from) != Some(piece) {
        return Err(MoveParseError::illegal(
            input,
            format!("there is no {} on {from}", piece_name(piece)),
        ));
    }
    let us = board.side_to_move();
    if piece == Piece::Pawn && to.rank() == Rank::Eighth.relative_to(us) && promotion.is_none() {
        promotion = Some(
            san_hint
                .and_then(|h| parse_san(board, h).ok())
                .filter(|m| m.from == from && m.to == to)
                .and_then(|m| m.promotion)
                .unwrap_or(Piece::Queen),
        );
    }
    let mv = Move {
        from,
        to,
        promotion,
    };
    if board.is_legal(mv) {
        return Ok(mv);
    }
    if piece == Piece::King {
        if let Some(castle) = castle_to(board, from, to) {
            return Ok(castle);
        }
    }
    Err(MoveParseError::illegal(input, "not legal in this position"))
}

/// Writes `mv` the way every FICS-lineage server accepts it: `e2e4`, `o-o`, `o-o-o`,
/// and promotions as `b7a8=q`.
pub fn to_ics_move(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        return if mv.to.file() > mv.from.file() {
            "o-o".to_string()
        } else {
            "o-o-o".to_string()
        };
    }
    let mut s = format!("{}{}", mv.from, mv.to);
    if let Some(p) = mv.promotion {
        s.push('=');
        s.push(char::from(p));
    }
    s
}

fn looks_like_coordinate(s: &str) -> bool {
    let b = s.as_bytes();
    (4..=6).contains(&b.len())
        && parse_square(b[0], b[1]).is_some()
        && parse_square(b[2], b[3]).is_some()
}

/// Reads a move in any notation wily meets: coordinate (`e2e4`, `e7e8q`, `e1g1` or
/// `e1h1`), SAN (tolerant), or ICS verbose (`P/e2-e4`, `o-o`).
pub fn parse_any_move(board: &Board, s: &str) -> Result<Move, MoveParseError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(MoveParseError::Empty);
    }
    let core = strip_suffixes(t);
    if looks_like_coordinate(core) {
        let coord = move_from_uci(board, core, false);
        if coord.is_ok() {
            return coord;
        }
        // `e2e4` is also long-algebraic SAN; if that fails too, report the coordinate error.
        return parse_san(board, t).or(coord);
    }
    if core.contains('/') && core.as_bytes().get(1) == Some(&b'/') {
        return parse_ics_verbose(board, t, None);
    }
    parse_san(board, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_algebraic() {
        let b = Board::default();
        let long = |b: &Board, san: &str| to_long_algebraic(b, parse_san(b, san).unwrap());
        assert_eq!(long(&b, "Nf3"), "Ng1f3");
        assert_eq!(long(&b, "e4"), "e2e4");
        let b: Board = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 3"
            .parse()
            .unwrap();
        assert_eq!(long(&b, "Bxc6"), "Bb5xc6");
        assert_eq!(long(&b, "O-O"), "O-O");
        let b: Board = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(long(&b, "e8=Q"), "e7e8=Q");
        let b: Board = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        assert_eq!(long(&b, "Ra8"), "Ra1a8+");
    }

    #[test]
    fn basic_round_trip() {
        let b = Board::default();
        let mv = parse_san(&b, "Nf3").expect("Nf3");
        assert_eq!(mv.to_string(), "g1f3");
        assert_eq!(to_san(&b, mv), "Nf3");
        assert_eq!(to_ics_move(&b, mv), "g1f3");
        assert_eq!(
            parse_any_move(&b, "P/e2-e4").map(|m| m.to_string()),
            Ok("e2e4".into())
        );
        assert_eq!(
            parse_any_move(&b, "e2-e4").map(|m| m.to_string()),
            Ok("e2e4".into())
        );
        assert_eq!(parse_any_move(&b, "g1f3"), Ok(mv));
    }
}
