//! `wily bench --against OTHER`: the speed of this build against another wily binary,
//! measured the way a drifting machine allows. Each pair runs both benchmarks one right
//! after the other, in alternating order (this build first in odd pairs, the other in
//! even ones); the node rates of a pair saw about the same machine, so their ratio is
//! comparable even when single runs a few minutes apart are not. The summary is the
//! geometric mean of the pairs' ratios with a 95% Student-t interval from their spread,
//! and each binary's node count (the bench signature: with one thread every run of a
//! binary must give the same).

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The fewest pairs a comparison runs (an interval needs a spread).
pub const MIN_PAIRS: usize = 2;

/// What one `wily bench` run reported on its last line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchRun {
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Node rate (per CPU second with one thread on Linux, else by wall clock).
    pub nps: u64,
}

/// Reads the last non-empty line of a bench's standard output, `<nodes> nodes <nps> nps`.
pub fn parse_bench_output(stdout: &str) -> Option<BenchRun> {
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty())?;
    match last.split_whitespace().collect::<Vec<_>>()[..] {
        [nodes, "nodes", nps, "nps"] => Some(BenchRun {
            nodes: nodes.parse().ok()?,
            nps: nps.parse().ok()?,
        }),
        _ => None,
    }
}

/// The geometric mean of speed ratios and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub pairs: usize,
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom (published
/// values; between the table's rows the next smaller `df`'s, which is wider).
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        31..=39 => 2.042,
        40..=59 => 2.021,
        60..=119 => 2.000,
        120..=999 => 1.980,
        _ => 1.960,
    }
}

/// The geometric mean of `ratios` (each positive) with a t-interval on their logarithms;
/// `None` for fewer than [`MIN_PAIRS`] or a ratio that is not positive and finite.
pub fn summarize(ratios: &[f64]) -> Option<Summary> {
    if ratios.len() < MIN_PAIRS || ratios.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return None;
    }
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = t975(logs.len() - 1) * (var / n).sqrt();
    Some(Summary {
        pairs: logs.len(),
        ratio: mean.exp(),
        low: (mean - half).exp(),
        high: (mean + half).exp(),
    })
}

/// The longest one bench run may take by default, in seconds: far above any depth-12
/// bench on a slow machine, low enough that a hung binary does not hold a comparison for
/// good.
pub const DEFAULT_RUN_LIMIT_S: u64 = 600;

/// Reads all of a child's pipe on its own thread, so that a full pipe never stalls the
/// child while the parent waits for it.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// One `bench` run of the binary `exe` (a child process, so both builds are measured
/// alike), killed when it runs longer than `limit`.
fn run_once(exe: &Path, depth: u32, threads: usize, limit: Duration) -> Result<BenchRun, String> {
    let mut cmd = Command::new(exe);
    cmd.args(["bench", "--depth", &depth.to_string()]);
    // Left out at its default, so that builds from before the option still run.
    if threads != 1 {
        cmd.args(["--threads", &threads.to_string()]);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let (out_reader, err_reader) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{} bench did not finish within {} s and was stopped (raise --run-limit for a slow build)",
                    exe.display(),
                    limit.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("cannot wait for {}: {e}", exe.display())),
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let stdout = String::from_utf8_lossy(&stdout);
    if !status.success() {
        let stderr = String::from_utf8_lossy(&stderr);
        let why = stderr.lines().last().unwrap_or("no message");
        return Err(format!("{} bench failed ({status}): {why}", exe.display()));
    }
    parse_bench_output(&stdout).ok_or_else(|| {
        format!(
            "{} printed no `<nodes> nodes <nps> nps` line: is it a wily binary?",
            exe.display()
        )
    })
}

/// The first field of `/proc/loadavg` (the one-minute load), where there is one.
fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next().map(str::to_string)
}

/// Runs `pairs` alternating pairs of benchmarks, this executable against `other`, each run
/// stopped after `run_limit`, writes a line per pair and the summary, and returns the
/// summary.
pub fn run_compare(
    other: &Path,
    depth: u32,
    threads: usize,
    pairs: usize,
    run_limit: Duration,
    out: &mut dyn Write,
) -> Result<Summary, String> {
    if pairs < MIN_PAIRS {
        return Err(format!(
            "--pairs must be at least {MIN_PAIRS} (an interval needs a spread)"
        ));
    }
    let this = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let w = |out: &mut dyn Write, line: String| -> Result<(), String> {
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .map_err(|e| e.to_string())
    };
    w(
        out,
        format!(
            "comparing this build ({}) with {}: {pairs} pairs of `bench --depth {depth}`, alternating order",
            this.display(),
            other.display()
        ),
    )?;
    let mut ratios = Vec::with_capacity(pairs);
    let (mut this_runs, mut other_runs) = (Vec::new(), Vec::new());
    for i in 0..pairs {
        let (a, b) = if i % 2 == 0 {
            let a = run_once(&this, depth, threads, run_limit)?;
            (a, run_once(other, depth, threads, run_limit)?)
        } else {
            let b = run_once(other, depth, threads, run_limit)?;
            (run_once(&this, depth, threads, run_limit)?, b)
        };
        if a.nps == 0 || b.nps == 0 {
            return Err("a bench reported a node rate of 0".to_string());
        }
        let ratio = a.nps as f64 / b.nps as f64;
        ratios.push(ratio);
        let load = load_average().map_or(String::new(), |l| format!(" (load {l})"));
        w(
            out,
            format!(
                "pair {:>3}/{pairs}: this {:>9} nps, other {:>9} nps, ratio {ratio:.3}{load}",
                i + 1,
                a.nps,
                b.nps
            ),
        )?;
        this_runs.push(a);
        other_runs.push(b);
    }
    for (name, runs) in [("this build", &this_runs), ("other", &other_runs)] {
        let mut nps: Vec<u64> = runs.iter().map(|r| r.nps).collect();
        nps.sort_unstable();
        let nodes = runs[0].nodes;
        let steady = runs.iter().all(|r| r.nodes == nodes);
        let note = match (steady, threads) {
            (true, _) => String::new(),
            (false, 1) => " (NOT the same in every run: the search is not deterministic)".into(),
            (false, _) => " (varies from run to run, as it does with several threads)".into(),
        };
        w(
            out,
            format!(
                "{name}: median {} nps, {} nodes{note}",
                nps[nps.len() / 2],
                nodes
            ),
        )?;
    }
    let s = summarize(&ratios).ok_or("the ratios could not be summarised")?;
    w(
        out,
        format!(
            "this build / other: {:.3} times the node rate (95% {:.3}-{:.3}, {} pairs)",
            s.ratio, s.low, s.high, s.pairs
        ),
    )?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_last_line_of_a_bench() {
        let text = "48/48 73922 nodes 79 ms best b4b2 score cp -45\n\
                    depth 12 threads 1 search time 2.156 s wall, 1071613 nps by wall clock\n\
                    2310745 nodes 1031582 nps\n\n";
        assert_eq!(
            parse_bench_output(text),
            Some(BenchRun {
                nodes: 2_310_745,
                nps: 1_031_582
            })
        );
        assert_eq!(parse_bench_output(""), None);
        assert_eq!(parse_bench_output("hello\n"), None);
        assert_eq!(parse_bench_output("12 nodes x nps"), None);
        assert_eq!(parse_bench_output("-5 nodes 10 nps"), None);
    }

    #[test]
    fn geometric_mean_and_interval() {
        let s = summarize(&[1.1, 1.1, 1.1]).unwrap();
        assert!((s.ratio - 1.1).abs() < 1e-12);
        assert!((s.low - 1.1).abs() < 1e-12 && (s.high - 1.1).abs() < 1e-12);
        // ln 2 and ln 0.5 average to 0: ratio 1, and the interval is wide (t with 1 df).
        let s = summarize(&[2.0, 0.5]).unwrap();
        assert!((s.ratio - 1.0).abs() < 1e-12);
        let half = 12.706 * (2f64.ln().powi(2) * 2.0 / 1.0 / 2.0).sqrt();
        assert!((s.high.ln() - half).abs() < 1e-9, "{s:?}");
        assert!((s.low.ln() + half).abs() < 1e-9, "{s:?}");
        assert!(summarize(&[1.0]).is_none());
        assert!(summarize(&[1.0, 0.0]).is_none());
        assert!(summarize(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn t_quantiles() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(9), 2.262);
        assert_eq!(t975(29), 2.045);
        assert_eq!(t975(45), 2.021);
        assert_eq!(t975(5000), 1.960);
        assert!(t975(0).is_infinite());
        // Never narrower with fewer degrees of freedom.
        for df in 1..200 {
            assert!(t975(df) >= t975(df + 1), "{df}");
        }
    }
}
