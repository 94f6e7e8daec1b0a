//! Book probe timing: `cargo bench --bench book [-- BOOK.wbk]`.
//!
//! Walks random book lines from the initial position to collect positions, then times
//! (1) a raw probe (`Book::probe`: key, binary search, move decoding, merging) and
//! (2) a full choice (`Book::choose`: probe, filters, weights, draw), and prints the
//! mean and the 99th percentile per call. Uses book/book.wbk (and book/books.wbk) unless
//! a book path is given.

use cozy_chess::Board;
use std::path::PathBuf;
use std::time::Instant;
use wily_book::{Book, BookPaths, ChooseHooks, NoLearning};

fn percentile(sorted: &[u128], p: f64) -> u128 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let arg = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from);
    let paths = BookPaths {
        big: arg.unwrap_or_else(|| root.join("book/book.wbk")),
        small: root.join("book/books.wbk"),
        polyglot: None,
    };
    let mut book = match Book::open(paths.clone()) {
        Ok(b) if b.big().is_some() => b,
        Ok(_) => {
            println!("book bench: no book at {} (skipped)", paths.big.display());
            return;
        }
        Err(e) => {
            println!("book bench: {e}");
            return;
        }
    };
    book.set_seed(1);
    book.settings.width = 99;

    // Collect in-book positions along random lines.
    let mut positions: Vec<Board> = Vec::new();
    for _ in 0..400 {
        let mut b = Board::default();
        for _ in 0..24 {
            let choice = book.choose(&b, &mut ChooseHooks::new(&NoLearning));
            let Some(mv) = choice.mv else { break };
            positions.push(b.clone());
            b.play_unchecked(mv);
        }
    }
    if positions.is_empty() {
        println!("book bench: the book has no move at the start");
        return;
    }
    let f = book.big().map(|b| b.len()).unwrap_or(0);
    println!(
        "book bench: {} ({} entries), {} in-book positions",
        paths.big.display(),
        f,
        positions.len()
    );

    for (name, full) in [("probe", false), ("choose", true)] {
        let mut times: Vec<u128> = Vec::with_capacity(positions.len() * 5);
        let mut sink = 0usize;
        let start = Instant::now();
        for _ in 0..5 {
            for b in &positions {
                let t = Instant::now();
                if full {
                    let c = book.choose(b, &mut ChooseHooks::new(&NoLearning));
                    sink += usize::from(c.mv.is_some());
                } else {
                    sink += book.probe(b).len();
                }
                times.push(t.elapsed().as_nanos());
            }
        }
        let total = start.elapsed();
        times.sort_unstable();
        let mean = total.as_nanos() / times.len() as u128;
        println!(
            "{name:>6}: {} calls, mean {:.2} us, p50 {:.2} us, p99 {:.2} us (checksum {sink})",
            times.len(),
            mean as f64 / 1000.0,
            percentile(&times, 0.5) as f64 / 1000.0,
            percentile(&times, 0.99) as f64 / 1000.0
        );
    }
}
