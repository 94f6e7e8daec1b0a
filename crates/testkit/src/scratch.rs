//! Scratch folders of the unit tests: a `tempfile::TempDir` named `wily-<tag>-XXXXXX` in the
//! system temp folder, removed when the guard drops, so when the test ends, passed or failed.
//! `WILY_KEEP_TMP=1` keeps the folders and prints where they are, for looking at a failure.

use tempfile::TempDir;

/// A fresh empty folder; keep the guard alive for as long as the test uses the folder.
pub fn dir(tag: &str) -> TempDir {
    let keep = std::env::var_os("WILY_KEEP_TMP").is_some_and(|v| !v.is_empty() && v != "0");
    let dir = tempfile::Builder::new()
        .prefix(&format!("wily-{tag}-"))
        .disable_cleanup(keep)
        .tempdir()
        .expect("scratch folder");
    if keep {
        eprintln!("WILY_KEEP_TMP: kept {}", dir.path().display());
    }
    dir
}
