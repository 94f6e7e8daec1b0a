//! Commands for everyone who tells the bot something: the words, their rate limits and the answers (never an evaluation of a game a person plays).

pub mod answers;
pub mod parse;
