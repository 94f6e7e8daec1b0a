//! Chess960 through the front ends, with the real binary. wily castles both ways over
//! xboard (`variant fischerandom`: `O-O` / `O-O-O` out) and over UCI (`UCI_Chess960`:
//! king takes rook), and each front end accepts the other's castling in the form its
//! interface sends; wily over xboard plays a whole Chess960 game from a numbered start
//! against wily over UCI, relayed by this test as a GUI would, and again through `wily
//! match -variant chess960`; the console starts a Chess960 game with `new N` or a FEN.
//!
//! Castling is forced where it must be seen: from positions where castling mates, any
//! search plays it, so these checks do not depend on how the engine judges castling.

use crate::console_child;
use crate::match_support;
use console_child::Wily;
use match_support::{argv, games, run_match, wily_cmd};
use wily::chess::chess960;
use wily::chess::coord::is_castling;
use wily::chess::{move_from_uci, move_to_uci, parse_any_move, parse_fen, GameStatus, Position};

/// White mates with O-O-O: the king goes b1-c1 and the rook a1-d1 checks along the d-file.
const LONG_MATE: &str = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1";
/// White mates with O-O: the king stays on g1 and the rook goes h1-f1 (X-FEN castling).
const SHORT_MATE: &str = "4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1";

fn xboard(tag: &str) -> Wily {
    let mut w = Wily::spawn_in_scratch(&["xboard"], tag);
    w.send("xboard");
    w.send("protover 2");
    let features = w.expect("variants=", 10);
    assert!(
        features.contains("variants=\"normal,fischerandom\""),
        "{features}"
    );
    w.expect("feature done=1", 10);
    w
}

fn uci(tag: &str) -> Wily {
    let mut w = Wily::spawn_in_scratch(&["uci"], tag);
    w.send("uci");
    w.expect("option name UCI_Chess960", 10);
    w.expect("uciok", 10);
    w.send("setoption name UCI_Chess960 value true");
    w.send("isready");
    w.expect("readyok", 10);
    w
}

/// Sets up `fen` as a Fischer random game on the xboard side.
fn xboard_setup(x: &mut Wily, fen: &str) {
    x.send("new");
    x.send("variant fischerandom");
    x.send(&format!("setboard {fen}"));
}

/// The UCI side's best move in `fen` after `moves` (coordinates, king takes rook).
fn uci_best(u: &mut Wily, fen: &str, moves: &[String], depth: u32) -> String {
    let tail = if moves.is_empty() {
        String::new()
    } else {
        format!(" moves {}", moves.join(" "))
    };
    u.send(&format!("position fen {fen}{tail}"));
    u.send(&format!("go depth {depth}"));
    let line = u.expect_fn("bestmove", 60, |l| l.starts_with("bestmove "));
    line.split_whitespace().nth(1).unwrap_or("").to_string()
}

#[test]
fn each_front_end_castles_both_ways_and_accepts_the_others_castling() {
    let mut x = xboard("c960-xb");
    let mut u = uci("c960-uci");
    for (fen, xboard_form, uci_form) in [(LONG_MATE, "O-O-O", "b1a1"), (SHORT_MATE, "O-O", "g1h1")]
    {
        let board = parse_fen(fen).unwrap();
        // The rules layer agrees on what both forms name.
        let mv = parse_any_move(&board, xboard_form).unwrap();
        assert!(is_castling(&board, mv), "{fen}");
        assert_eq!(move_to_uci(&board, mv, true), uci_form);

        // wily over xboard castles ...
        xboard_setup(&mut x, fen);
        x.send("sd 3");
        x.send("go");
        let line = x.expect_fn("a move", 30, |l| l.starts_with("move "));
        assert_eq!(line, format!("move {xboard_form}"), "{fen}");
        x.expect("1-0 {White mates}", 10);
        // ... and wily over UCI, given that move as a GUI relays it, finds itself mated:
        // it took the castling as legal (an illegal move would have left it a position to
        // play on).
        assert_eq!(uci_best(&mut u, fen, &[uci_form.to_string()], 3), "0000");

        // wily over UCI castles (king takes rook) ...
        assert_eq!(uci_best(&mut u, fen, &[], 3), uci_form, "{fen}");
        // ... and wily over xboard takes it as the GUI sends it (O-O / O-O-O), or as king
        // takes rook, and sees the mate.
        for gui_form in [xboard_form, uci_form] {
            xboard_setup(&mut x, fen);
            x.send("force");
            x.send(&format!("usermove {gui_form}"));
            x.expect("1-0 {White mates}", 10);
        }
    }
    x.send("quit");
    u.send("quit");
    assert!(x.wait_exit(10) && u.wait_exit(10));
}

/// Plays one game from Chess960 start `n`: xboard White, UCI Black, both at `depth`,
/// until it ends on the board, xboard's side resigns, or 200 plies. Returns the
/// position reached and the castling moves played.
fn relay_game(x: &mut Wily, u: &mut Wily, n: u32, depth: u32) -> (Position, Vec<String>) {
    let start = chess960::start_position(n).unwrap();
    let fen = wily::chess::fen::to_shredder_fen(&start);
    let mut pos = Position::new(start);
    let mut uci_moves: Vec<String> = Vec::new();
    let mut castles = Vec::new();
    xboard_setup(x, &fen);
    x.send(&format!("sd {depth}"));
    x.send("go");
    for ply in 0..200 {
        if pos.status().is_over() {
            break;
        }
        let board = pos.board().clone();
        let mv = if ply % 2 == 0 {
            let line = x.expect_fn("xboard's move", 60, |l| {
                l.starts_with("move ") || l == "resign"
            });
            if line == "resign" {
                break;
            }
            let text = line.trim_start_matches("move ");
            parse_any_move(&board, text).unwrap_or_else(|e| panic!("xboard {text}: {e}"))
        } else {
            let best = uci_best(u, &fen, &uci_moves, depth);
            let mv =
                move_from_uci(&board, &best, true).unwrap_or_else(|e| panic!("uci {best}: {e}"));
            // The GUI sends castling the way xboard does in Fischer random chess.
            let text = if is_castling(&board, mv) {
                wily::chess::to_san(&board, mv)
                    .trim_end_matches(['+', '#'])
                    .to_string()
            } else {
                move_to_uci(&board, mv, false)
            };
            x.send(&format!("usermove {text}"));
            mv
        };
        if is_castling(&board, mv) {
            castles.push(wily::chess::to_san(&board, mv));
        }
        uci_moves.push(move_to_uci(&board, mv, true));
        pos.play(mv).expect("legal");
    }
    (pos, castles)
}

#[test]
fn xboard_and_uci_play_a_chess960_game_to_the_end() {
    let mut x = xboard("c960-xb-game");
    let mut u = uci("c960-uci-game");
    // Start 0 (BBQNNRKR): the king on g1 next to its short rook.
    let (pos, castles) = relay_game(&mut x, &mut u, 0, 3);
    eprintln!(
        "{} plies, {:?}, castling: {castles:?}",
        pos.ply(),
        pos.status()
    );
    assert!(pos.ply() >= 20, "{:?}", pos.moves_san());
    if let GameStatus::Checkmate(_) | GameStatus::Stalemate = pos.status() {
        // xboard's side announces a game that ends on the board.
        x.expect_fn("the result", 10, |l| {
            l.starts_with("1-0 {") || l.starts_with("0-1 {") || l.starts_with("1/2-1/2 {")
        });
    }
    x.send("quit");
    u.send("quit");
    assert!(x.wait_exit(10) && u.wait_exit(10));
}

#[test]
fn console_new_takes_a_position_number_or_a_fen() {
    let mut c = Wily::spawn_in_scratch(&[], "c960-console");
    c.send("new 0");
    c.expect("new Chess960 game, position 0 (BBQNNRKR)", 10);
    c.send("new 960");
    c.expect("not a Chess960 position number (0-959)", 10);
    c.send(&format!("new {LONG_MATE}"));
    c.expect("new game from the given position", 10);
    c.send("O-O-O");
    c.expect("1-0 {White mates}", 10);
    c.send("history");
    c.expect("O-O-O#", 10);
    c.send("quit");
    assert!(c.wait_exit(10));
}

#[test]
fn wily_match_plays_chess960_between_uci_and_xboard() {
    let dir = console_child::temp_dir("c960-match");
    let pgn = dir.path().join("960.pgn");
    let out = run_match(
        dir.path(),
        &argv(&[
            "-engine",
            &wily_cmd("uci"),
            "@name=uci",
            "-engine",
            &wily_cmd("xboard"),
            "@proto=xboard name=xboard",
            "@-each depth=3 -variant chess960 -games 4 -repeat -maxmoves 80",
            "@-openings frc=0-959 order=random srand=5 -pgn",
            pgn.to_str().unwrap(),
        ]),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let g = games(&pgn);
    assert_eq!(g.len(), 4, "{stdout}");
    let mut castles = Vec::new();
    for game in &g {
        assert_eq!(game.tag("Variant"), Some("Chess960"));
        let start = parse_fen(game.tag("FEN").expect("a FEN tag")).unwrap();
        assert!(chess960::index_of(&start).is_some());
        let pos = game.replay().unwrap_or_else(|e| panic!("{e}: {game:?}"));
        // Neither side lost by an illegal move, a crash or the clock.
        let term = game.tag("Termination").unwrap_or_default();
        assert!(
            ["normal", "adjudication"].contains(&term),
            "{term}: {game:?}"
        );
        castles.extend(pos.moves_san().into_iter().filter(|m| m.starts_with("O-O")));
    }
    eprintln!("castling in the match: {castles:?}");
}
