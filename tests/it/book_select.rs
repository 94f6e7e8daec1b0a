//! Choosing a book move: zero-win culling, `book width`, `bookw` weights, the eval hook,
//! `book random 0` (search callback), reproducibility under a fixed seed, `show book`,
//! the small book's `!`, `?` and `{play NN%}`, and Polyglot books as a source.

use crate::scratch;

use cozy_chess::{Board, Move};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use wily::book::create::{create_big_from_pgn, create_small_from_pgn, CreateOptions};
use wily::book::polyglot::{encode_entries, PolyglotEntry};
use wily::book::{Book, BookPaths, ChooseHooks, NoLearning};
use wily::chess::polyglot::{encode_move, polyglot_key};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn tmp_dir(name: &str) -> tempfile::TempDir {
    scratch::dir(&format!("select-{name}"))
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

/// Big book from the fixture; small book from `small` when given.
fn books(dir: &Path, small: Option<&str>) -> Book {
    let big = dir.join("book.wbk");
    create_big_from_pgn(&fixture("book_games.pgn"), &big, &CreateOptions::new(20)).expect("big");
    let small_path = dir.join("books.wbk");
    if let Some(s) = small {
        create_small_from_pgn(&fixture(s), &small_path, 40).expect("small");
    }
    let mut b = Book::open(BookPaths {
        big,
        small: small_path,
        polyglot: None,
    })
    .expect("open");
    b.set_seed(12345);
    b
}

fn tally(book: &mut Book, board: &Board, n: usize) -> HashMap<Move, usize> {
    let mut t = HashMap::new();
    for _ in 0..n {
        let mut hooks = ChooseHooks::new(&NoLearning);
        if let Some(mv) = book.choose(board, &mut hooks).mv {
            *t.entry(mv).or_insert(0) += 1;
        }
    }
    t
}

#[test]
fn zero_win_moves_are_culled_and_width_limits() {
    let tmp = tmp_dir("width");
    let dir = tmp.path();
    let mut book = books(dir, None);
    let start = Board::default();
    let (e4, d4, nf3) = (san(&start, "e4"), san(&start, "d4"), san(&start, "Nf3"));
    let t = tally(&mut book, &start, 1000);
    assert_eq!(t.get(&d4), None, "d4 never won: culled");
    // Default weights: e4 1000 + 0.5 x (625 - 500) = 1062.5 against Nf3
    // 166 + 0.5 x (666 - 500) = 249 -> e4 about 81%.
    let e4_share = *t.get(&e4).unwrap_or(&0) as f64 / 1000.0;
    assert!((0.76..0.86).contains(&e4_share), "e4 {e4_share}");
    assert!(t.get(&nf3).copied().unwrap_or(0) > 120);

    book.settings.width = 1;
    let t = tally(&mut book, &start, 200);
    assert_eq!(
        t.get(&e4),
        Some(&200),
        "width 1 keeps the best-weighted move"
    );
    // The bot's entry point: width from the opponent lists, shares for whispers.
    assert_eq!(
        book.pick(&start, 1, &mut ChooseHooks::new(&NoLearning)),
        Some((e4, "e4 100%".to_string(), false))
    );
    let (_, shares, _) = book
        .pick(&start, 2, &mut ChooseHooks::new(&NoLearning))
        .expect("in book");
    assert!(
        shares.starts_with("e4 8") && shares.contains(", Nf3 1"),
        "{shares}"
    );

    // After 1.e4 e5 2.Nf3 Nc6 only 3.Bb5 ever won; 3.Bc4 is culled.
    book.settings.width = 5;
    let b = board_after("e4 e5 Nf3 Nc6");
    let t = tally(&mut book, &b, 50);
    assert_eq!(t.get(&san(&b, "Bb5")), Some(&50), "Bc4 has no win");
    // A position where every move lacks a win leaves the book.
    let b = board_after("e4 e5 Nf3");
    let mut hooks = ChooseHooks::new(&NoLearning);
    assert_eq!(book.choose(&b, &mut hooks).mv, None);
}

#[test]
fn weights_change_the_shares() {
    let tmp = tmp_dir("weights");
    let dir = tmp.path();
    let mut book = books(dir, None);
    let start = Board::default();
    let e4 = san(&start, "e4");
    book.settings.weights.ratio = 0.0;
    book.settings.weights.eval = 0.0;
    book.settings.weights.learn = 0.0;
    // Frequency only: e4 1000 against Nf3 166 -> e4 about 86%.
    let t = tally(&mut book, &start, 1000);
    let share = *t.get(&e4).unwrap_or(&0) as f64 / 1000.0;
    assert!((0.82..0.90).contains(&share), "e4 {share}");
    // Ratio only: Nf3's 1 win in 1 game (666 -> 166) beats e4's 3 wins, 2 draws in 6
    // (625 -> 125): e4 about 43%.
    book.settings.weights.freq = 0.0;
    book.settings.weights.ratio = 1.0;
    let t = tally(&mut book, &start, 1000);
    let share = *t.get(&e4).unwrap_or(&0) as f64 / 1000.0;
    assert!((0.38..0.48).contains(&share), "e4 {share}");
}

#[test]
fn eval_hook_and_search_hook() {
    let tmp = tmp_dir("hooks");
    let dir = tmp.path();
    let mut book = books(dir, None);
    let start = Board::default();
    let (e4, nf3) = (san(&start, "e4"), san(&start, "Nf3"));
    book.settings.weights.freq = 0.0;
    book.settings.weights.ratio = 0.0;
    book.settings.weights.learn = 0.0;
    book.settings.weights.eval = 1.0;
    let after_e4 = board_after("e4");
    // Static eval (side to move = Black): Black is fine after e4, lost after Nf3.
    let mut eval = |b: &Board| {
        if b.same_position(&after_e4) {
            500
        } else {
            -500
        }
    };
    for _ in 0..50 {
        let mut hooks = ChooseHooks::new(&NoLearning);
        hooks.eval = Some(&mut eval);
        assert_eq!(book.choose(&start, &mut hooks).mv, Some(nf3));
    }
    // book random 0: the search callback sees exactly the kept moves and decides.
    book.settings.random = false;
    let mut seen: Vec<Move> = Vec::new();
    let mut search = |_: &Board, moves: &[Move]| {
        seen = moves.to_vec();
        Some(e4)
    };
    let mut hooks = ChooseHooks::new(&NoLearning);
    hooks.search = Some(&mut search);
    let choice = book.choose(&start, &mut hooks);
    assert_eq!(choice.mv, Some(e4));
    assert!(choice.searched);
    seen.sort_by_key(|m| m.to_string());
    let mut expect = vec![e4, nf3];
    expect.sort_by_key(|m| m.to_string());
    assert_eq!(seen, expect, "d4 was culled before the search");
    // A search that answers with a move outside the set is ignored.
    let mut bad = |b: &Board, _: &[Move]| Some(san(b, "a4"));
    let mut hooks = ChooseHooks::new(&NoLearning);
    hooks.search = Some(&mut bad);
    let c = book.choose(&start, &mut hooks);
    assert!(!c.searched && c.mv.is_some_and(|m| m == e4 || m == nf3));
}

#[test]
fn same_seed_same_choices() {
    let tmp = tmp_dir("seed");
    let dir = tmp.path();
    let mut a = books(dir, None);
    let mut b = Book::open(a.paths().clone()).expect("open");
    a.set_seed(99);
    b.set_seed(99);
    let start = Board::default();
    let run = |book: &mut Book| {
        (0..100)
            .map(|_| book.choose(&start, &mut ChooseHooks::new(&NoLearning)).mv)
            .collect::<Vec<_>>()
    };
    let (x, y) = (run(&mut a), run(&mut b));
    assert_eq!(x, y);
    assert!(x.iter().collect::<std::collections::HashSet<_>>().len() > 1);
}

#[test]
fn show_book_lists_every_candidate_with_numbers() {
    let tmp = tmp_dir("show");
    let dir = tmp.path();
    let mut book = books(dir, None);
    let start = Board::default();
    let text = wily::book::console::command(
        &mut book,
        "show book",
        &start,
        &mut ChooseHooks::new(&NoLearning),
    )
    .expect("show book");
    assert!(text.starts_with("show book on"), "{text}");
    for needle in ["e4", "d4", "Nf3", "no wins", "50.0%", "33.3%"] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("e4"))
        .expect("e4 row");
    // e4: 6 games, won 50%, drawn 33.3%, lost 16.7%.
    assert!(line.contains(" 6 ") && line.contains("16.7%"), "{line}");
    assert!(book.settings.show);
    // Console commands change the settings and reject bad input.
    let mut h = ChooseHooks::new(&NoLearning);
    wily::book::console::command(&mut book, "book width 3", &start, &mut h).expect("width");
    assert_eq!(book.settings.width, 3);
    wily::book::console::command(&mut book, "bookw eval 0.25", &start, &mut h).expect("bookw");
    assert_eq!(book.settings.weights.eval, 0.25);
    wily::book::console::command(&mut book, "book random 0", &start, &mut h).expect("random");
    assert!(!book.settings.random);
    for bad in [
        "book width x",
        "book width 0",
        "bookw speed 1",
        "bookw freq -1",
        "book random 2",
        "book frobnicate",
        "books create",
    ] {
        let e = wily::book::console::command(&mut book, bad, &start, &mut h);
        assert!(e.is_err(), "{bad} should be refused");
    }
}

#[test]
fn small_book_marks() {
    let tmp = tmp_dir("small");
    let dir = tmp.path();
    let mut book = books(dir, Some("book_small.pgn"));
    let start = Board::default();
    // `?`: 1.e4 is marked `?` in the small book, so never played.
    let t = tally(&mut book, &start, 300);
    assert_eq!(t.get(&san(&start, "e4")), None);
    // `{play 30%}` on 1.d4 (which never won in the big book: forced moves are not
    // culled); the rest (Nf3, c4 from the small book) share 70%.
    let d4 = *t.get(&san(&start, "d4")).unwrap_or(&0) as f64 / 300.0;
    assert!((0.22..0.38).contains(&d4), "d4 {d4}");

    // `!`: after 1.e4 only 1...c5 (marked `!`), though the big book also has 1...e5.
    let b = board_after("e4");
    let t = tally(&mut book, &b, 100);
    assert_eq!(t.get(&san(&b, "c5")), Some(&100));
    let rows = book.table(&b, &mut ChooseHooks::new(&NoLearning));
    let e5 = rows
        .rows
        .iter()
        .find(|r| r.cand.mv == san(&b, "e5"))
        .expect("e5 listed");
    assert_eq!(e5.status, wily::book::select::Status::NotGood);

    // A move only the small book knows is playable (it is exempt from zero-win culling).
    let b = board_after("d4 d5");
    let t = tally(&mut book, &b, 50);
    assert_eq!(t.get(&san(&b, "Bf4")), Some(&50), "{t:?}");
}

#[test]
fn polyglot_book_as_a_source() {
    let tmp = tmp_dir("polyglot");
    let dir = tmp.path();
    let start = Board::default();
    let e4 = san(&start, "e4");
    let d4 = san(&start, "d4");
    let after_e4 = board_after("e4");
    let e5 = san(&after_e4, "e5");
    let castle_board: Board =
        "r3k2r/pppq1ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 2 8"
            .parse()
            .expect("fen");
    let short: Move = "e1h1".parse().expect("move");
    let mut entries = vec![
        PolyglotEntry {
            key: 0x463b96181691fc9c,
            mv: encode_move(e4),
            weight: 30,
            learn: 0,
        },
        PolyglotEntry {
            key: 0x463b96181691fc9c,
            mv: encode_move(d4),
            weight: 10,
            learn: 0,
        },
        // A code that is not legal at the start: dropped, not a crash.
        PolyglotEntry {
            key: 0x463b96181691fc9c,
            mv: 0x0fff,
            weight: 99,
            learn: 0,
        },
        PolyglotEntry {
            key: 0x823c9b50fd114196,
            mv: encode_move(e5),
            weight: 1,
            learn: 0,
        },
        PolyglotEntry {
            key: polyglot_key(&castle_board),
            mv: encode_move(short),
            weight: 5,
            learn: 0,
        },
    ];
    let bin = dir.join("test.bin");
    std::fs::write(&bin, encode_entries(&mut entries)).expect("write");
    let pg = wily::book::PolyglotBook::open(&bin).expect("open polyglot");
    assert_eq!(pg.len(), 5);
    let moves = pg.probe(&start);
    assert_eq!(
        moves.iter().map(|m| (m.mv, m.weight)).collect::<Vec<_>>(),
        vec![(e4, 30), (d4, 10)]
    );
    assert_eq!(pg.probe(&after_e4)[0].mv, e5);
    assert_eq!(pg.probe(&castle_board)[0].mv, short);

    // Through Book: an empty wily book falls back on the Polyglot book.
    let mut book = Book::open(BookPaths {
        big: dir.join("none.wbk"),
        small: dir.join("none2.wbk"),
        polyglot: Some(bin.clone()),
    })
    .expect("open");
    book.set_seed(7);
    let t = tally(&mut book, &start, 400);
    let e4_share = *t.get(&e4).unwrap_or(&0) as f64 / 400.0;
    assert!(e4_share > 0.55 && t.contains_key(&d4), "{t:?}");

    // Damaged Polyglot files are refused with the file name.
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 17]).expect("write");
    let e = wily::book::PolyglotBook::open(&odd)
        .expect_err("odd length")
        .to_string();
    assert!(e.contains("odd.bin"), "{e}");
    let unsorted = dir.join("unsorted.bin");
    let mut bytes = std::fs::read(&bin).expect("read");
    bytes.rotate_left(16);
    std::fs::write(&unsorted, bytes).expect("write");
    assert!(wily::book::PolyglotBook::open(&unsorted).is_err());
}
