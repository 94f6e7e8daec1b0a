//! Timeseal v1: the FICS line encoding that carries a client timestamp with every command,
//! so the server can charge each player only their own thinking time.
//!
//! The facts used here (the public algorithm, as the servers decode it):
//! - the 50-byte key `Timestamp (FICS) v1.0 - programmed by Henrik Gram.`;
//! - a line is `text`, byte 0x18, the timestamp in decimal (milliseconds, the original
//!   client uses `(seconds % 10000) * 1000 + milliseconds`), byte 0x19, padded to a
//!   multiple of 12 bytes (v1 pads with `'1'`);
//! - in every 12-byte block bytes 0↔11, 2↔9 and 4↔7 are swapped;
//! - every byte `b` at index `i` becomes `((b | 0x80) ^ key[(i + offset) % 50]) - 32`
//!   (wrapping), with offset 0 in v1;
//! - the line ends with byte `0x80 | offset` (0x80 in v1) and `\n`;
//! - the first line after connecting is the hello `TIMESTAMP|user|system|`
//!   (`TIMESEAL2|...` for the v2 variant, whose random offset the decoder reads from the
//!   final byte);
//! - the server pings with `[G]` on a line of its own (v1) or `[G]\0` anywhere (v2); the
//!   client answers each ping with the encoded line `"\x02" "9"`.
//!
//! The test vectors below were worked out by hand from these rules.

use std::time::{SystemTime, UNIX_EPOCH};

/// The timeseal key.
pub const KEY: &[u8; 50] = b"Timestamp (FICS) v1.0 - programmed by Henrik Gram.";
/// What the client sends back (encoded) for every `[G]` ping.
pub const PING_REPLY: &str = "\u{2}9";
/// The v2 in-band ping.
pub const PING_V2: &[u8] = b"[G]\0";
/// The v1 ping: a line of its own.
pub const PING_V1_LINE: &str = "[G]";

const SEP_START: u8 = 0x18;
const SEP_END: u8 = 0x19;

/// The timestamp the original client sends: `(unix seconds % 10000) * 1000 + ms`.
pub fn timestamp_now() -> u32 {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    ((d.as_secs() % 10_000) * 1000 + u64::from(d.subsec_millis())) as u32
}

/// The hello line a client sends first (plain text; encode it like any line).
pub fn hello(user: &str, system: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_graphic() && *c != '|' || *c == ' ')
            .collect()
    };
    format!("TIMESTAMP|{}|{}|", clean(user), clean(system))
}

fn swap_blocks(buf: &mut [u8]) {
    for block in buf.chunks_exact_mut(12) {
        block.swap(0, 11);
        block.swap(2, 9);
        block.swap(4, 7);
    }
}

/// Encodes one line (without its newline) for a timeseal server, v1: offset 0, `'1'`
/// padding. The result ends with `0x80 \n`. Bytes of `text` are taken modulo 0x80 (the
/// server decodes 7-bit text only).
pub fn encode_line(text: &[u8], timestamp: u32) -> Vec<u8> {
    encode_with(text, timestamp, 0, b'1')
}

/// Encodes with an explicit key offset (0..50) and padding byte: the v2 shape.
pub fn encode_with(text: &[u8], timestamp: u32, offset: u8, pad: u8) -> Vec<u8> {
    let offset = offset % 50;
    let mut buf: Vec<u8> = Vec::with_capacity(text.len() + 28);
    buf.extend(text.iter().map(|b| b & 0x7f).filter(|&b| b != b'\n'));
    buf.push(SEP_START);
    buf.extend_from_slice(timestamp.to_string().as_bytes());
    buf.push(SEP_END);
    while !buf.len().is_multiple_of(12) {
        buf.push(pad);
    }
    swap_blocks(&mut buf);
    for (i, b) in buf.iter_mut().enumerate() {
        *b = ((*b | 0x80) ^ KEY[(i + offset as usize) % 50]).wrapping_sub(32);
    }
    buf.push(0x80 | offset);
    buf.push(b'\n');
    buf
}

/// One decoded client line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientLine {
    /// The command text.
    pub text: String,
    /// The client's timestamp, milliseconds (wraps every 10,000 s in v1).
    pub timestamp: u32,
}

impl ClientLine {
    /// True for the answer to a `[G]` ping.
    pub fn is_ping_reply(&self) -> bool {
        self.text == PING_REPLY
    }

    /// For the hello line: `(version, user, system)` where version is 1 for `TIMESTAMP`
    /// and 2 for `TIMESEAL2`.
    pub fn hello(&self) -> Option<(u8, &str, &str)> {
        let (version, rest) = if let Some(r) = self.text.strip_prefix("TIMESTAMP|") {
            (1, r)
        } else if let Some(r) = self.text.strip_prefix("TIMESEAL2|") {
            (2, r)
        } else {
            return None;
        };
        let mut parts = rest.splitn(3, '|');
        let user = parts.next()?;
        let system = parts.next().unwrap_or("");
        Some((version, user, system))
    }
}

/// Server side: decodes one line a timeseal client sent (without the `\n`; a trailing
/// `\r` is ignored). Returns `None` when the line is not timeseal-encoded (a plain telnet
/// client), so the server can treat it as text.
pub fn decode_client_line(line: &[u8]) -> Option<ClientLine> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let (&last, body) = line.split_last()?;
    if last & 0x80 == 0 || body.is_empty() || !body.len().is_multiple_of(12) {
        return None;
    }
    let offset = usize::from(last & 0x7f);
    if offset >= 50 {
        return None;
    }
    let mut buf: Vec<u8> = body
        .iter()
        .enumerate()
        .map(|(i, &b)| (b.wrapping_add(32) ^ KEY[(i + offset) % 50]) & 0x7f)
        .collect();
    swap_blocks(&mut buf);
    let start = buf.iter().position(|&b| b == SEP_START)?;
    let end = start + 1 + buf[start + 1..].iter().position(|&b| b == SEP_END)?;
    let digits = &buf[start + 1..end];
    if digits.is_empty() || digits.len() > 10 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let timestamp = std::str::from_utf8(digits).ok()?.parse::<u64>().ok()?;
    let text = String::from_utf8_lossy(&buf[..start]).into_owned();
    Some(ClientLine {
        text,
        timestamp: (timestamp % (1u64 << 32)) as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_fifty_bytes() {
        assert_eq!(KEY.len(), 50);
        assert_eq!(KEY[11], b'F');
        assert_eq!(KEY[49], b'.');
    }

    #[test]
    fn known_encoding_of_a_short_line() {
        // "a" 0x18 "5" 0x19 + eight '1' = one block; after the swaps:
        // 31 18 31 19 31 31 31 31 31 35 31 61; then ((b|80)^key[i])-32 by hand.
        let enc = encode_line(b"a", 5);
        assert_eq!(
            enc,
            vec![
                0xC5, 0xD1, 0xBC, 0xDC, 0xA2, 0xA5, 0xB0, 0xBC, 0xA1, 0x75, 0x79, 0x87, 0x80, b'\n'
            ]
        );
    }

    #[test]
    fn known_encoding_of_the_ping_reply() {
        // "\x02" "9" 0x18 "0" 0x19 + seven '1':
        // 02 39 18 30 19 31 31 31 31 31 31 31 -> swaps -> 31 39 31 30 31 31 31 19 31 18 31 02
        let enc = encode_line(PING_REPLY.as_bytes(), 0);
        let by_hand: Vec<u8> = [
            0x31u8, 0x39, 0x31, 0x30, 0x31, 0x31, 0x31, 0x19, 0x31, 0x18, 0x31, 0x02,
        ]
        .iter()
        .enumerate()
        .map(|(i, &b)| ((b | 0x80) ^ KEY[i]).wrapping_sub(32))
        .chain([0x80, b'\n'])
        .collect();
        assert_eq!(enc, by_hand);
        assert_eq!(&enc[..3], &[0xC5, 0xB0, 0xBC]);
    }

    #[test]
    fn encoded_bytes_never_contain_newline_or_iac() {
        for ts in [0u32, 1, 9_999_999, 1234567] {
            let enc = encode_line(b"tell someone hello there, 0123456789 !@#$%^&*()", ts);
            let (body, tail) = enc.split_at(enc.len() - 2);
            assert_eq!(tail, &[0x80, b'\n']);
            assert_eq!(body.len() % 12, 0);
            assert!(body
                .iter()
                .all(|&b| b != b'\n' && b != 0xff && (0x60..=0xdf).contains(&b)));
        }
    }

    #[test]
    fn round_trip_v1_and_v2() {
        let lines = [
            "e2e4",
            "",
            "set style 12",
            "tell wily hi | there",
            PING_REPLY,
        ];
        for (n, text) in lines.iter().enumerate() {
            let enc = encode_line(text.as_bytes(), 4242 + n as u32);
            let dec = decode_client_line(&enc[..enc.len() - 1]).expect("decodes");
            assert_eq!(dec.text, *text);
            assert_eq!(dec.timestamp, 4242 + n as u32);
            for offset in [0u8, 1, 17, 49] {
                let enc = encode_with(text.as_bytes(), 77, offset, b'z');
                assert_eq!(enc[enc.len() - 2], 0x80 | offset);
                let dec = decode_client_line(&enc[..enc.len() - 1]).expect("v2 decodes");
                assert_eq!((dec.text.as_str(), dec.timestamp), (*text, 77));
            }
        }
        assert!(
            decode_client_line(&encode_line(PING_REPLY.as_bytes(), 1)[..13])
                .expect("ping")
                .is_ping_reply()
        );
    }

    #[test]
    fn plain_text_is_not_taken_for_timeseal() {
        for plain in [
            &b"e2e4"[..],
            b"",
            b"guest",
            b"abcdefghijkl\x80",
            b"\x80",
            b"abcdefghijk\xff",
        ] {
            assert_eq!(decode_client_line(plain), None, "{plain:?}");
        }
    }

    #[test]
    fn hello_line() {
        let h = hello("wily", "linux x86_64");
        assert_eq!(h, "TIMESTAMP|wily|linux x86_64|");
        let enc = encode_line(h.as_bytes(), 1);
        let dec = decode_client_line(&enc[..enc.len() - 1]).expect("decodes");
        assert_eq!(dec.hello(), Some((1, "wily", "linux x86_64")));
        assert_eq!(hello("a|b", "x\ny"), "TIMESTAMP|ab|xy|");
    }

    #[test]
    fn timestamp_in_range() {
        assert!(timestamp_now() < 10_000_000);
    }
}
