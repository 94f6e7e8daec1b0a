//! chess (filled in by its issue).

pub mod polyglot;
