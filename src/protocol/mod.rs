//! The front ends: the Crafty-style console, xboard (CECP v2) and UCI, and what they share
//! (input thread, game record, clocks, game files, draw/resign policy).
//!
//! The console hands over to xboard one way (the `xboard` command); xboard never calls
//! the console. Each keeps its state in a `state.rs` below its command handling.
//!
//! May import: `chess`, `engine`, `book`, `learn`, `lists`, `datadir`. The layer table is
//! in `docs/modules.md`; `tests/it/module_layers.rs` checks it.

pub mod annotate;
pub mod books;
pub mod console;
pub mod edit;
pub mod game;
pub mod gamefiles;
pub mod input;
pub mod options;
pub mod output;
pub mod policy;
pub mod record;
pub mod runner;
pub mod stdout;
pub mod timecontrol;
pub mod uci;
pub mod xboard;
