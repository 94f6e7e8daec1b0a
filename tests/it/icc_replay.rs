//! `wily ics replay`: a level-2 capture, the same bytes as a wire log and on standard
//! input print the typed events as JSON lines with their fields; garbage never panics.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::scratch;

fn capture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/icc/game_capture.bin")
}

pub(crate) fn wily(args: &[&str], stdin: Option<&[u8]>) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wily");
    {
        let mut i = child.stdin.take().unwrap();
        if let Some(b) = stdin {
            i.write_all(b).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub(crate) fn json_lines(s: &str) -> Vec<Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn check_game(lines: &[Value]) {
    let kinds: Vec<&str> = lines.iter().map(|v| v["kind"].as_str().unwrap()).collect();
    for k in [
        "prompt",
        "session-started",
        "creating",
        "game-start",
        "board",
        "offer-received",
        "chat",
        "warning",
        "game-end",
    ] {
        assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
    }
    let start = lines.iter().find(|v| v["kind"] == "game-start").unwrap();
    assert_eq!(start["event"]["GameStart"]["game"], 7);
    assert_eq!(start["event"]["GameStart"]["white"], "wily");
    let boards: Vec<&Value> = lines.iter().filter(|v| v["kind"] == "board").collect();
    assert_eq!(boards.len(), 3);
    let b = &boards[1];
    assert_eq!(b["event"]["Board"]["last_move_san"], "e4");
    assert_eq!(b["move_coordinates"], "e2e4");
    assert_eq!(b["event"]["Board"]["white_clock_ms"], 179250);
    assert_eq!(b["event"]["Board"]["lag_ms"], 120);
    assert_eq!(b["event"]["Board"]["relation"], "OpponentToMove");
    assert_eq!(
        b["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    let end = lines.iter().find(|v| v["kind"] == "game-end").unwrap();
    assert_eq!(end["event"]["GameEnd"]["result"], "Draw");
    assert_eq!(end["event"]["GameEnd"]["reason"], "DrawAgreed");
    let offer = lines
        .iter()
        .find(|v| v["kind"] == "offer-received")
        .unwrap();
    assert_eq!(offer["event"]["OfferReceived"]["kind"], "Draw");
    let chat = lines.iter().find(|v| v["kind"] == "chat").unwrap();
    assert_eq!(chat["event"]["Chat"]["text"], "good game");
    assert_eq!(chat["event"]["Chat"]["titles"][0], "GM");
    let warn = lines.iter().find(|v| v["kind"] == "warning").unwrap();
    assert!(warn["text"].as_str().unwrap().contains("unterminated"));
}

#[test]
fn a_capture_replays_from_a_file_and_from_stdin() {
    let path = capture();
    let (ok, out, err) = wily(
        &["ics", "replay", path.to_str().unwrap(), "--dialect", "icc"],
        None,
    );
    assert!(ok, "{err}");
    let lines = json_lines(&out);
    check_game(&lines);
    let bytes = std::fs::read(&path).unwrap();
    let (ok, out2, err) = wily(&["ics", "replay", "-", "--dialect", "icc"], Some(&bytes));
    assert!(ok, "{err}");
    assert_eq!(out2, out, "stdin reads the same");
}

#[test]
fn a_wire_log_replays_like_the_raw_capture() {
    let bytes = std::fs::read(capture()).unwrap();
    let mut log = String::from("12:00:00.000 -- \"connected to chessclub.com:5000\"\n");
    for (i, part) in bytes.chunks(37).enumerate() {
        log.push_str(&format!(
            "12:00:{:02}.{:03} <- \"{}\"\n",
            i / 10,
            i % 1000,
            part.escape_ascii()
        ));
        log.push_str("12:00:00.000 -> \"e2e4\"\n");
    }
    let dir = scratch::dir("icc-replay");
    let p = dir.path().join("wire.log");
    std::fs::write(&p, log).unwrap();
    let (ok, out, err) = wily(
        &["ics", "replay", p.to_str().unwrap(), "--dialect", "icc"],
        None,
    );
    assert!(ok, "{err}");
    check_game(&json_lines(&out));
}

#[test]
fn garbage_and_bad_arguments_never_panic() {
    let mut junk = Vec::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        junk.push(match x % 7 {
            0 => 0x19,
            1 => b'(',
            2 => b')',
            3 => b'{',
            _ => (x >> 8) as u8,
        });
    }
    for dialect in ["icc", "fics"] {
        let (ok, out, err) = wily(&["ics", "replay", "-", "--dialect", dialect], Some(&junk));
        assert!(ok, "{err}");
        assert!(!err.contains("panicked"), "{err}");
        json_lines(&out);
    }
    let (ok, _, err) = wily(&["ics", "replay", "/nonexistent/file"], None);
    assert!(!ok && err.contains("cannot read"), "{err}");
    let (ok, _, err) = wily(&["ics", "replay", "-", "--dialect", "xyz"], Some(b""));
    assert!(!ok && err.contains("dialect"), "{err}");
}
