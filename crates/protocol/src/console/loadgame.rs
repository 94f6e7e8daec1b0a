//! Reading a game's moves back from a file for `read`, `reada` and `wily --resume`: a PGN
//! game (the first one in the file: its `FEN` tag and main line) or a plain list of moves
//! in any notation, with move numbers, comments and variations skipped.

use chess::fen::parse_fen;
use chess::san::parse_any_move;
use cozy_chess::{Board, Move};
use std::path::Path;

/// Largest file `read` accepts (a game file is a few kilobytes).
const MAX_FILE: u64 = 4 << 20;

/// A game read from a file: its start position (when the file sets one) and its moves as
/// text, in order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LoadedGame {
    pub start: Option<Board>,
    pub moves: Vec<String>,
    pub tags: Vec<(String, String)>,
}

/// Reads the file at `path`.
pub fn load(path: &Path) -> Result<LoadedGame, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > MAX_FILE {
        return Err(format!("{}: too large for a game file", path.display()));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&String::from_utf8_lossy(&bytes))
}

/// Parses the text of a game file (see the module doc).
pub fn parse(text: &str) -> Result<LoadedGame, String> {
    let mut g = LoadedGame::default();
    let mut movetext = String::new();
    let mut seen_moves = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('%') {
            continue;
        }
        if let Some(tag) = t.strip_prefix('[') {
            if seen_moves {
                break; // the next game starts
            }
            if let Some((name, value)) = parse_tag(tag) {
                if name == "FEN" {
                    let b = parse_fen(&value).map_err(|e| format!("FEN tag: {e}"))?;
                    g.start = Some(b);
                }
                g.tags.push((name, value));
            }
            continue;
        }
        if let Some(fen) = t.strip_prefix("setboard ") {
            let b = parse_fen(fen.trim()).map_err(|e| format!("setboard line: {e}"))?;
            g.start = Some(b);
            continue;
        }
        if !t.is_empty() {
            seen_moves = true;
        }
        movetext.push_str(line);
        movetext.push('\n');
    }
    g.moves = move_tokens(&movetext);
    Ok(g)
}

fn parse_tag(tag: &str) -> Option<(String, String)> {
    let tag = tag.trim_end().strip_suffix(']')?;
    let (name, rest) = tag.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// The move tokens of PGN movetext: comments (`{}` and `;`), variations, NAGs, move
/// numbers and result tokens removed.
pub fn move_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0u32;
    let mut in_brace = false;
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            let whole = std::mem::take(cur);
            let mut tok = whole.as_str();
            if matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*") || tok.starts_with('$') {
                return;
            }
            // `12.`, `12...`, `12.e4` (a move number, maybe glued to the move).
            let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && tok[digits..].starts_with('.') {
                tok = tok[digits..].trim_start_matches('.');
            }
            if !tok.is_empty() {
                out.push(tok.to_string());
            }
        }
    };
    while let Some(ch) = chars.next() {
        if in_brace {
            if ch == '}' {
                in_brace = false;
            }
            continue;
        }
        match ch {
            '{' => {
                flush(&mut cur, &mut out);
                in_brace = true;
            }
            ';' => {
                flush(&mut cur, &mut out);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut cur, &mut out);
                depth += 1;
            }
            ')' => {
                flush(&mut cur, &mut out);
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => flush(&mut cur, &mut out),
            c if depth == 0 => cur.push(c),
            _ => {}
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// Turns move texts into legal moves from `start`; stops with a message at the first
/// move that is not legal, returning the moves before it.
pub fn replay(start: &Board, moves: &[String]) -> (Vec<Move>, Option<String>) {
    let mut b = start.clone();
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        match parse_any_move(&b, m) {
            Ok(mv) => {
                b.play_unchecked(mv);
                out.push(mv);
            }
            Err(e) => {
                let shown: String = m.chars().take(20).collect();
                return (out, Some(format!("move {} '{shown}': {e}", i + 1)));
            }
        }
    }
    (out, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_with_comments_and_variations() {
        let g = parse(
            "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 ; note\n3.Bb5 1-0\n",
        )
        .unwrap();
        assert_eq!(g.moves, vec!["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(g.tags.len(), 2);
        let (mv, err) = replay(&Board::default(), &g.moves);
        assert_eq!(mv.len(), 5);
        assert!(err.is_none());
    }

    #[test]
    fn plain_lists_setboard_and_bad_moves() {
        let g = parse("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\ne4 Kd7 e5 Qh5\n").unwrap();
        assert!(g.start.is_some());
        let (mv, err) = replay(g.start.as_ref().unwrap(), &g.moves);
        assert_eq!(mv.len(), 3);
        assert!(err.unwrap().contains("move 4"));
        assert!(parse("[FEN \"garbage\"]\n").is_err());
    }

    #[test]
    fn only_the_first_game() {
        let g = parse("[Event \"a\"]\n1. d4 *\n\n[Event \"b\"]\n1. e4 *\n").unwrap();
        assert_eq!(g.moves, vec!["d4"]);
    }
}
