//! protocol (filled in by its issue).
