//! The connection to a chess server: the socket I/O on top of the pure protocol client in
//! [`ics`]. [`connection`] connects with a timeout, runs the login exchange and the
//! dialect's setup, and hands back the bot's handle on the connection; its settings and
//! errors are in [`settings`]; the task it leaves running (`task.rs`) reads the socket
//! through the [`ics::pipeline::Pipeline`], sends through the rate-limited
//! [`ics::outqueue::OutQueue`] (timeseal-encoded when on), keeps the session alive
//! and notices a dead connection; [`helper`] runs a program such as ICC's `timestamp`
//! between wily and the server; [`wirelog`] is the optional transcript of the traffic.
//!
//! May depend on: `ics`. Its `Cargo.toml` lists them and the compiler keeps the wall; the
//! crate map is `docs/modules.md`.

pub mod connection;
pub mod helper;
pub mod settings;
mod task;
pub mod wirelog;

pub use connection::{connect, Closed, ConnectConfig, ConnectError, Connection, KeepAlive};
pub use helper::HelperConfig;
