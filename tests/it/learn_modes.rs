//! Each learning mode changes the next game's choice as documented, through the bot's
//! game-end hook (`Learner::after_game`), and the change survives a restart.

use crate::scratch;

use cozy_chess::{Board, Color, Move};
use std::collections::HashSet;
use std::path::Path;
use wily::book::create::{create_big_from_pgn, CreateOptions};
use wily::book::{Book, BookPaths, ChooseHooks};
use wily::learn::{GameOutcome, GameRecord, Learner, SearchRecord, LEARN_BOOK, LEARN_RESULT};

fn tmp_dir(name: &str) -> tempfile::TempDir {
    scratch::dir(&format!("modes-{name}"))
}

fn book(dir: &Path) -> Book {
    let big = dir.join("book.wbk");
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book_games.pgn");
    create_big_from_pgn(&pgn, &big, &CreateOptions::new(20)).expect("create");
    let mut b = Book::open(BookPaths {
        big,
        small: dir.join("none.wbk"),
        polyglot: None,
    })
    .expect("open");
    b.set_seed(2024);
    b
}

fn line(sans: &str) -> Vec<Move> {
    let mut b = Board::default();
    let mut out = Vec::new();
    for s in sans.split_whitespace() {
        let mv = wily::chess::parse_san(&b, s).expect("legal");
        b.play(mv);
        out.push(mv);
    }
    out
}

fn choices(book: &mut Book, learner: &Learner, board: &Board, n: usize) -> HashSet<Move> {
    (0..n)
        .filter_map(|_| book.choose(board, &mut ChooseHooks::new(learner)).mv)
        .collect()
}

/// wily (White) played 1.e4 e5 2.Nf3 Nc6 3.Bb5 from the book, then searched from ply 6
/// with the given scores.
fn ruy_game(scores: &[i32], outcome: GameOutcome, reason: &str) -> GameRecord {
    let moves = line("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O");
    let searches = scores
        .iter()
        .enumerate()
        .map(|(i, &score)| SearchRecord {
            ply: 6 + 2 * i,
            score,
            depth: 12,
            best: None,
        })
        .collect();
    let mut rec = GameRecord::new(moves, Color::White, outcome, reason);
    rec.book_exit_ply = Some(6);
    rec.searches = searches;
    rec.opponent = "tester".into();
    rec.wily_rating = Some(2400);
    rec.opponent_rating = Some(2400);
    rec
}

#[test]
fn book_learning_demotes_then_promotes_and_survives_restart() {
    let tmp = tmp_dir("book");
    let dir = tmp.path();
    let mut book = book(dir);
    let db = dir.join("learn.db");
    let b = {
        let mut b = Board::default();
        for mv in &line("e4 e5 Nf3 Nc6") {
            b.play(*mv);
        }
        b
    };
    let bb5 = line("e4 e5 Nf3 Nc6 Bb5")[4];
    // With width 2 and Bc4 culled (no win), 3.Bb5 is the only choice here.
    let mut learner = Learner::open(&db).expect("open");
    assert_eq!(choices(&mut book, &learner, &b, 20), HashSet::from([bb5]));

    // The searches after 3.Bb5 went badly: the learned value falls below -100 and 3.Bb5
    // is demoted like `?`, so the book has nothing left to offer here.
    let report = learner
        .after_game(
            &ruy_game(
                &[-150, -200, -250, -250, -300],
                GameOutcome::Draw,
                "agreement",
            ),
            Some(&book),
        )
        .expect("learn");
    let (mv, value, stored) = report.book.clone().expect("book learning happened");
    assert_eq!(mv, "Bb5");
    assert!(value < -100 && stored < -100, "{report:?}");
    assert!(choices(&mut book, &learner, &b, 20).is_empty());

    // A restart keeps it.
    drop(learner);
    let mut learner = Learner::open(&db).expect("reopen");
    assert!(choices(&mut book, &learner, &b, 20).is_empty());

    // With book learning switched off (learn 6) the learned value is ignored.
    learner.set_mode(6).expect("mode");
    assert_eq!(choices(&mut book, &learner, &b, 20), HashSet::from([bb5]));
    learner.set_mode(7).expect("mode");

    // At the start, promotion: a learned value above 100 for 1.Nf3 makes it play like `!`.
    let start = Board::default();
    assert!(choices(&mut book, &learner, &start, 100).len() >= 2);
    let moves = line("Nf3 d5 d4 Nf6 c4 e6");
    let mut rec = GameRecord::new(moves, Color::White, GameOutcome::WhiteWins, "resignation");
    rec.book_exit_ply = Some(2);
    rec.searches = (0..4)
        .map(|i| SearchRecord {
            ply: 2 + 2 * i,
            score: 180,
            depth: 14,
            best: None,
        })
        .collect();
    // Beating a 300-point stronger opponent counts more (x1.375).
    rec.wily_rating = Some(2300);
    rec.opponent_rating = Some(2600);
    let report = learner.after_game(&rec, Some(&book)).expect("learn");
    let (mv, value, _) = report.book.expect("book learning happened");
    assert_eq!(mv, "Nf3");
    assert_eq!(value, 248, "180 x (1 + 300/800), rounded");
    let nf3 = line("Nf3")[0];
    assert_eq!(
        choices(&mut book, &learner, &start, 100),
        HashSet::from([nf3])
    );
}

#[test]
fn result_learning_forbids_the_last_choice() {
    let tmp = tmp_dir("result");
    let dir = tmp.path();
    let mut book = book(dir);
    let db = dir.join("learn.db");
    let mut learner = Learner::open(&db).expect("open");
    learner.set_mode(LEARN_RESULT).expect("mode");
    let start = Board::default();
    let (e4, nf3) = (line("e4")[0], line("Nf3")[0]);
    assert_eq!(
        choices(&mut book, &learner, &start, 200),
        HashSet::from([e4, nf3])
    );

    // A draw teaches nothing.
    let r = learner
        .after_game(
            &ruy_game(&[0, 0], GameOutcome::Draw, "repetition"),
            Some(&book),
        )
        .expect("learn");
    assert!(r.forbidden.is_none());
    // Losing on time teaches nothing either.
    let r = learner
        .after_game(
            &ruy_game(&[0, -50], GameOutcome::BlackWins, "time forfeit"),
            Some(&book),
        )
        .expect("learn");
    assert!(r.forbidden.is_none());

    // Lost by resignation: 3.Bb5 and 2.Nf3 had no alternative (Bc4 never won), so the
    // step back ends at the start, where 1.e4 had company: 1.e4 is never played again.
    let r = learner
        .after_game(
            &ruy_game(&[0, -400, -900], GameOutcome::BlackWins, "White resigns"),
            Some(&book),
        )
        .expect("learn");
    let (_, mv) = r.forbidden.clone().expect("result learning happened");
    assert_eq!(mv, "e4", "{r:?}");
    assert_eq!(
        choices(&mut book, &learner, &start, 200),
        HashSet::from([nf3])
    );

    // Survives a restart.
    drop(learner);
    let mut learner = Learner::open(&db).expect("reopen");
    assert_eq!(
        choices(&mut book, &learner, &start, 50),
        HashSet::from([nf3])
    );
    // Mated after 1.Nf3: now wily has no choice left at the start (1.e4 is forbidden),
    // so nothing more is forbidden and the book still offers 1.Nf3.
    let moves = line("Nf3 d5 d4 Nf6");
    let mut rec = GameRecord::new(moves, Color::White, GameOutcome::BlackWins, "checkmate");
    rec.book_exit_ply = Some(2);
    let r = learner.after_game(&rec, Some(&book)).expect("learn");
    assert!(r.forbidden.is_none(), "{r:?}");
    assert_eq!(
        choices(&mut book, &learner, &start, 50),
        HashSet::from([nf3])
    );
    // Result learning off: 1.e4 comes back.
    learner.set_mode(LEARN_BOOK).expect("mode");
    assert_eq!(
        choices(&mut book, &learner, &start, 200),
        HashSet::from([e4, nf3])
    );
}

#[test]
fn learning_as_black_uses_black_moves() {
    let tmp = tmp_dir("black");
    let dir = tmp.path();
    let mut book = book(dir);
    let mut learner = Learner::open(&dir.join("learn.db")).expect("open");
    let after_e4 = {
        let mut b = Board::default();
        b.play(line("e4")[0]);
        b
    };
    let c5 = line("e4 c5")[1];
    // 1...e5 never won in the fixture, so only 1...c5 is played as Black.
    assert_eq!(
        choices(&mut book, &learner, &after_e4, 30),
        HashSet::from([c5])
    );
    // wily (Black) played 1...c5 from the book and was mated: but it had no choice there
    // (1...e5 is culled), so nothing is forbidden; the bad searches demote 1...c5.
    let moves = line("e4 c5 Nf3 d6 d4 cxd4");
    let mut rec = GameRecord::new(moves, Color::Black, GameOutcome::WhiteWins, "checkmate");
    rec.book_exit_ply = Some(3);
    rec.searches = vec![
        SearchRecord {
            ply: 3,
            score: -200,
            depth: 10,
            best: None,
        },
        SearchRecord {
            ply: 5,
            score: -300,
            depth: 10,
            best: None,
        },
    ];
    let r = learner.after_game(&rec, Some(&book)).expect("learn");
    assert!(r.forbidden.is_none(), "{r:?}");
    assert_eq!(r.book.as_ref().map(|b| b.0.as_str()), Some("c5"));
    assert!(choices(&mut book, &learner, &after_e4, 30).is_empty());
}
