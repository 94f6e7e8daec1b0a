//! ics (filled in by its issue).
