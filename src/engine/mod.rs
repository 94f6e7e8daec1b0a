//! The engine: search, evaluation, transposition table, time control and threads.

pub mod eval;
