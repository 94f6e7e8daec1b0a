//! The local server's tournament director: its settings, its work in mamer's shape, and the pairings.

pub(crate) mod config;
pub(crate) mod director;
pub(crate) mod pairing;
