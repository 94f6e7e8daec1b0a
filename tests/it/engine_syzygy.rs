//! Syzygy tablebases through the engine facade, on the shared 3-4 piece tables (skipped,
//! with a message, when they are not there): tablebase scores and moves at the root,
//! probes below the root, KQvK and KRvK won by the DTZ-optimal path to mate within the
//! DTZ bound, KPvK draws held by the only saving moves, several threads probing at once,
//! and a missing or truncated table reported while the engine goes on.

use crate::scratch;
use crate::syzygy_support;

use cozy_chess::{Board, GameStatus, Move};
use std::path::Path;
use syzygy_support::{serial, syzygy_dir};
use wily::engine::tablebase::{self, Wdl};
use wily::engine::{Engine, EngineOptions, Limits, Score, SearchRequest, SearchResult, TB_WIN};

fn engine_with(dir: &Path, threads: usize) -> Engine {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 16,
        threads,
        ..EngineOptions::default()
    });
    let summary = e
        .set_syzygy_path(dir.to_str().unwrap())
        .expect("tables load");
    assert!(summary.contains("up to 4 pieces"), "{summary}");
    e
}

fn board(fen: &str) -> Board {
    fen.parse().expect("test FEN parses")
}

fn search(e: &mut Engine, b: &Board, history: &[u64], limits: Limits) -> SearchResult {
    let mut req = SearchRequest::new(b.clone(), limits);
    req.history = history.to_vec();
    e.search(req, Box::new(|_| {}))
}

fn tb_cp(r: &SearchResult) -> i32 {
    match r.score {
        Score::Cp(c) => c,
        Score::Mate(m) => panic!("a tablebase score, not mate {m}"),
    }
}

#[test]
fn the_root_reports_the_tables_score_and_plays_a_best_move() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let tb = tablebase::open(dir.to_str().unwrap()).unwrap();
    let mut e = engine_with(&dir, 1);
    // KQvK, 15 plies from mate: every move the engine may play is DTZ-optimal.
    let b = board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    let r = search(&mut e, &b, &[], Limits::depth(3));
    assert_eq!(tb_cp(&r), TB_WIN - 15, "{r:?}");
    let best = r.best.unwrap();
    let dtz = tb.probe_root(&b).unwrap();
    let chosen = dtz.iter().find(|m| m.mv == best).unwrap();
    assert_eq!((chosen.wdl, chosen.dtz), (Wdl::Win, 15), "{best}");
    assert!(e.last_tbhits() >= 1);
    // The lost side: the longest defence (16 plies) and a losing tablebase score.
    let b = board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    let r = search(&mut e, &b, &[], Limits::depth(3));
    assert_eq!(tb_cp(&r), -TB_WIN + 16, "{r:?}");
    // KBNvK won for White; a drawn KBvK is a draw.
    let r = search(
        &mut e,
        &board("8/8/8/8/8/8/k7/2K1BN2 w - - 0 1"),
        &[],
        Limits::depth(2),
    );
    assert_eq!(tb_cp(&r), TB_WIN - 22, "{r:?}");
    let r = search(
        &mut e,
        &board("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"),
        &[],
        Limits::depth(4),
    );
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
    // A mate found by the search is reported as mate.
    let r = search(
        &mut e,
        &board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"),
        &[],
        Limits::depth(4),
    );
    assert_eq!(r.score, Score::Mate(1), "{r:?}");
}

#[test]
fn probes_below_the_root_after_captures() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    // Five pieces: Qxd5 leaves KQvKP, which the tables know is won.
    let b = board("7k/7p/8/3r4/8/3Q4/8/6K1 w - - 0 1");
    for threads in [1, 2] {
        let mut e = engine_with(&dir, threads);
        let r = search(&mut e, &b, &[], Limits::depth(6));
        assert_eq!(r.best.map(|m| m.to_string()), Some("d3d5".into()), "{r:?}");
        assert!(tb_cp(&r) > TB_WIN - 200, "{r:?}");
        assert!(e.last_tbhits() > 0);
    }
    // Without tables the same search hits nothing and scores like a queen up.
    let mut e = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let r = search(&mut e, &b, &[], Limits::depth(6));
    assert_eq!(e.last_tbhits(), 0);
    assert!(tb_cp(&r) < 5000, "{r:?}");
}

/// Plays `fen` out with the engine on both sides (at `nodes` per move) and returns the
/// game's moves and final position.
fn play_out(e: &mut Engine, fen: &str, max_plies: usize, nodes: u64) -> (Vec<Move>, Board) {
    let mut b = board(fen);
    let mut history = Vec::new();
    let mut moves = Vec::new();
    while b.status() == GameStatus::Ongoing && moves.len() < max_plies {
        let r = search(e, &b, &history, Limits::nodes(nodes));
        let mv = r.best.expect("a move");
        history.push(b.hash());
        b.play(mv);
        moves.push(mv);
    }
    (moves, b)
}

#[test]
fn kqk_and_krk_are_won_by_mate_within_the_dtz_bound() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let tb = tablebase::open(dir.to_str().unwrap()).unwrap();
    let mut e = engine_with(&dir, 1);
    // The longest KRvK win (31 plies) and two shorter ones.
    for (fen, dtz) in [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 15),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 23),
        ("8/8/8/8/8/2k5/1R6/K7 w - - 0 1", 31),
    ] {
        let start = tb.probe_root(&board(fen)).unwrap();
        let best = start.iter().filter(|m| m.wdl == Wdl::Win).map(|m| m.dtz);
        assert_eq!(best.min(), Some(dtz), "{fen}");
        let (moves, end) = play_out(&mut e, fen, 200, 2_000);
        assert_eq!(end.status(), GameStatus::Won, "{fen}: {moves:?}");
        assert!(
            moves.len() <= dtz as usize,
            "{fen}: mate after {} plies, DTZ {dtz}",
            moves.len()
        );
    }
}

#[test]
fn kpk_draws_are_held_by_the_only_saving_moves() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let tb = tablebase::open(dir.to_str().unwrap()).unwrap();
    let mut e = engine_with(&dir, 1);
    // Black to move; only Kc7 (first) and Kd7 (second) keep the draw.
    for (fen, only) in [
        ("3k4/8/8/8/8/8/1P6/K7 b - - 0 1", "d8c7"),
        ("4k3/8/8/8/8/8/1P6/2K5 b - - 0 1", "e8d7"),
    ] {
        let (moves, end) = play_out(&mut e, fen, 60, 2_000);
        assert_eq!(moves[0].to_string(), only, "{fen}");
        let mut b = board(fen);
        for (i, &mv) in moves.iter().enumerate() {
            b.play(mv);
            if i % 2 == 0 && b.status() == GameStatus::Ongoing {
                // After each Black move, White (to move) has no win. Bare kings (Black
                // took the pawn) are a draw the tables do not hold.
                let wdl = if b.occupied().len() == 2 {
                    Some(Wdl::Draw)
                } else {
                    tb.probe_wdl(&b)
                };
                assert_eq!(wdl, Some(Wdl::Draw), "{fen} after {i}");
            }
        }
        assert_ne!(end.status(), GameStatus::Won, "{fen}: {moves:?}");
    }
}

#[test]
fn a_missing_or_truncated_table_is_reported_and_the_engine_goes_on() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let tmp = scratch::dir("engine-syzygy");
    for n in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::copy(dir.join(n), tmp.path().join(n)).unwrap();
    }
    // Cut KQvK.rtbz in the middle: KQvK keeps its WDL table, loses DTZ.
    let cut = tmp.path().join("KQvK.rtbz");
    let len = std::fs::metadata(&cut).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&cut)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let mut e = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let text = e.set_syzygy_path(tmp.path().to_str().unwrap()).unwrap();
    assert!(
        text.contains("2 WDL and 1 DTZ") && text.contains("left out") && text.contains("KQvK.rtbz"),
        "{text}"
    );
    // KQvK: won by WDL, no DTZ ranking; the search still plays a winning move.
    let b = board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    let r = search(&mut e, &b, &[], Limits::depth(5));
    assert!(tb_cp(&r) >= TB_WIN - 1000, "{r:?}");
    let mut after = b.clone();
    after.play(r.best.unwrap());
    assert_eq!(e.syzygy().unwrap().probe_wdl(&after), Some(Wdl::Loss));
    // A folder that does not exist: an error, and the engine searches without tables.
    let err = e.set_syzygy_path("/nonexistent/wily-syzygy").unwrap_err();
    assert!(err.contains("/nonexistent/wily-syzygy"), "{err}");
    assert!(e.syzygy().is_none());
    let r = search(&mut e, &b, &[], Limits::depth(5));
    assert!(r.best.is_some());
    assert_eq!(e.last_tbhits(), 0);
    // Turning tablebases off.
    assert!(e.set_syzygy_path("<empty>").unwrap().contains("off"));
}

#[test]
fn swindle_mode_keeps_the_rook_in_a_drawn_krkb_and_off_simplifies() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let tb = tablebase::open(dir.to_str().unwrap()).unwrap();
    // KRvKB, drawn: Rxe5 Kxe5 is the quickest draw; keeping the rook keeps the chances.
    let b = board("8/8/4k3/R3b3/8/8/8/2K5 w - - 0 1");
    let takes: Move = "a5e5".parse().unwrap();
    let root = tb.probe_root(&b).unwrap();
    let wdl = |mv: Move| root.iter().find(|m| m.mv == mv).map(|m| m.wdl);
    assert_eq!(wdl(takes), Some(Wdl::Draw));
    let mut e = engine_with(&dir, 1);
    assert!(e.swindle(), "on by default");
    let r = search(&mut e, &b, &[], Limits::depth(8));
    let on = r.best.unwrap();
    assert_ne!(on, takes, "{r:?}");
    assert_eq!(wdl(on), Some(Wdl::Draw), "{on}");
    assert!(b.color_on(on.to).is_none(), "{on} keeps the material");
    assert!(
        tablebase::swindle::losing_replies(&tb, &b, on, true) > 0,
        "{on} sets a trap"
    );
    e.set_swindle(false);
    let r = search(&mut e, &b, &[], Limits::depth(8));
    assert_eq!(r.best, Some(takes), "off: the simplest draw, {r:?}");
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
}
