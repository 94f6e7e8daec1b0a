//! The chess-server protocol layer: everything between the TCP socket and typed events.
//!
//! Receive path (pure, tested with recorded bytes): bytes -> [`telnet`] (IAC negotiation
//! stripped and answered) -> [`lines`] (lines, prompts, timeseal pings) -> [`parse`] (one
//! parser per concern) -> [`events::Event`]; [`pipeline`] strings them together.
//! Send path: [`outqueue`] (rate limit, moves first) -> [`timeseal`] encoding -> socket.
//! [`connection`] does the I/O: connect, [`login`], [`dialect`] setup, keep-alive,
//! dead-connection detection, and hands events to the bot over a tokio channel.

pub mod board;
pub mod connection;
pub mod dialect;
pub mod events;
pub mod lines;
pub mod login;
pub mod outqueue;
pub mod parse;
pub mod pipeline;
pub mod server;
pub mod telnet;
pub mod timeseal;
pub mod wirelog;

// The server bot (h/bot).
pub mod bot;
pub mod lists;
pub mod session;
pub mod talk;

pub use connection::{connect, Closed, ConnectConfig, ConnectError, Connection, KeepAlive};
pub use dialect::Dialect;
pub use events::{Color, Event, Prompt, Rating, Style12};
pub use login::{Login, LoginFailure, Password};
pub use outqueue::RateLimit;
pub use parse::ClockUnit;
