//! ics (filled in by its issue).

pub mod lists;
