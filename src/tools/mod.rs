//! The command-line tools other than playing: perft, the search benchmark and the EPD
//! test-suite runner (which measure), and the `wily book`/`books`/`learn` commands (which
//! build and examine the book and the learning store). `src/main.rs` only routes to them.

pub mod bench;
pub mod book;
pub mod learn;
pub mod perft;
pub mod testsuite;
