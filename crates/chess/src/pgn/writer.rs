//! The PGN writer: seven-tag roster first, `SetUp`/`FEN` for set-up positions, SAN
//! movetext with move numbers, comments and NAGs, wrapped at 79 columns.

use super::PgnGame;
use crate::coord::move_to_uci;
use crate::fen::{parse_fen, to_fen};
use crate::position::looks_like_chess960;
use crate::san::to_san;
use cozy_chess::{Board, Color, Move};

/// The seven-tag roster and the value written when a tag is missing.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

const WIDTH: usize = 79;

/// Accumulates movetext tokens into lines of at most `WIDTH` characters.
struct Wrapped {
    out: String,
    line: usize,
}

impl Wrapped {
    fn push(&mut self, tok: &str) {
        if self.line > 0 && self.line + 1 + tok.len() > WIDTH {
            self.out.push('\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
        self.out.push_str(tok);
        self.line += tok.len();
    }

    fn comment(&mut self, text: &str) {
        let clean = text.replace('}', ")").replace('{', "(");
        let words: Vec<&str> = clean.split_whitespace().collect();
        if words.is_empty() {
            return;
        }
        let last = words.len() - 1;
        for (i, w) in words.iter().enumerate() {
            let mut tok = String::new();
            if i == 0 {
                tok.push('{');
            }
            tok.push_str(w);
            if i == last {
                tok.push('}');
            }
            self.push(&tok);
        }
    }
}

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

fn is_roster_or_setup(name: &str) -> bool {
    ROSTER.iter().any(|(n, _)| *n == name) || name == "SetUp" || name == "FEN"
}

fn write_tags(
    out: &mut String,
    tags: &[(String, String)],
    result: &str,
    setup: Option<(String, bool)>,
) {
    for (name, default) in ROSTER {
        let value = if name == "Result" {
            result.to_string()
        } else {
            tags.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| default.to_string())
        };
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(&value)));
    }
    if let Some((fen, chess960)) = setup {
        if chess960 && !tags.iter().any(|(k, _)| k == "Variant") {
            out.push_str("[Variant \"Chess960\"]\n");
        }
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", escape_tag(&fen)));
    }
    for (name, value) in tags {
        let valid_name =
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if valid_name && !is_roster_or_setup(name) {
            out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
        }
    }
    out.push('\n');
}

fn move_number(w: &mut Wrapped, number: u32, color: Color, force: bool) {
    match color {
        Color::White => w.push(&format!("{number}.")),
        Color::Black if force => w.push(&format!("{number}...")),
        Color::Black => {}
    }
}

/// Writes one game as PGN text (ending with a blank line). `comments[i]`, when present,
/// follows move `i`. Writing stops, with a comment saying so, at a move that is not legal.
pub fn write_game(
    tags: &[(String, String)],
    start: &Board,
    moves: &[Move],
    comments: &[Option<String>],
    result: &str,
) -> String {
    write_game_ending(tags, start, moves, comments, result, None)
}

/// [`write_game`] with a closing comment (how the game ended) just before the result.
pub fn write_game_ending(
    tags: &[(String, String)],
    start: &Board,
    moves: &[Move],
    comments: &[Option<String>],
    result: &str,
    ending: Option<&str>,
) -> String {
    let mut out = String::with_capacity(512 + moves.len() * 8);
    let setup = (*start != Board::default()).then(|| (to_fen(start), looks_like_chess960(start)));
    write_tags(&mut out, tags, result, setup);
    let mut w = Wrapped { out, line: 0 };
    let mut board = start.clone();
    let mut force_number = true;
    for (i, &mv) in moves.iter().enumerate() {
        if !board.is_legal(mv) {
            w.comment(&format!(
                "illegal move {} not written",
                move_to_uci(&board, mv, false)
            ));
            break;
        }
        move_number(
            &mut w,
            u32::from(board.fullmove_number()),
            board.side_to_move(),
            force_number,
        );
        let san = to_san(&board, mv);
        w.push(&san);
        board.play_unchecked(mv);
        force_number = false;
        if let Some(Some(c)) = comments.get(i) {
            if !c.trim().is_empty() {
                w.comment(c);
                force_number = true;
            }
        }
    }
    if let Some(text) = ending {
        w.comment(text);
    }
    w.push(result);
    w.out.push_str("\n\n");
    w.out
}

/// Writes a parsed game back as PGN (its SAN, NAGs and comments as read).
pub fn write_pgn_game(game: &PgnGame) -> String {
    let start = game.tag("FEN").and_then(|f| parse_fen(f).ok());
    let mut out = String::with_capacity(512 + game.moves.len() * 8);
    let setup = match (&start, game.tag("FEN")) {
        (Some(b), _) => Some((to_fen(b), looks_like_chess960(b))),
        // Keep an unreadable FEN as written rather than dropping it.
        (None, Some(raw)) => Some((raw.to_string(), false)),
        (None, None) => None,
    };
    write_tags(&mut out, &game.tags, &game.result, setup);
    let mut w = Wrapped { out, line: 0 };
    if let Some(c) = &game.comment {
        w.comment(c);
    }
    let (mut number, mut color) = match &start {
        Some(b) => (u32::from(b.fullmove_number()), b.side_to_move()),
        None => (1, Color::White),
    };
    let mut force_number = true;
    for m in &game.moves {
        move_number(&mut w, number, color, force_number);
        w.push(&m.san);
        force_number = false;
        for nag in &m.nags {
            w.push(&format!("${nag}"));
        }
        if let Some(c) = &m.comment {
            w.comment(c);
            force_number = true;
        }
        if color == Color::Black {
            number += 1;
        }
        color = !color;
    }
    w.push(&game.result);
    w.out.push_str("\n\n");
    w.out
}
