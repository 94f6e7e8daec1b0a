//! The command lines that build and examine the book and the learning store: `wily book`
//! and `wily books` ([`book`], which opens the learning store for `book show --learn`), and
//! `wily learn` ([`learn`]). `wily`'s `main.rs` only routes to them; they sit here, above
//! the book and the store, so that the lean engine build (the `tools` crate) stays free of
//! SQLite.

pub mod book;
pub mod learn;
