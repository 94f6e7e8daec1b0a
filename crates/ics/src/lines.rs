//! The line splitter: turns the server's text stream (telnet already stripped) into lines,
//! prompts and timeseal pings, however the reads were split.
//!
//! - Lines end in `\n\r` (FICS-lineage servers), `\r\n` or `\n`: every `\r` is dropped and
//!   `\n` ends a line. Trailing blanks are trimmed; other control bytes are removed.
//! - Prompts come without a newline, at the start of a line, and may share a read with
//!   what follows (`fics% Style 12 set.`, `fics% fics% `): `fics% `, `aics% `, `login: `,
//!   `password: ` and `Press return to enter the ... as "name":` are cut off the start of a
//!   line as soon as they are complete.
//! - A timeseal ping is `[G]\0` anywhere in the stream (v2) or a line `[G]` (v1).
//!
//! Output depends only on the bytes, never on where the reads were split.

use crate::events::Prompt;
use crate::timeseal::{PING_V1_LINE, PING_V2};

/// A line longer than this without a newline is cut (a misbehaving server cannot make
/// the buffer grow without bound).
pub const MAX_LINE: usize = 64 * 1024;

const PRESS_RETURN: &[u8] = b"Press return to enter the ";
const PRESS_RETURN_MAX: usize = 256;

/// What the splitter produces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Line(String),
    Prompt(Prompt),
    /// A timeseal `[G]` ping.
    Ping,
}

/// Streaming line splitter for one connection.
#[derive(Default)]
pub struct LineSplitter {
    buf: Vec<u8>,
    /// Bytes of `buf` already known to hold no newline (so a long line fed in small reads
    /// is not scanned again and again).
    scanned: usize,
}

enum PromptMatch {
    Found(usize, Prompt),
    No,
}

fn match_prompt(s: &[u8]) -> PromptMatch {
    const TOKENS: [(&[u8], u8); 4] = [
        (b"fics% ", 0),
        (b"aics% ", 0),
        (b"login: ", 1),
        (b"password: ", 2),
    ];
    for (tok, kind) in TOKENS {
        if s.starts_with(tok) {
            let p = match kind {
                0 => Prompt::Command,
                1 => Prompt::Login,
                _ => Prompt::Password,
            };
            return PromptMatch::Found(tok.len(), p);
        }
    }
    if s.starts_with(PRESS_RETURN) {
        // The prompt is short: look for its end in the first few hundred bytes only.
        let head = &s[..s.len().min(PRESS_RETURN_MAX)];
        let line_end = head.iter().position(|&b| b == b'\n').unwrap_or(head.len());
        let line = &head[..line_end];
        if let Some(colon) = line.windows(2).position(|w| w == b"\":") {
            let open = line.iter().position(|&b| b == b'"').unwrap_or(colon);
            let name = if open < colon {
                &line[open + 1..colon]
            } else {
                &b""[..]
            };
            let name = String::from_utf8_lossy(name).into_owned();
            return PromptMatch::Found(colon + 2, Prompt::PressReturn { name });
        }
    }
    PromptMatch::No
}

/// The text of a line: control bytes removed, trailing blanks trimmed, lossy UTF-8.
fn clean_line(raw: &[u8]) -> String {
    let mut end = raw.len();
    while end > 0 && (raw[end - 1] == b' ' || raw[end - 1] == b'\t') {
        end -= 1;
    }
    let raw = &raw[..end];
    if raw.iter().all(|&b| (0x20..0x7f).contains(&b)) {
        // Plain ASCII, the common case: no filtering needed.
        return String::from_utf8_lossy(raw).into_owned();
    }
    let kept: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|&b| b >= 0x20 && b != 0x7f || b == b'\t')
        .collect();
    String::from_utf8_lossy(&kept).into_owned()
}

impl LineSplitter {
    pub fn new() -> LineSplitter {
        LineSplitter {
            buf: Vec::with_capacity(4096),
            scanned: 0,
        }
    }

    /// Feeds text; complete pieces are appended to `out` in stream order.
    pub fn feed(&mut self, data: &[u8], out: &mut Vec<Piece>) {
        let scan_from = self.buf.len().saturating_sub(PING_V2.len() - 1);
        self.buf
            .extend(data.iter().copied().filter(|&b| b != b'\r'));
        self.remove_v2_pings(scan_from, out);
        self.scanned = self.scanned.min(scan_from);
        self.split(out);
    }

    /// Removes `[G]\0` pings; each one found yields a [`Piece::Ping`] (ahead of the text
    /// it was embedded in: it needs an answer at once).
    fn remove_v2_pings(&mut self, from: usize, out: &mut Vec<Piece>) {
        if !self.buf[from..].contains(&0) {
            return;
        }
        let mut i = from;
        while i + PING_V2.len() <= self.buf.len() {
            if self.buf[i..].starts_with(PING_V2) {
                self.buf.drain(i..i + PING_V2.len());
                out.push(Piece::Ping);
            } else {
                i += 1;
            }
        }
    }

    fn split(&mut self, out: &mut Vec<Piece>) {
        let mut start = 0;
        loop {
            // Prompts at the start of a line.
            while let PromptMatch::Found(len, p) = match_prompt(&self.buf[start..]) {
                out.push(Piece::Prompt(p));
                start += len;
            }
            let from = start.max(self.scanned);
            match self.buf[from..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|p| p + from - start)
            {
                Some(p) => {
                    let line = clean_line(&self.buf[start..start + p]);
                    start += p + 1;
                    if line == PING_V1_LINE {
                        out.push(Piece::Ping);
                    } else {
                        out.push(Piece::Line(line));
                    }
                }
                None => {
                    if self.buf.len() - start > MAX_LINE {
                        out.push(Piece::Line(clean_line(&self.buf[start..])));
                        start = self.buf.len();
                    }
                    break;
                }
            }
        }
        self.buf.drain(..start);
        self.scanned = self.buf.len();
    }

    /// The text received since the last complete line (for diagnostics).
    pub fn partial(&self) -> &[u8] {
        &self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_all(chunks: &[&[u8]]) -> Vec<Piece> {
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c, &mut out);
        }
        out
    }

    fn line(s: &str) -> Piece {
        Piece::Line(s.to_string())
    }

    #[test]
    fn line_endings_and_prompts() {
        let out =
            split_all(&[b"\n\rfics% Style 12 set.\n\rfics% fics% \n\rone\r\ntwo\nthree   \n"]);
        assert_eq!(
            out,
            vec![
                line(""),
                Piece::Prompt(Prompt::Command),
                line("Style 12 set."),
                Piece::Prompt(Prompt::Command),
                Piece::Prompt(Prompt::Command),
                line(""),
                line("one"),
                line("two"),
                line("three"),
            ]
        );
    }

    #[test]
    fn prompts_without_newline_are_emitted_at_once() {
        let out = split_all(&[b"\n\rlogin: "]);
        assert_eq!(out, vec![line(""), Piece::Prompt(Prompt::Login)]);
        let out = split_all(&[b"\n\rpassword: "]);
        assert_eq!(out, vec![line(""), Piece::Prompt(Prompt::Password)]);
        let out = split_all(&[b"\n\rPress return to enter the FICS as \"guest\":"]);
        assert_eq!(
            out,
            vec![
                line(""),
                Piece::Prompt(Prompt::PressReturn {
                    name: "guest".into()
                })
            ]
        );
        let out = split_all(&[b"aics% "]);
        assert_eq!(out, vec![Piece::Prompt(Prompt::Command)]);
    }

    #[test]
    fn prompt_followed_by_text_in_the_same_line() {
        let out = split_all(&[b"password: ____ \n\r"]);
        assert_eq!(out, vec![Piece::Prompt(Prompt::Password), line("____")]);
    }

    #[test]
    fn every_split_gives_the_same_pieces() {
        let whole: &[u8] = b"\n\rlogin: \n\r\"X\" is ...\n\rPress return to enter the server as \"GuestAB\":\n\r**** Starting\n\rfics% fics% <12> a b\n\rfics% [G]\0hello [G]\0world\n\r[G]\n\rfics% ";
        // Pings are answered at once, so their place among the lines may move with the
        // split; everything else must be identical.
        let without_pings = |v: Vec<Piece>| -> (Vec<Piece>, usize) {
            let n = v.iter().filter(|p| **p == Piece::Ping).count();
            (v.into_iter().filter(|p| *p != Piece::Ping).collect(), n)
        };
        let reference = without_pings(split_all(&[whole]));
        assert_eq!(reference.1, 3);
        assert!(reference.0.contains(&line("hello world")));
        for a in 0..whole.len() {
            for b in a..whole.len() {
                let got = without_pings(split_all(&[&whole[..a], &whole[a..b], &whole[b..]]));
                assert_eq!(got, reference, "split at {a},{b}");
            }
        }
    }

    #[test]
    fn controls_removed_and_long_lines_cut() {
        let out = split_all(&[b"a\x07b\x00c\xffd\n"]);
        assert_eq!(out, vec![line("abc\u{fffd}d")]);
        let long = vec![b'x'; MAX_LINE + 10];
        let out = split_all(&[&long]);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn a_long_line_in_tiny_reads_is_not_rescanned() {
        // 60 KB of one line, fed a byte at a time, then its end: one line, and only the
        // new byte is searched for a newline each time.
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        for _ in 0..60_000 {
            s.feed(b"x", &mut out);
            assert_eq!(s.scanned, s.buf.len());
        }
        s.feed(b"\n", &mut out);
        assert_eq!(out.len(), 1);
        assert!(s.buf.is_empty());
        let mut out = Vec::new();
        let mut s = LineSplitter::new();
        for b in b"Press return to enter the server as \"Guest\": now\n" {
            s.feed(&[*b], &mut out);
        }
        assert_eq!(
            out,
            vec![
                Piece::Prompt(Prompt::PressReturn {
                    name: "Guest".into()
                }),
                line(" now")
            ]
        );
    }

    #[test]
    fn prompt_inside_a_line_is_text() {
        let out = split_all(&[b"simopen=0   Prompt: fics% \n"]);
        assert_eq!(out, vec![line("simopen=0   Prompt: fics%")]);
    }
}
