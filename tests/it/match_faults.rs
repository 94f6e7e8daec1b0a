//! `wily match` against a deliberately broken engine (tests/fixtures/broken_engine.py):
//! for each way an engine can fail (crash, hang, illegal move, garbage, no `uciok`, too
//! slow for its clock) the broken engine loses both games of a pair, with the PGN's
//! `Termination` tag and closing comment saying why, is restarted for the second game,
//! and the match finishes normally. Skips when python3 is missing.

use crate::match_support;
use crate::scratch;

use match_support::{argv, broken_cmd, games, run_match, text, wily_cmd};

/// Plays the broken engine (`mode`, `proto`) against wily over UCI for one game pair
/// and checks both games: the broken side lost, with `tag` and `words` in the PGN.
fn broken_pair(mode: &str, proto: &str, limits: &str, tag: &str, words: &str) {
    let Some(cmd) = broken_cmd(mode, proto) else {
        return;
    };
    let dir = scratch::dir(&format!("match-{mode}-{proto}"));
    let pgn = dir.path().join("games.pgn");
    let logs = dir.path().join("logs");
    let proto_arg = format!("proto={proto}");
    let out = run_match(
        dir.path(),
        &argv(&[
            "-engine",
            &cmd,
            "name=broken",
            &proto_arg,
            "-engine",
            &wily_cmd("uci"),
            "name=wily",
            &format!("@-each {limits} timeout=2 waitlimit=2 -games 2 -repeat -pgn"),
            pgn.to_str().unwrap(),
            "-log",
            logs.to_str().unwrap(),
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{mode}: {stdout}\n{stderr}");
    assert!(stdout.contains("Match finished: 2 of 2 games"), "{stdout}");
    assert!(stdout.contains("Wins: 0, Draws: 0, Losses: 2"), "{stdout}");
    let g = games(&pgn);
    assert_eq!(g.len(), 2);
    for (i, game) in g.iter().enumerate() {
        let broken_white = game.tag("White") == Some("broken");
        assert_eq!(broken_white, i == 0, "colours alternate in a pair");
        assert_eq!(game.result, if broken_white { "0-1" } else { "1-0" });
        assert_eq!(game.tag("Termination"), Some(tag), "{mode}: {game:?}");
        let ending = game
            .moves
            .last()
            .and_then(|m| m.comment.clone())
            .or(game.comment.clone())
            .unwrap_or_default();
        let side = if broken_white { "White" } else { "Black" };
        assert!(
            ending.contains(side) && ending.contains(words),
            "{mode}: '{ending}'"
        );
    }
    // A fresh process for the second game: its log starts with the handshake.
    let hello = if proto == "uci" {
        "> uci"
    } else {
        "> protover 2"
    };
    for n in 1..=2 {
        let log =
            std::fs::read_to_string(logs.join(format!("{n:06}-broken.log"))).expect("engine log");
        assert!(log.contains(hello), "game {n} log: {log}");
    }
}

#[test]
fn crash_loses_and_restarts() {
    broken_pair(
        "crash",
        "uci",
        "nodes=500",
        "abandoned",
        "engine crashed (signal 11)",
    );
}

#[test]
fn hang_without_clock_times_out() {
    broken_pair(
        "hang",
        "uci",
        "nodes=500",
        "abandoned",
        "engine hung: no move within 2 s",
    );
}

#[test]
fn hang_under_clock_loses_on_time() {
    broken_pair("hang", "uci", "tc=1+0", "time forfeit", "loses on time");
}

#[test]
fn illegal_move_loses() {
    broken_pair(
        "illegal",
        "uci",
        "nodes=500",
        "rules infraction",
        "illegal move 'e2e5'",
    );
}

#[test]
fn garbage_loses() {
    broken_pair(
        "garbage",
        "uci",
        "nodes=500",
        "rules infraction",
        "line longer than",
    );
}

#[test]
fn no_uciok_fails_to_start() {
    broken_pair(
        "nouciok",
        "uci",
        "nodes=500",
        "abandoned",
        "no 'uciok' within 2 s",
    );
}

#[test]
fn slow_engine_loses_on_time() {
    broken_pair("slow", "uci", "tc=1+0", "time forfeit", "loses on time");
}

#[test]
fn xboard_faults() {
    broken_pair(
        "crash",
        "xboard",
        "nodes=500",
        "abandoned",
        "engine crashed (signal 11)",
    );
    broken_pair(
        "illegal",
        "xboard",
        "nodes=500",
        "rules infraction",
        "illegal move 'e2e5'",
    );
    broken_pair("nouciok", "xboard", "nodes=500", "abandoned", "no 'done=1'");
}

#[test]
fn missing_program_is_an_error_before_the_match() {
    let dir = scratch::dir("match-missing");
    let out = run_match(
        dir.path(),
        &argv(&[
            "-engine",
            "cmd=/nonexistent/engine",
            "-engine",
            &wily_cmd("uci"),
            "@-each nodes=100",
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stderr.contains("cannot run './engine' in /nonexistent"),
        "{stderr}"
    );
}
