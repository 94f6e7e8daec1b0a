//! Scratch folders of the integration tests: the unit tests' helper (`src/scratch.rs`,
//! a `tempfile::TempDir` removed when the test ends; `WILY_KEEP_TMP=1` keeps it), compiled
//! into each test crate that needs it.

#[path = "../../../src/scratch.rs"]
mod shared;

pub(crate) use shared::dir;
