//! The chess-server protocol layer: everything between the TCP socket and typed events.
//!
//! Receive path (pure, tested with recorded bytes): bytes -> [`telnet`] (IAC negotiation
//! stripped and answered) -> [`lines`] (lines, prompts, timeseal pings) -> [`parse`] (one
//! parser per concern) -> [`events::Event`]; [`pipeline`] strings them together.
//! Send path: [`outqueue`] (rate limit, moves first) -> [`timeseal`] encoding -> socket.
//! The socket I/O itself (connect, [`login`], [`dialect`] setup, keep-alive, wire log) is
//! in the `link` crate.
//!
//! May depend on: `chess` (and `settings`, to show its `Dialect` as a default), and no I/O of any kind (no socket, file, thread or
//! process). Its `Cargo.toml` lists them and the compiler keeps the wall; the crate map is
//! `docs/modules.md`; `tests/it/crate_layers.rs` checks that the sources do no I/O.

pub mod board;
pub mod dialect;
pub mod events;
pub mod icc;
pub mod lines;
pub mod listing;
pub mod login;
pub mod outqueue;
pub mod parse;
pub mod pipeline;
pub mod rating;
pub mod replay;
pub mod telnet;
pub mod timeseal;
pub mod tourney;

pub use dialect::Dialect;
pub use events::{Color, Event, Prompt, Rating, Style12};
pub use login::{Login, LoginFailure, Password};
pub use outqueue::RateLimit;
pub use parse::ClockUnit;
