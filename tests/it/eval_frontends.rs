//! Which evaluation each front end uses: the network embedded in the build, named by its
//! checksum (or `hce` in a build without one), as the UCI session, xboard (`# eval`
//! after `protover 2`), the console (`info`), the bot on the local server (the head of
//! each game log) and the lean binary OpenBench builds (`make EXE=`, the `wily-lean`
//! package) each say it.

use crate::bot_support;
use crate::console_child::{temp_dir, Wily};

use bot_support::*;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// What a fresh engine of this build says about its evaluation.
fn expected() -> String {
    match wily::engine::nnue::embedded_checksum() {
        Some(sum) => format!("checksum {sum:016x}"),
        None => "hce".to_string(),
    }
}

fn says_the_build_eval(line: &str) -> bool {
    let want = expected();
    if want == "hce" {
        line == "hce"
    } else {
        line.starts_with("nnue ") && line.ends_with(&want)
    }
}

#[test]
fn uci_says_the_embedded_evaluation() {
    let tmp = temp_dir("eval-uci");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("uci");
    let line = w.expect("info string eval ", 30);
    let eval = line.trim_start_matches("info string eval ").trim();
    assert!(says_the_build_eval(eval), "{eval} (want {})", expected());
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn xboard_says_the_embedded_evaluation_after_protover() {
    let tmp = temp_dir("eval-xboard");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("xboard");
    w.send("protover 2");
    let line = w.expect("# eval ", 30);
    let eval = line.trim_start_matches("# eval ").trim();
    assert!(says_the_build_eval(eval), "{eval} (want {})", expected());
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn the_console_info_says_the_embedded_evaluation() {
    let tmp = temp_dir("eval-console");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("info");
    let line = w.expect("eval: ", 30);
    let eval = line.trim_start_matches("eval: ").trim();
    assert!(says_the_build_eval(eval), "{eval} (want {})", expected());
    w.send("quit");
    assert!(w.wait_exit(10));
}

/// The lean engine of `make EXE=` (the `wily-lean` package, built here with the test
/// profile the way the Makefile builds it with the release profile).
#[test]
fn the_lean_binary_says_the_embedded_evaluation() {
    let root = env!("CARGO_MANIFEST_DIR");
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| format!("{root}/target"));
    let built = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--profile", "ci", "-p", "wily-lean"])
        .current_dir(root)
        .status()
        .expect("cargo runs");
    assert!(built.success(), "cargo build -p wily-lean failed");
    let lean = std::path::Path::new(&target).join("ci").join("wily-lean");
    let mut child = Command::new(&lean)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", lean.display()));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"uci\nquit\n")
        .expect("the engine reads");
    let out = child.wait_with_output().expect("the engine ends");
    let text = String::from_utf8_lossy(&out.stdout);
    let eval = text
        .lines()
        .find_map(|l| l.strip_prefix("info string eval "))
        .unwrap_or_else(|| panic!("no eval line in {text}"));
    assert!(says_the_build_eval(eval), "{eval} (want {})", expected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_logs_the_embedded_evaluation_at_the_head_of_each_game() {
    let tmp = tmpdir("eval-bot");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let spar = spar_one_game(addr, Duration::from_secs(120));
    let cfg = bot_config(dir, 1, 0);
    let report = run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        1,
        None,
        Duration::from_secs(120),
    )
    .await;
    let _ = spar.await;
    srv.shutdown().await;
    assert_eq!(report.recorded, 1);
    let games = dir.join("logs").join("games");
    let logs: Vec<_> = std::fs::read_dir(&games)
        .unwrap_or_else(|e| panic!("{}: {e}", games.display()))
        .flatten()
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let text = std::fs::read_to_string(logs[0].path()).unwrap();
    let eval = text
        .lines()
        .find_map(|l| l.strip_prefix("eval: "))
        .unwrap_or_else(|| panic!("no eval line in {text}"));
    assert!(says_the_build_eval(eval), "{eval} (want {})", expected());
}
