//! The command-line tools other than playing: perft, the search benchmark (and its speed
//! comparison of two builds), the EPD test-suite runner and the mating play-outs (which
//! measure), and the network's tools (`nnue/`: datagen, training). `src/main.rs` and the
//! lean engine (`crates/lean`) only route to them. The `wily book`/`books`/`learn`
//! commands, which need the learning store, are `wily_learn::cli`.
//!
//! May depend on: `chess`, `engine`, `uci`, and nothing that brings in tokio, axum or
//! SQLite: the lean engine binary is built from this crate. Its `Cargo.toml` lists them
//! and the compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod bench;
pub mod benchcmp;
pub mod mates;
pub mod nnue;
pub mod perft;
pub mod testsuite;
