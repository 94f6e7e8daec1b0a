//! wily as OpenBench's client builds and benches it: `make -j EXE=NAME` in the repository
//! must leave the lean engine (`wily-lean`) at `NAME`, and `./NAME bench` must print a node
//! count and a speed that the client's output reader finds, the node count being the bench
//! signature.
//!
//! The reader here follows the rules the OpenBench client applies to a bench's standard
//! output (its `Client/bench.py`): lines are read from the last one up; in each, every
//! character that is not an ASCII letter, digit or space becomes a space; the node count is
//! the first `N nodes`, `nodes N` or `nodes searched N` and the speed the first `N nps`,
//! `nps N` or `nodes second N` (case-insensitive), each taken from the latest line that has
//! one, and the number is the first run of digits of what matched.

use crate::need;

use regex::Regex;
use std::path::Path;
use std::process::Command;
use wily::tools::bench::BENCH_SIGNATURE;

/// `(nodes, nps)` as the OpenBench client reads them from a bench's output.
fn openbench_read(stdout: &str) -> (Option<u64>, Option<u64>) {
    let junk = Regex::new(r"[^a-zA-Z0-9 ]+").unwrap();
    let nps_re = Regex::new(r"(?i)(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)").unwrap();
    let nodes_re = Regex::new(r"(?i)(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)").unwrap();
    let digits = Regex::new(r"\d+").unwrap();
    let number = |m: &str| digits.find(m).and_then(|d| d.as_str().parse().ok());
    let (mut nodes, mut nps) = (None, None);
    for line in stdout.trim().split('\n').rev() {
        let line = junk.replace_all(line, " ");
        if nps.is_none() {
            nps = nps_re.find(&line).and_then(|m| number(m.as_str()));
        }
        if nodes.is_none() {
            nodes = nodes_re.find(&line).and_then(|m| number(m.as_str()));
        }
    }
    (nodes, nps)
}

#[test]
fn the_reader_follows_the_clients_rules() {
    // Stockfish's and Ethereal's forms, and the latest line winning.
    assert_eq!(
        openbench_read("Total time (ms) : 1200\nNodes searched  : 4321\nNodes/second    : 3600\n"),
        (Some(4321), Some(3600))
    );
    assert_eq!(
        openbench_read("1 nodes 2 nps\nBench: 77 nodes 88 nps\n"),
        (Some(77), Some(88))
    );
    assert_eq!(openbench_read("no numbers here"), (None, None));
}

fn make_available() -> bool {
    let ok = Command::new("make")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        need::missing("make (OpenBench's client builds with it)", need::TOOLS_HOW);
    }
    ok
}

/// The Makefile's default target, dry run with its defaults: what OpenBench's `make -j
/// EXE=NAME` would do in the repository.
#[test]
fn make_exe_builds_the_lean_release_engine_at_the_given_name() {
    if !make_available() {
        return;
    }
    // `cargo test` sets CARGO for its children; the client's make has no such variable.
    let out = Command::new("make")
        .env_remove("CARGO")
        .args(["-n", "-j2", "EXE=/tmp/wily-0123ABCD", "CC=cargo"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("make -n runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    assert!(
        lines.contains(&"cargo build --release -p wily-lean --target-dir target"),
        "{text}"
    );
    assert!(
        lines.contains(&"cp target/release/wily-lean /tmp/wily-0123ABCD"),
        "{text}"
    );
}

/// The whole route: `make EXE=NAME` (with a stand-in cargo that supplies a binary, so that
/// no release build runs: `wily`, whose `bench` is the lean engine's), then `./NAME bench`
/// read as the client reads it. An `EVALFILE=` reaches cargo as `WILY_EVALFILE`, made
/// absolute.
#[test]
fn the_built_engine_benches_in_the_form_the_client_reads() {
    if !make_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("t");
    let fake = tmp.path().join("fake-cargo");
    // The stand-in checks it was asked for exactly the release build of the lean engine,
    // with the network file's absolute path.
    let net = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/x.nnue");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\n\
             [ \"$*\" = \"build --release -p wily-lean --target-dir {t}\" ] || {{ echo \"unexpected: $*\" >&2; exit 2; }}\n\
             [ \"$WILY_EVALFILE\" = \"{net}\" ] || {{ echo \"WILY_EVALFILE=$WILY_EVALFILE\" >&2; exit 2; }}\n\
             mkdir -p {t}/release && cp {bin} {t}/release/wily-lean\n",
            t = target.display(),
            net = net.display(),
            bin = env!("CARGO_BIN_EXE_wily"),
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = tmp.path().join("wily-0123ABCD");
    let out = Command::new("make")
        .arg("-j2")
        .arg(format!("EXE={}", exe.display()))
        .arg(format!("CARGO={}", fake.display()))
        .arg(format!("TARGET_DIR={}", target.display()))
        .arg("EVALFILE=nets/x.nnue")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("make runs");
    assert!(
        out.status.success(),
        "make failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(exe.is_file(), "make left no {}", exe.display());
    // The client runs `./NAME bench` and reads standard output and error together.
    let bench = Command::new(Path::new(".").join("wily-0123ABCD"))
        .arg("bench")
        .current_dir(tmp.path())
        .output()
        .expect("bench runs");
    assert!(bench.status.success());
    let mut text = String::from_utf8(bench.stdout).expect("ASCII output");
    text.push_str(&String::from_utf8_lossy(&bench.stderr));
    let (nodes, nps) = openbench_read(&text);
    assert_eq!(nodes, Some(BENCH_SIGNATURE), "{text}");
    assert!(nps.is_some_and(|n| n > 0), "{text}");
}
