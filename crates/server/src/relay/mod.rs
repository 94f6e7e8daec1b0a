//! The local server's relay account: its settings and its work.

pub(crate) mod bot;
pub(crate) mod config;
