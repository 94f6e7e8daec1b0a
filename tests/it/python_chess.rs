//! Full games through python-chess's XBoard and UCI engine classes
//! (tests/python_chess_games.py): the engine tools people use to drive wily.
//! Skips with a message when python3 or the `chess` package is not installed (fails
//! under `CI=true`, see `crates/testkit/src/need.rs`).

use crate::need;
use crate::scratch;

use std::process::Command;
use std::time::{Duration, Instant};

/// Runs the script for `proto` and returns its output; `None` (with a message) when
/// python-chess is not there.
fn run_games(proto: &str, games: u32) -> Option<String> {
    let probe = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output();
    match probe {
        Ok(o) if o.status.success() => {}
        _ => {
            need::missing(
                "python3 with the `chess` package (python-chess)",
                "pip install chess, or run .ci/install-test-tools as root",
            );
            return None;
        }
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python_chess_games.py");
    // wily's game files; the script (and the engine it started) has exited before this
    // guard drops.
    let logs = scratch::dir(&format!("pychess-{proto}"));
    let mut child = Command::new("python3")
        .args([
            script,
            env!("CARGO_BIN_EXE_wily"),
            &games.to_string(),
            proto,
        ])
        .arg(logs.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run python3");
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("python-chess {proto} games did not finish in 240 s");
            }
        }
    }
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(out.status.success(), "script failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("game {games}:")), "{stdout}");
    assert!(stdout.contains("analysis: depth"), "{stdout}");
    Some(stdout)
}

#[test]
fn python_chess_plays_full_games_over_xboard() {
    run_games("xboard", 2);
}

#[test]
fn python_chess_plays_full_games_over_uci_with_a_clock() {
    run_games("uci", 2);
}
