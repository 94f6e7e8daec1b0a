//! xboard / WinBoard (CECP v2) front end.

pub mod command;
