//! Polyglot keys of 300 positions from random games, checked against values computed by an
//! independent Polyglot implementation (tests/fixtures/polyglot_keys.txt).

use cozy_chess::Board;
use wily::chess::polyglot::polyglot_key;

#[test]
fn keys_match_independent_implementation() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/polyglot_keys.txt"
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    let mut checked = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (fen, key) = line.split_once(" ; ").expect("line shape");
        let board: Board = fen.parse().expect("fixture FEN");
        let key = u64::from_str_radix(key.trim(), 16).expect("hex key");
        assert_eq!(polyglot_key(&board), key, "{fen}");
        checked += 1;
    }
    assert_eq!(checked, 300);
}
