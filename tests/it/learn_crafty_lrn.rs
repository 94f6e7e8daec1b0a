//! Crafty's learning files: `import` reads Crafty's own `book.lrn` records (book line
//! from the start, `{value, depth, rating_difference}`), and the learning log appends each
//! game's learned line in that format with the players, the date and the rating
//! difference, so a Crafty user's files go both ways.

use crate::scratch;

use cozy_chess::{Board, Color, Move};
use wily::learn::{GameOutcome, GameRecord, Learner, SearchRecord};

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

const CRAFTY_LRN: &str = "[White \"Crafty v19.19\"]
[Black \"somebody\"]
[Date \"2003.05.01\"]
1. e4 c5 2. Nf3 d6 {-53, 12, -150}

[White \"somebody\"]
[Black \"Crafty v19.19\"]
[Date \"2003.05.02\"]
1. d4 Nf6 2. c4 e6 3. Nc3
Bb4 {+31 14 20}

[White \"x\"]
[Black \"y\"]
1. e4 Ke7 {10, 10, 10}

[White \"x\"]
1. e4 e5 no comment here
";

#[test]
fn crafty_book_lrn_imports() {
    let tmp = scratch::dir("learn-crafty-import");
    let dir = tmp.path();
    let file = dir.join("book.lrn");
    std::fs::write(&file, CRAFTY_LRN).unwrap();
    let mut l = Learner::open(&dir.join("l.db")).expect("open");
    let s = l.import(&file, false).expect("import");
    assert_eq!(s.book_values, 2, "{s:?}");
    assert_eq!(s.skipped.len(), 2, "{s:?}");
    assert!(s.skipped[0].contains("illegal move Ke7"), "{s:?}");
    assert!(s.skipped[1].contains("no {value"), "{s:?}");
    // The value is learned for the line's last move, from its mover's side.
    let (moves, boards) = play("e2e4 c7c5 g1f3 d7d6");
    let key = wily::chess::polyglot::polyglot_key(&boards[3]);
    let v = l.book_value_raw(key, moves[3]).expect("1... d6 learned");
    // -53 against an opponent 150 points stronger counts 1 - 150/800 of its size.
    assert_eq!((v.value, v.depth), (-43, 12));
    let (moves, boards) = play("d2d4 g8f6 c2c4 e7e6 b1c3 f8b4");
    let key = wily::chess::polyglot::polyglot_key(&boards[5]);
    let v = l
        .book_value_raw(key, moves[5])
        .expect("3... Bb4 learned (two lines)");
    // +31 against an opponent 20 points weaker: 31 x (1 - 20/800) = 30.2.
    assert_eq!(v.value, 30);
}

#[test]
fn each_games_learned_line_is_appended_to_the_log() {
    let tmp = scratch::dir("learn-crafty-log");
    let dir = tmp.path();
    let log = dir.join("shared.lrn");
    let mut l = Learner::open(&dir.join("l.db")).expect("open");
    l.settings.lrn_log = Some(log.clone());
    // wily (Black) left the book after 2... Nc6; the searches after it say -40 at depth 11.
    let (moves, _) = play("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6");
    let mut rec = GameRecord::new(moves, Color::Black, GameOutcome::WhiteWins, "resignation");
    rec.book_exit_ply = Some(5);
    rec.searches = (0..2)
        .map(|i| SearchRecord {
            ply: 5 + 2 * i,
            score: -40,
            depth: 11,
            best: None,
        })
        .collect();
    rec.opponent = "GMstrong".into();
    rec.wily_rating = Some(2300);
    rec.opponent_rating = Some(2500);
    rec.time_control = "5+2".into();
    let report = l.after_game(&rec, None).expect("learn");
    assert!(
        report.book.is_some(),
        "a book value was learned: {report:?}"
    );
    let text = std::fs::read_to_string(&log).expect("the learning log");
    assert!(text.contains("[White \"GMstrong\"]"), "{text}");
    assert!(text.contains("[Black \"wily\"]"), "{text}");
    assert!(text.contains("[Date \""), "{text}");
    assert!(text.contains("1. e4 e5 2. Nf3 Nc6 {"), "{text}");
    // The raw value (-40, before the rating scaling) with the rating difference.
    assert!(
        text.contains("{-40, 11, -200}"),
        "rating difference wily - opponent: {text}"
    );
    // A second game appends; the file reads back through `import`.
    l.after_game(&rec, None).expect("learn again");
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("[White \"GMstrong\"]").count(), 2, "{text}");
    let mut fresh = Learner::open(&dir.join("fresh.db")).expect("open");
    let s = fresh.import(&log, false).expect("import the log");
    assert_eq!(s.book_values, 2, "{s:?}");
    assert!(s.skipped.is_empty(), "{s:?}");
}

#[test]
fn each_games_learned_positions_go_to_position_lrn_beside_the_log() {
    let tmp = scratch::dir("learn-crafty-poslog");
    let dir = tmp.path();
    let log = dir.join("book.lrn");
    let mut l = Learner::open(&dir.join("l.db")).expect("open");
    l.settings.lrn_log = Some(log.clone());
    // wily (Black): -40 at ply 5, then -120 at ply 7 (after 4. Ba4, it plays 4... Nf6): a
    // drop of 80 centipawns at depth 11, which position learning keeps.
    let (moves, boards) = play("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6");
    let mut rec = GameRecord::new(moves, Color::Black, GameOutcome::WhiteWins, "resignation");
    rec.book_exit_ply = Some(5);
    rec.searches = [(5, -40), (7, -120)]
        .iter()
        .map(|&(ply, score)| SearchRecord {
            ply,
            score,
            depth: 11,
            best: None,
        })
        .collect();
    rec.opponent = "someone".into();
    l.after_game(&rec, None).expect("learn");
    let pos_log = dir.join("position.lrn");
    let text = std::fs::read_to_string(&pos_log).expect("position.lrn beside book.lrn");
    let fen = wily::chess::fen::to_fen(&boards[7]);
    assert!(
        text.contains(&format!("position {fen}\nmove Nf6\nvalue -120\ndepth 11\n")),
        "{text}"
    );
    // It reads back through `import`.
    let mut fresh = Learner::open(&dir.join("fresh.db")).expect("open");
    let s = fresh.import(&pos_log, false).expect("import position.lrn");
    assert_eq!(s.positions, 1, "{s:?}");
    // Without a learning log nothing is written.
    let tmp2 = scratch::dir("learn-crafty-nolog");
    let mut quiet = Learner::open(&tmp2.path().join("l.db")).expect("open");
    quiet.after_game(&rec, None).expect("learn");
    assert!(!tmp2.path().join("position.lrn").exists());
    assert!(!tmp2.path().join("book.lrn").exists());
}

/// Two games that teach book values: wily (Black) against a stronger GM after 2... Nc6,
/// and wily (White) against a weaker player after 3. Nc3.
fn two_games() -> Vec<GameRecord> {
    let game = |uci: &str, color, exit, score, opponent: &str, wily, opp| {
        let (moves, _) = play(uci);
        let mut rec = GameRecord::new(moves, color, GameOutcome::Draw, "agreement");
        rec.book_exit_ply = Some(exit);
        let first = if color == Color::White { 0 } else { 1 };
        rec.searches = (0..3)
            .map(|i| SearchRecord {
                ply: exit + (exit + first) % 2 + 2 * i,
                score,
                depth: 11,
                best: None,
            })
            .collect();
        rec.opponent = opponent.into();
        rec.wily_rating = Some(wily);
        rec.opponent_rating = Some(opp);
        rec.time_control = "5+2".into();
        rec
    };
    vec![
        game(
            "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7",
            Color::Black,
            5,
            -40,
            "GMstrong",
            2300,
            2500,
        ),
        game(
            "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 d1c2 e8g8 a2a3 b4c3",
            Color::White,
            5,
            55,
            "weakling",
            2400,
            2100,
        ),
    ]
}

/// Every learned book value of a store: (position key, move, value, depth, games).
fn learned(l: &Learner, lines: &[&str]) -> Vec<(u64, Move, i32, i32, u32)> {
    lines
        .iter()
        .map(|uci| {
            let (moves, boards) = play(uci);
            let n = moves.len() - 1;
            let key = wily::chess::polyglot::polyglot_key(&boards[n]);
            let v = l.book_value_raw(key, moves[n]).expect("a learned value");
            (key, moves[n], v.value, v.depth, v.games)
        })
        .collect()
}

const LEARNED: [&str; 2] = ["e2e4 e7e5 g1f3 b8c6", "d2d4 g8f6 c2c4 e7e6 b1c3"];

#[test]
fn crafty_export_carries_the_opponent_and_rating_difference_and_round_trips() {
    let tmp = scratch::dir("learn-crafty-export");
    let dir = tmp.path();
    let mut l = Learner::open(&dir.join("a.db")).expect("open");
    for rec in two_games() {
        assert!(l.after_game(&rec, None).expect("learn").book.is_some());
    }
    let before = learned(&l, &LEARNED);
    let out = l.export_crafty(&dir.join("out")).expect("export");
    assert_eq!(
        (out.lines, out.from_games, out.left_out),
        (2, 0, 0),
        "{out:?}"
    );
    let text = std::fs::read_to_string(&out.book).expect("book.lrn");
    // wily played the line's last move: Black's 2... Nc6 against the GM, 200 points
    // stronger (the difference is wily's rating minus the opponent's, as Crafty's).
    assert!(
        text.contains("[White \"GMstrong\"]\n[Black \"wily\"]"),
        "{text}"
    );
    assert!(
        text.contains("1. e4 e5 2. Nf3 Nc6 {-40, 11, -200}"),
        "{text}"
    );
    assert!(
        text.contains("[White \"wily\"]\n[Black \"weakling\"]"),
        "{text}"
    );
    // The stored values are the weighted ones; the comment has the value before it
    // (rounded: 55 x (1 - 300/800) = 34.4 was stored, 34 / 0.625 = 54.4 comes back).
    assert_eq!(before[0].2, -30, "-40 x (1 - 200/800)");
    assert_eq!(before[1].2, 34);
    assert!(
        text.contains("1. d4 Nf6 2. c4 e6 3. Nc3 {54, 11, 300}"),
        "{text}"
    );
    assert!(
        text.contains(&format!("[Learn \"{:+}\"]", before[1].2)),
        "{text}"
    );
    // Importing the file gives back the same values, and exporting the new store the
    // same file.
    let mut fresh = Learner::open(&dir.join("b.db")).expect("open");
    let s = fresh.import(&out.book, false).expect("import");
    assert_eq!(s.book_values, 2, "{s:?}");
    assert!(s.skipped.is_empty(), "{s:?}");
    assert_eq!(learned(&fresh, &LEARNED), before);
    let again = fresh
        .export_crafty(&dir.join("again"))
        .expect("export again");
    assert_eq!(std::fs::read_to_string(&again.book).unwrap(), text);
    // The plain export carries them as tags, and reads back the same too.
    let (plain, _) = fresh.export(&dir.join("plain")).expect("plain export");
    let ptext = std::fs::read_to_string(&plain).unwrap();
    assert!(
        ptext.contains("[Opponent \"GMstrong\"]\n[RatingDiff \"-200\"]"),
        "{ptext}"
    );
    assert!(ptext.contains("[Line \"e2e4 e7e5 g1f3 b8c6\"]"), "{ptext}");
    let mut third = Learner::open(&dir.join("c.db")).expect("open");
    third.import(&plain, false).expect("import plain");
    assert_eq!(learned(&third, &LEARNED), before);
    let last = third
        .export_crafty(&dir.join("last"))
        .expect("export third");
    assert_eq!(std::fs::read_to_string(&last.book).unwrap(), text);
}

#[test]
fn a_store_from_before_schema_2_keeps_its_values_and_exports_lines_from_its_games() {
    let tmp = scratch::dir("learn-crafty-old-store");
    let dir = tmp.path();
    let db = dir.join("old.db");
    let mut l = Learner::open(&db).expect("open");
    for rec in two_games() {
        l.after_game(&rec, None).expect("learn");
    }
    let before = learned(&l, &LEARNED);
    drop(l);
    // Back to schema version 1: the columns version 2 added go.
    let c = rusqlite::Connection::open(&db).expect("sqlite");
    c.execute_batch(
        "ALTER TABLE book_learn DROP COLUMN line;
         ALTER TABLE book_learn DROP COLUMN opponent;
         ALTER TABLE book_learn DROP COLUMN rating_diff;
         ALTER TABLE book_learn DROP COLUMN learned;
         DELETE FROM schema_version WHERE version > 1;",
    )
    .expect("downgrade");
    drop(c);
    let l = Learner::open(&db).expect("reopen and migrate");
    assert_eq!(
        l.store().schema_version().unwrap(),
        wily::learn::store::SCHEMA_VERSION
    );
    assert_eq!(learned(&l, &LEARNED), before, "nothing learned is lost");
    let out = l.export_crafty(&dir.join("out")).expect("export");
    assert_eq!(
        (out.lines, out.from_games, out.left_out),
        (2, 2, 0),
        "{out:?}"
    );
    let text = std::fs::read_to_string(&out.book).unwrap();
    assert!(
        text.contains("1. e4 e5 2. Nf3 Nc6 {-40, 11, -200}"),
        "{text}"
    );
    assert!(text.contains("[Black \"weakling\"]"), "{text}");
}
