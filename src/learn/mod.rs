//! learn (filled in by its issue).
