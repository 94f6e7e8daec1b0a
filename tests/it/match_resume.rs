//! `wily match -autosave FILE` and `-resume FILE` with wily itself as the engines: a
//! match killed with SIGKILL (and one stopped by Ctrl-C) goes on to the end with every
//! game in the PGN exactly once and the statistics of all of them; a truncated or edited
//! resume file, a PGN that changed, or a command line with another schedule is refused
//! and leaves the PGN as it was.

use crate::match_support;
use crate::scratch;

use match_support::{
    argv, assert_resume_refused, games, games_in, openings, resume_match, run_match, signal_at,
    spawn_match, text, wily_cmd,
};
use std::path::Path;
use std::time::Duration;

/// The match's own options (the test adds `-quiet`).
fn match_args(dir: &Path, games: u32, extra: &str) -> Vec<String> {
    let book = openings(dir);
    argv(&[
        "-engine",
        &wily_cmd("uci"),
        "name=alpha",
        "option.Hash=8",
        "-engine",
        &wily_cmd("uci"),
        "name=beta",
        "option.Hash=8",
        "-each",
        "nodes=3000",
        "-games",
        &games.to_string(),
        "@-repeat -concurrency 2 -pgn games.pgn -autosave state.json -openings",
        &format!("file={}", book.display()),
        "order=random",
        "srand=5",
        &format!("@{extra}"),
    ])
    .into_iter()
    .filter(|a| !a.is_empty())
    .collect()
}

/// Starts the match and kills it with `signal` once the PGN holds `at` games.
fn start_and_stop(dir: &Path, args: &[String], at: usize, signal: i32) -> std::process::Output {
    let pgn = dir.join("games.pgn");
    let mut child = spawn_match(dir, args, true);
    signal_at(
        &mut child,
        &pgn,
        at,
        signal,
        Duration::from_millis(20),
        "match",
    );
    child.wait_with_output().expect("wait")
}

/// Every game once: rounds 1..=n, each once; returns alpha's (wins, draws, losses).
fn check_pgn(pgn: &Path, n: usize) -> (u32, u32, u32) {
    let g = games(pgn);
    let mut rounds: Vec<usize> = g
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(
        rounds,
        (1..=n).collect::<Vec<_>>(),
        "each game exactly once"
    );
    let mut wdl = (0, 0, 0);
    for game in &g {
        game.replay().expect("a legal game");
        let alpha_white = game.tag("White") == Some("alpha");
        match (game.result.as_str(), alpha_white) {
            ("1/2-1/2", _) => wdl.1 += 1,
            ("1-0", true) | ("0-1", false) => wdl.0 += 1,
            _ => wdl.2 += 1,
        }
    }
    wdl
}

#[test]
fn kill_9_then_resume_plays_every_game_once() {
    let dir = scratch::dir("match-resume-kill");
    let d = dir.path();
    let args = match_args(d, 24, "-autosaveinterval 3");
    let out = start_and_stop(d, &args, 7, libc::SIGKILL);
    assert!(!out.status.success(), "killed");
    let before = games_in(&d.join("games.pgn"));
    assert!(before < 24, "stopped mid-match ({before} games)");
    // Resume from another folder: the file knows where the match was started.
    let out = resume_match(&d.join("state.json"));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Match finished: 24 of 24 games"),
        "{stdout}"
    );
    assert!(stderr.contains("resume: "), "{stderr}");
    assert!(stdout.contains("Resumed: "), "{stdout}");
    let (w, dr, l) = check_pgn(&d.join("games.pgn"), 24);
    assert!(
        stdout.contains(&format!("Games: 24, Wins: {w}, Draws: {dr}, Losses: {l},")),
        "the statistics count every game of the PGN: {stdout}"
    );
    assert!(stdout.contains("Ptnml(0-2): ["), "{stdout}");
    let pairs: u32 = stdout
        .split("Ptnml(0-2): [")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .map(|p| p.split(", ").map(|x| x.parse::<u32>().unwrap()).sum())
        .unwrap();
    assert_eq!(pairs, 12, "every game pair counted once: {stdout}");
    // A finished match resumed again plays nothing.
    let again = run_match(d, &argv(&["-resume", "state.json"]));
    let (stdout, stderr) = text(&again);
    assert!(again.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Match finished: 24 of 24 games"),
        "{stdout}"
    );
    assert_eq!(games_in(&d.join("games.pgn")), 24);
}

#[test]
fn ctrl_c_then_resume_with_the_same_options() {
    let dir = scratch::dir("match-resume-int");
    let d = dir.path();
    let args = match_args(d, 16, "");
    let out = start_and_stop(d, &args, 3, libc::SIGINT);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Match stopped by Ctrl-C"), "{stdout}");
    // A fresh start over an unfinished save is refused.
    let fresh = run_match(d, &args);
    assert!(!fresh.status.success());
    assert!(
        text(&fresh).1.contains("unfinished match"),
        "{:?}",
        text(&fresh)
    );
    let mut resume = args.clone();
    resume.extend(argv(&["-resume", "state.json"]));
    let out = run_match(d, &resume);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Match finished: 16 of 16 games"),
        "{stdout}"
    );
    check_pgn(&d.join("games.pgn"), 16);
}

#[test]
fn resume_with_only_another_concurrency_keeps_the_saved_match() {
    let dir = scratch::dir("match-resume-conc");
    let d = dir.path();
    let args = match_args(d, 12, "");
    let out = start_and_stop(d, &args, 3, libc::SIGINT);
    assert!(out.status.success(), "{:?}", text(&out));
    // No -engine given: the saved engines, openings and games, one game at a time now.
    let out = run_match(d, &argv(&["-resume", "state.json", "-concurrency", "1"]));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Match finished: 12 of 12 games"),
        "{stdout}"
    );
    check_pgn(&d.join("games.pgn"), 12);
    // The save now says -concurrency 1 after the saved options.
    let saved = std::fs::read_to_string(d.join("state.json")).expect("state");
    let at = saved.rfind("\"-concurrency\"").expect("concurrency saved");
    assert!(saved[at..].contains("\"1\""), "{saved}");
    // Anything else alone is a full set of options, and without engines it is refused.
    let out = run_match(d, &argv(&["-resume", "state.json", "-games", "12"]));
    assert!(!out.status.success());
}

#[test]
fn bad_resume_files_are_refused_and_the_pgn_kept() {
    let dir = scratch::dir("match-resume-bad");
    let d = dir.path();
    let args = match_args(d, 40, "-autosaveinterval 1");
    start_and_stop(d, &args, 4, libc::SIGKILL);
    let state = std::fs::read_to_string(d.join("state.json")).unwrap();
    let pgn = d.join("games.pgn");
    let pgn_before = std::fs::read(&pgn).unwrap();
    let refused = |what: &str, extra: &[String], want: &str| {
        assert_resume_refused(d, &pgn, &pgn_before, what, extra, want)
    };
    std::fs::write(d.join("state.json"), &state[..state.len() * 2 / 3]).unwrap();
    refused("truncated", &[], "truncated");
    // One finished game's result changed from what was played.
    let at = state.find("\"results\": \"").unwrap() + 12;
    let first = state[at..].find(['W', 'B', 'D']).unwrap() + at;
    let flip = if &state[first..=first] == "D" {
        "W"
    } else {
        "D"
    };
    let mut edited = state.clone();
    edited.replace_range(first..=first, flip);
    std::fs::write(d.join("state.json"), edited).unwrap();
    refused("edited", &[], "checksum");
    std::fs::write(d.join("state.json"), &state).unwrap();
    refused("other schedule", &match_args(d, 30, ""), "another schedule");
    let other_node_count: Vec<String> = match_args(d, 40, "")
        .into_iter()
        .map(|a| {
            if a == "nodes=3000" {
                "nodes=4000".into()
            } else {
                a
            }
        })
        .collect();
    refused("other limits", &other_node_count, "another schedule");
    // A PGN that lost its last two games is not the one the save describes (the save
    // may predate the last game, never the last two: it follows every game).
    let text_now = String::from_utf8(pgn_before.clone()).unwrap();
    let last = text_now.rfind("[Event ").unwrap();
    let cut = text_now[..last].rfind("[Event ").unwrap();
    std::fs::write(d.join("games.pgn"), &text_now[..cut]).unwrap();
    let out = run_match(d, &argv(&["-resume", "state.json"]));
    assert!(!out.status.success());
    assert!(text(&out).1.contains("games.pgn"), "{:?}", text(&out));
    assert_eq!(
        std::fs::read(d.join("games.pgn")).unwrap(),
        &text_now.as_bytes()[..cut]
    );
    // Put back, it resumes.
    std::fs::write(d.join("games.pgn"), &pgn_before).unwrap();
    let out = run_match(d, &argv(&["-resume", "state.json", "-games"]));
    assert!(
        !out.status.success(),
        "a stray option is an error, not ignored"
    );
}
