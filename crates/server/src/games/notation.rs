//! Move notation for the local server: SAN and lasker's "pretty" move, the ICS
//! verbose move (`P/e2-e4`, `o-o`), coordinate form, and the lenient parser
//! for what players type (`e2e4`, `e2-e4`, `e7e8=q`, `o-o`, `Nf3`, `nf3`,
//! `exd5`, `P/e2-e4`). All legality comes from cozy-chess.
//!
//! cozy-chess writes castling as "king takes own rook" (e1h1); everything here
//! speaks standard chess (e1g1, `O-O`).

use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};

/// Why a typed move could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveError {
    /// It looks like a move but is not legal here.
    Illegal,
    /// More than one legal move fits (e.g. `Nd2` with two knights).
    Ambiguous,
}

pub use chess::coord::is_castling as is_castle;
pub use chess::moves::legal_moves;
use chess::moves::piece_letter;

fn castle_is_short(mv: Move) -> bool {
    mv.to.file() > mv.from.file()
}

fn piece_from_letter(c: char) -> Option<Piece> {
    match c.to_ascii_uppercase() {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        'K' => Some(Piece::King),
        _ => None,
    }
}

fn square_name(sq: Square) -> String {
    sq.to_string()
}

/// Standard SAN with `+`/`#` (the crate's SAN writer).
pub fn to_san(board: &Board, mv: Move) -> String {
    chess::san::to_san(board, mv)
}

/// The move as the lasker server prints it in style 12: SAN, but a mate is
/// shown with `+` (`Qh4+`).
pub fn pretty_move(board: &Board, mv: Move) -> String {
    to_san(board, mv).replace('#', "+")
}

/// The ICS verbose move: `P/e2-e4`, `N/g1-f3`, `o-o`, `o-o-o`; promotions as
/// the lasker server shows them (`P/g7-h8`, the piece only in the SAN field).
pub fn verbose_move(board: &Board, mv: Move) -> String {
    if is_castle(board, mv) {
        return if castle_is_short(mv) { "o-o" } else { "o-o-o" }.to_string();
    }
    let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
    format!(
        "{}/{}-{}",
        piece_letter(piece),
        square_name(mv.from),
        square_name(mv.to)
    )
}

/// Coordinate form with standard castling (`e1g1`) and a lower-case
/// promotion letter (`e7e8q`).
#[cfg(test)]
pub fn to_coord(board: &Board, mv: Move) -> String {
    let mut to = mv.to;
    if is_castle(board, mv) {
        let file = if castle_is_short(mv) {
            File::G
        } else {
            File::C
        };
        to = Square::new(file, mv.from.rank());
    }
    let mut s = format!("{}{}", square_name(mv.from), square_name(to));
    if let Some(p) = mv.promotion {
        s.push(piece_letter(p).to_ascii_lowercase());
    }
    s
}

/// The form a client should send so every FICS-lineage server takes it:
/// `e2e4`, `o-o`, `e7e8=q` (the crate's ICS move writer).
pub fn to_wire(board: &Board, mv: Move) -> String {
    chess::san::to_ics_move(board, mv)
}

/// A typed move, understood by shape only (not yet checked on a board).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    Castle {
        long: bool,
    },
    Coord {
        from: Square,
        to: Square,
        promo: Option<Piece>,
    },
    San {
        piece: Piece,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        promo: Option<Piece>,
    },
}

fn file_of(c: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&c)
        .then(|| File::index(usize::from(c - b'a')))
}

fn rank_of(c: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&c)
        .then(|| Rank::index(usize::from(c - b'1')))
}

fn square_at(b: &[u8], i: usize) -> Option<Square> {
    let f = file_of(*b.get(i)?)?;
    let r = rank_of(*b.get(i + 1)?)?;
    Some(Square::new(f, r))
}

fn promo_of(c: u8) -> Option<Piece> {
    match c.to_ascii_lowercase() {
        b'q' => Some(Piece::Queen),
        b'r' => Some(Piece::Rook),
        b'b' => Some(Piece::Bishop),
        b'n' => Some(Piece::Knight),
        _ => None,
    }
}

fn parse_coord(b: &[u8]) -> Option<Shape> {
    let from = square_at(b, 0)?;
    let mut i = 2;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let to = square_at(b, i)?;
    i += 2;
    let promo = match &b[i.min(b.len())..] {
        [] => None,
        [b'=', p] => Some(promo_of(*p)?),
        _ => return None,
    };
    Some(Shape::Coord { from, to, promo })
}

fn parse_san_body(b: &[u8], piece: Piece) -> Option<Shape> {
    // Optional promotion at the end (pawns only): `=Q` or `Q`.
    let mut end = b.len();
    let mut promo = None;
    if piece == Piece::Pawn && end >= 3 {
        if let Some(p) = promo_of(b[end - 1]) {
            if !b[end - 1].is_ascii_digit() {
                promo = Some(p);
                end -= 1;
                if b[end - 1] == b'=' {
                    end -= 1;
                }
            }
        }
    }
    if end < 2 {
        return None;
    }
    let to = square_at(b, end - 2)?;
    let mut head = &b[..end - 2];
    if let [rest @ .., b'x' | b':'] = head {
        head = rest;
    }
    let (from_file, from_rank) = match head {
        [] => (None, None),
        [c] if file_of(*c).is_some() => (file_of(*c), None),
        [c] if rank_of(*c).is_some() => (None, rank_of(*c)),
        [f, r] => (Some(file_of(*f)?), Some(rank_of(*r)?)),
        _ => return None,
    };
    // A pawn move never needs a rank: `e7e8q` is not SAN (lasker refuses it).
    if piece == Piece::Pawn && from_rank.is_some() {
        return None;
    }
    Some(Shape::San {
        piece,
        from_file,
        from_rank,
        to,
        promo,
    })
}

/// Every reading of `text` as a move, most likely first; empty when it does
/// not look like a move at all (then it is a command).
fn shapes(text: &str) -> Vec<Shape> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let b = t.as_bytes();
    if b.is_empty() || b.len() > 10 || !t.is_ascii() {
        return Vec::new();
    }
    let lower = t.to_ascii_lowercase().replace('0', "o");
    if lower == "o-o" {
        return vec![Shape::Castle { long: false }];
    }
    if lower == "o-o-o" {
        return vec![Shape::Castle { long: true }];
    }
    // ICS verbose: `P/e2-e4`.
    if b.len() >= 3
        && b[1] == b'/'
        && (b[0] == b'P' || piece_from_letter(char::from(b[0])).is_some())
    {
        return parse_coord(&b[2..]).into_iter().collect();
    }
    if let Some(c) = parse_coord(b) {
        return vec![c];
    }
    let mut out = Vec::new();
    let first = b[0];
    if first.is_ascii_uppercase() {
        if let Some(p) = piece_from_letter(char::from(first)) {
            out.extend(parse_san_body(&b[1..], p));
        }
        return out;
    }
    // Lower case: a pawn move first (`bxc3`), then a piece (`nf3`, `bc4`).
    out.extend(parse_san_body(b, Piece::Pawn));
    if let Some(p) = piece_from_letter(char::from(first)) {
        out.extend(parse_san_body(&b[1..], p));
    }
    out
}

/// Whether `text` has the shape of a move (so it is not a command).
pub fn looks_like_move(text: &str) -> bool {
    !shapes(text).is_empty()
}

fn resolve(board: &Board, shape: &Shape, default_promo: Piece) -> Result<Move, MoveError> {
    let legal = legal_moves(board);
    let found: Vec<Move> = match *shape {
        Shape::Castle { long } => legal
            .into_iter()
            .filter(|m| is_castle(board, *m) && castle_is_short(*m) != long)
            .collect(),
        Shape::Coord { from, to, promo } => {
            let king_two = board.piece_on(from) == Some(Piece::King)
                && (from.file() as i32 - to.file() as i32).abs() == 2;
            legal
                .into_iter()
                .filter(|m| {
                    if king_two {
                        m.from == from
                            && is_castle(board, *m)
                            && castle_is_short(*m) == (to.file() > from.file())
                    } else {
                        m.from == from
                            && m.to == to
                            && !is_castle(board, *m)
                            && m.promotion
                                .is_none_or(|p| p == promo.unwrap_or(default_promo))
                    }
                })
                .collect()
        }
        Shape::San {
            piece,
            from_file,
            from_rank,
            to,
            promo,
        } => legal
            .into_iter()
            .filter(|m| {
                m.to == to
                    && board.piece_on(m.from) == Some(piece)
                    && !is_castle(board, *m)
                    && from_file.is_none_or(|f| m.from.file() == f)
                    && from_rank.is_none_or(|r| m.from.rank() == r)
                    && m.promotion
                        .is_none_or(|p| p == promo.unwrap_or(default_promo))
                    && (promo.is_none() || m.promotion.is_some())
            })
            .collect(),
    };
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal),
        _ => Err(MoveError::Ambiguous),
    }
}

/// Parse what a player typed. `None`: not a move at all (treat as a command).
/// `default_promo` is the player's `promote` setting for moves that promote
/// without naming a piece.
pub fn parse_move(
    board: &Board,
    text: &str,
    default_promo: Piece,
) -> Option<Result<Move, MoveError>> {
    let shapes = shapes(text);
    if shapes.is_empty() {
        return None;
    }
    let mut first_err = None;
    for s in &shapes {
        match resolve(board, s, default_promo) {
            Ok(m) => return Some(Ok(m)),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Some(Err(first_err.unwrap_or(MoveError::Illegal)))
}

/// Material in pawns (P1 N3 B3 R5 Q9) of one side, as style 12 shows it.
pub fn material(board: &Board, color: Color) -> u32 {
    let count = |p: Piece| board.colored_pieces(color, p).len();
    count(Piece::Pawn)
        + 3 * count(Piece::Knight)
        + 3 * count(Piece::Bishop)
        + 5 * count(Piece::Rook)
        + 9 * count(Piece::Queen)
}

/// Whether `color` could still mate (lasker's rule: any pawn, rook or queen,
/// or at least two minor pieces).
pub fn has_mating_material(board: &Board, color: Color) -> bool {
    let c = |p: Piece| board.colored_pieces(color, p).len();
    c(Piece::Pawn) + c(Piece::Rook) + c(Piece::Queen) > 0 || c(Piece::Knight) + c(Piece::Bishop) > 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(moves: &[&str]) -> Board {
        let mut b = Board::default();
        for m in moves {
            let mv = parse_move(&b, m, Piece::Queen)
                .expect("shape")
                .expect("legal");
            b.play(mv);
        }
        b
    }

    #[test]
    fn san_and_verbose_of_special_moves() {
        let b = Board::default();
        let mv = parse_move(&b, "e2e4", Piece::Queen).unwrap().unwrap();
        assert_eq!(to_san(&b, mv), "e4");
        assert_eq!(verbose_move(&b, mv), "P/e2-e4");
        let b = play_all(&["f3", "e5", "g4"]);
        let mv = parse_move(&b, "qh4#", Piece::Queen).unwrap().unwrap();
        assert_eq!(to_san(&b, mv), "Qh4#");
        assert_eq!(pretty_move(&b, mv), "Qh4+");
        assert_eq!(verbose_move(&b, mv), "Q/d8-h4");
        let b = play_all(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
        for text in ["o-o", "O-O", "0-0", "e1g1"] {
            let mv = parse_move(&b, text, Piece::Queen).unwrap().unwrap();
            assert_eq!(to_san(&b, mv), "O-O");
            assert_eq!(verbose_move(&b, mv), "o-o");
            assert_eq!(to_coord(&b, mv), "e1g1");
            assert_eq!(to_wire(&b, mv), "o-o");
        }
    }

    #[test]
    fn promotion_and_en_passant() {
        let b = play_all(&["e4", "d5", "e5", "f5"]);
        let mv = parse_move(&b, "exf6", Piece::Queen).unwrap().unwrap();
        assert_eq!(to_san(&b, mv), "exf6");
        let b = play_all(&["e4", "d5", "e5", "f5", "exf6", "Nc6", "fxg7", "Bf5"]);
        assert_eq!(
            parse_move(&b, "g7h8q", Piece::Queen),
            None,
            "lasker refuses b7a8q"
        );
        let mv = parse_move(&b, "g7h8=n", Piece::Queen).unwrap().unwrap();
        assert_eq!(mv.promotion, Some(Piece::Knight));
        assert_eq!(to_san(&b, mv), "gxh8=N");
        assert_eq!(verbose_move(&b, mv), "P/g7-h8");
        assert_eq!(to_wire(&b, mv), "g7h8=n");
        let mv = parse_move(&b, "gxh8=Q", Piece::Queen).unwrap().unwrap();
        assert_eq!(mv.promotion, Some(Piece::Queen));
        let mv = parse_move(&b, "g7h8", Piece::Rook).unwrap().unwrap();
        assert_eq!(mv.promotion, Some(Piece::Rook));
    }

    #[test]
    fn lenient_input_and_errors() {
        let b = Board::default();
        assert!(parse_move(&b, "nf3", Piece::Queen).unwrap().is_ok());
        assert!(parse_move(&b, "P/e2-e4", Piece::Queen).unwrap().is_ok());
        assert!(parse_move(&b, "e2-e4", Piece::Queen).unwrap().is_ok());
        assert_eq!(
            parse_move(&b, "e2e5", Piece::Queen),
            Some(Err(MoveError::Illegal))
        );
        assert_eq!(
            parse_move(&b, "Ke2", Piece::Queen),
            Some(Err(MoveError::Illegal))
        );
        for cmd in [
            "who", "finger", "say", "e", "", "draw", "match", "bxx", "\u{e9}4",
        ] {
            assert_eq!(parse_move(&b, cmd, Piece::Queen), None, "{cmd}");
        }
        let b = play_all(&[
            "Nf3", "e5", "Nc3", "e4", "Ne5", "d6", "Nc4", "d5", "Ne3", "d4",
        ]);
        // Knights on c3 and e3 can both reach d5? only c3->d5, e3->d5: ambiguous.
        assert_eq!(
            parse_move(&b, "Nd5", Piece::Queen),
            Some(Err(MoveError::Ambiguous))
        );
        let mv = parse_move(&b, "Ncd5", Piece::Queen).unwrap().unwrap();
        assert_eq!(to_san(&b, mv), "Ncd5");
    }

    #[test]
    fn material_counts() {
        let b = Board::default();
        assert_eq!(material(&b, Color::White), 39);
        assert!(has_mating_material(&b, Color::Black));
    }
}

#[cfg(test)]
mod material_tests {
    use super::*;

    #[test]
    fn mating_material_follows_lasker() {
        let b: Board = "8/8/4k3/8/8/3K4/8/8 w - - 0 1".parse().expect("fen");
        assert!(!has_mating_material(&b, Color::White));
        let b: Board = "8/8/4k3/8/8/3KB3/8/8 w - - 0 1".parse().expect("fen");
        assert!(!has_mating_material(&b, Color::White));
        let b: Board = "8/8/4k3/8/8/3KBN2/8/8 w - - 0 1".parse().expect("fen");
        assert!(has_mating_material(&b, Color::White));
        let b: Board = "8/8/4k3/8/8/3K4/7P/8 w - - 0 1".parse().expect("fen");
        assert!(has_mating_material(&b, Color::White));
        assert!(!has_mating_material(&b, Color::Black));
    }
}
