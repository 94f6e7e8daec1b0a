//! The optional wire log: a timestamped transcript of every byte received and every line
//! sent, for chasing server trouble. Secret lines (the password) are written as `********`,
//! and the password is also masked wherever it might appear in received bytes, so the
//! file is safe to share. Control bytes are escaped so stray ones are visible.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;

/// The mask written instead of a secret.
pub const MASK: &str = "********";

/// An append-only wire log; a disabled one does nothing.
pub struct WireLog {
    file: Option<BufWriter<File>>,
    secret: Option<Vec<u8>>,
}

fn escape(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}

impl WireLog {
    pub fn disabled() -> WireLog {
        WireLog {
            file: None,
            secret: None,
        }
    }

    /// Opens (appends to) the log file. `secret` is masked wherever it occurs.
    pub fn open(path: &Path, secret: Option<&str>) -> std::io::Result<WireLog> {
        let f = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(WireLog {
            file: Some(BufWriter::new(f)),
            secret: secret
                .filter(|s| !s.is_empty())
                .map(|s| s.as_bytes().to_vec()),
        })
    }

    pub fn is_enabled(&self) -> bool {
        self.file.is_some()
    }

    fn mask(&self, bytes: &[u8]) -> Vec<u8> {
        let Some(secret) = &self.secret else {
            return bytes.to_vec();
        };
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i..].starts_with(secret) {
                out.extend_from_slice(MASK.as_bytes());
                i += secret.len();
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        out
    }

    fn write(&mut self, dir: &str, body: &str) {
        let Some(f) = &mut self.file else { return };
        let stamp = chrono::Utc::now().format("%H:%M:%S%.3f");
        let ok = writeln!(f, "{stamp} {dir} \"{body}\"").and_then(|_| f.flush());
        if let Err(e) = ok {
            tracing::warn!(error = %e, "ics: wire log write failed; wire log disabled");
            self.file = None;
        }
    }

    /// Bytes as read from the socket, before any processing.
    pub fn received(&mut self, bytes: &[u8]) {
        if self.file.is_some() {
            let body = escape(&self.mask(bytes));
            self.write("<-", &body);
        }
    }

    /// A line sent (plain text, before timeseal encoding).
    pub fn sent(&mut self, line: &str, secret: bool) {
        if self.file.is_some() {
            let body = if secret {
                MASK.to_string()
            } else {
                escape(&self.mask(line.as_bytes()))
            };
            self.write("->", &body);
        }
    }

    /// An event of the connection itself (connect, disconnect, timeseal on).
    pub fn note(&mut self, text: &str) {
        if self.file.is_some() {
            let body = escape(&self.mask(text.as_bytes()));
            self.write("--", &body);
        }
    }
}

/// Undoes the escaping of a logged body (`\\n`, `\\x19`, `\\"`, ...); bad escapes are kept
/// as they are.
fn unescape(body: &str) -> Vec<u8> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let (byte, used) = match b[i + 1] {
            b'n' => (Some(b'\n'), 2),
            b'r' => (Some(b'\r'), 2),
            b't' => (Some(b'\t'), 2),
            b'0' => (Some(0), 2),
            b'\\' => (Some(b'\\'), 2),
            b'\'' => (Some(b'\''), 2),
            b'"' => (Some(b'"'), 2),
            b'x' if i + 3 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 2..i + 4]).unwrap_or("");
                (u8::from_str_radix(hex, 16).ok(), 4)
            }
            _ => (None, 1),
        };
        match byte {
            Some(x) => {
                out.push(x);
                i += used;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    out
}

/// The bytes received, read back out of a wire log (`HH:MM:SS.mmm <- "..."` lines), or
/// `None` when the text is not a wire log (then it is a raw capture).
pub fn received_bytes(log: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut seen = false;
    for line in log.lines() {
        let Some((stamp, rest)) = line.split_once(' ') else {
            continue;
        };
        let looks_stamped = stamp.len() == 12
            && stamp.as_bytes()[2] == b':'
            && stamp.as_bytes()[5] == b':'
            && stamp.as_bytes()[8] == b'.';
        if !looks_stamped {
            continue;
        }
        seen = true;
        if let Some(body) = rest.strip_prefix("<- \"") {
            let body = body.strip_suffix('"').unwrap_or(body);
            out.extend_from_slice(&unescape(body));
        }
    }
    seen.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn received_bytes_come_back_out_of_the_log() {
        let raw = b"login: \x19(0 wily {}\x19)\n\r\"q\" \\ \xff\x00";
        let line = format!(
            "12:00:00.000 <- \"{}\"\n12:00:00.100 -> \"wily\"\n",
            escape(raw)
        );
        assert_eq!(received_bytes(&line), Some(raw.to_vec()));
        assert_eq!(received_bytes("just text\n"), None);
        assert_eq!(unescape("\\x"), b"\\x".to_vec(), "a cut escape is kept");
    }

    #[test]
    fn password_never_reaches_the_file() {
        let scratch = testkit::scratch::dir("wirelog");
        let file = scratch.path().join("wire.log");
        {
            let mut w = WireLog::open(&file, Some("hunter2")).expect("opens");
            w.note("connected");
            w.received(b"password: \xff\xfb\x01");
            w.sent("hunter2", true);
            w.sent("tell x my password is hunter2", false);
            w.received(b"echo hunter2\n\r");
        }
        let text = std::fs::read_to_string(&file).expect("reads");
        assert!(!text.contains("hunter2"), "{text}");
        assert_eq!(text.matches(MASK).count(), 3);
        assert!(text.contains("<- \"password: \\xff\\xfb\\x01\""));
        assert!(text.contains("\\n\\r"));
        assert_eq!(text.lines().count(), 5);
    }

    #[test]
    fn disabled_log_does_nothing() {
        let mut w = WireLog::disabled();
        w.sent("x", false);
        assert!(!w.is_enabled());
    }
}
