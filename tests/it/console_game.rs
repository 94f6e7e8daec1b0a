//! The console through the real binary: a game played to a result, Crafty-shaped search
//! output, and the game file it leaves in logs/.

use crate::console_child;
use console_child::{temp_dir, Wily};

fn is_result(l: &str) -> bool {
    ["1-0 {", "0-1 {", "1/2-1/2 {"].iter().any(|r| {
        l.trim_start_matches(|c: char| c != '1' && c != '0')
            .starts_with(r)
    })
}

#[test]
fn human_move_gets_an_answer_in_crafty_shape() {
    let tmp = temp_dir("console-answer");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("sd 4");
    w.send("e4");
    w.expect("depth     time       score   variation", 20);
    w.expect("4->", 20);
    let stats = w.expect("nodes=", 20);
    assert!(stats.contains("time=") && stats.contains("nps="), "{stats}");
    let reply = w.expect_fn("Black's move", 20, |l| l.starts_with("Black(1): "));
    assert!(reply.split_whitespace().nth(1).is_some(), "{reply}");
    w.send("history");
    w.expect("1. e4", 10);
    w.send("quit");
    assert!(w.wait_exit(10), "wily did not exit cleanly");
    let game = std::fs::read_to_string(dir.join("logs/game.001")).expect("game file");
    assert!(game.contains("1. e4 "), "{game}");
    let log = std::fs::read_to_string(dir.join("logs/log.001")).expect("log file");
    assert!(log.contains("4->"), "the log holds the search output");
}

#[test]
fn console_game_reaches_a_result() {
    let tmp = temp_dir("console-result");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("sd 3");
    w.send("setboard 8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    // `go` makes the computer play the side to move: both sides, one move at a time.
    let mut result = None;
    for _ in 0..400 {
        w.send("go");
        let line = w.expect_fn("a move or a result", 30, |l| {
            is_result(l) || l.starts_with("White(") || l.starts_with("Black(")
        });
        if is_result(&line) {
            result = Some(line);
            break;
        }
        if line.starts_with("White(") || line.starts_with("Black(") {
            // Let a result printed right after the move arrive before the next `go`.
            let more = w.drain(std::time::Duration::from_millis(30), 2);
            if let Some(r) = more.iter().find(|l| is_result(l)) {
                result = Some(r.clone());
                break;
            }
        }
    }
    let result = result.expect("no result after 400 moves");
    w.send("go");
    w.expect("the game is over", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let mut games: Vec<_> = std::fs::read_dir(dir.join("logs"))
        .expect("logs folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains("game."))
        .collect();
    games.sort();
    let game = std::fs::read_to_string(games.last().expect("a game file")).expect("game file");
    let token = result
        .split_whitespace()
        .find(|t| is_result(&format!("{t} {{")))
        .unwrap_or("");
    assert!(
        game.contains(&format!("[Result \"{token}\"]")),
        "result {result} not in the game file:\n{game}"
    );
    assert!(game.contains("[FEN \"8/8/8/4k3/8/8/8/4K2Q w - - 0 1\"]"));
}

#[test]
fn force_mode_and_take_backs() {
    let tmp = temp_dir("console-force");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("force");
    w.send("e4");
    w.send("e5");
    w.send("Nf3");
    w.send("back 2");
    w.expect("took back 2 plies", 10);
    w.send("history");
    w.expect("1. e4", 10);
    w.send("display");
    w.expect("Black to move", 10);
    // Crafty's reset keeps the side on move: after 1... Nf6 White is to move, and White to
    // move at move 1 is the start.
    w.send("Nf6");
    w.send("reset 1");
    w.expect("reset to move 1, White to move", 10);
    w.send("savepos pos.txt");
    w.send("echo done");
    w.expect("done", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let pos = std::fs::read_to_string(dir.join("pos.txt")).expect("savepos file");
    assert_eq!(
        pos.trim(),
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn pondering_and_a_ponder_hit() {
    let tmp = temp_dir("console-ponder");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("ponder on");
    w.send("st 0.3");
    w.send("e4");
    let line = w.expect("pondering on ", 20);
    let predicted = line
        .split("pondering on ")
        .nth(1)
        .unwrap_or("")
        .trim()
        .to_string();
    assert!(!predicted.is_empty(), "{line}");
    w.send(&predicted);
    w.expect("(ponder hit)", 20);
    w.expect_fn("the answer", 20, |l| l.starts_with("Black(2): "));
    w.send("ponder off");
    w.send("quit");
    assert!(w.wait_exit(10));
}
