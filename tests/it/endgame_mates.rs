//! Mating a bare king without tablebases (`tests/fixtures/bare_king_mates.epd`: KBNK with
//! a light- and a dark-squared bishop, KQK, KRK): a few positions played out at a fixed
//! node budget on every run, and, opt-in, the whole file at 0.1 s a move as issue 56 asks
//! (`cargo test --profile ci --test it endgame_mates -- --ignored --nocapture`; the same run
//! as `wily mates tests/fixtures/bare_king_mates.epd`). Every position must end in mate
//! before the fifty-move rule, with no repetition, stalemate or lost piece on the way.

use std::path::PathBuf;
use std::time::Duration;

use cozy_chess::Board;
use wily::engine::Limits;
use wily::tools::mates::{play_out, read_positions, run_file, Ending, MateSettings};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bare_king_mates.epd")
}

fn positions() -> Vec<(String, Board)> {
    let text = std::fs::read_to_string(fixture()).expect("the fixture is in the repository");
    read_positions(&text)
        .expect("the fixture reads")
        .into_iter()
        .map(|p| (p.id, p.board))
        .collect()
}

#[test]
fn the_file_holds_fifty_positions_of_each_kind() {
    let all = positions();
    assert_eq!(all.len(), 50);
    for kind in ["kbnk-light", "kbnk-dark", "kqk", "krk"] {
        assert!(
            all.iter().filter(|(t, _)| t.starts_with(kind)).count() >= 10,
            "{kind}"
        );
    }
}

#[test]
fn a_few_positions_are_mated_at_a_fixed_node_budget() {
    let settings = MateSettings {
        attacker: Limits::nodes(40_000),
        defender: Limits::nodes(4_000),
        hash_mb: 16,
    };
    let all = positions();
    for id in ["kqk-03", "krk-05", "kbnk-light-02", "kbnk-dark-07"] {
        let (_, board) = all.iter().find(|(t, _)| t == id).expect("in the file");
        let end = play_out(board, &settings).expect("plays");
        assert_eq!(end.ending, Ending::Mated, "{id}: {end:?}");
        assert!(end.moves <= 50, "{id}: {end:?}");
    }
}

#[test]
#[ignore = "a few minutes: cargo test --profile ci --test it endgame_mates -- --ignored --nocapture"]
fn every_position_is_mated_at_a_tenth_of_a_second_a_move() {
    let tenth = Limits::movetime(Duration::from_millis(100));
    let settings = MateSettings {
        attacker: tenth.clone(),
        defender: tenth,
        hash_mb: 16,
    };
    let mut out = std::io::stdout();
    let summary = run_file(&fixture(), &settings, &mut out).expect("runs");
    assert_eq!(summary.mated, summary.positions, "{summary:?}");
}
