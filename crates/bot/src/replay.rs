//! `wily ics replay FILE [--dialect fics|icc]`: reads a wire log (`logs/wire.log`, written
//! with `--wire-debug`) or a raw capture of what a server sent (`-` reads standard input)
//! and prints the typed events one JSON object a line ([`ics::replay`]). The tool
//! an operator attaches to a bug report; it never panics on any input.

use std::io::{Read, Write};
use std::path::Path;

use ics::dialect::Dialect;
use ics::replay::{replay, ReplayOptions};
use link::wirelog::received_bytes;

/// The server bytes of a file: the received side of a wire log, or the file as it is.
pub fn server_bytes(content: &[u8]) -> Vec<u8> {
    match std::str::from_utf8(content).ok().and_then(received_bytes) {
        Some(bytes) => bytes,
        None => content.to_vec(),
    }
}

/// Reads `path` (`-`: standard input) and writes one JSON line per event to `out`.
pub fn run(path: &Path, dialect: &str, out: &mut dyn Write) -> Result<(), String> {
    let dialect: Dialect = dialect.parse()?;
    let mut content = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_end(&mut content)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        content =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    }
    let bytes = server_bytes(&content);
    for line in replay(&bytes, ReplayOptions::new(dialect)) {
        writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(())
}
