//! The rest of Crafty's documented console commands (its version 18 command text and
//! version 15 manual), each checked against what the documentation says: `extensions`,
//! `learn=N`, `crafty c` (`wily c`), `name` (the lists, not the game file), `noise` (default
//! 100000), `help COMMAND` (the detailed text), `reset N` (the same side on move, back and
//! forward), bare `force` (asks for the move), `read`/`reada` without a file (read from the
//! console), and xboard's `hint`/`undo` at the console.

use crate::console_child;
use console_child::{temp_dir, Wily};

#[test]
fn extensions_show_and_set_each_kind_in_plies() {
    let mut w = Wily::spawn_in_scratch(&[], "crafty-extensions");
    // "extensions" alone shows the values: a ply for checks, the others off.
    w.send("extensions");
    w.expect(
        "extensions: incheck 1.00 onerep 0.00 pushpp 0.00 recapture 0.00 mate 0.00",
        10,
    );
    // Decimal numbers of plies, fractions too.
    w.send("extensions onerep 1.0");
    w.send("extensions recapture .75");
    w.send("extensions incheck 0.5");
    w.send("extensions");
    w.expect(
        "extensions: incheck 0.50 onerep 1.00 pushpp 0.00 recapture 0.75 mate 0.00",
        10,
    );
    // No more than one ply at any point.
    w.send("extensions mate 2");
    w.expect(
        "extensions mate 1.00 (a move is extended by at most one ply)",
        10,
    );
    w.send("extensions sideways 1");
    w.expect("extensions: no kind 'sideways'", 10);
    w.send("extensions pushpp -1");
    w.expect("is not a number of plies", 10);
    // The search runs with them.
    w.send("sd 4");
    w.send("e4");
    w.expect("Black(1): ", 60);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn learn_equals_n_sets_the_bits() {
    let mut w = Wily::spawn_in_scratch(&[], "crafty-learn-eq");
    w.send("learn=3");
    w.expect("learn 3 (book+position)", 20);
    w.send("learn=0");
    w.expect("learn 0 (off)", 10);
    w.send("learn=4");
    w.expect("learn 4 (result)", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn wily_c_resumes_the_last_game_as_crafty_c() {
    let tmp = temp_dir("crafty-c");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("force");
    for m in ["d4", "Nf6", "c4", "e6"] {
        w.send(m);
    }
    w.send("quit");
    assert!(w.wait_exit(10));
    let mut w = Wily::spawn(&["c"], dir);
    w.expect("resumed", 10);
    w.send("history");
    w.expect("2. c4", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    assert!(!dir.join("logs/game.002").exists(), "the same game goes on");
}

#[test]
fn name_is_looked_up_in_the_lists_and_kept_out_of_the_game_file() {
    let tmp = temp_dir("crafty-name");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("lists")).unwrap();
    std::fs::write(dir.join("lists").join("GM"), "BigMaster\n").unwrap();
    std::fs::write(dir.join("lists").join("C"), "SomeEngine\n").unwrap();
    let mut w = Wily::spawn(&[], dir);
    w.send("name BigMaster");
    // A GM: resign sooner (the server bot's numbers for the class).
    w.expect("opponent BigMaster: GM, resign at -3, book width 3", 10);
    w.send("info");
    w.expect("resign: -3 pawns", 10);
    w.send("name SomeEngine");
    w.expect("opponent SomeEngine: computer", 10);
    w.send("info");
    w.expect("opponent: SomeEngine (computer)", 10);
    // A name in none of the lists changes nothing.
    w.send("resign 7");
    w.send("name Nobody");
    w.send("info");
    w.expect("resign: -7 pawns", 10);
    w.send("sd 2");
    w.send("e4");
    w.expect("Black(1): ", 60);
    w.send("savegame g.pgn");
    w.send("echo saved");
    w.expect("saved", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).expect("g.pgn");
    assert!(
        !pgn.contains("SomeEngine") && !pgn.contains("BigMaster"),
        "{pgn}"
    );
    let game = std::fs::read_to_string(dir.join("logs/game.001")).expect("game file");
    assert!(!game.contains("SomeEngine"), "{game}");
}

#[test]
fn noise_defaults_to_100000_nodes() {
    let tmp = temp_dir("crafty-noise");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("info");
    w.expect("noise: 100000", 10);
    // A four-ply search stays far below 100000 nodes: none of its early iterations is
    // shown, and the last one still is.
    w.send("sd 4");
    w.send("e4");
    w.expect_fn("the last iteration", 60, |l| {
        l.trim_start().starts_with("4->")
    });
    w.expect("Black(1): ", 60);
    w.send("quit");
    assert!(w.wait_exit(10));
    for early in ["1->", "2->", "3->"] {
        assert!(
            !w.transcript
                .iter()
                .any(|l| l.trim_start().starts_with(early)),
            "{early} shown below the noise level: {:?}",
            w.transcript
        );
    }
    // noise 0 shows everything.
    let mut w = Wily::spawn(&[], dir);
    w.send("noise 0");
    w.send("sd 4");
    w.send("e4");
    w.expect_fn("the first iteration", 60, |l| {
        l.trim_start().starts_with("1->")
    });
    w.send("quit");
    assert!(w.wait_exit(20));
}

#[test]
fn help_command_gives_the_detailed_text() {
    let mut w = Wily::spawn_in_scratch(&[], "crafty-help");
    w.send("help reset");
    // The one-line entry, then more: the manual's text on it.
    w.expect("reset N ..", 10);
    w.expect("same side to move", 10);
    w.send("help extensions");
    w.expect("recapture", 10);
    w.send("help hint");
    w.expect("Hint: MOVE", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn reset_keeps_the_side_on_move_and_goes_back_and_forward() {
    let mut w = Wily::spawn_in_scratch(&[], "crafty-reset");
    w.send("force");
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        w.send(m);
    }
    // Black to move at move 3; reset 2: Black to move at move 2 (after 2. Nf3).
    w.send("reset 2");
    w.send("display");
    w.expect(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        10,
    );
    // Forward again through the moves taken back.
    w.send("reset 3");
    w.send("display");
    w.expect(
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        10,
    );
    w.send("reset 1");
    w.send("display");
    w.expect("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq", 10);
    // Beyond the game.
    w.send("reset 9");
    w.expect(
        "reset: the game has not reached move 9 with Black to move",
        10,
    );
    // Another move drops the moves taken back: there is no going forward to them.
    w.send("d5");
    w.send("reset 3");
    w.expect("has not reached move 3", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn bare_force_asks_for_the_move_to_play_instead() {
    let mut w = Wily::spawn_in_scratch(&[], "crafty-force");
    w.send("sd 2");
    w.send("e4");
    w.expect("Black(1): ", 60);
    w.send("force");
    w.expect("force: type the move to play instead of", 10);
    w.send("h5");
    w.send("history");
    w.expect_fn("h5 as Black's move", 10, |l| {
        l.contains("1. e4") && l.contains("h5")
    });
    // The side on move did not change: White's turn, the computer still Black.
    w.send("display");
    w.expect("rnbqkbnr/ppppppp1/8/7p/4P3/8/PPPP1PPP/RNBQKBNR w KQkq", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn read_without_a_file_reads_the_console() {
    let tmp = temp_dir("crafty-read");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("read");
    w.send("[Event \"typed in\"]");
    w.send("1. d4 d5 2. c4 {a comment}");
    w.send("exit");
    w.expect("read 3 moves from the console", 10);
    w.send("tags");
    w.expect("[Event \"typed in\"]", 10);
    // reada appends to the game.
    w.send("reada");
    w.send("e6 Nc3");
    w.send("exit");
    w.expect("appended 2 moves from the console", 10);
    w.send("display");
    w.expect(
        "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR b KQkq - 1 3",
        10,
    );
    w.send("quit");
    assert!(w.wait_exit(10));
    // The end of the input ends the reading too.
    let tmp = temp_dir("crafty-read-eof");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("read");
    w.send("1. e4 e5 2. Nf3");
    w.close_input();
    assert!(w.wait_exit(10));
    let game = std::fs::read_to_string(dir.join("logs/game.001")).expect("game file");
    assert!(game.contains("1. e4 e5 2. Nf3"), "{game}");
}

#[test]
fn hint_and_undo_at_the_console() {
    let mut w = Wily::spawn_in_scratch(&[], "crafty-hint");
    w.send("hint");
    w.expect("hint: no move expected yet", 10);
    w.send("sd 4");
    w.send("e4");
    w.expect("Black(1): ", 60);
    w.send("hint");
    w.expect_fn("the expected move", 10, |l| l.contains("Hint: "));
    // undo takes back one ply: the computer's reply, then 1. e4.
    w.send("undo");
    w.send("undo");
    w.send("display");
    w.expect(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        10,
    );
    w.send("quit");
    assert!(w.wait_exit(10));
}
