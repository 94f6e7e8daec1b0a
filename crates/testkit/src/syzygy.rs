//! Test support: the shared 3-4 piece Syzygy tables (under `WILY_SHARED`, else
//! `../shared` beside the checkout; `None`, with a message saying why the test skips,
//! when they are not there, and a failure under `CI=true`: [`crate::need`]), and a lock
//! for the tests that load tables (loaded tables are per process).

use std::path::PathBuf;

use crate::need;
use std::sync::{Mutex, MutexGuard};

static SERIAL: Mutex<()> = Mutex::new(());

/// Held while a test loads or uses tables.
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The shared tables' folder, or `None` (after saying so) when it is not there.
pub fn syzygy_dir() -> Option<PathBuf> {
    let dir = crate::shared_dir().join("data/syzygy");
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
