//! Test-suite files for the console's `test` command: Crafty's format
//! (`title`, `setboard FEN`, `solution MOVE...`, `end`) and EPD lines with `bm`/`am`.
//! Broken entries are reported and skipped, never fatal.

use crate::chess::epd::parse_epd_line;
use crate::chess::fen::parse_fen;
use crate::chess::san::parse_any_move;
use cozy_chess::{Board, Move};

/// One position to solve.
#[derive(Clone, Debug)]
pub struct TestPosition {
    pub title: String,
    pub board: Board,
    /// Any of these solves it (Crafty `solution`, EPD `bm`).
    pub best: Vec<Move>,
    /// None of these may be played (EPD `am`; Crafty `solution` with a `?` suffix).
    pub avoid: Vec<Move>,
}

impl TestPosition {
    /// Whether playing `mv` solves the position.
    pub fn solved_by(&self, mv: Move) -> bool {
        if !self.best.is_empty() && !self.best.contains(&mv) {
            return false;
        }
        !self.avoid.contains(&mv)
    }
}

/// Parses a test file; returns the positions and one message per skipped entry.
pub fn parse(text: &str) -> (Vec<TestPosition>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut title = String::new();
    let mut board: Option<Board> = None;
    let mut best = Vec::new();
    let mut avoid = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let n = i + 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "title" => title = rest.to_string(),
            "setboard" => match parse_fen(rest) {
                Ok(b) => {
                    board = Some(b);
                    best.clear();
                    avoid.clear();
                }
                Err(e) => {
                    errors.push(format!("line {n}: bad setboard: {e}"));
                    board = None;
                }
            },
            "solution" => {
                let Some(b) = &board else {
                    errors.push(format!("line {n}: solution before setboard"));
                    continue;
                };
                for m in rest.split_whitespace() {
                    let (text, is_avoid) = match m.strip_suffix('?') {
                        Some(t) if !t.ends_with('?') && !t.ends_with('!') => (t, true),
                        _ => (m, false),
                    };
                    match parse_any_move(b, text) {
                        Ok(mv) if is_avoid => avoid.push(mv),
                        Ok(mv) => best.push(mv),
                        Err(e) => errors.push(format!("line {n}: solution {m}: {e}")),
                    }
                }
            }
            "end" => {
                match board.take() {
                    Some(b) if !best.is_empty() || !avoid.is_empty() => out.push(TestPosition {
                        title: if title.is_empty() {
                            format!("position {}", out.len() + 1)
                        } else {
                            std::mem::take(&mut title)
                        },
                        board: b,
                        best: std::mem::take(&mut best),
                        avoid: std::mem::take(&mut avoid),
                    }),
                    Some(_) => errors.push(format!("line {n}: position without a solution")),
                    None => errors.push(format!("line {n}: end without a position")),
                }
                title.clear();
            }
            _ => match parse_epd_line(line) {
                Ok(rec) => {
                    let best = rec.best_moves();
                    let avoid = rec.avoid_moves();
                    if best.is_empty() && avoid.is_empty() {
                        errors.push(format!("line {n}: EPD line without bm or am"));
                        continue;
                    }
                    let title = rec
                        .id()
                        .map_or_else(|| format!("position {}", out.len() + 1), str::to_string);
                    out.push(TestPosition {
                        title,
                        board: rec.board,
                        best,
                        avoid,
                    });
                }
                Err(e) => errors.push(format!("line {n}: {e}")),
            },
        }
    }
    (out, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crafty_format_and_epd() {
        let text =
            "title mate\nsetboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\nsolution Rd8\nend\n\
                    6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"epd1\";\n\
                    garbage line\n";
        let (pos, errs) = parse(text);
        assert_eq!(pos.len(), 2);
        assert_eq!(pos[0].title, "mate");
        assert_eq!(pos[1].title, "epd1");
        assert!(pos[0].solved_by(pos[0].best[0]));
        assert_eq!(errs.len(), 1);
    }

    #[test]
    fn broken_entries_are_skipped() {
        let text =
            "setboard not a fen\nsolution e4\nend\nsetboard 8/8/8/8/8/8/8/K6k w - - 0 1\nend\n";
        let (pos, errs) = parse(text);
        assert!(pos.is_empty());
        assert_eq!(errs.len(), 4);
    }
}
