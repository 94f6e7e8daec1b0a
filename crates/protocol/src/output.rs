//! Crafty-shaped search output: `depth time score variation` lines, `N->` for a finished
//! iteration, `++`/`--` for fail high/low, scores from White's point of view, the root
//! move being searched (`display moves`), the traced tree (`trace n`), and the statistics line after the search. Shared by the console, xboard's thinking output and
//! the annotator.

use chess::san::{to_long_algebraic, to_san};
use cozy_chess::{Board, Color, Move};
use engine::{Bound, RootMoveInfo, Score, SearchInfo, TraceNode, INF};
use std::time::Duration;

/// `0.35`, `-1.20`, `Mat05` (White mates in 5), `-Mat03` (Black mates in 3), given a
/// score already from White's point of view.
pub fn fmt_score(white_pov: Score) -> String {
    match white_pov {
        Score::Cp(c) => format!("{:.2}", f64::from(c) / 100.0),
        Score::Mate(m) if m >= 0 => format!("Mat{m:02}"),
        Score::Mate(m) => format!("-Mat{:02}", -m),
    }
}

/// Search times as Crafty prints them: `0.05`, `12.34`, `1:05`, `1:02:03`.
pub fn fmt_time(d: Duration) -> String {
    let cs = d.as_millis() / 10;
    let secs = cs / 100;
    if secs < 60 {
        format!("{}.{:02}", secs, cs % 100)
    } else if secs < 3600 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        format!("{}:{:02}:{:02}", secs / 3600, (secs / 60) % 60, secs % 60)
    }
}

/// `1234`, `12.3K`, `4.5M`, `1.2G`.
pub fn fmt_count(n: u64) -> String {
    let f = n as f64;
    if n < 10_000 {
        n.to_string()
    } else if n < 10_000_000 {
        format!("{:.1}K", f / 1e3)
    } else if n < 10_000_000_000 {
        format!("{:.1}M", f / 1e6)
    } else {
        format!("{:.1}G", f / 1e9)
    }
}

/// One move in SAN (`Nf3`) or, with `long`, long algebraic (`Ng1f3`, the console's
/// `output long`).
pub fn fmt_move(board: &Board, mv: Move, long: bool) -> String {
    if long {
        to_long_algebraic(board, mv)
    } else {
        to_san(board, mv)
    }
}

/// A line of moves in SAN from `board`, with move numbers when `numbers` is set
/// (`1. ... e5 2. Nf3 Nc6`). Stops quietly at the first move that is not legal.
pub fn fmt_pv(board: &Board, pv: &[Move], numbers: bool) -> String {
    fmt_pv_as(board, pv, numbers, false)
}

/// [`fmt_pv`] in SAN or, with `long`, long algebraic.
pub fn fmt_pv_as(board: &Board, pv: &[Move], numbers: bool, long: bool) -> String {
    let mut b = board.clone();
    let mut parts: Vec<String> = Vec::new();
    for (i, &mv) in pv.iter().enumerate() {
        let san = fmt_move(&b, mv, long);
        if b.try_play(mv).is_err() {
            break;
        }
        // `b` is now the position after the move: undo the side flip for numbering.
        if numbers {
            let mover = !b.side_to_move();
            let n = if mover == Color::White {
                b.fullmove_number()
            } else {
                b.fullmove_number().saturating_sub(1)
            };
            if mover == Color::White {
                parts.push(format!("{n}."));
            } else if i == 0 {
                parts.push(format!("{n}. ..."));
            }
        }
        parts.push(san);
    }
    parts.join(" ")
}

/// The column header printed before a search's first line.
pub fn header() -> String {
    "        depth     time       score   variation".to_string()
}

/// One search line. `finished` marks a completed iteration (`N->`); a bound prints `++`
/// or `--` in the score column with the move marked `!!` or `??`.
pub fn info_line(board: &Board, info: &SearchInfo, finished: bool, numbers: bool) -> String {
    info_line_as(board, info, finished, numbers, false)
}

/// [`info_line`] with the moves in SAN or, with `long`, long algebraic.
pub fn info_line_as(
    board: &Board,
    info: &SearchInfo,
    finished: bool,
    numbers: bool,
    long: bool,
) -> String {
    let stm = board.side_to_move();
    let depth = if finished {
        format!("{}->", info.depth)
    } else {
        info.depth.to_string()
    };
    let white = info.score.white_pov(stm);
    let (score, pv) = match info.bound {
        Bound::Exact => (fmt_score(white), fmt_pv_as(board, &info.pv, numbers, long)),
        Bound::Lower | Bound::Upper => {
            let high = info.bound == Bound::Lower;
            let first = fmt_pv_as(board, info.pv.get(..1).unwrap_or(&[]), numbers, long);
            let mark = if high { "!!" } else { "??" };
            let rel = if high { ">" } else { "<" };
            (
                if high { "++" } else { "--" }.to_string(),
                format!("{first}{mark} ({rel}{})", fmt_score(info.score)),
            )
        }
    };
    format!(
        "{:>13}{:>9}{:>12}   {}",
        depth,
        fmt_time(info.time),
        score,
        pv
    )
}

/// The root move the search is on (`display moves`), in the columns of [`info_line`]: the
/// depth, the time, `N/M` (the move's place of the root's M) and the move.
pub fn root_move_line(board: &Board, rm: &RootMoveInfo, numbers: bool, long: bool) -> String {
    format!(
        "{:>13}{:>9}{:>12}   {}",
        rm.depth,
        fmt_time(rm.time),
        format!("{}/{}", rm.number, rm.total),
        fmt_pv_as(board, &[rm.mv], numbers, long)
    )
}

/// A line of `trace n`: the node's ply, indented by it, the moves from the root, the
/// depth left, the window and the score it returned (White's point of view, as every
/// console score): `  2   1. e4 e5           d=3  [-0.20, 0.35]  0.15`.
pub fn trace_line(board: &Board, t: &TraceNode, numbers: bool, long: bool) -> String {
    let us = board.side_to_move();
    let bound = |v: i32| {
        if v.abs() >= INF {
            if (v > 0) == (us == Color::White) {
                "+inf"
            } else {
                "-inf"
            }
            .to_string()
        } else {
            fmt_score(Score::from_internal(v).white_pov(us))
        }
    };
    // The window from White's side: a Black root's [alpha, beta] is White's [-beta, -alpha].
    let (lo, hi) = if us == Color::White {
        (t.alpha, t.beta)
    } else {
        (t.beta, t.alpha)
    };
    format!(
        "{:>3} {}{}  d={}  [{}, {}]  {}",
        t.ply,
        "  ".repeat(t.ply.saturating_sub(1)),
        fmt_pv_as(board, &t.line(), numbers, long),
        t.depth.max(0),
        bound(lo),
        bound(hi),
        bound(t.score)
    )
}

/// The statistics line after a search: time, nodes and speed, and tablebase hits when
/// there were any; `extended` adds selective depth and hash use.
pub fn stats_line(
    time: Duration,
    nodes: u64,
    tbhits: u64,
    seldepth: u32,
    hashfull: u32,
    extended: bool,
) -> String {
    let secs = time.as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    let mut s = format!(
        "              time={}  nodes={}({})  nps={}",
        fmt_time(time),
        nodes,
        fmt_count(nodes),
        fmt_count(nps)
    );
    if tbhits > 0 {
        s.push_str(&format!("  tbhits={tbhits}"));
    }
    if extended {
        s.push_str(&format!(
            "  seldepth={}  hashfull={}.{}%",
            seldepth,
            hashfull / 10,
            hashfull % 10
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::fen::parse_fen;
    use chess::san::parse_san;

    #[test]
    fn scores_and_times() {
        assert_eq!(fmt_score(Score::Cp(35)), "0.35");
        assert_eq!(fmt_score(Score::Cp(-120)), "-1.20");
        assert_eq!(fmt_score(Score::Mate(5)), "Mat05");
        assert_eq!(fmt_score(Score::Mate(-3)), "-Mat03");
        assert_eq!(fmt_time(Duration::from_millis(50)), "0.05");
        assert_eq!(fmt_time(Duration::from_millis(65_000)), "1:05");
        assert_eq!(fmt_count(1_234_567), "1234.6K");
        assert_eq!(fmt_count(12_345_678), "12.3M");
    }

    #[test]
    fn trace_lines_show_the_line_the_window_and_the_score_from_white() {
        use engine::{TraceNode, INF};
        // Black to move at the root: internal scores are Black's, the line shows White's.
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let e5 = parse_san(&b, "e5").unwrap();
        let mut b2 = b.clone();
        b2.play(e5);
        let nf3 = parse_san(&b2, "Nf3").unwrap();
        let t = TraceNode::new(&[e5, nf3], 3, -INF, 35, 20, 100);
        assert_eq!(t.line(), vec![e5, nf3]);
        assert_eq!(
            trace_line(&b, &t, true, false),
            "  2   1. ... e5 2. Nf3  d=3  [-0.35, +inf]  -0.20"
        );
        let w = Board::default();
        let e4 = parse_san(&w, "e4").unwrap();
        let t = TraceNode::new(&[e4], 0, -20, INF, 15, 7);
        assert_eq!(
            trace_line(&w, &t, false, true),
            "  1 e2e4  d=0  [-0.20, +inf]  0.15"
        );
    }

    #[test]
    fn pv_numbers_from_black() {
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let e5 = parse_san(&b, "e5").unwrap();
        let mut b2 = b.clone();
        b2.play(e5);
        let nf3 = parse_san(&b2, "Nf3").unwrap();
        assert_eq!(fmt_pv(&b, &[e5, nf3], true), "1. ... e5 2. Nf3");
        assert_eq!(fmt_pv(&b, &[e5, nf3], false), "e5 Nf3");
    }

    #[test]
    fn lines_show_white_scores_and_bounds() {
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let e5 = parse_san(&b, "e5").unwrap();
        let mut info = SearchInfo {
            depth: 7,
            score: Score::Cp(-20),
            time: Duration::from_millis(120),
            pv: vec![e5],
            ..SearchInfo::default()
        };
        let l = info_line(&b, &info, true, true);
        assert!(l.contains("7->"), "{l}");
        assert!(l.contains("0.20"), "{l}");
        assert!(l.ends_with("1. ... e5"), "{l}");
        info.bound = Bound::Lower;
        let l = info_line(&b, &info, false, true);
        assert!(l.contains("++") && l.contains("e5!!"), "{l}");
    }

    #[test]
    fn root_move_lines_count_and_follow_the_notation() {
        let b = Board::default();
        let mv = parse_san(&b, "Nf3").unwrap();
        let rm = RootMoveInfo {
            depth: 9,
            number: 3,
            total: 20,
            mv,
            nodes: 0,
            time: Duration::from_millis(1_500),
        };
        let l = root_move_line(&b, &rm, true, false);
        assert_eq!(l, format!("{:>13}{:>9}{:>12}   1. Nf3", 9, "1.50", "3/20"));
        assert!(root_move_line(&b, &rm, false, true).ends_with("   Ng1f3"));
    }
}
