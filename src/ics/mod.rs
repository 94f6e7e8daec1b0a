//! ics (filled in by its issue).

pub mod bot;
pub mod lists;
pub mod talk;
