//! wily: a chess engine and Internet Chess Server bot in the tradition of Crafty.
//!
//! The code is in the workspace's crates (`crates/`, one a layer; `docs/modules.md` is the
//! map of what each holds and which may depend on which). This library only re-exports
//! them under their module names, for `src/main.rs` and the integration tests:
//! - [`chess`]: rules layer over cozy-chess (position + history, FEN, SAN, PGN, EPD, keys).
//! - [`engine`]: search, evaluation, transposition table, time control, threads.
//! - [`protocol`]: the three front ends (Crafty-style console, xboard, and UCI from the
//!   `wily-uci` crate, with the options table both GUI protocols share).
//! - [`ics`]: chess-server protocol client (telnet, timeseal, lines, parsers, events).
//! - [`link`]: the socket I/O on top of it (connect, login, outgoing queue, keep-alive, wire log).
//! - [`bot`]: the server bot (`wily ics`); [`web`]: its dashboard; [`server`]: the local
//!   chess server (`wily serve`).
//! - [`soak`]: `wily soak`, the bot's fault soak against the local server (prints figures).
//! - [`book`], [`learn`]: opening book and learning.
//! - [`lists`]: the opponent lists (`lists/GM`, ...) that the bot reads and the console edits.
//! - `wily_match`: `wily match` and `wily spsa`, the match runner and its statistics.
//! - [`tools`]: perft, bench and test-suite runners, and the book and learning commands.
//! - [`tune`]: `wily tune`, Texel tuning of the evaluation weights.
//! - [`config`]: the bot's settings file; [`datadir`]: where `book/` and `lists/` are found.

pub use wily_book as book;
pub use wily_bot as bot;
pub use wily_chess as chess;
pub use wily_config as config;
pub use wily_datadir as datadir;
pub use wily_engine as engine;
pub use wily_ics as ics;
pub use wily_learn as learn;
pub use wily_link as link;
pub use wily_lists as lists;
pub use wily_server as server;
pub use wily_soak as soak;
pub use wily_tune as tune;
pub use wily_web as web;

/// The front ends: the console and xboard (`wily-protocol`), UCI and the shared options
/// table (`wily-uci`).
pub mod protocol {
    pub use wily_protocol::*;
    pub use wily_uci as uci;
    pub use wily_uci::options;
}

/// The command-line tools: perft, bench, suites, mates, the network's tools
/// (`wily-tools`), and the `wily book`/`books`/`learn` commands (`wily-learn`).
pub mod tools {
    pub use wily_learn::cli::{book, learn};
    pub use wily_tools::*;
}
