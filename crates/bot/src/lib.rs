//! The server bot's parts: opponent profiles, draw/resign policy, challenge filters,
//! talk, records, operators, observing and the reconnect supervisor. The state machine
//! that ties them together is [`session`].
//!
//! Inside, one way down: [`session`] dispatches each input to the concept that owns it,
//! a folder holding the concept's state as a struct and its handlers as that struct's
//! methods: [`play`] (wily's own games, `Playing`), [`find`] (seeking and challenges,
//! `Matching`), [`watch`] (observing and the watcher, `Observing`), [`ops`] (operator
//! commands, hooks and finger notes), [`public`] (commands for everyone, `PublicLimits`);
//! they share [`state`]'s `Bot` (settings, connection, players, the one search) at the
//! bottom, passed to each handler as an argument. [`run`] (the driver and
//! the app, async, sockets through `link`, with the service's parts) sits on top; the
//! pure policies below.
//!
//! May depend on: `chess`, `engine`, `book`, `learn`, `lists`, `datadir`, `ics`, `link`,
//! `config`, and `server` (for `wily ics --local` only). Its `Cargo.toml` lists them and
//! the compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod brain;
pub mod connection;
pub mod find;
pub mod hooks;
pub mod input;
pub mod learning;
pub mod ops;
pub mod play;
pub mod players;
pub mod public;
pub mod replay;
pub mod run;
pub mod session;
pub mod state;
pub mod talk;
pub mod tourney;
pub mod translate;
pub mod watch;

#[cfg(test)]
mod chess960_tests;
#[cfg(test)]
mod session_tests;
