//! The front ends: the Crafty-style console and xboard (CECP v2), and what they share
//! (input thread, game record, clocks, game files, draw/resign policy). UCI and the options
//! table xboard shares with it are the `uci` crate, below this one, so that the lean engine
//! build has UCI without the book and the learning store; the console hands over to it.
//!
//! The console hands over to xboard one way (the `xboard` command); xboard never calls
//! the console. Each keeps its state in a `state.rs` below its command handling.
//!
//! May depend on: `chess`, `engine`, `book`, `learn`, `lists`, `datadir`, `uci`. Its
//! `Cargo.toml` lists them and the compiler keeps the wall; the crate map is
//! `docs/modules.md`.

pub mod annotate;
pub mod books;
pub mod console;
pub mod edit;
pub mod game;
pub mod gamefiles;
pub mod input;
pub mod output;
pub mod policy;
pub mod record;
pub mod runner;
pub mod stdout;
pub mod timecontrol;
pub mod xboard;
