//! The books shipped in `book/` work from a clean clone: they open, play sensible first
//! moves, and `book/books.wbk` matches its source `book/small.pgn`.

use crate::scratch;

use cozy_chess::Board;
use std::path::Path;
use wily::book::create::create_small_from_pgn;
use wily::book::{Book, BookPaths, ChooseHooks, NoLearning};

fn shipped() -> Book {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut b = Book::open(BookPaths::in_dir(&root.join("book"))).expect("shipped books open");
    b.set_seed(5);
    b
}

#[test]
fn shipped_books_play_the_repertoire() {
    let mut book = shipped();
    let big = book.big().expect("book/book.wbk is shipped");
    assert!(big.len() > 50_000, "{} entries", big.len());
    assert!(book.small().is_some(), "book/books.wbk is shipped");
    let start = Board::default();
    let mut seen = std::collections::HashMap::new();
    for _ in 0..400 {
        let mv = book
            .choose(&start, &mut ChooseHooks::new(&NoLearning))
            .mv
            .expect("a book move at the start");
        *seen.entry(wily::chess::to_san(&start, mv)).or_insert(0) += 1;
    }
    // The repertoire plays 1.e4 60% and 1.d4 40% of the time.
    assert_eq!(seen.len(), 2, "{seen:?}");
    let e4 = f64::from(seen["e4"]) / 400.0;
    assert!((0.52..0.68).contains(&e4), "{seen:?}");
    // Deep into a main line the big book still knows moves.
    let mut b = Board::default();
    for m in [
        "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6",
    ] {
        let mv = wily::chess::parse_san(&b, m).expect("legal");
        b.play(mv);
    }
    assert!(
        book.probe(&b).len() >= 5,
        "Najdorf: {:?}",
        book.probe(&b).len()
    );
}

#[test]
fn small_book_is_built_from_its_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch::dir("shipped");
    let out = dir.path().join("books.wbk");
    create_small_from_pgn(&root.join("book/small.pgn"), &out, 40).expect("build");
    let fresh = std::fs::read(&out).expect("read");
    let shipped = std::fs::read(root.join("book/books.wbk")).expect("read");
    assert!(
        fresh == shipped,
        "book/books.wbk is stale: run `wily books create book/small.pgn 40`"
    );
}
