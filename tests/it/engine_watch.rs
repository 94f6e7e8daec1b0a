//! The search's observers through the public engine facade: each root move is told as the
//! main thread reaches it, with its place in the root list, and watching never changes
//! what the search finds.

use cozy_chess::{Board, Move};
use std::sync::{Arc, Mutex};
use wily::engine::{Engine, EngineOptions, Limits, RootMoveInfo, SearchRequest, Watchers};

const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        ..EngineOptions::default()
    })
}

fn legal(board: &Board) -> Vec<Move> {
    let mut v = Vec::new();
    board.generate_moves(|ms| {
        v.extend(ms);
        false
    });
    v
}

#[test]
fn root_moves_are_told_in_order_and_the_result_does_not_change() {
    let board: Board = FEN.parse().expect("FEN");
    let plain = engine().search(
        SearchRequest::new(board.clone(), Limits::depth(7)),
        Box::new(|_| {}),
    );
    let seen: Arc<Mutex<Vec<RootMoveInfo>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let watchers = Watchers {
        root_move: Some(Box::new(move |rm: &RootMoveInfo| {
            sink.lock().expect("lock").push(*rm)
        })),
    };
    let mut e = engine();
    let handle = e.start_watched(
        SearchRequest::new(board.clone(), Limits::depth(7)),
        Box::new(|_| {}),
        watchers,
    );
    let watched = handle.wait();
    assert_eq!(watched.best, plain.best);
    assert_eq!(watched.score, plain.score);
    assert_eq!(watched.nodes, plain.nodes);
    assert_eq!(watched.pv, plain.pv);

    let seen = seen.lock().expect("lock");
    let moves = legal(&board);
    assert!(!seen.is_empty());
    for rm in seen.iter() {
        assert_eq!(rm.total, moves.len(), "{rm:?}");
        assert!((1..=rm.total).contains(&rm.number), "{rm:?}");
        assert!(moves.contains(&rm.mv), "{rm:?}");
    }
    // Depths 1 to 7, in order; each pass over the root starts at its first move.
    assert_eq!(seen.first().map(|r| r.depth), Some(1));
    assert_eq!(seen.last().map(|r| r.depth), Some(7));
    assert!(seen.windows(2).all(|w| w[0].depth <= w[1].depth));
    for w in seen.windows(2) {
        if w[1].number != w[0].number + 1 {
            assert_eq!(w[1].number, 1, "{:?} then {:?}", w[0], w[1]);
        }
    }
    // Depth 1 searches every root move once, each a different one.
    let first: Vec<&RootMoveInfo> = seen.iter().filter(|r| r.depth == 1).collect();
    assert_eq!(first.len(), moves.len());
    let mut distinct: Vec<Move> = first.iter().map(|r| r.mv).collect();
    distinct.sort_by_key(|m| format!("{m}"));
    distinct.dedup();
    assert_eq!(distinct.len(), moves.len());
    // The main thread's node count grows as the search goes on.
    assert!(seen.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}
