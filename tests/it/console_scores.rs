//! One score convention per output kind, through the real binary: search lines, analysis
//! and annotations show White's view (Crafty's convention since version 18); the game
//! file's `{score/depth time}` move comments show the mover's view unless `pgnscores
//! white` asks for White's. (Whispers and kibitzes: `bot::talk` and `bot::play::record` unit
//! tests; xboard's thinking output keeps the protocol's engine's-side view.)

use crate::console_child;
use console_child::{temp_dir, Wily};

/// Black to move with an extra queen: far better for Black.
const BLACK_WINS: &str = "4k3/8/8/8/8/8/q7/4K3 b - - 0 1";

/// The score column of a finished-iteration line (`  3->  0.00  -16.04  1. ... Kf7`) in
/// pawns, also
/// when the line follows a prompt on the same line (`analyze.Black(1):   12->  ...`: with
/// the default noise level the first line shown is a deep one, printed after the prompt).
fn iteration_score(line: &str) -> f64 {
    let f: Vec<&str> = line.split_whitespace().collect();
    let at = f
        .iter()
        .position(|t| t.ends_with("->"))
        .unwrap_or_else(|| panic!("no iteration in {line:?}"));
    // A mate (`Mat06`, `-Mat03`) counts as 1000 pawns for the side it favours.
    let mate = |s: &str| match s.strip_prefix('-') {
        Some(m) if m.starts_with("Mat") => Some(-1000.0),
        _ if s.starts_with("Mat") => Some(1000.0),
        _ => None,
    };
    f.get(at + 2)
        .and_then(|s| s.parse().ok().or_else(|| mate(s)))
        .unwrap_or_else(|| panic!("no score in {line:?}"))
}

/// The `{S/D T}` comment after the first move in a game file.
fn first_comment(pgn: &str) -> String {
    let a = pgn.find('{').expect("a comment") + 1;
    let b = pgn[a..].find('/').expect("score/depth") + a;
    pgn[a..b].to_string()
}

#[test]
fn search_lines_show_whites_view_and_game_files_the_movers() {
    let tmp = temp_dir("scores-search");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send(&format!("setboard {BLACK_WINS}"));
    w.send("sd 4");
    w.send("go");
    let line = w.expect("4->", 60);
    assert!(iteration_score(&line) < -5.0, "White's view: {line}");
    w.expect("time used:", 60);
    w.send("quit");
    assert!(w.wait_exit(10));
    let pgn = std::fs::read_to_string(dir.join("logs/game.001")).expect("game file");
    let c = first_comment(&pgn);
    assert!(c.parse::<f64>().unwrap() > 5.0, "mover's view: {pgn}");

    // pgnscores white: the game file follows White's view too.
    let mut w = Wily::spawn(&[], dir);
    w.send("pgnscores white");
    w.expect("from White's view", 10);
    w.send(&format!("setboard {BLACK_WINS}"));
    w.send("sd 4");
    w.send("go");
    w.expect("time used:", 60);
    w.send("pgnscores black");
    w.expect("not a score view", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let pgn = std::fs::read_to_string(dir.join("logs/game.002")).expect("second game file");
    let c = first_comment(&pgn);
    assert!(c.parse::<f64>().unwrap() < -5.0, "White's view: {pgn}");
}

#[test]
fn analysis_shows_whites_view() {
    let tmp = temp_dir("scores-analyze");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send(&format!("setboard {BLACK_WINS}"));
    w.send("analyze");
    let line = w.expect("5->", 60);
    assert!(iteration_score(&line) < -5.0, "White's view: {line}");
    w.send("exit");
    w.send("quit");
    assert!(w.wait_exit(10));
}

/// Black blunders into a mate (Légal's mate): from White's view the move played scores
/// for White (a mate or a big plus), where the mover's view would be negative.
#[test]
fn annotations_show_whites_view() {
    let tmp = temp_dir("scores-annotate");
    let dir = tmp.path();
    std::fs::write(
        dir.join("legal.pgn"),
        "[Event \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0\n",
    )
    .unwrap();
    let mut w = Wily::spawn(&[], dir);
    w.send("annotate legal.pgn b 5-5 1.0 0.5");
    w.expect("annotated 1 games", 120);
    w.send("quit");
    assert!(w.wait_exit(10));
    let can = std::fs::read_to_string(dir.join("legal.can")).expect("legal.can");
    let at = can.find("Bxd1 $4 {played ").expect("the blunder's comment") + 16;
    let played = can[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .trim_end_matches(',');
    assert!(
        played.starts_with("Mat") || played.parse::<f64>().is_ok_and(|v| v > 3.0),
        "White's view of Black's blunder: {played} in {can}"
    );
}
