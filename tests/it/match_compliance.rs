//! `wily match -compliance`: wily passes its own UCI and xboard checks; a program that is
//! no engine fails them with a verdict per check; and (opt-in) wily passes fastchess's
//! own `--compliance` check.

use crate::match_support;

use match_support::{text, wily};
use std::process::Command;

fn compliance(args: &[&str]) -> (bool, String) {
    let out = Command::new(wily())
        .args(["match", "-compliance"])
        .args(args)
        .output()
        .expect("run wily match -compliance");
    let (stdout, stderr) = text(&out);
    (out.status.success(), format!("{stdout}{stderr}"))
}

#[test]
fn wily_passes_its_uci_and_xboard_checks() {
    let (ok, out) = compliance(&[wily(), "uci"]);
    assert!(ok, "{out}");
    assert!(
        out.contains("PASS  go infinite: no bestmove before stop"),
        "{out}"
    );
    assert!(out.contains("PASS  quit while searching"), "{out}");
    assert!(out.contains("compliance: 16 passed, 0 failed"), "{out}");
    let (ok, out) = compliance(&["-xboard", wily(), "xboard"]);
    assert!(ok, "{out}");
    assert!(out.contains("compliance: 5 passed, 0 failed"), "{out}");
}

#[test]
fn a_program_that_is_no_engine_fails() {
    // cat echoes every command back: no uciok, no feature done=1.
    let (ok, out) = compliance(&["cat"]);
    assert!(!ok, "{out}");
    assert!(out.contains("FAIL  uci answers id name ... uciok"), "{out}");
    let (ok, out) = compliance(&["-xboard", "cat"]);
    assert!(!ok, "{out}");
    assert!(out.contains("FAIL  protover 2"), "{out}");
    let (ok, out) = compliance(&["/no/such/engine"]);
    assert!(!ok && out.contains("cannot start"), "{out}");
}

#[test]
#[ignore = "needs fastchess built outside the repository: FASTCHESS=/path/to/fastchess cargo test --test it match_compliance -- --ignored"]
fn wily_passes_fastchess_compliance() {
    let fc = std::env::var("FASTCHESS").expect("FASTCHESS names the fastchess binary");
    let out = Command::new(fc)
        .args(["--compliance", wily(), "uci"])
        .output()
        .expect("run fastchess");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Engine passed all compliance checks."),
        "{stdout}"
    );
}
