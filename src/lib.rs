//! wily: a chess engine and Internet Chess Server bot in the tradition of Crafty.
//!
//! Module map (see `docs/architecture.md`):
//! - [`chess`]: rules layer over cozy-chess (position + history, FEN, SAN, PGN, EPD, keys).
//! - [`engine`]: search, evaluation, transposition table, time control, threads.
//! - [`protocol`]: the three front ends (Crafty-style console, xboard, UCI).
//! - [`ics`]: chess-server protocol (telnet, timeseal, parsers, events, session, local server).
//! - [`book`], [`learn`]: opening book and learning.
//! - [`tools`]: perft, bench and test-suite runners.
//! - [`tune`]: `wily tune`, Texel tuning of the evaluation weights.
//! - [`config`]: the bot's settings file; [`datadir`]: where `book/` and `lists/` are found.

pub mod book;
pub mod chess;
pub mod config;
pub mod datadir;
pub mod engine;
pub mod ics;
pub mod learn;
pub mod protocol;
#[cfg(test)]
mod scratch;
pub mod tools;
pub mod tune;
