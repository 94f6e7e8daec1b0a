//! The network built into the engine (`build.rs`: `WILY_EVALFILE`, or `nets/default.wnn`
//! when the repository has one). When there is one, every engine evaluates with it
//! unless told otherwise (`Eval=hce`, another `EvalFile`); its checksum identifies it
//! (the front ends print it, the tests compare it).

use super::network::Network;
use std::sync::{Arc, OnceLock};

static BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.wnn"));

/// The embedded network, read once; `None` when the build embedded none or the bytes
/// are not a network this build runs (then a warning says why, once).
pub fn embedded() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| {
        if BYTES.is_empty() {
            return None;
        }
        match Network::from_bytes(BYTES) {
            Ok(n) => Some(Arc::new(n)),
            Err(e) => {
                tracing::warn!("the embedded network is refused: {e}");
                eprintln!("warning: the embedded network is refused: {e}; evaluating by hand");
                None
            }
        }
    })
    .clone()
}

/// The embedded network's checksum (the last 8 bytes of its file), if there is one.
pub fn embedded_checksum() -> Option<u64> {
    embedded().map(|n| n.file_checksum())
}
