//! Scratch folders of the integration tests: the crates' helper (`wily_testkit::scratch`, a
//! `tempfile::TempDir` removed when the test ends; `WILY_KEEP_TMP=1` keeps it).

pub(crate) use wily_testkit::scratch::dir;
