//! Where the tests find the shared, read-only data (`$WILY_SHARED`, else `../shared`
//! beside the repository), and the skip message a test prints when a file is absent.

#![allow(dead_code)]

use std::path::PathBuf;

/// The shared folder, whether or not it exists.
pub fn root() -> PathBuf {
    std::env::var_os("WILY_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// The shared folder when its `data/` is there; else prints why the caller skips.
pub fn dir() -> Option<PathBuf> {
    let dir = root();
    if dir.join("data").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIP: shared data not found at {} (set WILY_SHARED)",
            dir.display()
        );
        None
    }
}

/// `rel` under the shared folder when it exists; else prints why the caller skips.
pub fn path(rel: &str) -> Option<PathBuf> {
    let p = root().join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("SKIP: {} not found (set WILY_SHARED)", p.display());
        None
    }
}
