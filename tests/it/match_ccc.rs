//! `wily match` with c-chess-cli's syntax and meanings (its README is the reference): the
//! README's example command line with wily as both engines, `-version`, the four PGN
//! verbosity levels, the sample file's `FEN,Eval,Result` and binary records, engine
//! names from `id name`, `cmd=` with a `/` running in the program's folder, a bare
//! `-log`, a random opening order drawn anew each run, and `timeout=` as the time an
//! engine may stay silent before it counts as hung.

use crate::match_support;
use crate::scratch;

use match_support::{argv, broken_cmd, games, run_match, text, wily, wily_cmd};
use std::path::Path;
use wily::chess::parse_fen;

/// Runs the match and insists that it succeeds; returns standard output.
fn ok(dir: &Path, parts: &[&str]) -> String {
    let out = run_match(dir, &argv(parts));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    stdout
}

/// Positions after two plies from the start: 400 distinct openings.
fn many_openings(dir: &Path) -> std::path::PathBuf {
    let mut lines = String::new();
    let start = cozy_chess::Board::default();
    let mut first = Vec::new();
    start.generate_moves(|ms| {
        first.extend(ms);
        false
    });
    for m in first {
        let mut b = start.clone();
        b.play_unchecked(m);
        let mut second = Vec::new();
        b.generate_moves(|ms| {
            second.extend(ms);
            false
        });
        for r in second {
            let mut c = b.clone();
            c.play_unchecked(r);
            let fen = c.to_string();
            let four: Vec<&str> = fen.split_whitespace().take(4).collect();
            lines.push_str(&four.join(" "));
            lines.push('\n');
        }
    }
    let p = dir.join("many.epd");
    std::fs::write(&p, lines).unwrap();
    p
}

#[test]
fn version_prints_and_exits_0() {
    let out = std::process::Command::new(wily())
        .args(["match", "-version"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.starts_with("wily "), "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
}

/// The README's example with its engines and files replaced by wily's (and fewer
/// games, nodes and depth, to keep the test short): accepted as written, and played.
#[test]
fn the_readme_example_runs() {
    let dir = scratch::dir("match-ccc-readme");
    let d = dir.path();
    // Chess960 positions in X-FEN and Shredder-FEN, told apart from standard chess
    // position by position, and one standard position.
    std::fs::write(
        d.join("chess960.epd"),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n\
         qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKRN w KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let engine = wily_cmd("uci");
    let stdout = ok(
        d,
        &[
            "@-each tc=4+0.04 option.Hash=8 option.Threads=1",
            "-engine",
            &engine,
            "option.Time Buffer=80",
            "nodes=2000",
            "-engine",
            &engine,
            "depth=3",
            "@-games 4 -concurrency 2 -openings file=chess960.epd order=random -repeat",
            "@-sprt elo0=1 elo1=5 -resign count=3 score=700 -draw number=40 count=8 score=10",
            "@-pgn out.pgn 2",
        ],
    );
    assert!(stdout.contains("Match finished: 4 of 4 games"), "{stdout}");
    let g = games(&d.join("out.pgn"));
    assert_eq!(g.len(), 4);
    let mut variants = 0;
    for game in &g {
        game.replay()
            .unwrap_or_else(|e| panic!("replay: {e}: {game:?}"));
        // Named by their id name, made unique.
        let mut players = [game.tag("White").unwrap(), game.tag("Black").unwrap()];
        players.sort_unstable();
        assert!(players[0].starts_with("wily "), "{players:?}");
        assert_eq!(format!("{}-2", players[0]), players[1]);
        variants += (game.tag("Variant") == Some("Chess960")) as usize;
        // Verbosity 2: {score/depth}, no time.
        let (_, rest) = game.moves.split_last().unwrap();
        let c = rest
            .iter()
            .find_map(|m| m.comment.as_deref())
            .expect("comments");
        assert!(c.contains('/') && !c.ends_with('s'), "{c}");
    }
    let standard = g
        .iter()
        .filter(|x| x.tag("FEN").unwrap_or("").contains("4P3"))
        .count();
    assert_eq!(variants + standard, 4, "Chess960 detected by position");
}

/// One quick game between two wily engines at the given PGN verbosity; its text.
fn pgn_at(d: &Path, level: &str) -> (String, wily::chess::PgnGame) {
    let pgn = d.join(format!("v{level}.pgn"));
    let engine = wily_cmd("uci");
    let mut parts = vec![
        "-engine",
        &engine,
        "-engine",
        &engine,
        "@-each depth=2 -maxmoves 6 -pgn",
        pgn.to_str().unwrap(),
    ];
    if !level.is_empty() {
        parts.push(level);
    }
    ok(d, &parts);
    let g = games(&pgn).remove(0);
    (std::fs::read_to_string(&pgn).unwrap(), g)
}

#[test]
fn pgn_verbosity_levels_0_to_3() {
    let dir = scratch::dir("match-ccc-pgn");
    let d = dir.path();
    // 0: headers and results only.
    let (t, g) = pgn_at(d, "0");
    assert!(g.moves.is_empty(), "{t}");
    assert!(
        t.contains("[Result \"1/2-1/2\"]") && !t.contains('{'),
        "{t}"
    );
    // 1: the moves too (the closing comment says why the game ended).
    let (t, g) = pgn_at(d, "1");
    assert_eq!(g.moves.len(), 12, "{t}");
    assert!(g.moves[..11].iter().all(|m| m.comment.is_none()), "{t}");
    // 2: {score/depth}.
    let (t, g) = pgn_at(d, "2");
    let c = g.moves[0].comment.as_deref().unwrap_or_default();
    assert!(c.ends_with("/2") && !c.contains(' '), "{c} in {t}");
    // 3 and the default: {score/depth time}.
    for level in ["3", ""] {
        let (t, g) = pgn_at(d, level);
        let c = g.moves[0].comment.as_deref().unwrap_or_default();
        let (sd, time) = c.split_once(' ').unwrap_or_else(|| panic!("{c} in {t}"));
        assert!(sd.ends_with("/2") && time.ends_with('s'), "{c}");
    }
}

#[test]
fn samples_as_fen_eval_result_and_binary() {
    let dir = scratch::dir("match-ccc-sample");
    let d = dir.path();
    let engine = wily_cmd("uci");
    let run = |sample: &str| {
        ok(
            d,
            &[
                "-engine",
                &engine,
                "-engine",
                &engine,
                "@-each depth=2 -maxmoves 10 -sample",
                sample,
            ],
        )
    };
    let stdout = run("format=csv");
    // The default file, no header, every engine move (20 plies), results 0/1/2 (a
    // draw by the maximum length: 1 for both sides).
    let text = std::fs::read_to_string(d.join("sample.csv")).expect("sample.csv");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20, "{text}");
    for l in &lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 3, "{l}");
        parse_fen(f[0]).expect("FEN");
        assert!(f[1].parse::<i16>().is_ok(), "{l}");
        assert_eq!(f[2], "1", "{l}");
    }
    assert!(stdout.contains("Training samples written: 20"), "{stdout}");
    run("format=bin");
    let bytes = std::fs::read(d.join("sample.bin")).expect("sample.bin");
    let mut at = 0;
    let mut n = 0;
    while at < bytes.len() {
        let occ = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let len = 8 + 1 + (occ.count_ones() as usize).div_ceil(2) + 2 + 1;
        assert!(len <= 28);
        assert_eq!(bytes[at + 8] & 1, (n % 2) as u8, "turn alternates");
        assert_eq!(bytes[at + len - 1], 1, "a draw");
        at += len;
        n += 1;
    }
    assert_eq!((at, n), (bytes.len(), 20));
}

#[test]
fn cmd_with_a_slash_runs_in_its_folder_and_a_bare_log() {
    let dir = scratch::dir("match-ccc-dir");
    let d = dir.path();
    let sub = d.join("engines");
    std::fs::create_dir(&sub).unwrap();
    let script = sub.join("eng.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\npwd > cwd.txt\nexec {} uci\n", wily()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    ok(
        d,
        &[
            "@-engine cmd=engines/eng.sh name=a -engine cmd=engines/eng.sh name=b",
            "@-each depth=1 -maxmoves 2 -log",
        ],
    );
    let cwd = std::fs::read_to_string(sub.join("cwd.txt")).expect("ran in engines/");
    assert_eq!(
        Path::new(cwd.trim()).canonicalize().unwrap(),
        sub.canonicalize().unwrap()
    );
    assert!(!d.join("cwd.txt").exists());
    // -log without a value: the engines' I/O in the current folder.
    let log = std::fs::read_to_string(d.join("000001-a.log")).expect("log of a");
    assert!(log.contains("> uci"), "{log}");
    // wily's dir= says where it runs instead.
    ok(
        d,
        &[
            "@-engine cmd=engines/eng.sh name=a dir=. -engine cmd=engines/eng.sh name=b dir=.",
            "@-each depth=1 -maxmoves 2",
        ],
    );
    assert!(
        d.join("cwd.txt").exists(),
        "dir=. runs in the match's folder"
    );
}

#[test]
fn random_order_without_srand_changes_between_runs() {
    let dir = scratch::dir("match-ccc-srand");
    let d = dir.path();
    let book = many_openings(d);
    let engine = wily_cmd("uci");
    let mut seen = Vec::new();
    for run in 0..3 {
        let pgn = d.join(format!("r{run}.pgn"));
        ok(
            d,
            &[
                "-engine",
                &engine,
                "name=a",
                "-engine",
                &engine,
                "name=b",
                "@-each depth=1 -maxmoves 1 -openings",
                &format!("file={}", book.display()),
                "order=random",
                "-pgn",
                pgn.to_str().unwrap(),
                "-autosave",
                d.join(format!("r{run}.json")).to_str().unwrap(),
            ],
        );
        seen.push(games(&pgn)[0].tag("FEN").unwrap().to_string());
        // The drawn seed is saved with the match, so a resume plays the same openings.
        let state = std::fs::read_to_string(d.join(format!("r{run}.json"))).unwrap();
        assert!(state.contains("-autoseed"), "{state}");
    }
    seen.dedup();
    assert!(
        seen.len() > 1,
        "the same first opening three times: {seen:?}"
    );
}

/// c-chess-cli's `timeout=N`: an engine that does not answer for N seconds hangs. The
/// broken engine answers `isready` at start-up only, so each game it would play ends
/// after `timeout=1`, well before wily's 30-second `waitlimit`; it is named by its
/// `id name` (`broken-noready`).
#[test]
fn timeout_is_how_long_an_engine_may_stay_silent() {
    let Some(cmd) = broken_cmd("noready", "uci") else {
        return;
    };
    let dir = scratch::dir("match-ccc-timeout");
    let d = dir.path();
    let started = std::time::Instant::now();
    let stdout = ok(
        d,
        &[
            "-engine",
            &cmd,
            "-engine",
            &wily_cmd("uci"),
            "name=wily",
            "@-each nodes=500 timeout=1 -games 2 -repeat -pgn g.pgn",
        ],
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "not the 30 s waitlimit: {stdout}"
    );
    assert!(stdout.contains("broken-noready vs wily:"), "{stdout}");
    assert!(stdout.contains("Wins: 0, Draws: 0, Losses: 2"), "{stdout}");
    for game in games(&d.join("g.pgn")) {
        assert_eq!(game.tag("Termination"), Some("abandoned"), "{game:?}");
        let why = game
            .comment
            .clone()
            .or_else(|| game.moves.last().and_then(|m| m.comment.clone()));
        let why = why.unwrap_or_default();
        assert!(why.contains("within 1 s"), "{why}");
    }
}

/// A random order without `srand` survives a kill: the resumed match plays the games
/// that were left with the openings the schedule had (the drawn seed was saved), so
/// every game is in the PGN once.
#[test]
fn a_drawn_seed_resumes_with_the_same_openings() {
    use match_support::{resume_match, signal_at, spawn_match};
    let dir = scratch::dir("match-ccc-resume");
    let d = dir.path();
    let book = many_openings(d);
    let engine = wily_cmd("uci");
    let args = argv(&[
        "-engine",
        &engine,
        "name=a",
        "-engine",
        &engine,
        "name=b",
        "@-each nodes=3000 -games 8 -repeat -concurrency 2 -pgn games.pgn",
        "@-autosave state.json -autosaveinterval 1 -openings",
        &format!("file={}", book.display()),
        "order=random",
    ]);
    let pgn = d.join("games.pgn");
    let mut child = spawn_match(d, &args, true);
    signal_at(
        &mut child,
        &pgn,
        2,
        libc::SIGKILL,
        std::time::Duration::from_millis(20),
        "match",
    );
    child.wait().unwrap();
    let out = resume_match(&d.join("state.json"));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let g = games(&pgn);
    let mut rounds: Vec<u32> = g
        .iter()
        .map(|x| x.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=8).collect::<Vec<_>>(), "{stdout}");
    // The two games of each pair share their opening.
    let mut by_round: Vec<_> = g.iter().collect();
    by_round.sort_by_key(|x| x.tag("Round").unwrap().parse::<u32>().unwrap());
    for pair in by_round.chunks(2) {
        assert_eq!(pair[0].tag("FEN"), pair[1].tag("FEN"));
    }
}
