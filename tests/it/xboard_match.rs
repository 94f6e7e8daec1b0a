//! Two wily processes play each other over xboard the way a match runner such as
//! cutechess-cli drives xboard engines: `xboard` / `protover 2`, `accepted` for each
//! feature, then per game `new`, `force`, `setboard` with a balanced opening,
//! `level 0 M:SS INC`, `post`, `easy`, `time`/`otim` before every move, `go` for the first
//! move and `usermove` after, `result` at the end, `ping`/`pong` between games. The driver
//! keeps the clocks and the rules itself: an illegal move or a flag fails the test.

use crate::shared_data;

use crate::console_child;
use console_child::Wily;
use std::time::{Duration, Instant};
use wily::chess::position::Position;

/// Base time and increment of each engine.
const BASE: Duration = Duration::from_secs(5);
const INC: Duration = Duration::from_millis(50);
/// A game still going after this many plies is scored a draw by the driver.
const MAX_PLIES: usize = 160;

const FALLBACK_OPENINGS: [&str; 2] = [
    "r1bq1rk1/pp1nppbp/3p1np1/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - - 4 9",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

/// The first two openings of the shared match file, or two built-in ones.
fn openings() -> Vec<String> {
    let base = shared_data::root();
    match std::fs::read_to_string(base.join("data/openings/8mvs_+90_+99.epd")) {
        Ok(text) => text.lines().take(2).map(str::to_string).collect(),
        Err(_) => {
            println!("note: ../shared is absent; playing from built-in openings");
            FALLBACK_OPENINGS.iter().map(|s| s.to_string()).collect()
        }
    }
}

fn start(tag: &str) -> Wily {
    let mut w = Wily::spawn_in_scratch(&["xboard"], tag);
    w.send("xboard");
    w.send("protover 2");
    let mut features = Vec::new();
    loop {
        let line = w.expect("feature ", 10);
        for word in line.split_whitespace().skip(1) {
            if let Some((name, _)) = word.split_once('=') {
                features.push(name.to_string());
            }
        }
        if line.contains("done=1") {
            break;
        }
    }
    for f in features.iter().filter(|f| f.as_str() != "done") {
        w.send(&format!("accepted {f}"));
    }
    w
}

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

/// One game from `fen`; `engines[0]` has White. Returns the result and the reason.
fn play(engines: &mut [Wily; 2], fen: &str, game: u32) -> (String, String) {
    for (i, w) in engines.iter_mut().enumerate() {
        w.send(&format!("ping {game}{i}"));
        w.expect(&format!("pong {game}{i}"), 30);
        w.send("new");
        w.send("force");
        w.send(&format!("setboard {fen}"));
        w.send(&format!(
            "level 0 0:{:02} {}",
            BASE.as_secs(),
            INC.as_secs_f64()
        ));
        w.send("post");
        w.send("easy");
    }
    let mut pos = Position::from_fen(fen).expect("opening FEN");
    let mut clocks = [BASE, BASE];
    let mut last: Option<String> = None;
    let mut started = [false, false];
    loop {
        let status = pos.status();
        if let Some(r) = status.result() {
            return (r.to_string(), format!("{status:?}"));
        }
        if pos.ply() >= MAX_PLIES {
            return ("1/2-1/2".into(), "move limit".into());
        }
        let side = pos.side_to_move() as usize;
        let (me, other) = (clocks[side], clocks[1 - side]);
        let w = &mut engines[side];
        w.send(&format!("time {}", centis(me)));
        w.send(&format!("otim {}", centis(other)));
        match (&last, started[side]) {
            (Some(mv), true) => w.send(&format!("usermove {mv}")),
            (Some(mv), false) => {
                w.send(&format!("usermove {mv}"));
                w.send("go");
            }
            (None, _) => w.send("go"),
        }
        started[side] = true;
        let t0 = Instant::now();
        let line = w.expect_fn("a move", 60, |l| l.starts_with("move ") || l == "resign");
        let used = t0.elapsed();
        if line == "resign" {
            let result = if side == 0 { "0-1" } else { "1-0" };
            return (result.into(), format!("engine {side} resigns"));
        }
        assert!(
            used < me,
            "engine {side} flagged: {used:?} used with {me:?} left at {}",
            pos.fen()
        );
        clocks[side] = me - used + INC;
        let text = line["move ".len()..].trim().to_string();
        pos.play_uci(&text)
            .unwrap_or_else(|e| panic!("illegal move {text} in {}: {e}", pos.fen()));
        // The opponent hears the move with its next `usermove`; the mover is left in
        // its own game state (xboard engines track both sides).
        last = Some(text);
    }
}

#[test]
fn two_engines_play_a_match_the_way_a_match_runner_drives_xboard() {
    let mut engines = [start("match-a"), start("match-b")];
    let mut results = Vec::new();
    for (g, fen) in openings().iter().enumerate() {
        let (result, reason) = play(&mut engines, fen, g as u32 + 1);
        for w in engines.iter_mut() {
            w.send(&format!("result {result} {{{reason}}}"));
        }
        println!("game {}: {result} ({reason}) from {fen}", g + 1);
        results.push(result);
        engines.swap(0, 1);
    }
    assert_eq!(results.len(), 2);
    for mut w in engines {
        w.send("ping 99");
        w.expect("pong 99", 30);
        w.send("quit");
        assert!(w.wait_exit(10), "wily did not quit");
    }
}
