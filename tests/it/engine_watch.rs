//! The search's observers through the public engine facade: each root move is told as the
//! main thread reaches it, with its place in the root list; the traced tree (`trace n`)
//! holds legal lines no deeper than asked; and watching never changes what the search
//! finds.

use cozy_chess::{Board, Move};
use std::sync::{Arc, Mutex};
use wily::engine::{
    Engine, EngineOptions, Limits, RootMoveInfo, SearchRequest, TraceNode, Watchers, INF,
};

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
        ..Watchers::default()
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

#[test]
fn the_trace_holds_legal_lines_to_its_ply_and_changes_nothing() {
    let board: Board = FEN.parse().expect("FEN");
    let plain = engine().search(
        SearchRequest::new(board.clone(), Limits::depth(6)),
        Box::new(|_| {}),
    );
    let seen: Arc<Mutex<Vec<TraceNode>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let watchers = Watchers {
        trace: Some((
            2,
            Box::new(move |t: &TraceNode| sink.lock().expect("lock").push(*t)),
        )),
        ..Watchers::default()
    };
    let mut e = engine();
    let watched = e
        .start_watched(
            SearchRequest::new(board.clone(), Limits::depth(6)),
            Box::new(|_| {}),
            watchers,
        )
        .wait();
    assert_eq!(watched.best, plain.best);
    assert_eq!(watched.score, plain.score);
    assert_eq!(watched.nodes, plain.nodes);
    assert_eq!(watched.pv, plain.pv);

    let seen = seen.lock().expect("lock");
    let roots = legal(&board);
    let (mut plies1, mut plies2) = (0, 0);
    for t in seen.iter() {
        let line = t.line();
        assert_eq!(line.len(), t.ply, "{t:?}");
        assert!((1..=2).contains(&t.ply), "deeper than asked: {t:?}");
        // Each line is legal from the root.
        let mut b = board.clone();
        for mv in &line {
            assert!(legal(&b).contains(mv), "{t:?}");
            b.play(*mv);
        }
        assert!(t.alpha < t.beta, "{t:?}");
        assert!(
            t.score.abs() <= INF && t.alpha >= -INF && t.beta <= INF,
            "{t:?}"
        );
        if t.ply == 1 {
            plies1 += 1;
        } else {
            plies2 += 1;
        }
    }
    // Every root move is traced at depth 1 at least, and replies below them (fewer: a
    // reply that refutes a root move cuts its siblings off).
    assert!(plies1 >= roots.len(), "{plies1} root nodes");
    assert!(plies2 >= roots.len(), "{plies2} replies");
    // The root move the search chose is traced with the score it reported at the end.
    let best = watched.best.expect("a move");
    let last = seen
        .iter()
        .rev()
        .find(|t| t.ply == 1 && t.line()[0] == best)
        .expect("the best move traced");
    assert!(last.depth >= 4, "{last:?}");
}

#[test]
fn a_trace_past_its_deepest_ply_is_cut_there() {
    let board: Board = FEN.parse().expect("FEN");
    let seen: Arc<Mutex<usize>> = Arc::default();
    let sink = Arc::clone(&seen);
    let watchers = Watchers {
        trace: Some((
            99,
            Box::new(move |t: &TraceNode| {
                let mut m = sink.lock().expect("lock");
                *m = (*m).max(t.ply);
            }),
        )),
        ..Watchers::default()
    };
    let mut e = engine();
    e.start_watched(
        SearchRequest::new(board, Limits::depth(12)),
        Box::new(|_| {}),
        watchers,
    )
    .wait();
    let deepest = *seen.lock().expect("lock");
    assert!(
        (4..=wily::engine::MAX_TRACE_PLY).contains(&deepest),
        "{deepest}"
    );
}
