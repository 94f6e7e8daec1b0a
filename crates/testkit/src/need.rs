//! The one rule for a test that needs something the repository does not hold (a program
//! such as Chromium, Xvfb, xboard or python-chess, or the shared data folder): without
//! `CI` it prints why it skips and the test passes; under `CI=true` it fails, naming what
//! is missing and how to get it, so a green CI run has really driven every part.
//! `.ci/install-test-tools` installs the programs. Every skip in the tests goes through
//! [`missing`]: the crates' unit tests and the integration tests alike.

/// Whether the tests run under CI (`CI=true`, as CI services set it, or `CI=1`).
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Reports that `what` is not there and how to get it: under CI this panics (the test
/// fails), otherwise it prints a `SKIP:` line and returns, and the caller skips.
#[track_caller]
pub fn missing(what: &str, how: &str) {
    if ci() {
        panic!("CI=true, and this test needs {what}, which is missing ({how})");
    }
    eprintln!("SKIP: this test needs {what}, which is missing ({how})");
}

/// How to get the shared data folder.
pub const SHARED_HOW: &str =
    "put the shared data folder beside the checkout as ../shared, or set WILY_SHARED";

/// How to get the programs.
pub const TOOLS_HOW: &str = "run .ci/install-test-tools as root";
