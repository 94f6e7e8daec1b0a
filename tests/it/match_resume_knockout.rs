//! A knockout saved with `-autosave` and resumed with `-resume`: killed with SIGKILL in
//! its first round and again in its final, it goes on with the same bracket, openings and
//! results, and its PGN ends with every game exactly once, as an uninterrupted run of
//! the same knockout has them; a truncated, edited or other-schedule resume file is
//! refused and leaves the PGN as it was.
//!
//! Every game is drawn at move 6 (`-maxmoves`), so every pairing goes through all its
//! tie-breaks: the event is known in advance (44 games in 22 runs of the runner).

use crate::match_support;
use crate::scratch;

use match_support::{
    argv, assert_resume_refused, games, games_in, openings, resume_match, run_match, signal_at,
    spawn_match, text, wily_cmd,
};
use std::path::Path;
use std::time::Duration;

const GAMES: usize = 44;

/// The knockout's options; `srand` draws the unseeded engines' places.
fn knockout_args(dir: &Path, srand: u32, nodes: u32) -> Vec<String> {
    let book = openings(dir);
    argv(&[
        "-engine",
        &wily_cmd("uci"),
        "name=a",
        "-engine",
        &wily_cmd("uci"),
        "name=b",
        "-engine",
        &wily_cmd("uci"),
        "name=c",
        "-each",
        &format!("nodes={nodes}"),
        "option.Hash=8",
        "@-tournament knockout -seeds 1 -srand",
        &srand.to_string(),
        "@-games 2 -repeat -maxmoves 6 -concurrency 2 -pgn k.pgn -openings",
        &format!("file={}", book.display()),
        "order=random",
        "srand=9",
        "@-autosave state.json -autosaveinterval 1",
    ])
}

/// Starts `wily match ARGS -quiet` in `dir` and kills it with SIGKILL once the PGN holds
/// `at` games.
fn kill_at(dir: &Path, args: &[String], at: usize) {
    let pgn = dir.join("k.pgn");
    let mut child = spawn_match(dir, args, false);
    signal_at(
        &mut child,
        &pgn,
        at,
        libc::SIGKILL,
        Duration::from_millis(5),
        "knockout",
    );
    let _ = child.wait();
    assert!(games_in(&pgn) < GAMES, "stopped before the end");
}

/// Each game's round, players and opening, in round order.
fn schedule_of(pgn: &Path) -> Vec<(usize, String, String, String)> {
    let mut v: Vec<_> = games(pgn)
        .iter()
        .map(|g| {
            (
                g.tag("Round").unwrap().parse().unwrap(),
                g.tag("White").unwrap_or_default().to_string(),
                g.tag("Black").unwrap_or_default().to_string(),
                g.tag("FEN").unwrap_or_default().to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The knockout's round lines (without the timing of the winner line).
fn rounds_text(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| l.starts_with("Knockout round") || l.starts_with("  "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_killed_knockout_resumes_with_the_same_bracket() {
    // The same knockout uninterrupted, for its schedule.
    let whole = scratch::dir("match-ko-resume-ref");
    let w = whole.path();
    let out = run_match(w, &knockout_args(w, 4, 200));
    let (reference, stderr) = text(&out);
    assert!(out.status.success(), "{reference}\n{stderr}");
    assert!(
        reference.contains(&format!("Knockout winner: a ({GAMES} games")),
        "{reference}"
    );
    let want = schedule_of(&w.join("k.pgn"));
    assert_eq!(want.len(), GAMES);

    let dir = scratch::dir("match-ko-resume");
    let d = dir.path();
    let args = knockout_args(d, 4, 200);
    kill_at(d, &args, 7);
    // A fresh start over the unfinished save is refused.
    let fresh = run_match(d, &args);
    assert!(!fresh.status.success());
    assert!(
        text(&fresh).1.contains("unfinished match"),
        "{:?}",
        text(&fresh)
    );
    // Resumed, and killed again in the final (games 23 to 44).
    kill_at(d, &argv(&["-resume", "state.json"]), 30);
    let out = resume_match(&d.join("state.json"));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("knockout games already played"), "{stderr}");
    assert!(stdout.contains("Resumed: "), "{stdout}");
    assert!(
        stdout.contains(&format!("Knockout winner: a ({GAMES} games")),
        "{stdout}"
    );
    assert_eq!(rounds_text(&stdout), rounds_text(&reference));
    assert_eq!(
        schedule_of(&d.join("k.pgn")),
        want,
        "every game once, with the uninterrupted run's players and openings"
    );
    for g in games(&d.join("k.pgn")) {
        g.replay().expect("a legal game");
    }
    // A finished knockout resumed again plays nothing and keeps its PGN.
    let again = run_match(d, &argv(&["-resume", "state.json"]));
    let (stdout, stderr) = text(&again);
    assert!(again.status.success(), "{stdout}\n{stderr}");
    assert_eq!(rounds_text(&stdout), rounds_text(&reference));
    assert_eq!(games_in(&d.join("k.pgn")), GAMES);
    // And a new knockout may now start over the finished save.
    assert!(!std::fs::read_to_string(d.join("state.json"))
        .unwrap()
        .contains("\"finished\": false"));
}

#[test]
fn bad_knockout_resume_files_are_refused_and_the_pgn_kept() {
    let dir = scratch::dir("match-ko-resume-bad");
    let d = dir.path();
    kill_at(d, &knockout_args(d, 4, 200), 5);
    let state = std::fs::read_to_string(d.join("state.json")).unwrap();
    let pgn = d.join("k.pgn");
    let pgn_before = std::fs::read(&pgn).unwrap();
    let refused = |what: &str, extra: &[String], want: &str| {
        assert_resume_refused(d, &pgn, &pgn_before, what, extra, want)
    };
    std::fs::write(d.join("state.json"), &state[..state.len() / 2]).unwrap();
    refused("truncated", &[], "truncated");
    let edited = state.replacen("\"results\": \"D", "\"results\": \"W", 1);
    assert_ne!(edited, state, "the first game is saved as a draw");
    std::fs::write(d.join("state.json"), edited).unwrap();
    refused("edited", &[], "checksum");
    std::fs::write(d.join("state.json"), &state).unwrap();
    refused("other draw", &knockout_args(d, 5, 200), "another schedule");
    refused(
        "other limits",
        &knockout_args(d, 4, 300),
        "another schedule",
    );
    // The PGN lost a game the save holds: refused, and left as it is.
    let text_now = String::from_utf8(pgn_before.clone()).unwrap();
    let last = text_now.rfind("[Event ").unwrap();
    let cut = text_now[..last].rfind("[Event ").unwrap();
    std::fs::write(d.join("k.pgn"), &text_now[..cut]).unwrap();
    let out = run_match(d, &argv(&["-resume", "state.json"]));
    assert!(!out.status.success());
    assert!(text(&out).1.contains("k.pgn"), "{:?}", text(&out));
    assert_eq!(
        std::fs::read(d.join("k.pgn")).unwrap(),
        &text_now.as_bytes()[..cut]
    );
    // Put back, it resumes to the end with every game once.
    std::fs::write(d.join("k.pgn"), &pgn_before).unwrap();
    let out = run_match(d, &argv(&["-resume", "state.json"]));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let rounds: Vec<usize> = schedule_of(&d.join("k.pgn")).iter().map(|g| g.0).collect();
    assert_eq!(rounds, (1..=GAMES).collect::<Vec<_>>());
}
