//! The front ends: the Crafty-style console, xboard (CECP v2) and UCI.

pub mod edit;
pub mod game;
pub mod gamefiles;
pub mod input;
pub mod record;
pub mod timecontrol;
pub mod xboard;
