//! The engine crate's build script: chooses the network built into the engine. The
//! environment variable `WILY_EVALFILE` (what `make EVALFILE=...` sets) names a network
//! file to embed; without it `nets/default.wnn` is embedded when the repository has one;
//! with neither, nothing is, and the hand-written evaluation is the default. The file is
//! checked when the engine starts, not here: a bad one is refused with a warning and
//! the hand-written evaluation stays (crates/engine/src/nnue/embedded.rs).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=WILY_EVALFILE");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let nets = manifest.join("nets");
    // The folder's time changes when a network is added or removed.
    println!("cargo:rerun-if-changed={}", nets.display());
    let default = nets.join("default.wnn");
    let chosen = match std::env::var("WILY_EVALFILE") {
        Ok(p) if !p.trim().is_empty() => Some(PathBuf::from(p.trim())),
        _ => default.exists().then_some(default),
    };
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("embedded.wnn");
    let bytes = match &chosen {
        Some(p) => {
            println!("cargo:rerun-if-changed={}", p.display());
            std::fs::read(p)
                .unwrap_or_else(|e| panic!("the network to embed, {}: {e}", p.display()))
        }
        None => Vec::new(),
    };
    // Rewritten only when it changes, so an unchanged network rebuilds nothing.
    if std::fs::read(&out).ok().as_deref() != Some(&bytes[..]) {
        std::fs::write(&out, &bytes).expect("OUT_DIR is writable");
    }
}
