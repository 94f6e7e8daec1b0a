//! Writing to stdout without ever panicking: a closed pipe or a full disk is reported as
//! an error value (so the front end can end its session) instead of aborting the program.

use std::io::Write;

/// Writes `line` and a newline, then flushes.
pub fn line(line: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()
}

/// Writes `text` without a newline (a prompt), then flushes.
pub fn prompt(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    write!(out, "{text}")?;
    out.flush()
}
