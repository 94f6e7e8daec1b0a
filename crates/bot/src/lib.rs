//! The server bot's parts: opponent profiles, draw/resign policy, challenge filters,
//! talk, records, operators, observing and the reconnect supervisor. The state machine
//! that ties them together is [`session`].
//!
//! Inside, one way down: [`session`] dispatches each input to the handlers ([`play`],
//! [`observe`], [`watching`], [`command`], [`seeking`], [`interrupted`], [`account`]: the
//! computer-account rules and the operator hooks, pure parts in [`operator_hooks`]), which
//! share [`state`] at the bottom; [`driver`]
//! and [`app`] (async, sockets through `link`) sit on top; the pure policies below.
//!
//! May depend on: `chess`, `engine`, `book`, `learn`, `lists`, `datadir`, `ics`, `link`,
//! `config`, and `server` (for `wily ics --local` only). Its `Cargo.toml` lists them and
//! the compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod account;
pub mod app;
pub mod brain;
pub mod challenge;
pub mod command;
pub mod connection;
pub mod driver;
pub mod follow;
pub mod game;
pub mod health;
pub mod hooks;
pub mod input;
pub mod interrupted;
pub mod learning;
pub mod local;
pub mod logging;
pub mod matching;
pub mod metrics;
pub mod notes;
pub mod observe;
pub mod observing;
pub mod operator;
pub mod operator_hooks;
pub mod opponent;
pub mod play;
pub mod players;
pub mod playing;
pub mod policy;
pub mod positions;
pub mod public;
pub mod public_answers;
pub mod reconnect;
pub mod record;
pub mod replay;
pub mod resume;
pub mod seeking;
pub mod service;
pub mod session;
pub mod state;
pub mod status;
pub mod talk;
pub mod tourney;
pub mod translate;
pub mod watch;
pub mod watchdog;
pub mod watching;
pub mod watchlist;

#[cfg(test)]
mod chess960_tests;
#[cfg(test)]
mod session_tests;
