//! The scripted sparring client: the player and what it reads from the server in either dialect.

pub(crate) mod input;
pub(crate) mod player;
