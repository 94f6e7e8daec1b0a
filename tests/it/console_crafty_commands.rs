//! The Crafty commands the console gained or changed to match Crafty's documentation,
//! through the real binary: clock/st/operator time forms, `mt=N`, `log N [FILE]`, `ls`,
//! `display PIECE`, `ANSI`, the short `setboard`, free-form `edit`, `pgn Result`,
//! `mode tournament`, `computer`, `search MOVE` against the book, the command-line paths,
//! and one-line answers for commands that mean nothing to wily.

use crate::console_child;
use console_child::{temp_dir, Wily};
use std::path::Path;

#[test]
fn time_forms_follow_crafty() {
    let tmp = temp_dir("crafty-times");
    let mut w = Wily::spawn(&[], tmp.path());
    // clock takes minutes or hh:mm: 1:15 is 75 minutes.
    w.send("clock 1:15 45");
    w.expect("White 45:00  Black 75:00", 10);
    w.send("clock 30");
    w.expect("Black 30:00", 10);
    w.send("clock 1:75");
    w.expect("is not minutes or hh:mm", 10);
    // st takes seconds or m:ss.
    w.send("st 1:30");
    w.expect("search time 90s per move", 10);
    w.send("st 2.5");
    w.expect("search time 2.5s per move", 10);
    // operator: minutes kept back from the clock.
    w.send("operator 5");
    w.expect("operator time: 5:00 kept back from the clock", 10);
    w.send("operator 1:00");
    w.expect("operator time: 60:00 kept back", 10);
    w.send("mt=2");
    w.expect("search threads: 2", 10);
    w.send("mt 0");
    w.expect("out of range", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn commands_without_meaning_answer_why() {
    let tmp = temp_dir("crafty-meaningless");
    let mut w = Wily::spawn(&[], tmp.path());
    for (cmd, name) in [
        ("cache=4M", "cache"),
        ("smpmin 3", "smpmin"),
        ("bookpath=/tmp", "bookpath"),
        ("SMPMAX 9", "SMPMAX"),
    ] {
        w.send(cmd);
        w.expect(&format!("{name}: not needed in wily:"), 10);
    }
    w.send("!rm -rf /");
    w.expect("wily runs no shell commands", 10);
    w.send("echo alive");
    w.expect("alive", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn files_log_tail_and_ls() {
    let tmp = temp_dir("crafty-files");
    let dir = tmp.path();
    for f in ["a.pgn", "b.pgn", "c.txt"] {
        std::fs::write(dir.join(f), "x").unwrap();
    }
    let mut w = Wily::spawn(&[], dir);
    w.send("ls *.pgn");
    w.expect("a.pgn", 10);
    w.expect("b.pgn", 10);
    w.send("echo after-ls");
    let lines = w.drain(std::time::Duration::from_millis(300), 10);
    assert!(!lines.iter().any(|l| l.contains("c.txt")), "{lines:?}");
    w.send("ls *.nothing");
    w.expect("no file matches", 10);
    w.send("force");
    w.send("e4");
    w.send("e5");
    w.send("echo marker-in-the-log");
    w.send("log 3 tail.txt");
    w.expect("lines of", 10);
    w.send("log 2");
    w.send("log number 7");
    w.expect("numbered 007", 10);
    w.send("log banana");
    w.expect("not on, off or a number of lines", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let tail = std::fs::read_to_string(dir.join("tail.txt")).expect("tail.txt");
    assert!((1..=3).contains(&tail.lines().count()), "{tail}");
    let log = std::fs::read_to_string(dir.join("logs/log.001")).expect("log.001");
    let last3: Vec<&str> = log.lines().collect();
    assert!(
        tail.lines().all(|l| last3.contains(&l)),
        "tail lines come from the log:\n{tail}\n---\n{log}"
    );
}

#[test]
fn boards_tables_and_editing() {
    let tmp = temp_dir("crafty-boards");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("setboard k2r/ppp////Q/5PPP/7K/ b");
    w.send("display");
    w.expect("k2r4/ppp5/8/8/8/Q7/5PPP/7K b - - 0 1", 10);
    w.send("setboard k2r/ppppppppp////Q/5PPP/7K/ b");
    w.expect("setboard:", 10);
    w.send("display knight");
    w.expect("knight square table", 10);
    w.expect("  8 ", 10);
    w.send("display bishops");
    w.expect("display: unknown option", 10);
    w.send("edit");
    w.send("# ra1 nb1 bc1 qd1 ke1 bf1 ng1 rh1");
    w.send("pa2 pb2 pc2 pd2 pe4 pf2 pg2 ph2 c");
    w.send("ra8 nb8 bc8 qd8 ke8 bf8 ng8 rh8 pa7 pb7 pc7 pd7 pe7 pf7 pg7 ph7 .");
    w.expect("edit: done", 10);
    w.send("display");
    w.expect("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn pgn_result_ends_the_game() {
    let tmp = temp_dir("crafty-result");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("force");
    w.send("d4");
    w.send("pgn Result 2-0");
    w.expect("is not 1-0, 0-1 or 1/2-1/2", 10);
    w.send("pgn Result 0-1");
    w.send("pgn Result 1-0");
    w.expect("the game is already over (0-1", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let pgn = std::fs::read_to_string(dir.join("logs/game.001")).expect("game file");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("result set by the operator"), "{pgn}");
}

#[test]
fn tournament_mode_ansi_and_computer() {
    let tmp = temp_dir("crafty-tournament");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("drawscore 50");
    w.send("mode tournament");
    w.expect("draw score 0", 10);
    w.send("ansi on");
    w.send("sd 3");
    w.send("go");
    w.expect("\u{1b}[7mWhite(1):", 60);
    w.expect("clock check: White", 60);
    w.send("mode normal");
    w.expect("mode normal (draw score 50)", 10);
    w.send("computer");
    w.expect("book width 2", 10);
    w.send("mode normal");
    w.expect("mode normal (draw score 0)", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn command_line_paths_and_search_move_in_book() {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("book");
    assert!(
        book.join("book.wbk").exists(),
        "the shipped book/book.wbk is part of the checkout"
    );
    let syzygy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/syzygy");
    let tmp = temp_dir("crafty-paths");
    let dir = tmp.path();
    let args = [
        format!("bookpath={}", book.display()),
        format!("logpath={}", dir.join("mylogs").display()),
        format!("tbpath={}", syzygy.display()),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut w = Wily::spawn(&args, dir);
    // tbpath= runs before the prompt: its report (or its error) names the folder.
    w.expect_fn("the tbpath report", 20, |l| {
        l.to_lowercase().contains("syzygy")
    });
    w.send("sd 2");
    w.send("go");
    w.expect("(book)", 30);
    w.send("new");
    w.send("search a3");
    w.send("go");
    let line = w.expect_fn("the computer's move", 60, |l| l.contains("White(1): a3"));
    assert!(!line.contains("(book)"), "{line}");
    w.send("quit");
    assert!(w.wait_exit(10));
    assert!(
        dir.join("mylogs").is_dir(),
        "logpath= puts the game files there"
    );
    assert!(!dir.join("logs").exists(), "and not in logs/");
}
