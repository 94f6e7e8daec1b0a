//! The learning store: survives a restart, refuses damaged and foreign files with a clear
//! message, export/import round trip, position learning's cap, opponent statistics.

use crate::scratch;

use cozy_chess::{Board, Color, Move};
use std::path::Path;
use wily::learn::{GameOutcome, GameRecord, LearnError, Learner, SearchRecord};

fn tmp_dir(name: &str) -> tempfile::TempDir {
    scratch::dir(&format!("learn-{name}"))
}

fn play(uci: &str) -> (Vec<Move>, Vec<Board>) {
    let mut b = Board::default();
    let mut moves = Vec::new();
    let mut boards = vec![b.clone()];
    for m in uci.split_whitespace() {
        let mv = wily::chess::move_from_uci(&b, m, false).expect("legal test move");
        b.play(mv);
        moves.push(mv);
        boards.push(b.clone());
    }
    (moves, boards)
}

/// A game where wily (White) searched at plies 4, 6, 8 and its score fell at ply 8.
fn dropping_game() -> (GameRecord, Board, Move) {
    let (moves, boards) = play("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6");
    let best_at_8 = moves[8];
    let mut rec = GameRecord::new(moves, Color::White, GameOutcome::Draw, "agreement");
    rec.book_exit_ply = Some(4);
    rec.searches = vec![
        SearchRecord {
            ply: 4,
            score: 40,
            depth: 10,
            best: None,
        },
        SearchRecord {
            ply: 6,
            score: 35,
            depth: 10,
            best: None,
        },
        SearchRecord {
            ply: 8,
            score: -60,
            depth: 11,
            best: Some(best_at_8),
        },
    ];
    rec.opponent = "someone".into();
    rec.time_control = "5+2".into();
    (rec, boards[8].clone(), best_at_8)
}

#[test]
fn position_learning_survives_a_restart() {
    let tmp = tmp_dir("restart");
    let dir = tmp.path();
    let db = dir.join("learn.db");
    let (rec, board, best) = dropping_game();
    {
        let mut l = Learner::open(&db).expect("open");
        l.settings.sample_rate = 1.0;
        let report = l.after_game(&rec, None).expect("learn");
        assert_eq!(report.positions, 1, "{}", report.render());
        assert_eq!(report.samples, 3);
    }
    let l = Learner::open(&db).expect("reopen");
    let seeds = l.tt_seeds();
    assert_eq!(seeds.len(), 1);
    let mut n = 0;
    l.for_each_tt_seed(|s| {
        assert_eq!(*s, seeds[0]);
        n += 1;
    });
    assert_eq!(n, 1);
    assert_eq!(seeds[0].hash, board.hash());
    assert_eq!(seeds[0].mv, best);
    assert_eq!(seeds[0].score, -60);
    assert_eq!(seeds[0].depth, 11);
    assert_eq!(l.store().count("games").expect("count"), 1);
    assert_eq!(l.store().count("samples").expect("count"), 3);
    let stats = l.opponent_stats("someone").expect("stats");
    assert_eq!(
        (stats.games, stats.wins, stats.draws, stats.losses),
        (1, 0, 1, 0)
    );
    // Position learning off: nothing is handed to the engine.
    let mut l = l;
    l.set_mode(5).expect("mode");
    assert!(l.tt_seeds().is_empty());
}

#[test]
fn no_drop_no_position_and_mode_off_learns_nothing() {
    let tmp = tmp_dir("nodrop");
    let dir = tmp.path();
    let mut l = Learner::open(&dir.join("l.db")).expect("open");
    let (mut rec, _, _) = dropping_game();
    rec.searches[2].score = 20; // fell by 15 only
    assert_eq!(l.after_game(&rec, None).expect("learn").positions, 0);
    let (rec, _, _) = dropping_game();
    l.set_mode(0).expect("mode");
    let r = l.after_game(&rec, None).expect("learn");
    assert_eq!(r.positions, 0);
    assert!(r.book.is_none());
    // The games themselves are always recorded.
    assert_eq!(l.store().count("games").expect("count"), 2);
}

#[test]
fn oldest_positions_are_replaced_first() {
    let tmp = tmp_dir("cap");
    let dir = tmp.path();
    let mut l = Learner::open(&dir.join("l.db")).expect("open");
    l.settings.max_positions = 2;
    l.settings.sample_rate = 0.0;
    // Three games, each teaching a different position (different opening moves).
    for (i, line) in [
        "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
        "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",
        "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5",
    ]
    .iter()
    .enumerate()
    {
        let (moves, _) = play(line);
        let best = moves[4];
        let mut rec = GameRecord::new(moves, Color::White, GameOutcome::Draw, "agreement");
        rec.searches = vec![
            SearchRecord {
                ply: 2,
                score: 50,
                depth: 9,
                best: None,
            },
            SearchRecord {
                ply: 4,
                score: -50,
                depth: 9,
                best: Some(best),
            },
        ];
        let r = l.after_game(&rec, None).expect("learn");
        assert_eq!(r.positions, 1, "game {i}");
        // Distinct timestamps order the rows; the id breaks ties within one second.
    }
    assert_eq!(l.store().count("positions").expect("count"), 2);
    assert_eq!(l.tt_seeds().len(), 2);
    let (_, boards) = play("e2e4 e7e5 g1f3 b8c6");
    let first = boards[4].hash();
    assert!(
        l.tt_seeds().iter().all(|s| s.hash != first),
        "the oldest position should be gone"
    );
}

#[test]
fn export_then_import_into_a_fresh_store() {
    let tmp = tmp_dir("export");
    let dir = tmp.path();
    let mut l = Learner::open(&dir.join("a.db")).expect("open");
    let (rec, board, best) = dropping_game();
    l.after_game(&rec, None).expect("learn");
    let (book_lrn, pos_lrn) = l.export(&dir.join("out")).expect("export");
    let text = std::fs::read_to_string(&pos_lrn).expect("read");
    assert!(
        text.contains("position ") && text.contains("value -60"),
        "{text}"
    );
    let mut fresh = Learner::open(&dir.join("b.db")).expect("open");
    let s = fresh.import(&pos_lrn, false).expect("import");
    assert_eq!(s.positions, 1);
    assert_eq!(fresh.tt_seeds()[0].hash, board.hash());
    assert_eq!(fresh.tt_seeds()[0].mv, best);
    // book.lrn is recognised as the other kind: the game taught a value for 2. Nf3 (the
    // last book move before the searches at plies 4, 6 and 8).
    let text = std::fs::read_to_string(&book_lrn).expect("read");
    assert!(text.contains("2. Nf3 *"), "{text}");
    let s = fresh.import(&book_lrn, false).expect("import book");
    assert_eq!(s.book_values, 1);
    let (moves, boards) = play("e2e4 e7e5 g1f3");
    let key = wily::chess::polyglot::polyglot_key(&boards[2]);
    let original = l.book_value_raw(key, moves[2]).expect("learned");
    assert_eq!(fresh.book_value_raw(key, moves[2]), Some(original));
    // A file of neither kind is refused with its name.
    let junk = dir.join("junk.lrn");
    std::fs::write(&junk, "hello world\n").expect("write");
    let e = fresh.import(&junk, false).expect_err("junk").to_string();
    assert!(e.contains("junk.lrn"), "{e}");
    // import ... clear replaces.
    let empty = dir.join("empty.lrn");
    std::fs::write(&empty, "; nothing\nposition 8/8/8/8/8/8/8/8 w - - 0 1\n").expect("write");
    let s = fresh.import(&empty, true).expect("import clear");
    assert_eq!(s.positions, 0);
    assert_eq!(s.skipped.len(), 1);
    assert!(fresh.tt_seeds().is_empty());
}

fn expect_clear_error(db: &Path, e: LearnError) {
    let msg = e.to_string();
    assert!(msg.contains(&db.display().to_string()), "{msg}");
    assert!(msg.contains("move it aside"), "{msg}");
}

#[test]
fn garbage_truncated_and_foreign_stores_are_refused() {
    let tmp = tmp_dir("bad");
    let dir = tmp.path();
    // Garbage.
    let db = dir.join("garbage.db");
    let noise: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&db, &noise).expect("write");
    let e = Learner::open(&db).expect_err("garbage must be refused");
    assert!(matches!(e, LearnError::Corrupt { .. }), "{e}");
    expect_clear_error(&db, e);
    assert_eq!(
        std::fs::read(&db).expect("read"),
        noise,
        "the file must be left alone"
    );

    // Truncated: a real store with many games, cut in half.
    let db = dir.join("cut.db");
    {
        let mut l = Learner::open(&db).expect("open");
        l.settings.sample_rate = 1.0;
        for _ in 0..40 {
            let (rec, _, _) = dropping_game();
            l.after_game(&rec, None).expect("learn");
        }
        // Fold the WAL into the main file so the cut hits real data.
        l.store().integrity_check().expect("sound before the cut");
    }
    let bytes = std::fs::read(&db).expect("read");
    assert!(
        bytes.len() > 8192,
        "store too small to cut: {}",
        bytes.len()
    );
    std::fs::write(&db, &bytes[..bytes.len() / 2]).expect("write");
    let _ = std::fs::remove_file(dir.join("cut.db-wal"));
    let _ = std::fs::remove_file(dir.join("cut.db-shm"));
    let e = Learner::open(&db).expect_err("truncated must be refused");
    expect_clear_error(&db, e);

    // Foreign: somebody else's SQLite database.
    let db = dir.join("foreign.db");
    {
        let c = rusqlite::Connection::open(&db).expect("sqlite");
        c.execute_batch("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup');")
            .expect("create");
    }
    let e = Learner::open(&db).expect_err("foreign must be refused");
    assert!(matches!(e, LearnError::Foreign { .. }), "{e}");
    expect_clear_error(&db, e);
    let c = rusqlite::Connection::open(&db).expect("sqlite");
    let n: i64 = c
        .query_row("SELECT count(*) FROM recipes", [], |r| r.get(0))
        .expect("untouched");
    assert_eq!(n, 1);

    // An empty file is a fresh store.
    let db = dir.join("empty.db");
    std::fs::write(&db, b"").expect("write");
    Learner::open(&db).expect("an empty file becomes a fresh store");
}

#[test]
fn schema_version_and_too_new() {
    let tmp = tmp_dir("version");
    let dir = tmp.path();
    let db = dir.join("v.db");
    {
        let l = Learner::open(&db).expect("open");
        assert_eq!(
            l.store().schema_version().expect("version"),
            wily::learn::store::SCHEMA_VERSION
        );
    }
    {
        let c = rusqlite::Connection::open(&db).expect("sqlite");
        c.execute(
            "INSERT INTO schema_version (version, applied) VALUES (99, 'future')",
            [],
        )
        .expect("insert");
    }
    let e = Learner::open(&db).expect_err("too new");
    assert!(matches!(e, LearnError::TooNew { found: 99, .. }), "{e}");
}
