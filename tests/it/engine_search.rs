//! Search behaviour through the public engine facade: mates found at shallow depth, a legal
//! move for every perft-suite position, stop at any instant, draws, determinism.

use crate::shared_data;

use cozy_chess::{Board, GameStatus, Move};
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
    let Some(path) = shared_data::path("data/epd/perftsuite.epd") else {
        return;
    };
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is there but unreadable: {e}", path.display()));
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

#[test]
fn fifty_move_draw_is_scored_with_wilys_draw_score() {
    // White (wily) is lost on material but every move completes the 50-move rule.
    let fen = "7k/8/8/8/8/8/5q2/R6K w - - 99 80";
    for draw in [0, -40, 30] {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 4,
            draw_score: draw,
            ..EngineOptions::default()
        });
        let (_, r) = search(&mut e, fen, Limits::depth(4));
        assert_eq!(r.score, Score::Cp(draw), "draw score {draw}: {r:?}");
    }
}

#[test]
fn threefold_repetition_with_game_history_is_a_draw_and_contempt_steers_it() {
    let mut board = Board::default();
    let mut history = Vec::new();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        history.push(board.hash());
        board.play(m.parse().expect("move"));
    }
    // Black to move: Ng8 repeats the start position a third time.
    let mut e = Engine::new(EngineOptions {
        hash_mb: 4,
        // wily (Black here) is happy to draw: the draw is worth more than the two tempi
        // Black is up (about +1.5 pawns at depth 5 with the fitted weights).
        draw_score: 300,
        ..EngineOptions::default()
    });
    let req = SearchRequest {
        board: board.clone(),
        history: history.clone(),
        limits: Limits::depth(5),
        searchmoves: Vec::new(),
    };
    let r = e.search(req, Box::new(|_| {}));
    assert_eq!(r.best, Some("f6g8".parse().expect("move")), "{r:?}");
    assert_eq!(r.score, Score::Cp(300));
    // Without the history the same move is no draw.
    let mut e = Engine::new(EngineOptions {
        hash_mb: 4,
        draw_score: 300,
        ..EngineOptions::default()
    });
    let r = e.search(
        SearchRequest::new(board, Limits::depth(5)),
        Box::new(|_| {}),
    );
    assert_ne!(r.score, Score::Cp(300), "{r:?}");
}

#[test]
fn multipv_reports_distinct_lines_and_searchmoves_restricts_the_root() {
    use std::sync::{Arc, Mutex};
    let mut e = Engine::new(EngineOptions {
        hash_mb: 4,
        multipv: 3,
        ..EngineOptions::default()
    });
    let seen: Arc<Mutex<Vec<wily::engine::SearchInfo>>> = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let r = e.search(
        SearchRequest::new(Board::default(), Limits::depth(5)),
        Box::new(move |i| sink.lock().expect("lock").push(i.clone())),
    );
    let infos = seen.lock().expect("lock").clone();
    let last: Vec<_> = infos.iter().filter(|i| i.depth == 5).collect();
    assert_eq!(last.len(), 3, "{infos:?}");
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(r.best, Some(firsts[0]));
    let mut req = SearchRequest::new(Board::default(), Limits::depth(4));
    let only: Move = "a2a3".parse().expect("move");
    req.searchmoves = vec![only];
    e.set_multipv(1);
    let r = e.search(req, Box::new(|_| {}));
    assert_eq!(r.best, Some(only));
}

#[test]
fn lazy_smp_threads_return_a_legal_move_and_count_nodes() {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 8,
        threads: 3,
        ..EngineOptions::default()
    });
    let fen = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7";
    let (board, r) = search(&mut e, fen, Limits::depth(7));
    assert!(board.is_legal(r.best.expect("move")));
    assert!(r.depth >= 7 && r.nodes > 0);
    e.set_threads(1);
    let (_, r1) = search(&mut e, fen, Limits::depth(5));
    assert!(r1.best.is_some());
}

#[test]
fn pondering_waits_for_ponderhit_then_obeys_the_clock() {
    let mut e = engine();
    let limits = Limits {
        wtime: Some(Duration::from_millis(400)),
        btime: Some(Duration::from_millis(400)),
        ponder: true,
        ..Limits::default()
    };
    let h = e.start(
        SearchRequest::new(Board::default(), limits),
        Box::new(|_| {}),
    );
    std::thread::sleep(Duration::from_millis(600));
    assert!(
        !h.is_finished(),
        "a ponder search must not end before ponderhit"
    );
    h.ponderhit();
    let t = Instant::now();
    let r = h.wait();
    assert!(t.elapsed() < Duration::from_millis(400));
    assert!(r.best.is_some());
}

#[test]
fn clock_searches_stay_inside_the_hard_limit() {
    let mut e = engine();
    for (ms, mtg) in [(100u64, None), (1000, Some(1u32)), (3000, Some(40))] {
        let limits = Limits {
            wtime: Some(Duration::from_millis(ms)),
            btime: Some(Duration::from_millis(ms)),
            movestogo: mtg,
            ..Limits::default()
        };
        let t = Instant::now();
        let (_, r) = search(
            &mut e,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            limits,
        );
        assert!(r.best.is_some());
        assert!(
            t.elapsed() < Duration::from_millis(ms),
            "{ms} ms clock took {:?}",
            t.elapsed()
        );
    }
}
