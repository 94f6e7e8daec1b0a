//! `wily perft`: counts the leaf nodes of the legal move tree ([`chess::perft`]),
//! per root move with `--divide`, and checks EPD perft suites (`;D1 20 ;D2 400 ...`).

use chess::move_to_uci;
use chess::perft::{divide, perft, summary_line};
use cozy_chess::Board;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Parses a FEN (standard, X-FEN or Shredder-FEN castling) into a board.
pub fn parse_board(fen: &str) -> Result<Board, String> {
    let fen = fen.trim();
    chess::parse_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))
}

/// `wily perft <depth> [--fen FEN] [--divide]`.
pub fn run_perft(
    depth: u32,
    fen: Option<&str>,
    show_divide: bool,
    out: &mut dyn Write,
) -> Result<u64, String> {
    let board = match fen {
        Some(f) => parse_board(f)?,
        None => Board::default(),
    };
    let start = Instant::now();
    // Chess960 castling is shown as king takes rook (the king's step can be ambiguous).
    let chess960 = chess::position::looks_like_chess960(&board);
    let nodes = if show_divide && depth > 0 {
        let mut total = 0;
        for (mv, n) in divide(&board, depth) {
            total += n;
            let text = move_to_uci(&board, mv, chess960);
            writeln!(out, "{text}: {n}").map_err(|e| e.to_string())?;
        }
        total
    } else {
        perft(&board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "{}", summary_line(nodes, secs)).map_err(|e| e.to_string())?;
    Ok(nodes)
}

/// One line of a perft suite: the position and its expected counts by depth.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteLine {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Parses `FEN ;D1 20 ;D2 400 ...`.
pub fn parse_suite_line(line: &str) -> Result<SuiteLine, String> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    if fen.is_empty() {
        return Err("empty FEN".to_string());
    }
    let mut counts = Vec::new();
    for p in parts {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let mut it = p.split_whitespace();
        let tag = it.next().unwrap_or("");
        let value = it.next().unwrap_or("");
        let depth = tag
            .strip_prefix('D')
            .or_else(|| tag.strip_prefix('d'))
            .and_then(|d| d.parse::<u32>().ok())
            .ok_or_else(|| format!("bad depth tag '{tag}'"))?;
        let n = value
            .parse::<u64>()
            .map_err(|_| format!("bad count '{value}' for {tag}"))?;
        counts.push((depth, n));
    }
    Ok(SuiteLine { fen, counts })
}

/// `wily perft --suite FILE [--depth D]`: returns (passed, total).
pub fn run_suite(
    path: &Path,
    max_depth: u32,
    out: &mut dyn Write,
) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut passed = 0;
    let mut total = 0;
    let mut all_nodes = 0u64;
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        total += 1;
        let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
        let parsed = parse_suite_line(line).and_then(|s| parse_board(&s.fen).map(|b| (s, b)));
        let (suite, board) = match parsed {
            Ok(x) => x,
            Err(e) => {
                w(out, format!("line {}: FAIL {e}", i + 1))?;
                continue;
            }
        };
        let mut ok = true;
        let mut detail = String::new();
        for &(d, expected) in suite.counts.iter().filter(|(d, _)| *d <= max_depth) {
            let got = perft(&board, d);
            all_nodes += got;
            if got != expected {
                ok = false;
                detail.push_str(&format!(" D{d} expected {expected} got {got}"));
                break;
            }
            detail.push_str(&format!(" D{d} {got}"));
        }
        if ok {
            passed += 1;
        }
        w(
            out,
            format!(
                "{} {}: {}{detail}",
                if ok { "ok  " } else { "FAIL" },
                i + 1,
                suite.fen
            ),
        )?;
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "{}", summary_line(all_nodes, secs)).map_err(|e| e.to_string())?;
    writeln!(out, "passed {passed}/{total}").map_err(|e| e.to_string())?;
    Ok((passed, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines_parse_and_reject_garbage() {
        let s = parse_suite_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66").expect("parses");
        assert_eq!(s.counts, vec![(1, 15), (2, 66)]);
        assert!(parse_suite_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 x").is_err());
        assert!(parse_suite_line("   ;D1 3").is_err());
        assert!(parse_board("not a fen").is_err());
    }
}
