//! Test support shared by the crates' unit tests and the integration tests (`tests/it`),
//! a dev-dependency only: scratch folders ([`scratch`]), the one rule for a test that needs
//! something the repository does not hold ([`need`]), and the shared Syzygy tables with
//! their loading lock ([`syzygy`]).

pub mod need;
pub mod scratch;
pub mod syzygy;

use std::path::PathBuf;

/// The shared data folder: `WILY_SHARED` when set, else `../shared` beside the checkout
/// (the workspace root is two folders above this crate's).
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("WILY_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}
