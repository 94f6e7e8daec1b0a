//! `wily test FILE.epd`: runs an EPD test suite (`bm` best moves / `am` moves to avoid) with
//! a time and/or depth per position, prints one line per position and `solved K/N` last.

use crate::chess::{parse_epd_line, to_san, EpdError};
use crate::engine::{Engine, EngineOptions, Limits, SearchRequest};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// Settings of one suite run.
#[derive(Clone, Debug)]
pub struct SuiteSettings {
    /// Time per position (default 1 s when no depth is given either).
    pub time: Option<Duration>,
    pub depth: Option<u32>,
    /// Node budget per position (load-independent measurements).
    pub nodes: Option<u64>,
    pub threads: usize,
    pub hash_mb: usize,
    /// Syzygy tablebase folders (`:`-separated), if any.
    pub syzygy: Option<String>,
}

impl Default for SuiteSettings {
    fn default() -> Self {
        SuiteSettings {
            time: None,
            depth: None,
            nodes: None,
            threads: 1,
            hash_mb: 64,
            syzygy: None,
        }
    }
}

/// Runs the suite in `path`; returns (solved, total).
pub fn run_suite(
    path: &Path,
    settings: &SuiteSettings,
    out: &mut dyn Write,
) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: settings.hash_mb,
        threads: settings.threads.max(1),
        move_overhead_ms: 0,
        ..EngineOptions::default()
    });
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    if let Some(path) = &settings.syzygy {
        w(out, engine.set_syzygy_path(path)?)?;
    }
    let limits = Limits {
        movetime: match (settings.time, settings.depth, settings.nodes) {
            (None, None, None) => Some(Duration::from_secs(1)),
            (t, _, _) => t,
        },
        depth: settings.depth,
        nodes: settings.nodes,
        ..Limits::default()
    };
    let mut solved = 0;
    let mut total = 0;
    let mut nodes = 0u64;
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let record = match parse_epd_line(line) {
            Ok(r) => r,
            Err(EpdError::Blank) => continue,
            Err(e) => {
                total += 1;
                w(out, format!("{:>4} line {}: unreadable: {e}", total, i + 1))?;
                continue;
            }
        };
        total += 1;
        let id = record
            .id()
            .map(str::to_string)
            .unwrap_or_else(|| format!("line {}", i + 1));
        let bm = record.best_moves();
        let am = record.avoid_moves();
        if bm.is_empty() && am.is_empty() {
            w(out, format!("{total:>4} {id}: no bm/am operation, skipped"))?;
            continue;
        }
        engine.new_game();
        let board = record.board.clone();
        let r = engine.search(
            SearchRequest::new(board.clone(), limits.clone()),
            Box::new(|_| {}),
        );
        nodes += r.nodes;
        let ok = r
            .best
            .is_some_and(|m| (bm.is_empty() || bm.contains(&m)) && !am.contains(&m));
        if ok {
            solved += 1;
        }
        let played = r
            .best
            .map(|m| to_san(&board, m))
            .unwrap_or_else(|| "(none)".to_string());
        let expected = if bm.is_empty() {
            format!(
                "am {}",
                am.iter()
                    .map(|m| to_san(&board, *m))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        } else {
            format!(
                "bm {}",
                bm.iter()
                    .map(|m| to_san(&board, *m))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        };
        w(
            out,
            format!(
                "{total:>4} {id:<12} {} {played:<8} {expected:<16} depth {:>2} score {} nodes {}",
                if ok { "ok  " } else { "MISS" },
                r.depth,
                r.score.to_uci(),
                r.nodes
            ),
        )?;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    w(
        out,
        format!(
            "time {secs:.1} s nodes {nodes} nps {}",
            (nodes as f64 / secs) as u64
        ),
    )?;
    w(out, format!("solved {solved}/{total}"))?;
    Ok((solved, total))
}
