//! `wily match` with wily itself as the engines, over UCI and xboard: full games at
//! node or depth limits (PGN, tags, legal replay, training samples), a gauntlet table,
//! an SPRT that stops early, Chess960 over UCI, the TOML match file, time odds, and
//! Ctrl-C keeping every finished game.

use crate::match_support;
use crate::scratch;

use match_support::{argv, games, openings, run_match, text, wily, wily_cmd};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wily::chess::{parse_fen, GameStatus};

/// Checks a game replays legally and that a game ended by the rules really ended so.
fn check_game(g: &wily::chess::PgnGame) {
    let pos = g.replay().unwrap_or_else(|e| panic!("replay: {e}: {g:?}"));
    assert_eq!(g.tag("PlyCount"), Some(pos.ply().to_string().as_str()));
    let ending = g
        .moves
        .last()
        .and_then(|m| m.comment.clone())
        .unwrap_or_default();
    if g.tag("Termination") == Some("normal") && !ending.contains("resign") {
        let status = pos.status();
        assert!(status.is_over(), "normal end but {status}: {ending}");
        assert_eq!(status.result(), Some(g.result.as_str()));
    }
    if let GameStatus::Checkmate(_) = pos.status() {
        assert!(ending.contains("mates"), "{ending}");
    }
}

#[test]
fn uci_against_xboard_with_pgn_and_samples() {
    let dir = scratch::dir("match-games");
    let pgn = dir.path().join("games.pgn");
    let csv = dir.path().join("samples.csv");
    let book = openings(dir.path());
    let out = run_match(
        dir.path(),
        &argv(&[
            "-engine",
            &wily_cmd("uci"),
            "name=wily-uci",
            "option.Hash=8",
            "-engine",
            &wily_cmd("xboard"),
            "name=wily-xb",
            "proto=xboard",
            "@-each nodes=3000 -games 4 -repeat -concurrency 2",
            "@-resign count=3 score=600 both=on -draw number=25 count=4 score=15 -maxmoves 90",
            "-openings",
            &format!("file={}", book.display()),
            "order=random",
            "srand=3",
            "-pgn",
            pgn.to_str().unwrap(),
            "-sample",
            &format!("file={}", csv.display()),
            "freq=0.5",
            "format=wily",
            "quiet=on",
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Match finished: 4 of 4 games"), "{stdout}");
    assert!(stdout.contains("wily-uci vs wily-xb:"), "{stdout}");
    assert!(stdout.contains("Ptnml(0-2): ["), "{stdout}");
    assert!(
        stdout.contains("runner overhead per engine move: mean"),
        "{stdout}"
    );
    let g = games(&pgn);
    assert_eq!(g.len(), 4);
    for game in &g {
        check_game(game);
        assert_eq!(game.tag("TimeControl"), Some("nodes=3000"));
        assert!(game.tag("FEN").is_some(), "openings are set-up positions");
        assert!(game.tag("Opening").is_some());
        let term = game.tag("Termination").unwrap_or_default();
        assert!(
            ["normal", "adjudication"].contains(&term),
            "no faults expected: {term}"
        );
        assert!(
            game.moves[0]
                .comment
                .as_deref()
                .is_some_and(|c| c.ends_with('s')),
            "per-move comments"
        );
    }
    // The two games of a pair share their opening, colours reversed.
    for pair in g.chunks(2) {
        if pair.len() == 2 && pair[0].tag("Round") == Some("1") {
            assert_eq!(pair[0].tag("FEN"), pair[1].tag("FEN"));
            assert_eq!(pair[0].tag("White"), pair[1].tag("Black"));
        }
    }
    let samples = std::fs::read_to_string(&csv).expect("samples");
    let mut lines = samples.lines();
    assert_eq!(lines.next(), Some("fen,score,result"));
    let mut n = 0;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 3, "{l}");
        let board = parse_fen(f[0]).expect("sample FEN");
        assert!(board.checkers().is_empty(), "no positions in check: {l}");
        assert!(f[1].is_empty() || f[1].parse::<i32>().is_ok(), "{l}");
        assert!(["1", "0.5", "0"].contains(&f[2]), "{l}");
        n += 1;
    }
    assert!(n > 0, "some samples at freq 0.5");
    assert!(
        stdout.contains(&format!("Training samples written: {n}")),
        "{stdout}"
    );
}

#[test]
fn gauntlet_prints_a_table() {
    let dir = scratch::dir("match-gauntlet");
    let out = run_match(
        dir.path(),
        &argv(&[
            "-engine",
            &wily_cmd("uci"),
            "name=hero",
            "-engine",
            &wily_cmd("uci"),
            "name=d1",
            "depth=1",
            "-engine",
            &wily_cmd("xboard"),
            "name=xb",
            "proto=xboard",
            "@-each depth=3 -gauntlet -games 2 -repeat -concurrency 2 -maxmoves 40",
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Match finished: 4 of 4 games"), "{stdout}");
    assert!(
        stdout.contains("hero vs d1:") && stdout.contains("hero vs xb:"),
        "{stdout}"
    );
    assert!(!stdout.contains("d1 vs xb:"), "a gauntlet: {stdout}");
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.contains("Rank"))
        .take_while(|l| !l.starts_with("runner"))
        .collect();
    assert_eq!(table.len(), 4, "header and three engines: {stdout}");
    let hero = table
        .iter()
        .find(|l| l.contains(" hero "))
        .expect("hero row");
    assert!(
        hero.split_whitespace().nth(2) == Some("4"),
        "hero played 4 games: {hero}"
    );
}

#[test]
fn sprt_stops_at_a_bound() {
    let dir = scratch::dir("match-sprt");
    let out = run_match(
        dir.path(),
        &argv(&[
            "-engine",
            &wily_cmd("uci"),
            "name=strong",
            "depth=5",
            "-engine",
            &wily_cmd("uci"),
            "name=weak",
            "depth=1",
            "@-games 60 -concurrency 2 -resign count=2 score=400 both=on -maxmoves 80",
            "@-sprt elo0=0 elo1=150 alpha=0.05 beta=0.05",
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("SPRT finished: H1 accepted"), "{stdout}");
    assert!(stdout.contains("SPRT: LLR"), "{stdout}");
    let played: usize = stdout
        .split("Match SPRT finished: H1 accepted (the change is better by elo1): ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("games played");
    assert!(played < 60, "stopped early: {stdout}");
}

#[test]
fn chess960_over_uci() {
    let dir = scratch::dir("match-960");
    let pgn = dir.path().join("960.pgn");
    let out = run_match(
        dir.path(),
        &argv(&[
            "-engine",
            &wily_cmd("uci"),
            "-engine",
            &wily_cmd("uci"),
            "@-each depth=3 -variant chess960 -games 4 -repeat -concurrency 2 -maxmoves 60",
            "@-openings frc=0-959 order=random srand=11 -pgn",
            pgn.to_str().unwrap(),
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let g = games(&pgn);
    assert_eq!(g.len(), 4);
    let mut castled = false;
    for game in &g {
        assert_eq!(game.tag("Variant"), Some("Chess960"));
        assert!(game
            .tag("Opening")
            .is_some_and(|o| o.starts_with("chess960 #")));
        check_game(game);
        let term = game.tag("Termination").unwrap_or_default();
        assert!(
            ["normal", "adjudication"].contains(&term),
            "{term}: {game:?}"
        );
        castled |= game.moves.iter().any(|m| m.san.starts_with("O-O"));
    }
    println!("castling seen: {castled}");
}

#[test]
fn toml_file_and_time_odds() {
    let dir = scratch::dir("match-toml");
    let pgn = dir.path().join("odds.pgn");
    let file = dir.path().join("match.toml");
    std::fs::write(
        &file,
        format!(
            r#"
games = 2
repeat = true
maxmoves = 8
pgn = ["{}", 1]
event = "odds test"
[each]
timemargin = 3000
[[engine]]
cmd = "{w} uci"
name = "fast"
tc = "3+0.05"
[[engine]]
cmd = "{w} uci"
name = "slow"
tc = "6+0.05"
option = {{ Hash = 8 }}
"#,
            pgn.display(),
            w = wily()
        ),
    )
    .unwrap();
    let out = run_match(dir.path(), &argv(&["-file", file.to_str().unwrap()]));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let g = games(&pgn);
    assert_eq!(g.len(), 2);
    for game in &g {
        assert_eq!(game.tag("Event"), Some("odds test"));
        let (w, b) = (game.tag("WhiteTimeControl"), game.tag("BlackTimeControl"));
        let fast = if game.tag("White") == Some("fast") {
            w
        } else {
            b
        };
        assert_eq!(fast, Some("3+0.05"));
        let (last, rest) = game.moves.split_last().expect("moves");
        assert!(
            rest.iter().all(|m| m.comment.is_none()),
            "verbosity 1: no move comments"
        );
        let ending = last.comment.as_deref().unwrap_or_default();
        assert!(
            ending.contains("maximum length"),
            "closing comment: {ending}"
        );
        assert_eq!(
            game.tag("Termination"),
            Some("adjudication"),
            "maximum length"
        );
    }
}

#[test]
fn ctrl_c_keeps_finished_games() {
    let dir = scratch::dir("match-sigint");
    let pgn = dir.path().join("games.pgn");
    let mut child = Command::new(wily())
        .arg("match")
        .args(argv(&[
            "-engine",
            &wily_cmd("uci"),
            "-engine",
            &wily_cmd("uci"),
            "@-each nodes=20000 -games 200 -repeat -concurrency 2 -quiet -pgn",
            pgn.to_str().unwrap(),
        ]))
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start wily match");
    let start = Instant::now();
    while games_in(&pgn) < 2 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(100));
    }
    // SAFETY: kill(2) on the child we started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().expect("wait").is_none() {
        assert!(
            Instant::now() < deadline,
            "wily match did not stop after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Match stopped by Ctrl-C"), "{stdout}");
    let n = games(&pgn).len();
    assert!((2..200).contains(&n), "{n} games");
    assert!(
        stdout.contains(&format!("Games: {n},")),
        "summary counts the PGN's games: {stdout}"
    );
}

fn games_in(pgn: &std::path::Path) -> usize {
    std::fs::read_to_string(pgn)
        .map(|t| t.matches("[Event ").count())
        .unwrap_or(0)
}
