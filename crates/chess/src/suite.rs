//! Test-suite files, read one way for every front end (the console's `test` and
//! `wily test FILE`): Crafty's format and EPD lines, in the same file if need be.
//!
//! Crafty's format: `title TEXT` names the next position, `setboard POSITION` sets it
//! (FEN or Crafty's short form, see [`parse_setboard`]), `solution MOVE...` lists the key
//! moves (a move ending in `?` is an anti-solution: playing it fails) and completes the
//! position, and `end` (or the end of the file) ends the suite. A line that is none of
//! these is read as EPD (`bm` / `am` operations). Blank lines and `#` comments are skipped.
//! Every broken entry gives one [`SuiteError`] naming its line; the rest of the file is
//! still read.

use crate::epd::{parse_epd_line, EpdError};
use crate::fen::parse_setboard;
use crate::san::parse_any_move;
use cozy_chess::{Board, Move};
use std::fmt;

/// One position to solve.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    /// The `title` (Crafty) or `id` (EPD); `position N` when the file gives none.
    pub title: String,
    pub board: Board,
    /// Any of these solves it (Crafty `solution`, EPD `bm`).
    pub best: Vec<Move>,
    /// None of these may be played (Crafty `solution MOVE?`, EPD `am`).
    pub avoid: Vec<Move>,
    /// The line of the file that completed the entry (1-based).
    pub line: usize,
}

impl SuitePosition {
    /// Whether playing `mv` solves the position: one of the key moves when there are any,
    /// and never an anti-solution.
    pub fn solved_by(&self, mv: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
    }
}

/// One unreadable entry of a suite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// The line (1-based).
    pub line: usize,
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A whole suite file read: the positions in file order and one error per broken entry.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    pub positions: Vec<SuitePosition>,
    pub errors: Vec<SuiteError>,
}

/// Reads a suite file's text (never fails: broken entries become [`SuiteError`]s).
pub fn parse_suite(text: &str) -> Suite {
    let mut suite = Suite::default();
    let mut title: Option<String> = None;
    let mut board: Option<Board> = None;
    // Set when a `setboard` failed, so its `solution` is not also reported.
    let mut broken_setboard = false;
    let mut lines = text.lines().enumerate();
    while let Some((i, raw)) = lines.next() {
        let n = i + 1;
        let line = raw.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| SuiteError { line: n, message };
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "title" => title = Some(rest.to_string()),
            "setboard" => match parse_setboard(rest) {
                Ok(b) => {
                    board = Some(b);
                    broken_setboard = false;
                }
                Err(e) => {
                    suite.errors.push(err(format!("setboard: {e}")));
                    board = None;
                    broken_setboard = true;
                }
            },
            "solution" => {
                let Some(b) = board.take() else {
                    if !broken_setboard {
                        suite.errors.push(err("solution without a setboard".into()));
                    }
                    broken_setboard = false;
                    title = None;
                    continue;
                };
                let mut best = Vec::new();
                let mut avoid = Vec::new();
                let mut bad = Vec::new();
                for m in rest.split_whitespace() {
                    let (text, is_avoid) = match m.strip_suffix('?') {
                        Some(t) if !t.is_empty() && !t.ends_with(['?', '!']) => (t, true),
                        _ => (m.strip_suffix('!').unwrap_or(m), false),
                    };
                    match parse_any_move(&b, text) {
                        Ok(mv) if is_avoid => avoid.push(mv),
                        Ok(mv) => best.push(mv),
                        Err(e) => bad.push(format!("{m}: {e}")),
                    }
                }
                if !bad.is_empty() {
                    suite
                        .errors
                        .push(err(format!("solution {}", bad.join("; "))));
                } else if best.is_empty() && avoid.is_empty() {
                    suite.errors.push(err("solution with no moves".into()));
                } else {
                    let title = title
                        .take()
                        .filter(|t| !t.is_empty())
                        .unwrap_or_else(|| format!("position {}", suite.positions.len() + 1));
                    suite.positions.push(SuitePosition {
                        title,
                        board: b,
                        best,
                        avoid,
                        line: n,
                    });
                }
                title = None;
            }
            "end" => {
                if board.is_some() {
                    suite
                        .errors
                        .push(err("end: the last setboard has no solution".into()));
                }
                let left = lines
                    .filter(|(_, l)| {
                        let l = l.trim();
                        !l.is_empty() && !l.starts_with('#')
                    })
                    .count();
                if left > 0 {
                    suite.errors.push(err(format!(
                        "end: the suite ends here; {left} more lines are not read"
                    )));
                }
                return suite;
            }
            _ => match parse_epd_line(line) {
                Ok(rec) => {
                    let best = rec.best_moves();
                    let avoid = rec.avoid_moves();
                    if best.is_empty() && avoid.is_empty() {
                        suite.errors.push(err("EPD line without bm or am".into()));
                        continue;
                    }
                    let title = rec.id().map_or_else(
                        || format!("position {}", suite.positions.len() + 1),
                        str::to_string,
                    );
                    suite.positions.push(SuitePosition {
                        title,
                        board: rec.board,
                        best,
                        avoid,
                        line: n,
                    });
                }
                Err(EpdError::Blank) => {}
                Err(e) => suite.errors.push(err(format!(
                    "neither a test-file command (title, setboard, solution, end) nor EPD: {e}"
                ))),
            },
        }
    }
    if board.is_some() {
        suite.errors.push(SuiteError {
            line: text.lines().count(),
            message: "the file ends after a setboard with no solution".into(),
        });
    }
    suite
}

/// One position of a file to screen (Crafty's `screen`): the EPD line as written, its
/// `id` (or `position N`) and the position. Key moves are not needed.
#[derive(Clone, Debug)]
pub struct ScreenRecord {
    pub text: String,
    pub title: String,
    pub board: Board,
    /// The line of the file (1-based).
    pub line: usize,
}

/// Reads a file of EPD positions for screening: every EPD line, with or without `bm` /
/// `am`; blank lines and `#` comments are skipped, any other line is one [`SuiteError`].
pub fn screen_records(text: &str) -> (Vec<ScreenRecord>, Vec<SuiteError>) {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_epd_line(line) {
            Ok(rec) => {
                let title = rec
                    .id()
                    .map_or_else(|| format!("position {}", records.len() + 1), str::to_string);
                records.push(ScreenRecord {
                    text: line.to_string(),
                    title,
                    board: rec.board,
                    line: i + 1,
                });
            }
            Err(EpdError::Blank) => {}
            Err(e) => errors.push(SuiteError {
                line: i + 1,
                message: format!("not an EPD position: {e}"),
            }),
        }
    }
    (records, errors)
}

/// The position named `title` in a suite file's text (Crafty's `load FILE TITLE`): the
/// first `title` line whose text contains `title`, then the next `setboard` line of the
/// file (its `solution`, if any, is not needed); or, failing that, the first EPD line
/// whose `id` contains `title`. Returns the full title found and the position.
pub fn find_titled(text: &str, title: &str) -> Result<(String, Board), String> {
    let mut found: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim().trim_start_matches('\u{feff}');
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match (&found, word) {
            (None, "title") if rest.contains(title) => found = Some((i + 1, rest.to_string())),
            (Some((_, name)), "setboard") => {
                return parse_setboard(rest)
                    .map(|b| (name.clone(), b))
                    .map_err(|e| format!("line {}: setboard: {e}", i + 1));
            }
            (None, _) if !matches!(word, "title" | "setboard" | "solution" | "end") => {
                if let Ok(rec) = parse_epd_line(line) {
                    if let Some(id) = rec.id().filter(|id| id.contains(title)) {
                        return Ok((id.to_string(), rec.board));
                    }
                }
            }
            _ => {}
        }
    }
    Err(match found {
        Some((line, name)) => format!("title '{name}' (line {line}) has no setboard after it"),
        None => format!("no position titled '{title}'"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screening_reads_epd_without_key_moves() {
        let text = "# comment\n4k3/8/8/8/8/8/8/4K2R w K - id \"a\";\nnonsense here\n\
            4k3/8/8/8/8/8/8/4K3 b - - bm Kd7;\n";
        let (recs, errs) = screen_records(text);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].title, "a");
        assert_eq!(recs[1].line, 4);
        assert!(recs[1].text.ends_with("bm Kd7;"));
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].line, 3);
    }

    #[test]
    fn titled_positions_are_found() {
        let text = "title first one\nsetboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n\
            title wac002\n# a comment\nsetboard k7/8/8/8/8/8/8/K7 b\n\
            8/8/8/8/8/8/8/k1K5 w - - id \"epd7\";\n";
        let (name, b) = find_titled(text, "wac002").unwrap();
        assert_eq!(name, "wac002");
        assert_eq!(b.side_to_move(), cozy_chess::Color::Black);
        let (name, _) = find_titled(text, "first").unwrap();
        assert_eq!(name, "first one");
        let (name, b) = find_titled(text, "epd7").unwrap();
        assert_eq!(name, "epd7");
        assert_eq!(b.king(cozy_chess::Color::White), cozy_chess::Square::C1);
        assert!(find_titled(text, "missing")
            .unwrap_err()
            .contains("no position"));
        assert!(find_titled("title x\n", "x")
            .unwrap_err()
            .contains("no setboard"));
        assert!(find_titled("title x\nsetboard zz w\n", "x")
            .unwrap_err()
            .contains("line 2"));
    }

    const CRAFTY: &str = "title wac299\n\
        setboard 1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w\n\
        solution Nca4\n\
        \n\
        title wac300\n\
        setboard b2b1r1k/3R1ppp/4qP2/4p1PQ/4P3/5B2/4N1K1/8 w\n\
        solution g6\n\
        \n\
        end\n";

    #[test]
    fn every_crafty_position_is_read() {
        let s = parse_suite(CRAFTY);
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let titles: Vec<_> = s.positions.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["wac299", "wac300"]);
        assert_eq!(s.positions[0].best.len(), 1);
        assert_eq!(s.positions[1].line, 7);
    }

    #[test]
    fn anti_solutions_and_mixed_epd() {
        let text = "setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w\nsolution Rd8! Kf1?\n\
                    6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - am Kh1; id \"avoid\";\n";
        let s = parse_suite(text);
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let p = &s.positions[0];
        assert_eq!(p.title, "position 1");
        assert_eq!((p.best.len(), p.avoid.len()), (1, 1));
        assert!(p.solved_by(p.best[0]));
        assert!(!p.solved_by(p.avoid[0]));
        let q = &s.positions[1];
        assert_eq!(q.title, "avoid");
        assert!(q.best.is_empty() && q.avoid.len() == 1);
        assert!(q.solved_by(p.best[0]));
    }

    #[test]
    fn one_error_per_broken_entry() {
        let text = "title a\nsetboard not a fen\nsolution e4\n\
                    setboard 8/8/8/8/8/8/8/K6k w\nsolution Zz9\n\
                    solution e4\n\
                    garbage line\n\
                    setboard 8/8/8/8/8/8/8/K6k w\nsolution Kb1\n\
                    end\nsolution Kb2\n";
        let s = parse_suite(text);
        assert_eq!(s.positions.len(), 1);
        let lines: Vec<_> = s.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 5, 6, 7, 10], "{:?}", s.errors);
        assert!(s.errors[4].message.contains("1 more lines"));
    }

    #[test]
    fn a_dangling_setboard_is_reported() {
        let s = parse_suite("setboard 8/8/8/8/8/8/8/K6k w\n");
        assert!(s.positions.is_empty());
        assert_eq!(s.errors.len(), 1);
    }
}
