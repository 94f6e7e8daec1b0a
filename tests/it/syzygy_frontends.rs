//! Syzygy tablebases through the real binary's three front ends (UCI `SyzygyPath`, xboard
//! `egtpath syzygy`, the console's `tbpath`/`egtb`) on the shared tables (skipped, with a
//! message, when they are not there): the tables load, the tablebase score and hits are
//! shown, and a folder without tables is an error the session survives. Swindle mode
//! switches the drawn root's choice in each, the server bot's engine thread included,
//! which takes it from each search's opponent profile.

use crate::console_child;
use crate::syzygy_support;
use console_child::Wily;

/// The shared tables' folder as text, for the commands.
fn tables() -> Option<String> {
    syzygy_support::syzygy_dir().map(|d| d.to_string_lossy().into_owned())
}

/// KQvK, won in 15 plies (tablebase score 20000 - 15).
const KQK: &str = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";

#[test]
fn uci_syzygy_options_scores_and_tbhits() {
    let Some(dir) = tables() else { return };
    let mut w = Wily::spawn_in_scratch(&["uci"], "tb-uci");
    w.send("uci");
    w.expect("option name SyzygyPath type string", 10);
    w.expect("option name SyzygyProbeDepth type spin default 1", 10);
    w.expect("option name Syzygy50MoveRule type check default true", 10);
    w.expect("uciok", 10);
    w.send("setoption name SyzygyPath value /nonexistent/tables");
    w.expect("info string cannot read /nonexistent/tables", 10);
    w.send(&format!("setoption name SyzygyPath value {dir}"));
    w.expect(
        "info string Syzygy: 35 WDL and 35 DTZ tables, up to 4 pieces",
        10,
    );
    w.send(&format!("position fen {KQK}"));
    w.send("go depth 4");
    let info = w.expect("info depth 4 ", 20);
    assert!(info.contains("score cp 19985"), "{info}");
    let hits: u64 = info
        .split_whitespace()
        .skip_while(|t| *t != "tbhits")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a tbhits count");
    assert!(hits >= 1, "{info}");
    w.expect("bestmove ", 20);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn xboard_egtpath_and_post_output() {
    let Some(dir) = tables() else { return };
    let mut w = Wily::spawn_in_scratch(&["xboard"], "tb-xboard");
    w.send("xboard");
    w.send("protover 2");
    let features = w.expect("egt=", 10);
    assert!(features.contains("egt=\"syzygy\""), "{features}");
    w.expect("feature done=1", 10);
    w.send("egtpath gaviota /tmp");
    w.expect("Error (only syzygy tablebases)", 10);
    w.send(&format!("egtpath syzygy {dir}"));
    w.expect("# Syzygy: 35 WDL and 35 DTZ tables", 10);
    w.send("new");
    w.send("force");
    w.send(&format!("setboard {KQK}"));
    w.send("post");
    w.send("sd 4");
    w.send("go");
    // Thinking output: `ply score time nodes pv`, the score in centipawns.
    let line = w.expect_fn("a depth-4 thinking line", 20, |l| l.starts_with("4 "));
    assert_eq!(line.split_whitespace().nth(1), Some("19985"), "{line}");
    w.expect("move ", 20);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn console_tbpath_egtb_and_the_stats_line() {
    let Some(dir) = tables() else { return };
    let mut w = Wily::spawn_in_scratch(&[], "tb-console");
    w.send("egtb");
    w.expect("none loaded", 10);
    w.send("tbpath /nonexistent/tables");
    w.expect("cannot read /nonexistent/tables", 10);
    w.send(&format!("tbpath {dir}"));
    w.expect("Syzygy: 35 WDL and 35 DTZ tables, up to 4 pieces", 10);
    w.send("egtb depth 3");
    w.send("egtb");
    w.expect("probe depth 3, 50-move rule on", 10);
    w.send("sd 4");
    w.send(&format!("setboard {KQK}"));
    w.send("go");
    w.expect("199.85", 20);
    let stats = w.expect("nodes=", 20);
    assert!(stats.contains("tbhits="), "{stats}");
    w.send("egtb off");
    w.expect("Syzygy tablebases off", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

/// KRvKB, drawn: `Rxe5` (a5e5) is the quickest draw, the rook moves keep the chances.
const KRKB: &str = "8/8/4k3/R3b3/8/8/8/2K5 w - - 0 1";

#[test]
fn uci_and_console_swindle_switch_the_drawn_root_choice() {
    let Some(dir) = tables() else { return };
    let mut w = Wily::spawn_in_scratch(&["uci"], "tb-swindle-uci");
    w.send("uci");
    w.expect("option name Swindle type check default true", 10);
    w.expect("uciok", 10);
    w.send(&format!("setoption name SyzygyPath value {dir}"));
    w.expect("info string Syzygy:", 10);
    w.send(&format!("position fen {KRKB}"));
    w.send("go depth 6");
    let on = w.expect("bestmove ", 20);
    assert!(!on.starts_with("bestmove a5e5"), "{on}");
    w.send("setoption name Swindle value false");
    w.send("go depth 6");
    let off = w.expect("bestmove ", 20);
    assert!(off.starts_with("bestmove a5e5"), "{off}");
    w.send("quit");
    assert!(w.wait_exit(10));

    let mut w = Wily::spawn_in_scratch(&[], "tb-swindle-console");
    w.send(&format!("tbpath {dir}"));
    w.expect("Syzygy: 35 WDL and 35 DTZ tables", 10);
    w.send("swindle off");
    w.expect("swindle mode off", 10);
    w.send("sd 6");
    w.send(&format!("setboard {KRKB}"));
    w.send("go");
    w.expect("Rxe5", 20);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn the_bot_engine_thread_swindles_as_each_search_asks() {
    use cozy_chess::Board;
    use tokio::sync::mpsc;
    use wily::bot::brain::{Brain, BrainCmd};
    use wily::bot::input::{Input, SearchSpec};
    use wily::engine::{EngineOptions, Limits};

    let Some(dir) = tables() else { return };
    let _g = syzygy_support::serial();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let options = EngineOptions {
        threads: 1,
        hash_mb: 16,
        ..EngineOptions::default()
    };
    let brain = Brain::start(options, tx);
    brain.send(BrainCmd::Syzygy(dir));
    let board: Board = KRKB.parse().expect("KRKB");
    let mut best = |id: u64, swindle: bool| {
        brain.send(BrainCmd::Start(Box::new(SearchSpec {
            id,
            board: board.clone(),
            history: Vec::new(),
            limits: Limits::depth(6),
            draw_score: 0,
            strength: None,
            swindle,
            new_game: true,
        })));
        loop {
            match rx.blocking_recv() {
                Some(Input::Done { id: got, result }) if got == id => {
                    break result.best.expect("a move").to_string()
                }
                Some(_) => {}
                None => panic!("the engine thread is gone"),
            }
        }
    };
    // A person (swindle on): the rook stays; a computer (off): the quickest draw. Each
    // search sets the mode, whatever the one before had.
    assert_ne!(best(1, true), "a5e5");
    assert_eq!(best(2, false), "a5e5");
    assert_ne!(best(3, true), "a5e5");
}
