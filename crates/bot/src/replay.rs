//! `wily ics replay FILE [--dialect fics|icc] [--datagrams]`: reads a wire log
//! (`logs/wire.log`, written with `--wire-debug`) or a raw capture of what a server sent
//! (`-` reads standard input) and prints the typed events one JSON object a line
//! ([`ics::replay`]), or with `--datagrams` every ICC datagram field by field. The tool
//! an operator attaches to a bug report; it never panics on any input.

use std::io::{Read, Write};
use std::path::Path;

use ics::dialect::Dialect;
use ics::replay::{replay, replay_datagrams, ReplayOptions};
use link::wirelog::received_bytes;

/// The server bytes of a file: the received side of a wire log, or the file as it is.
pub fn server_bytes(content: &[u8]) -> Vec<u8> {
    match std::str::from_utf8(content).ok().and_then(received_bytes) {
        Some(bytes) => bytes,
        None => content.to_vec(),
    }
}

/// Reads `path` (`-`: standard input) and writes one JSON line per event to `out`, or
/// with `datagrams` one per ICC datagram, level-1 unit and text line (any dialect: the
/// bytes are read as ICC's).
pub fn run(path: &Path, dialect: &str, datagrams: bool, out: &mut dyn Write) -> Result<(), String> {
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
    let lines = if datagrams {
        replay_datagrams(&bytes)
    } else {
        replay(&bytes, ReplayOptions::new(dialect))
    };
    for line in lines {
        writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(())
}
