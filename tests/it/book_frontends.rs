//! Every front end hands the book selection its two callbacks: the static evaluation
//! (the `bookw eval` term: without it every move's eval term is the neutral 500) and, for
//! `book random 0`, the short search among the book moves. The console and xboard run as
//! the real binary with the shipped books; the server bot through its book hook.

use crate::console_child;
use crate::need;
use console_child::{temp_dir, Wily};
use cozy_chess::Board;
use std::path::{Path, PathBuf};
use wily::bot::hooks::BookSource;
use wily::bot::learning;
use wily::config::Config;

/// The checkout's `book/`, or `None` after printing why the test skips.
fn shipped() -> Option<PathBuf> {
    let b = Path::new(env!("CARGO_MANIFEST_DIR")).join("book");
    if b.join("book.wbk").exists() {
        Some(b)
    } else {
        need::missing(
            &format!("the shipped book {}", b.join("book.wbk").display()),
            "it is part of the repository: check out book/",
        );
        None
    }
}

/// A working folder with a copy of the shipped books in `book/` (the learning store the
/// console may create there stays in the temporary folder), removed when the guard drops.
fn dir_with_books(tag: &str) -> Option<tempfile::TempDir> {
    let src = shipped()?;
    let tmp = temp_dir(tag);
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("book")).expect("book dir");
    for f in ["book.wbk", "books.wbk"] {
        std::fs::copy(src.join(f), dir.join("book").join(f)).expect("copy book");
    }
    Some(tmp)
}

/// The kept moves' rows of a rendered candidate table (`show book`, `bk`): columns move
/// games won drawn lost flags learned freq ratio eval learn weight chance.
fn kept_rows(lines: &[String]) -> Vec<Vec<String>> {
    lines
        .iter()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|t| t.len() >= 13 && t[12].ends_with('%'))
        .collect()
}

/// The eval terms of the kept moves.
fn kept_eval_terms(lines: &[String]) -> Vec<i32> {
    kept_rows(lines)
        .iter()
        .filter_map(|t| t[9].parse().ok())
        .collect()
}

/// xboard's `bk` answer for a new game (every line up to the `pong` that follows it).
fn new_game_bk(w: &mut Wily) -> Vec<String> {
    w.send("new");
    w.send("bk");
    w.send("ping 1");
    let start = w.transcript.len();
    w.expect("pong 1", 20);
    w.transcript[start..].to_vec()
}

fn assert_evaluated(terms: &[i32], who: &str) {
    assert!(terms.len() >= 2, "{who}: no kept book moves: {terms:?}");
    assert!(
        terms.iter().any(|&t| t != 500),
        "{who}: every eval term is neutral, so no evaluation was passed: {terms:?}"
    );
}

#[test]
fn console_passes_evaluation_and_search() {
    let Some(tmp) = dir_with_books("frontend-console") else {
        return;
    };
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("show book");
    w.expect("show book on", 10);
    let lines = w.drain(std::time::Duration::from_millis(500), 10);
    assert_evaluated(&kept_eval_terms(&lines), "console");
    w.send("show book");
    w.send("book random 0");
    w.send("go");
    w.expect("(chosen by a short search among the book moves)", 20);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn xboard_passes_evaluation_and_search() {
    let Some(tmp) = dir_with_books("frontend-xboard") else {
        return;
    };
    let dir = tmp.path();
    // `book random 0` is a console setting; the console's book goes on into xboard mode.
    let mut w = Wily::spawn(&[], dir);
    w.send("book random 0");
    w.send("xboard");
    w.send("protover 2");
    w.expect("feature done=1", 10);
    let lines = new_game_bk(&mut w);
    assert_evaluated(&kept_eval_terms(&lines), "xboard bk");
    w.send("go");
    w.expect(
        "# book move chosen by a short search among the book moves",
        20,
    );
    w.expect("move ", 20);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn bot_passes_evaluation_and_search() {
    let Some(book) = shipped() else {
        return;
    };
    let mut cfg = Config::default();
    cfg.engine.learn = 0;
    cfg.paths.book = book;
    let start = Board::default();

    // Default: the weighted draw, with the evaluation in the weights.
    let (mut hook, _) = learning::open(&cfg);
    let table = hook.table(&start, 5).expect("a book");
    let terms: Vec<i32> = table
        .rows
        .iter()
        .filter(|r| r.status == wily::book::select::Status::Kept)
        .map(|r| r.terms[2])
        .collect();
    assert_evaluated(&terms, "bot");
    let pick = hook.pick(&start, 5).expect("a book move");
    assert!(!pick.searched);

    // `engine.book_search_ms`: a short search among the kept moves picks one.
    cfg.engine.book_search_ms = 100;
    let (mut hook, _) = learning::open(&cfg);
    let kept = hook.table(&start, 5).expect("a book").kept();
    assert!(kept.len() >= 2, "{kept:?}");
    let t = std::time::Instant::now();
    let pick = hook.pick(&start, 5).expect("a book move");
    assert!(pick.searched, "the search chose the move");
    assert!(
        kept.contains(&pick.mv),
        "{} is one of the book moves",
        pick.mv
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

/// xboard opens the learning store it finds in the book folder: moves result learning
/// forbade are never chosen from the book.
#[test]
fn xboard_book_choice_uses_the_learning_store() {
    let Some(tmp) = dir_with_books("frontend-xboard-learn") else {
        return;
    };
    let dir = tmp.path();
    let start = Board::default();
    let mut lrn = String::new();
    let mut legal = Vec::new();
    start.generate_moves(|set| {
        legal.extend(set);
        false
    });
    for mv in legal {
        let san = wily::chess::san::to_san(&start, mv);
        if san != "d4" {
            lrn.push_str(&format!(
                "[FEN \"{}\"]\n[Forbidden \"1\"]\n1. {san} *\n\n",
                wily::chess::fen::to_fen(&start)
            ));
        }
    }
    let file = dir.join("book.lrn");
    std::fs::write(&file, lrn).expect("write book.lrn");
    {
        let mut l = wily::learn::Learner::open(&dir.join("book").join("learn.db")).expect("store");
        l.import(&file, false).expect("import");
    }
    let mut w = Wily::spawn(&["xboard"], dir);
    w.send("xboard");
    w.send("protover 2");
    w.expect("feature done=1", 10);
    let lines = new_game_bk(&mut w);
    let kept: Vec<String> = kept_rows(&lines)
        .into_iter()
        .map(|t| t[0].clone())
        .collect();
    assert_eq!(kept, vec!["d4".to_string()], "{lines:?}");
    w.send("go");
    w.expect("move d2d4", 20);
    w.send("quit");
    assert!(w.wait_exit(10));
}
