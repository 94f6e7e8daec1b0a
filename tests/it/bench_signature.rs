//! The bench signature: `wily bench` with its defaults (depth 12, one thread) searches
//! exactly `BENCH_SIGNATURE` nodes. A change that moves the count changes what the search
//! does, so it must update the constant in the same commit, with a `Bench: N` trailer
//! and its SPRT (`CONTRIBUTING.md`); `.ci/bench-signature` also compares the binary's
//! count with the newest trailer in the git history.

use std::process::Command;
use wily::tools::bench::{BENCH_SIGNATURE, DEFAULT_DEPTH};

#[test]
fn wily_bench_prints_the_signature_the_source_names() {
    let out = Command::new(env!("CARGO_BIN_EXE_wily"))
        .arg("bench")
        .output()
        .expect("wily bench runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().expect("a last line");
    let nodes: u64 = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("last line `{last}` is not `<nodes> nodes <nps> nps`"));
    assert_eq!(DEFAULT_DEPTH, 12, "the signature is defined at depth 12");
    assert_eq!(
        nodes, BENCH_SIGNATURE,
        "wily bench searched {nodes} nodes, but crates/tools/src/bench.rs names {BENCH_SIGNATURE}: \
         a functional change updates BENCH_SIGNATURE, ends its commit message with \
         `Bench: {nodes}` and carries an SPRT (CONTRIBUTING.md)"
    );
}
