//! chess (filled in by its issue).
