//! More of Crafty's documented commands through the real binary: `draw accept|decline|
//! offer|nooffer|dynamic`, `rating A B`, `output long|short`, `display moves`, `trace n`, `timebook`,
//! `wild N`, `load FILE TITLE` and `screen FILE MARGIN`.

use crate::console_child;
use console_child::{temp_dir, Wily};

#[test]
fn draw_settings_and_ratings() {
    let tmp = temp_dir("crafty-draw");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("draw decline");
    w.expect("decline draw offers, whatever the score", 10);
    w.send("draw");
    w.expect("Draw declined (draw decline is set).", 10);
    w.send("draw accept");
    w.expect("accept draw offers", 10);
    // No search yet: nothing to judge the offer by.
    w.send("draw");
    w.expect("Draw declined (score (no search yet))", 10);
    w.send("draw nooffer");
    w.expect("never offer draws", 10);
    w.send("draw bogus");
    w.expect(
        "usage: draw [accept|decline|offer|nooffer|dynamic [1|0]]",
        10,
    );
    // rating: an eighth of the opponent's rating minus wily's is the draw score.
    w.send("rating 2300 2500");
    w.expect(
        "wily's rating: 2300, opponent's rating: 2500; draw score 25",
        10,
    );
    w.send("info");
    w.expect("draw score: 25", 10);
    w.expect(
        "draws: accept, nooffer, dynamic draw score on, ratings: wily 2300, opponent 2500",
        10,
    );
    w.send("rating 2500 1000");
    w.expect("draw score -37", 10);
    w.send("draw dynamic 0");
    w.expect("dynamic draw scores disabled (draw score 0)", 10);
    w.send("rating 2300 2500");
    w.expect_fn("no draw score change", 10, |l| {
        l.contains("wily's rating: 2300") && !l.contains("draw score")
    });
    w.send("rating 2300");
    w.expect("usage: rating WILY OPPONENT", 10);
    w.send("rating 2300 x");
    w.expect("rating: 'x' is not a rating", 10);
    // The ratings go into the game file's Elo tags (wily plays Black).
    w.send("sd 2");
    w.send("e4");
    w.expect("Black(1): ", 60);
    w.send("savegame g.pgn");
    w.send("echo saved");
    w.expect("saved", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).expect("g.pgn");
    assert!(pgn.contains("[WhiteElo \"2500\"]"), "{pgn}");
    assert!(pgn.contains("[BlackElo \"2300\"]"), "{pgn}");
}

#[test]
fn output_long_writes_both_squares() {
    let tmp = temp_dir("crafty-output");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("output long");
    w.expect("output moves in long algebraic notation", 10);
    w.send("sd 3");
    w.send("e4");
    let line = w.expect("Black(1): ", 60);
    let mv = line.split("Black(1): ").nth(1).unwrap_or("").trim();
    let squares = mv
        .as_bytes()
        .windows(2)
        .filter(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))
        .count();
    assert!(squares >= 2 || mv.starts_with("O-O"), "{line}");
    w.send("output short");
    w.expect("short algebraic notation", 10);
    w.send("output medium");
    w.expect("usage: output long|short", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

/// The lines up to the computer's move `mover`, and that line.
fn lines_until(w: &mut Wily, mover: &str) -> Vec<String> {
    let mut got = Vec::new();
    loop {
        let l = w.expect_fn("a line", 60, |_| true);
        let done = l.contains(mover);
        got.push(l);
        if done {
            return got;
        }
    }
}

#[test]
fn display_moves_shows_each_root_move_as_it_is_searched() {
    let tmp = temp_dir("crafty-display-moves");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("book off");
    w.send("display moves");
    w.expect_fn("the display listing", 10, |l| {
        l.contains("display:") && l.contains(" moves") && !l.contains("nomoves")
    });
    w.send("output long");
    // A three-ply search stays below the default noise level (100000 nodes), which would
    // hold every root move back.
    w.send("noise 0");
    w.send("sd 3");
    w.send("e4");
    // Black's 20 replies, each told with its place among them (`N/20`), in long notation.
    let lines = lines_until(&mut w, "Black(1): ");
    let told: Vec<(u32, usize, String)> = lines
        .iter()
        .filter_map(|l| {
            let (head, mv) = l.split_once("/20   1. ... ")?;
            let mut w = head.split_whitespace();
            let depth = w.next()?.parse().ok()?;
            let number = w.nth(1)?.parse().ok()?;
            Some((depth, number, mv.trim().to_string()))
        })
        .collect();
    let depth1: Vec<&(u32, usize, String)> = told.iter().filter(|t| t.0 == 1).collect();
    assert_eq!(depth1.len(), 20, "{lines:#?}");
    for (i, (_, n, mv)) in depth1.iter().enumerate() {
        assert_eq!(*n, i + 1, "{lines:#?}");
        let b = mv.as_bytes();
        assert!(b.len() >= 4 && b[0] != b'O', "{mv}");
    }
    assert!(told.iter().any(|t| t.0 == 3), "{lines:#?}");
    // Off again: the next search tells no root move.
    w.send("display nomoves");
    w.send("d4");
    let lines = lines_until(&mut w, "Black(2): ");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("/") && l.contains("2. ... ")),
        "{lines:#?}"
    );
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn timebook_adds_time_out_of_book() {
    let tmp = temp_dir("crafty-timebook");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("timebook 600 10");
    w.expect("timebook: factor '600' is not 0 to 500", 10);
    w.send("timebook 100 10");
    w.expect(
        "timebook: 200% of the normal time target on the first move out of book",
        10,
    );
    // Sudden death: 30 moves to go normally, half as many with twice the time.
    w.send("level 0 1 0");
    w.send("e4");
    w.expect("(15 moves to go), timebook +100%", 20);
    w.send("?");
    w.expect("Black(1): ", 60);
    w.send("d4");
    w.expect("(16 moves to go), timebook +90%", 20);
    w.send("?");
    w.expect("Black(2): ", 60);
    w.send("timebook 0 0");
    w.expect("timebook off", 10);
    w.send("Nf3");
    w.expect("(sudden death to go)", 20);
    w.send("?");
    w.expect("Black(3): ", 60);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn wild_positions() {
    let tmp = temp_dir("crafty-wild");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("wild 7");
    w.expect("new game, wild 7 (kings and three pawns each)", 10);
    w.send("display");
    w.expect("4k3/5ppp/8/8/8/8/PPP5/3K4 w - - 0 1", 10);
    w.send("wild 22 518");
    w.expect("wild 22 (Chess960), position 518 (RNBQKBNR)", 10);
    w.send("wild fr");
    w.expect("wild 22 (Chess960), position ", 10);
    w.send("wild 5");
    w.expect("wild 5: not played by wily", 10);
    w.send("wild 22 960");
    w.expect("not a position number 0-959", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn load_a_titled_position() {
    let tmp = temp_dir("crafty-load");
    let dir = tmp.path();
    std::fs::write(
        dir.join("probs.txt"),
        "title wac001\nsetboard 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w\nsolution Qg6\n\
         title mate study\nsetboard 8/8/8/8/8/k7/8/KQ6 w\n",
    )
    .unwrap();
    let mut w = Wily::spawn(&[], dir);
    w.send("load probs.txt study");
    w.expect("load: position 'mate study' from probs.txt", 10);
    w.send("display");
    w.expect("8/8/8/8/8/k7/8/KQ6 w - - 0 1", 10);
    w.send("load probs.txt wac001");
    w.send("display");
    w.expect("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w", 10);
    w.send("load probs.txt wac999");
    w.expect("load: probs.txt: no position titled 'wac999'", 10);
    w.send("load nothere.txt x");
    w.expect("load: nothere.txt:", 10);
    w.send("load probs.txt");
    w.expect("usage: load FILE TITLE", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn screen_culls_lopsided_positions() {
    let tmp = temp_dir("crafty-screen");
    let dir = tmp.path();
    let even = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";";
    let lopsided = "4k3/8/8/8/8/8/8/QQQQK3 w - - id \"queens\";";
    std::fs::write(dir.join("pos.epd"), format!("{even}\n{lopsided}\n")).unwrap();
    let mut w = Wily::spawn(&[], dir);
    w.send("sd 4");
    w.send("screen pos.epd 150");
    w.expect("record 1 (start): score ", 60);
    w.expect("record 2 (queens): score ", 60);
    w.expect("screen: kept 1 of 2, culled 1, into pos.epd.screened", 60);
    w.send("screen pos.epd x");
    w.expect("not a margin in centipawns", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let kept = std::fs::read_to_string(dir.join("pos.epd.screened")).expect("screened");
    assert_eq!(kept, format!("{even}\n"));
}

#[test]
fn trace_prints_the_tree_to_its_ply() {
    let tmp = temp_dir("crafty-trace");
    let mut w = Wily::spawn(&[], tmp.path());
    w.send("book off");
    w.send("trace 11");
    w.expect("trace: 11 is out of range (0 to 10)", 10);
    w.send("trace 2");
    w.expect("trace to ply 2", 10);
    w.send("sd 2");
    w.send("e4");
    let lines = lines_until(&mut w, "Black(1): ");
    // `  1 ... e5  d=1  [...]  score` for Black's replies, `  2 ...` one ply further.
    let traced: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("  d=") && l.contains("]  "))
        .collect();
    let at = |p: &str| {
        traced
            .iter()
            .filter(|l| l.trim_start().starts_with(p))
            .count()
    };
    assert!(at("1 ") >= 20, "{traced:?}");
    assert!(at("2 ") >= 10, "{traced:?}");
    assert!(
        !traced.iter().any(|l| l.trim_start().starts_with("3 ")),
        "{traced:?}"
    );
    assert!(
        traced.iter().any(|l| l.contains("1. ... e5 2. ")),
        "a ply-2 line from Black's reply: {traced:?}"
    );
    w.send("trace 0");
    w.expect("trace off", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}
