//! wily: a chess engine and Internet Chess Server bot in the tradition of Crafty.
//!
//! Module map (the layers and what each may import: `docs/modules.md`):
//! - [`chess`]: rules layer over cozy-chess (position + history, FEN, SAN, PGN, EPD, keys).
//! - [`engine`]: search, evaluation, transposition table, time control, threads.
//! - [`protocol`]: the three front ends (Crafty-style console, xboard, UCI).
//! - [`ics`]: chess-server protocol client (telnet, timeseal, lines, parsers, events).
//! - [`link`]: the socket I/O on top of it (connect, login, outgoing queue, keep-alive, wire log).
//! - [`bot`]: the server bot (`wily ics`); [`server`]: the local chess server (`wily serve`).
//! - [`soak`]: `wily soak`, the bot's fault soak against the local server (prints figures).
//! - [`book`], [`learn`]: opening book and learning.
//! - [`lists`]: the opponent lists (`lists/GM`, ...) that the bot reads and the console edits.
//! - [`match`](crate::r#match): `wily match`, the match runner and its statistics.
//! - [`tools`]: perft, bench and test-suite runners.
//! - [`tune`]: `wily tune`, Texel tuning of the evaluation weights.
//! - [`config`]: the bot's settings file; [`datadir`]: where `book/` and `lists/` are found.

pub mod book;
pub mod bot;
pub mod chess;
pub mod config;
pub mod datadir;
pub mod engine;
pub mod ics;
pub mod learn;
pub mod link;
pub mod lists;
pub mod r#match;
pub mod protocol;
#[cfg(test)]
mod scratch;
pub mod server;
pub mod soak;
pub mod tools;
pub mod tune;
pub mod web;
