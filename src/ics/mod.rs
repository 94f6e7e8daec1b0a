//! The chess-server protocol layer: everything between the TCP socket and typed events.
//!
//! Receive path (pure, tested with recorded bytes): bytes -> [`telnet`] (IAC negotiation
//! stripped and answered) -> [`lines`] (lines, prompts, timeseal pings) -> [`parse`] (one
//! parser per concern) -> [`events::Event`]; [`pipeline`] strings them together.
//! Send path: [`outqueue`] (rate limit, moves first) -> [`timeseal`] encoding -> socket.
//! [`connection`] does the I/O: connect, [`login`], [`dialect`] setup, keep-alive,
//! dead-connection detection, and hands events to the bot over a tokio channel.

pub mod events;
pub mod lines;
pub mod parse;
pub mod pipeline;
pub mod telnet;
pub mod timeseal;

pub use events::{Color, Event, Prompt, Rating, Style12};
