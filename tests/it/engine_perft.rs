//! Perft correctness: the shared perft suite (depth <= 4 in the default run, depth 6
//! behind `--ignored`), the Chess960 suite in `tests/fixtures/chess960_perft.epd` (111
//! positions with published counts: depth 5 in the default run, depth 6 behind
//! `--ignored`), and the `wily perft` command's output format.

use crate::shared_data;

use std::path::PathBuf;
use std::process::Command;

fn suite_path() -> Option<PathBuf> {
    shared_data::path("data/epd/perftsuite.epd")
}

fn check_suite(depth: u32) {
    let Some(path) = suite_path() else { return };
    let mut out = Vec::new();
    let (passed, total) =
        wily::tools::perft::run_suite(&path, depth, &mut out).expect("suite runs");
    let text = String::from_utf8_lossy(&out);
    assert!(total >= 100, "{text}");
    assert_eq!(passed, total, "{text}");
    assert_eq!(
        text.lines().last(),
        Some(format!("passed {total}/{total}").as_str())
    );
}

#[test]
fn perft_suite_to_depth_4() {
    check_suite(4);
}

#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn perft_suite_to_depth_6() {
    check_suite(6);
}

fn check_chess960(depth: u32) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chess960_perft.epd");
    let mut out = Vec::new();
    let (passed, total) =
        wily::tools::perft::run_suite(&path, depth, &mut out).expect("suite runs");
    let text = String::from_utf8_lossy(&out);
    assert!(total >= 100, "{text}");
    assert_eq!(passed, total, "{text}");
    // Every line was checked down to the requested depth.
    let deepest = format!(" D{depth} ");
    let checked = text
        .lines()
        .filter(|l| l.starts_with("ok") && l.contains(&deepest));
    assert_eq!(checked.count(), total, "{text}");
}

#[test]
fn chess960_perft_to_depth_5() {
    check_chess960(5);
}

#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn chess960_perft_to_depth_6() {
    check_chess960(6);
}

#[test]
fn perft_command_prints_divide_and_summary() {
    let out = Command::new(env!("CARGO_BIN_EXE_wily"))
        .args([
            "perft",
            "3",
            "--divide",
            "--fen",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ])
        .output()
        .expect("wily runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 49, "{text}");
    assert!(
        lines.contains(&"e1g1: 2059"),
        "castling shown as e1g1: {text}"
    );
    let last = lines.last().expect("summary");
    assert!(last.starts_with("nodes 97862 time "), "{last}");
    assert!(last.contains(" nps "));
    // A Chess960 position: castling is shown as king takes rook (f1g1 would also be
    // the king's plain step here).
    let out = Command::new(env!("CARGO_BIN_EXE_wily"))
        .args([
            "perft",
            "2",
            "--divide",
            "--fen",
            "qrbknrnb/pppppppp/8/8/8/3N1N2/PPPPPPPP/QRBK1R1B w FBfb - 0 1",
        ])
        .output()
        .expect("wily runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.starts_with("d1f1: ")), "{text}");
    let bad = Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(["perft", "2", "--fen", "rnbqkbnr/ppp w"])
        .output()
        .expect("wily runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad FEN"));
}
