//! The command-line tools other than playing: perft, the search benchmark (and its speed
//! comparison of two builds), the EPD test-suite runner and the mating play-outs (which
//! measure), and the `wily book`/`books`/`learn` commands (which build and examine the
//! book and the learning store). `src/main.rs` only routes to them.
//!
//! May import: `chess`, `engine`, `book`, `learn`, `datadir`, `protocol`. The layer table
//! is in `docs/modules.md`; `tests/it/module_layers.rs` checks it.

pub mod bench;
pub mod benchcmp;
pub mod book;
pub mod learn;
pub mod mates;
pub mod nnue;
pub mod perft;
pub mod testsuite;
