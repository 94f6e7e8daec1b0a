//! The front ends: UCI (and, from their own work, the console and xboard).

pub mod uci;
