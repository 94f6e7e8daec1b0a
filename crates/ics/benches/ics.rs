//! Protocol-layer benchmark (`cargo bench --bench ics`): style-12 parse time per line, and
//! the whole byte -> event pipeline over every recording in `shared/data/ics` (lines and
//! megabytes per second). Prints numbers; asserts nothing.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use wily_ics::parse::{parse_line, style12, ClockUnit};
use wily_ics::pipeline::{Output, Pipeline, PipelineOptions};

const LITERAL_BOARDS: [&str; 3] = [
    "<12> rnbqkbnr pppp-ppp -------- ----p--- -------- -----P-- PPPPP-PP RNBQKBNR W 4 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 299 299 2 P/e7-e5 (0:01) e5 0",
    "<12> --kr-bnQ pppqp--p --n----- ---p-b-- -------- -----N-- PPPP-PPP RNBQKB-R W 0 1 1 0 0 3 1 AlphaBot BetaBot 1 10 0 47 32 597 597 7 o-o-o (0:01) O-O-O 0 1",
    "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 101 GuestQRST wily 1 3 0 39 39 179234 180000 1 P/e2-e4 (0:00.766) e4 0 1 312",
];

fn recordings() -> Option<Vec<Vec<u8>>> {
    let base = std::env::var_os("WILY_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let mut out = Vec::new();
    for server in ["lasker", "rpblc"] {
        let dir = base.join("data/ics").join(server);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for f in files {
            if f.extension().and_then(|e| e.to_str()) == Some("raw") {
                out.push(std::fs::read(&f).ok()?);
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Runs `f` in rounds of `batch` calls for about `budget`; returns the time per call of the
/// median and of the fastest round (the fastest is the least disturbed by other load on
/// the machine) and the number of calls.
fn timed(budget: Duration, batch: u64, mut f: impl FnMut()) -> (f64, f64, u64) {
    let start = Instant::now();
    let mut rounds = Vec::new();
    while start.elapsed() < budget || rounds.len() < 5 {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        rounds.push(t.elapsed().as_secs_f64() / batch as f64);
    }
    rounds.sort_by(f64::total_cmp);
    (
        rounds[rounds.len() / 2],
        rounds[0],
        batch * rounds.len() as u64,
    )
}

fn main() {
    let recs = recordings();
    let mut boards: Vec<String> = LITERAL_BOARDS.iter().map(|s| s.to_string()).collect();
    if let Some(recs) = &recs {
        for r in recs {
            for l in String::from_utf8_lossy(r).split('\n') {
                if let Some(p) = l.find("<12> ") {
                    boards.push(l[p..].trim_end().to_string());
                }
            }
        }
    }
    boards.sort();
    boards.dedup();

    // 1. Style 12 alone.
    let mut i = 0;
    let (median, best, n) = timed(Duration::from_secs(2), 20_000, || {
        let b = style12::parse(black_box(&boards[i % boards.len()]), ClockUnit::Auto);
        black_box(b.is_ok());
        i += 1;
    });
    println!(
        "style12 parse: {:.0} ns/line median, {:.0} ns/line best round ({} distinct lines, {n} parses)",
        median * 1e9,
        best * 1e9,
        boards.len()
    );

    // 2. One line through the dispatcher (board lines and the rest).
    let Some(recs) = recs else {
        println!(
            "pipeline: SKIP (recordings not found; set WILY_SHARED to the shared data folder)"
        );
        return;
    };
    let lines: Vec<String> = recs
        .iter()
        .flat_map(|r| {
            String::from_utf8_lossy(r)
                .split('\n')
                .map(|l| l.replace(['\r', '\u{ff}'], ""))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut j = 0;
    let (median, best, _) = timed(Duration::from_secs(2), 20_000, || {
        black_box(parse_line(
            black_box(&lines[j % lines.len()]),
            ClockUnit::Auto,
        ));
        j += 1;
    });
    println!(
        "parse_line (every recorded line, mixed): {:.0} ns/line median ({:.2} M lines/s), {:.0} ns best round",
        median * 1e9,
        1e-6 / median,
        best * 1e9
    );

    // 3. The whole pipeline: bytes in 4 KiB reads -> telnet -> lines -> events.
    let total_bytes: usize = recs.iter().map(Vec::len).sum();
    let mut out = Output::default();
    let mut lines_per_pass = 0u64;
    let mut events_per_pass = 0u64;
    let (median, best, n) = timed(Duration::from_secs(3), 1, || {
        let (mut lines, mut events) = (0, 0);
        for r in &recs {
            let mut p = Pipeline::new(PipelineOptions::default());
            for chunk in r.chunks(4096) {
                out.clear();
                p.feed(black_box(chunk), &mut out);
                events += out.events.len() as u64;
            }
            out.clear();
            p.flush(&mut out);
            events += out.events.len() as u64;
            lines += p.lines_seen();
        }
        lines_per_pass = lines;
        events_per_pass = events;
    });
    for (label, t) in [("median", median), ("best", best)] {
        println!(
            "pipeline ({label} of {n} passes over {} recordings, {} KiB, {lines_per_pass} lines): {:.2} M lines/s, {:.1} MB/s, {:.2} M events/s",
            recs.len(),
            total_bytes / 1024,
            lines_per_pass as f64 / t / 1e6,
            total_bytes as f64 / t / 1e6,
            events_per_pass as f64 / t / 1e6
        );
    }
}
