//! The pawn hash table's size is real: `Engine::set_pawn_hash_bytes` resizes every search
//! thread's table to a power of two entries (search results stay the same: the table is
//! an exact cache), the console's `hashp=N[K|M]` reports and rejects sizes clearly and
//! `info` shows the size, UCI offers `Pawn Hash`, and xboard's `memory` covers both tables.

use crate::console_child;
use console_child::{temp_dir, Wily};
use cozy_chess::Board;
use wily::engine::eval::{pawn_hash_entries, PAWN_ENTRY_BYTES};
use wily::engine::{Engine, EngineOptions, Limits, SearchRequest};

fn search(e: &mut Engine, fen: &str) -> (Option<cozy_chess::Move>, String, u64) {
    let board: Board = fen.parse().expect("fen");
    e.new_game();
    let r = e.search(
        SearchRequest {
            board,
            history: Vec::new(),
            limits: Limits::depth(7),
            searchmoves: Vec::new(),
        },
        Box::new(|_| {}),
    );
    (r.best, format!("{:?}", r.score), r.nodes)
}

#[test]
fn resizing_the_pawn_table_changes_its_entries_not_the_search() {
    let fen = "r1bq1rk1/pp2ppbp/2np1np1/8/2BNP3/2N1BP2/PPPQ2PP/R3K2R w KQ - 0 9";
    let mut e = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let default_entries = e.pawn_hash_entries();
    assert!(default_entries.is_power_of_two());
    let base = search(&mut e, fen);
    for (bytes, expect) in [
        (64 << 10, 64 << 10),
        (3 << 20, 3 << 20),
        (16 << 20, 16 << 20),
    ] {
        let entries = e.set_pawn_hash_bytes(bytes);
        assert_eq!(Some(entries), pawn_hash_entries(expect));
        assert!(entries.is_power_of_two() && entries * PAWN_ENTRY_BYTES <= bytes);
        assert_eq!(e.pawn_hash_entries(), entries);
        assert_eq!(search(&mut e, fen), base, "{bytes} bytes");
    }
    // More threads get tables of the same size.
    e.set_threads(2);
    assert_eq!(e.pawn_hash_entries(), pawn_hash_entries(16 << 20).unwrap());
    assert_ne!(e.pawn_hash_entries(), default_entries);
}

#[test]
fn console_hashp_resizes_reports_and_rejects() {
    let tmp = temp_dir("hashp");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    let entries = pawn_hash_entries(2 << 20).unwrap();
    w.send("hashp=2M");
    w.expect(&format!("pawn hash table: {entries} entries"), 10);
    w.send("info");
    w.expect(&format!("({entries} entries per thread)"), 10);
    w.send("hashp=10");
    w.expect("hashp: 10 is out of range", 10);
    w.send("hashp=2G");
    w.expect("hashp: 2G is out of range", 10);
    w.send("hashp=lots");
    w.expect("is not a size", 10);
    // The last good size stays.
    w.send("info");
    w.expect(&format!("({entries} entries per thread)"), 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn uci_offers_pawn_hash_and_xboard_memory_takes_both_tables() {
    let tmp = temp_dir("hashp-uci");
    let dir = tmp.path();
    let mut w = Wily::spawn(&["uci"], dir);
    w.send("uci");
    w.expect(
        "option name Pawn Hash type spin default 1 min 1 max 1024",
        10,
    );
    w.expect("uciok", 10);
    w.send("setoption name Pawn Hash value 4");
    w.send("setoption name Pawn Hash value lots");
    w.expect(
        "info string unknown option or bad value: pawn hash lots",
        10,
    );
    w.send("position startpos moves e2e4");
    w.send("go depth 5");
    w.expect("bestmove", 30);
    w.send("quit");
    assert!(w.wait_exit(10));

    let tmp = temp_dir("hashp-xboard");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("xboard");
    w.send("protover 2");
    w.expect("feature done=1", 10);
    w.send("memory 256");
    w.send("new");
    w.send("sd 4");
    w.send("go");
    w.expect("move ", 30);
    w.send("quit");
    assert!(w.wait_exit(10));
}
