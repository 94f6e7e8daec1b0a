//! Where the tests find the shared, read-only data (`$WILY_SHARED`, else `../shared`
//! beside the repository); a missing file is reported through `need::missing`, which
//! fails the test under `CI=true`.

#![allow(dead_code)]

pub(crate) use crate::need;

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
        need::missing(
            &format!("the shared data folder {}", dir.join("data").display()),
            need::SHARED_HOW,
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
        need::missing(&format!("shared data {}", p.display()), need::SHARED_HOW);
        None
    }
}
