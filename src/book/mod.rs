//! book (filled in by its issue).
