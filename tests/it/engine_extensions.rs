//! Crafty's search extensions as settable amounts (`ext_*` tunables, the console's
//! `extensions`): the defaults (a ply for a check, the rest off), each kind changing the
//! search where it applies once set, the setting staying with its engine, and fractions of
//! a ply doing something between off and a whole ply.

use cozy_chess::Board;
use wily::engine::{Engine, EngineOptions, Limits, SearchRequest};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        ..EngineOptions::default()
    })
}

/// The nodes of a fixed-depth search of `fen` by a fresh engine with `settings` applied.
fn nodes(fen: &str, depth: u32, settings: &[(&str, i32)]) -> u64 {
    let mut e = engine();
    for (name, v) in settings {
        assert_eq!(e.set_search_param(name, *v), Ok(*v), "{name}");
    }
    let board: Board = fen.parse().expect("test FEN parses");
    let r = e.search(
        SearchRequest::new(board, Limits::depth(depth)),
        Box::new(|_| {}),
    );
    assert!(r.best.is_some());
    r.nodes
}

/// A middlegame full of checks, captures and threats (Kiwipete).
const SHARP: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A mating attack (Win at Chess #1: the queen and knights against the king on h8).
const ATTACK: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
/// A queenless ending with passed pawns on both sides.
const ENDING: &str = "8/5pk1/1P4p1/3r3p/P7/6P1/5PK1/2R5 w - - 0 1";

#[test]
fn defaults_are_a_ply_for_checks_and_nothing_for_the_rest() {
    let e = engine();
    assert_eq!(e.search_param("ext_incheck"), Some(100));
    for kind in ["ext_onerep", "ext_pushpp", "ext_recapture", "ext_mate"] {
        assert_eq!(e.search_param(kind), Some(0), "{kind}");
    }
    // A ply at most: Crafty's limit of one ply of extension at any point.
    let mut e = engine();
    assert_eq!(e.set_search_param("ext_onerep", 250), Ok(100));
    assert_eq!(e.set_search_param("ext_mate", -5), Ok(0));
}

#[test]
fn each_kind_changes_the_search_once_set() {
    let base = nodes(SHARP, 7, &[]);
    // Setting the default again changes nothing (the count is deterministic).
    assert_eq!(nodes(SHARP, 7, &[("ext_incheck", 100)]), base);
    assert_ne!(nodes(SHARP, 7, &[("ext_incheck", 0)]), base, "incheck");
    assert_ne!(nodes(SHARP, 7, &[("ext_onerep", 100)]), base, "onerep");
    assert_ne!(
        nodes(SHARP, 7, &[("ext_recapture", 100)]),
        base,
        "recapture"
    );
    let attack = nodes(ATTACK, 8, &[]);
    assert_ne!(nodes(ATTACK, 8, &[("ext_mate", 100)]), attack, "mate");
    let ending = nodes(ENDING, 9, &[]);
    assert_ne!(nodes(ENDING, 9, &[("ext_pushpp", 100)]), ending, "pushpp");
}

#[test]
fn half_a_ply_is_neither_off_nor_a_whole_ply() {
    let off = nodes(SHARP, 7, &[("ext_incheck", 0)]);
    let half = nodes(SHARP, 7, &[("ext_incheck", 50)]);
    let whole = nodes(SHARP, 7, &[]);
    assert_ne!(half, off);
    assert_ne!(half, whole);
}

#[test]
fn a_setting_stays_with_its_engine() {
    let mut a = engine();
    a.set_search_param("ext_recapture", 75).unwrap();
    let b = engine();
    assert_eq!(a.search_param("ext_recapture"), Some(75));
    assert_eq!(b.search_param("ext_recapture"), Some(0));
}
