//! `wily test FILE`: runs a test suite, Crafty's format (`title`, `setboard`, `solution`
//! with `MOVE?` anti-solutions, `end`) or EPD (`bm` / `am`), read by the same reader as the
//! console's `test` ([`chess::suite`]), with a time, depth and/or node budget per
//! position; prints one line per position (and per unreadable entry) and `solved K/N` last.

use chess::suite::parse_suite;
use chess::to_san;
use engine::{Bound, Engine, EngineOptions, Limits, SearchControl, SearchRequest};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
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
    /// Crafty's early exit: a position ends once this many iterations in a row have
    /// chosen a solving move.
    pub early: Option<u32>,
    /// Which evaluation searches.
    pub eval: crate::nnue::datagen::EvalChoice,
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
            eval: crate::nnue::datagen::EvalChoice::Default,
            early: None,
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
    crate::nnue::datagen::set_eval(&mut engine, &settings.eval)?;
    w(out, format!("eval {}", engine.eval_description()))?;
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
    let suite = parse_suite(&text);
    let mut solved = 0;
    let mut total = 0;
    let mut nodes = 0u64;
    let start = Instant::now();
    // Entries in file order: positions and unreadable entries by their line.
    let mut errors = suite.errors.iter().peekable();
    for p in &suite.positions {
        while let Some(e) = errors.next_if(|e| e.line < p.line) {
            w(out, format!("     {e}: unreadable, not counted"))?;
        }
        total += 1;
        engine.new_game();
        let board = p.board.clone();
        let control: Arc<OnceLock<SearchControl>> = Arc::new(OnceLock::new());
        let streak = Arc::new(AtomicU32::new(0));
        let on_info = {
            let (control, streak, p, early) = (
                Arc::clone(&control),
                Arc::clone(&streak),
                p.clone(),
                settings.early,
            );
            let mut last_depth = 0;
            Box::new(move |info: &engine::SearchInfo| {
                if info.multipv != 1 || info.bound != Bound::Exact || info.depth <= last_depth {
                    return;
                }
                last_depth = info.depth;
                let run = match info.pv.first() {
                    Some(&m) if p.solved_by(m) => streak.fetch_add(1, Ordering::Relaxed) + 1,
                    _ => {
                        streak.store(0, Ordering::Relaxed);
                        0
                    }
                };
                if early.is_some_and(|n| run >= n) {
                    if let Some(c) = control.get() {
                        c.stop();
                    }
                }
            })
        };
        let handle = engine.start(SearchRequest::new(board.clone(), limits.clone()), on_info);
        let _ = control.set(handle.control());
        let r = handle.wait();
        engine.stop();
        nodes += r.nodes;
        let ok = r.best.is_some_and(|m| p.solved_by(m));
        if ok {
            solved += 1;
        }
        let played = r
            .best
            .map(|m| to_san(&board, m))
            .unwrap_or_else(|| "(none)".to_string());
        let san = |ms: &[cozy_chess::Move]| {
            ms.iter()
                .map(|m| to_san(&board, *m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let expected = match (p.best.is_empty(), p.avoid.is_empty()) {
            (false, true) => format!("bm {}", san(&p.best)),
            (true, false) => format!("am {}", san(&p.avoid)),
            _ => format!("bm {} am {}", san(&p.best), san(&p.avoid)),
        };
        w(
            out,
            format!(
                "{total:>4} {:<12} {} {played:<8} {expected:<16} depth {:>2} score {} nodes {}",
                p.title,
                if ok { "ok  " } else { "MISS" },
                r.depth,
                r.score.to_uci(),
                r.nodes
            ),
        )?;
    }
    for e in errors {
        w(out, format!("     {e}: unreadable, not counted"))?;
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
    if !suite.errors.is_empty() {
        w(
            out,
            format!("{} unreadable entries skipped", suite.errors.len()),
        )?;
    }
    Ok((solved, total))
}
