//! Helpers of the `wily match` tests: running the command in a scratch folder (to the end,
//! or stopped by a signal part way), the broken engine's command line, and reading back
//! the games it wrote.

#![allow(dead_code)]

use crate::shared_data;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use wily::chess::{PgnGame, PgnReader};

/// The wily binary under test.
pub fn wily() -> &'static str {
    env!("CARGO_BIN_EXE_wily")
}

/// `wily uci` / `wily xboard` as an engine command.
pub fn wily_cmd(proto: &str) -> String {
    format!("cmd={} {proto}", wily())
}

/// The broken engine's command for `mode`, or `None` (with a message) without python3.
pub fn broken_cmd(mode: &str, proto: &str) -> Option<String> {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        shared_data::need::missing(
            "python3 (for tests/fixtures/broken_engine.py)",
            shared_data::need::TOOLS_HOW,
        );
        return None;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/broken_engine.py"
    );
    Some(format!("cmd=python3 {script} {mode} {proto}"))
}

/// Runs `wily match ARGS -quiet` in `dir` (engines' own files land there too).
pub fn run_match(dir: &Path, args: &[String]) -> Output {
    Command::new(wily())
        .arg("match")
        .args(args)
        .arg("-quiet")
        .current_dir(dir)
        .output()
        .expect("run wily match")
}

/// Runs `wily match -resume STATE -quiet` from the test's own folder (the state file knows
/// where the match was started).
pub fn resume_match(state: &Path) -> Output {
    Command::new(wily())
        .args(["match", "-resume"])
        .arg(state)
        .arg("-quiet")
        .output()
        .expect("resume")
}

/// Runs `wily match EXTRA -resume state.json -quiet` in `dir` and checks that it is
/// refused, with `want` in its standard error, and leaves the PGN `pgn` as it was
/// (`before`); `what` names the case in the failure messages.
pub fn assert_resume_refused(
    dir: &Path,
    pgn: &Path,
    before: &[u8],
    what: &str,
    extra: &[String],
    want: &str,
) {
    let mut a = extra.to_vec();
    a.extend(argv(&["-resume", "state.json"]));
    let out = run_match(dir, &a);
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "{what}: {stdout}");
    assert!(stderr.contains(want), "{what}: {stderr}");
    assert_eq!(
        std::fs::read(pgn).unwrap(),
        before,
        "{what}: the PGN is untouched"
    );
}

/// Starts `wily match ARGS -quiet` in `dir` without waiting for it; its output is piped
/// when `piped`, dropped otherwise.
pub fn spawn_match(dir: &Path, args: &[String], piped: bool) -> Child {
    let out = || if piped { Stdio::piped() } else { Stdio::null() };
    Command::new(wily())
        .arg("match")
        .args(args)
        .arg("-quiet")
        .current_dir(dir)
        .stdout(out())
        .stderr(out())
        .spawn()
        .expect("start wily match")
}

/// How many games the PGN file at `pgn` holds so far (0 while it does not exist).
pub fn games_in(pgn: &Path) -> usize {
    std::fs::read_to_string(pgn)
        .map(|t| t.matches("[Event ").count())
        .unwrap_or(0)
}

/// Waits until `pgn` holds `at` games, looking every `poll`, then sends `signal` to the
/// match `child`. Fails when that takes over 120 s or the match (`what`) ends first.
pub fn signal_at(
    child: &mut Child,
    pgn: &Path,
    at: usize,
    signal: i32,
    poll: Duration,
    what: &str,
) {
    let start = Instant::now();
    while games_in(pgn) < at {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no {at} games in time"
        );
        assert!(child.try_wait().unwrap().is_none(), "{what} ended early");
        std::thread::sleep(poll);
    }
    // SAFETY: kill(2) on the child we started.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
}

/// Runs `wily match` in `dir` between two wily UCI engines named `one` and `two`, with
/// the rest of the arguments in `rest` (as [`argv`] reads them); the run must succeed.
/// Returns its standard output and error.
pub fn run_one_vs_two(dir: &Path, rest: &[&str]) -> (String, String) {
    let mut parts = vec!["-engine", "", "name=one", "-engine", "", "name=two"];
    let engine = wily_cmd("uci");
    parts[1] = &engine;
    parts[4] = &engine;
    parts.extend_from_slice(rest);
    let out = run_match(dir, &argv(&parts));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

/// Owned arguments: each `&str` of `parts` is one argument, except that a part
/// starting with `@` is split at spaces into several (`"@-games 2 -repeat"`).
pub fn argv(parts: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    for p in parts {
        match p.strip_prefix('@') {
            Some(words) => v.extend(words.split_whitespace().map(str::to_string)),
            None => v.push(p.to_string()),
        }
    }
    v
}

/// Every game of a PGN file (a game that does not read is a test failure).
pub fn games(path: &Path) -> Vec<PgnGame> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    PgnReader::new(std::io::BufReader::new(f))
        .map(|g| g.expect("a readable game"))
        .collect()
}

/// The balanced openings file of the shared data, or a small built-in EPD written to
/// `dir` when the shared folder is absent.
pub fn openings(dir: &Path) -> PathBuf {
    let base = shared_data::root();
    let shared = base.join("data/openings/8mvs_+90_+99.epd");
    if shared.exists() {
        return shared;
    }
    println!(
        "note: shared openings not found at {}; using built-in ones",
        shared.display()
    );
    let p = dir.join("openings.epd");
    std::fs::write(
        &p,
        "r1bq1rk1/pp1nppbp/3p1np1/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - -\n\
         r2qk2r/pppn1ppp/3bpn2/7b/2BP4/2N1PN1P/PP3PP1/R1BQ1RK1 w kq -\n\
         r1bq1rk1/pp2nppp/2n1p3/2ppP3/3P2Q1/P1P2N2/2P2PPP/R1B1KB1R w KQ -\n",
    )
    .expect("write openings");
    p
}

/// Standard output and error as text, for assertion messages.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
