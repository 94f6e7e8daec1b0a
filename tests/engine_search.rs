//! Search behaviour through the public engine facade: mates found at shallow depth, a legal
//! move for every perft-suite position, stop at any instant, draws, determinism.

use cozy_chess::{Board, GameStatus, Move};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use wily::engine::{Engine, EngineOptions, Limits, Score, SearchRequest, SearchResult};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    })
}

fn search(engine: &mut Engine, fen: &str, limits: Limits) -> (Board, SearchResult) {
    let board: Board = fen.parse().expect("test FEN parses");
    let req = SearchRequest::new(board.clone(), limits);
    let r = engine.search(req, Box::new(|_| {}));
    (board, r)
}

fn after(board: &Board, mv: Move) -> Board {
    let mut b = board.clone();
    b.play(mv);
    b
}

#[test]
fn finds_mate_in_one() {
    let mut e = engine();
    // Back-rank mate: Rd8#.
    let (board, r) = search(
        &mut e,
        "6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1",
        Limits::depth(3),
    );
    let best = r.best.expect("a move");
    assert_eq!(after(&board, best).status(), GameStatus::Won);
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn finds_mate_in_two() {
    let mut e = engine();
    // 1.Kf7 Kh7 2.Rh1#.
    let (_, r) = search(&mut e, "7k/8/5K2/8/8/8/8/6R1 w - - 0 1", Limits::depth(6));
    assert_eq!(r.score, Score::Mate(2), "result {r:?}");
}

#[test]
fn finds_mate_in_three() {
    let mut e = engine();
    // King and rook against king, mate in 3.
    let (_, r) = search(&mut e, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", Limits::depth(8));
    assert!(
        matches!(r.score, Score::Mate(n) if n <= 3 && n > 0),
        "result {r:?}"
    );
}

#[test]
fn mated_side_reports_negative_mate() {
    let mut e = engine();
    // Black's only move is Kb8, then Rh8 mates.
    let (_, r) = search(&mut e, "k7/8/1K6/8/8/8/8/7R b - - 0 1", Limits::depth(6));
    assert_eq!(r.score, Score::Mate(-1), "result {r:?}");
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let mut e = engine();
    let (_, r) = search(&mut e, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Limits::depth(3));
    assert!(r.best.is_none());
}

#[test]
fn single_thread_fixed_depth_is_deterministic() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut a = engine();
    let (_, r1) = search(&mut a, fen, Limits::depth(7));
    let mut b = engine();
    let (_, r2) = search(&mut b, fen, Limits::depth(7));
    assert_eq!(r1.nodes, r2.nodes);
    assert_eq!(r1.best, r2.best);
    let (_, n1) = search(&mut engine(), fen, Limits::nodes(20_000));
    let (_, n2) = search(&mut engine(), fen, Limits::nodes(20_000));
    assert_eq!(n1.nodes, 20_000);
    assert_eq!(n1.best, n2.best);
}

#[test]
fn movetime_is_respected_and_stop_returns_a_legal_move() {
    let mut e = engine();
    let t0 = Instant::now();
    let (board, r) = search(
        &mut e,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        Limits::movetime(Duration::from_millis(300)),
    );
    assert!(t0.elapsed() < Duration::from_millis(600));
    assert!(board.is_legal(r.best.expect("move")));
    // Infinite search stopped at once.
    let board = Board::default();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let h = e.start(SearchRequest::new(board.clone(), limits), Box::new(|_| {}));
    std::thread::sleep(Duration::from_millis(5));
    let t1 = Instant::now();
    h.stop();
    let r = h.wait();
    assert!(t1.elapsed() < Duration::from_millis(200));
    assert!(board.is_legal(r.best.expect("move")));
}

#[test]
fn every_perft_suite_position_gets_a_legal_move_at_depth_4() {
    let dir = std::env::var_os("WILY_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = dir.join("data/epd/perftsuite.epd");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} not found", path.display());
        return;
    };
    let mut e = engine();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap_or("").trim();
        let Ok(board) = Board::from_fen(fen, false).or_else(|_| Board::from_fen(fen, true)) else {
            panic!("suite FEN does not parse: {fen}");
        };
        e.new_game();
        let r = e.search(
            SearchRequest::new(board.clone(), Limits::depth(4)),
            Box::new(|_| {}),
        );
        match r.best {
            Some(mv) => assert!(board.is_legal(mv), "illegal {mv} in {fen}"),
            None => assert_ne!(board.status(), GameStatus::Ongoing, "no move in {fen}"),
        }
        n += 1;
    }
    assert!(n > 100);
}
