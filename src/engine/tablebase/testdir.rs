//! Test support: the shared 3-4 piece Syzygy tables (under `WILY_SHARED`, else
//! `../shared`; `None`, with a message saying why the test skips, when they are not
//! there, and a failure under `CI=true`: `tests/it/need`), and a lock for the tests that
//! load tables (loaded tables are per process).
//! The integration tests compile this same file (`tests/it/syzygy_support/mod.rs`).

use std::path::PathBuf;

#[path = "../../../tests/it/need/mod.rs"]
mod need;
use std::sync::{Mutex, MutexGuard};

static SERIAL: Mutex<()> = Mutex::new(());

/// Held while a test loads or uses tables.
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The shared tables' folder, or `None` (after saying so) when it is not there.
pub fn syzygy_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("WILY_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    let dir = base.join("data/syzygy");
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        need::missing(
            &format!("the shared Syzygy tables {}", dir.display()),
            need::SHARED_HOW,
        );
        None
    }
}
