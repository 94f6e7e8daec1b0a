//! `book create` on a small PGN fixture: counts and W/D/L per position and move (from the
//! mover's side), transpositions, the M/N/WPCT filters, skipped games, damaged files.

use crate::scratch;

use cozy_chess::{Board, Move};
use std::path::{Path, PathBuf};
use wily::book::create::{create_big_from_pgn, CreateOptions};
use wily::book::{Book, BookFile, BookPaths, Candidate};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn tmp_dir(name: &str) -> tempfile::TempDir {
    scratch::dir(&format!("book-{name}"))
}

fn board_after(moves: &str) -> Board {
    let mut b = Board::default();
    for m in moves.split_whitespace() {
        let mv = wily::chess::parse_san(&b, m).expect("legal test move");
        b.play(mv);
    }
    b
}

fn san(b: &Board, m: &str) -> Move {
    wily::chess::parse_san(b, m).expect("legal move")
}

fn wdl(cands: &[Candidate], b: &Board, m: &str) -> Option<(u64, u64, u64)> {
    let mv = san(b, m);
    cands
        .iter()
        .find(|c| c.mv == mv)
        .map(|c| (c.wins, c.draws, c.losses))
}

fn build(dir: &Path, m: u16, n: u16, wpct: u16) -> (Book, wily::book::create::CreateSummary) {
    let out = dir.join(format!("b{m}-{n}-{wpct}.wbk"));
    let mut opts = CreateOptions::new(m);
    opts.min_games = n;
    opts.wpct = wpct;
    let summary = create_big_from_pgn(&fixture("book_games.pgn"), &out, &opts).expect("create");
    let book = Book::open(BookPaths {
        big: out,
        small: dir.join("none.wbk"),
        polyglot: None,
    })
    .expect("open");
    (book, summary)
}

#[test]
fn counts_from_the_movers_side() {
    let tmp = tmp_dir("counts");
    let dir = tmp.path();
    let (book, summary) = build(dir, 20, 1, 0);
    assert_eq!(summary.games_read, 14);
    assert_eq!(summary.games_used, 10);
    assert_eq!(summary.skipped_setup, 1);
    assert_eq!(summary.skipped_variant, 1);
    assert_eq!(summary.skipped_illegal, 1);
    assert_eq!(summary.skipped_no_result, 1);

    let start = Board::default();
    let c = book.probe(&start);
    assert_eq!(c.len(), 3);
    assert_eq!(wdl(&c, &start, "e4"), Some((3, 2, 1)));
    assert_eq!(wdl(&c, &start, "d4"), Some((0, 1, 2)));
    assert_eq!(wdl(&c, &start, "Nf3"), Some((1, 0, 0)));
    // Sorted by games.
    assert_eq!(c[0].mv, san(&start, "e4"));

    let b = board_after("e4");
    let c = book.probe(&b);
    assert_eq!(wdl(&c, &b, "e5"), Some((0, 2, 2)));
    assert_eq!(wdl(&c, &b, "c5"), Some((1, 0, 1)));

    let b = board_after("e4 e5 Nf3");
    let c = book.probe(&b);
    assert_eq!(wdl(&c, &b, "Nc6"), Some((0, 2, 1)));
    assert_eq!(wdl(&c, &b, "Nf6"), Some((0, 0, 1)));

    // Transposition: 1.Nf3 d5 2.d4 and 1.d4 d5 2.Nf3 are one position.
    let b = board_after("d4 d5 Nf3");
    let c = book.probe(&b);
    assert_eq!(wdl(&c, &b, "Nf6"), Some((1, 0, 1)));
    assert_eq!(book.probe(&board_after("Nf3 d5 d4")), c);

    // The variation (2...c6) is not part of the book.
    let b = board_after("d4 d5 c4");
    let c = book.probe(&b);
    assert_eq!(c.len(), 1);
    assert_eq!(wdl(&c, &b, "e6"), Some((0, 1, 0)));

    // Games skipped as a whole add nothing (game 10 played 2.Nf3 before its illegal move).
    let b = board_after("e4 e5");
    assert_eq!(wdl(&book.probe(&b), &b, "Nf3"), Some((2, 2, 0)));

    // Out of book.
    assert!(book.probe(&board_after("a4")).is_empty());
}

#[test]
fn first_m_plies_only() {
    let tmp = tmp_dir("plies");
    let dir = tmp.path();
    let (book, _) = build(dir, 4, 1, 0);
    let b = board_after("e4 e5 Nf3 Nc6");
    assert!(book.probe(&b).is_empty(), "ply 5 is beyond M = 4");
    let (book, _) = build(dir, 6, 1, 0);
    let c = book.probe(&b);
    assert_eq!(wdl(&c, &b, "Bb5"), Some((1, 1, 0)));
    assert_eq!(wdl(&c, &b, "Bc4"), Some((0, 1, 0)));
    assert!(book.probe(&board_after("e4 e5 Nf3 Nc6 Bb5 a6")).is_empty());
}

#[test]
fn min_games_and_win_percentage_filters() {
    let tmp = tmp_dir("filters");
    let dir = tmp.path();
    let (book, summary) = build(dir, 20, 2, 0);
    let start = Board::default();
    let c = book.probe(&start);
    assert_eq!(c.len(), 2, "Nf3 was played once only");
    assert!(wdl(&c, &start, "Nf3").is_none());
    assert!(summary.entries < summary.entries_before_filter);

    // WPCT 50: a move stays only when its wins are at least half its losses.
    let (book, _) = build(dir, 20, 1, 50);
    let c = book.probe(&start);
    assert!(wdl(&c, &start, "d4").is_none(), "d4: 0 wins, 2 losses");
    assert_eq!(wdl(&c, &start, "e4"), Some((3, 2, 1)));
    let b = board_after("e4");
    let c = book.probe(&b);
    assert_eq!(
        wdl(&c, &b, "c5"),
        Some((1, 0, 1)),
        "1 win vs 1 loss is 100%"
    );
    assert!(wdl(&c, &b, "e5").is_none());
    // WPCT 150 needs 1.5 wins per loss: e4 (3 vs 1) stays, c5 (1 vs 1) goes.
    let (book, _) = build(dir, 20, 1, 150);
    assert!(wdl(&book.probe(&start), &start, "e4").is_some());
    assert!(wdl(&book.probe(&b), &b, "c5").is_none());
}

#[test]
fn rebuilding_replaces_the_file_and_header_records_parameters() {
    let tmp = tmp_dir("header");
    let dir = tmp.path();
    let (book, _) = build(dir, 12, 1, 0);
    let f = book.big().expect("loaded");
    assert_eq!(f.header().games, 10);
    assert_eq!(f.header().max_plies, 12);
    let text = book.describe();
    assert!(text.contains("from 10 games"), "{text}");
}

#[test]
fn truncated_and_garbage_books_give_clear_errors() {
    let tmp = tmp_dir("damaged");
    let dir = tmp.path();
    let (book, _) = build(dir, 20, 1, 0);
    let path = book.big().expect("loaded").path().to_path_buf();
    drop(book);
    let bytes = std::fs::read(&path).expect("read");

    let cut = dir.join("cut.wbk");
    std::fs::write(&cut, &bytes[..bytes.len() - 10]).expect("write");
    let e = BookFile::open(&cut).expect_err("truncated").to_string();
    assert!(e.contains("cut.wbk"), "{e}");
    assert!(e.contains("truncated"), "{e}");
    assert!(e.contains("wily book create"), "{e}");

    let garbage = dir.join("garbage.wbk");
    std::fs::write(&garbage, b"\x00\x01garbage that is not a book at all").expect("write");
    let e = BookFile::open(&garbage).expect_err("garbage").to_string();
    assert!(
        e.contains("garbage.wbk") && e.contains("wily book create"),
        "{e}"
    );

    // The lenient loader reports the damage and carries on without the file.
    let (book, errors) = Book::load(BookPaths {
        big: cut.clone(),
        small: garbage.clone(),
        polyglot: None,
    });
    assert_eq!(errors.len(), 2);
    assert!(book.probe(&Board::default()).is_empty());

    // A PGN that is not there.
    let e = create_big_from_pgn(
        &dir.join("missing.pgn"),
        &dir.join("x.wbk"),
        &CreateOptions::new(10),
    )
    .expect_err("missing PGN")
    .to_string();
    assert!(e.contains("missing.pgn"), "{e}");
}

#[test]
fn garbage_pgn_is_counted_not_fatal() {
    let tmp = tmp_dir("garbage-pgn");
    let dir = tmp.path();
    let pgn = dir.join("g.pgn");
    let mut text = std::fs::read_to_string(fixture("book_games.pgn")).expect("fixture");
    text.push_str("\n[Event \"broken\"]\n[Result \"1-0\"]\n\n1. e4 {never closed 1-0\n");
    text.push_str("\u{0}\u{1}\u{2} binary noise ]]]] [[[\n");
    text.push_str("[Event \"after the noise\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
    std::fs::write(&pgn, text).expect("write");
    let out = dir.join("g.wbk");
    let s = create_big_from_pgn(&pgn, &out, &CreateOptions::new(20)).expect("create");
    assert!(s.games_used >= 10, "{s:?}");
    assert!(BookFile::open(&out).is_ok());
}
