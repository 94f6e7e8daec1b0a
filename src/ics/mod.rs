//! ics (filled in by its issue).

pub mod bot;
pub mod lists;
pub mod session;
pub mod talk;
