//! How the bot finds games: seeking, challenge filters, and the state of both.

pub mod accepting;
pub mod challenge;
pub mod seeking;
pub mod state;
