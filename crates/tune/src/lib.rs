//! `wily tune`: Texel tuning of every evaluation weight to game results.
//!
//! Positions come from games (PGN, sampled with a seed), from training-sample CSV files
//! (`wily match -sample`) and from the bot's learning store ([`sources`]); each is resolved
//! to a quiet position by a small quiescence search ([`quiet`]) and recorded as the
//! coefficients of its evaluation, which the engine's evaluation itself reports
//! (`engine::eval::coefficients`) and which are checked against the real evaluation
//! ([`dataset`]). The score as a function of the weights ([`model`]) is linear in nearly
//! all of them; the king danger (squared) and the endgame scale factors are handled
//! exactly. The scaling constant K is fitted first, then all weights together by
//! full-batch Adam on the mean squared error between the result and the logistic
//! expectation of the score ([`optimize`]), on several threads. The new weights are
//! written as the Rust source the engine compiles its defaults from
//! (`crates/engine/src/eval/tuned.rs`, [`render`]).
//!
//! May import `engine/`, `chess/`, `learn/` (the store's samples) and `book/` (the atomic
//! file writer); nothing below imports it.
//!
//! May depend on: `chess`, `engine`, `book`, `learn`. Its `Cargo.toml` lists them and the
//! compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod cli;
pub mod dataset;
pub mod model;
pub mod optimize;
pub mod quiet;
pub mod render;
pub mod sources;
