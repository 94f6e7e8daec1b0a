//! The soak proxy's view of an ICC level-2 stream: where a fault datagram may go (between
//! datagrams, level-1 units and text lines, never inside one) and where a whole datagram
//! lies in a read, for a cut inside it; and the fault datagrams themselves, by kind:
//! malformed (no number, an empty body, an open brace, too few or unreadable fields),
//! unknown (numbers `formats.txt` lacks or wily never turns on), and out of order (moves,
//! clocks, a result and an end of a game that was never started).

use ics::icc::datagram::CTRL_Y;

/// A kind of ICC fault datagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IccFault {
    Malformed,
    Unknown,
    OutOfOrder,
}

/// The fault datagrams, taken in turn; the kinds alternate so a short run has each. Game
/// 987 is never played in a soak (the local server numbers games from 1, lowest free).
pub const ICC_GARBAGE: &[(IccFault, &[u8])] = &[
    (IccFault::Malformed, b"\x19(\x19)"),
    (IccFault::Unknown, b"\x19(999 a b {c d}\x19)"),
    (IccFault::OutOfOrder, b"\x19(24 987 e4 e2e4 0 300\x19)"),
    (IccFault::Malformed, b"\x19(abc 1 2\x19)"),
    (
        IccFault::Unknown,
        b"\x19(32 Someone 1 {hello everyone}\x19)",
    ),
    (IccFault::OutOfOrder, b"\x19(56 987 W 60000 1\x19)"),
    (IccFault::Malformed, b"\x19(99999999 x\x19)"),
    (IccFault::Unknown, b"\x19(300\x19)"),
    (
        IccFault::OutOfOrder,
        b"\x19(16 987 0 Res 0-1 {White resigns} C20\x19)",
    ),
    (IccFault::Malformed, b"\x19(24 987 {e4 e2e4 0\x19)"),
    (IccFault::OutOfOrder, b"\x19(17 987\x19)"),
    (IccFault::Malformed, b"\x19(15 987\x19)"),
    (IccFault::OutOfOrder, b"\x19(43 987 PW\x19)"),
    (
        IccFault::Malformed,
        b"\x19(24 987 \x01\x02\xff\xfe junk\x19)",
    ),
    (IccFault::Malformed, b"\x19(56 987 W notanumber yes\x19)"),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    #[default]
    Text,
    Header,
    Datagram,
}

/// The scan's state between reads of one connection.
#[derive(Debug, Clone, Copy)]
pub struct IccScan {
    state: State,
    /// The last byte was a control-Y (its mark's character is still to come).
    ctrl: bool,
    /// The next byte starts a line, a datagram or a unit: a fault may go here.
    clean: bool,
}

impl Default for IccScan {
    fn default() -> Self {
        IccScan {
            state: State::Text,
            ctrl: false,
            clean: true,
        }
    }
}

/// What one read holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Found {
    /// The first place a fault datagram may go.
    pub clean: Option<usize>,
    /// The first datagram wholly inside the read: from its `^Y(` to past its `^Y)`.
    pub datagram: Option<(usize, usize)>,
}

impl IccScan {
    /// Reads `chunk` (as it arrived, before any fault) and carries the state on.
    pub fn feed(&mut self, chunk: &[u8]) -> Found {
        let mut found = Found::default();
        let mut mark_at = None;
        let mut start = None;
        for (i, &b) in chunk.iter().enumerate() {
            if self.clean && !self.ctrl && found.clean.is_none() {
                found.clean = Some(i);
            }
            if self.ctrl {
                self.ctrl = false;
                if self.state == State::Header {
                    // A mark ends a header line cut short.
                    self.state = State::Text;
                }
                match (self.state, b) {
                    (State::Text, b'(') => {
                        self.state = State::Datagram;
                        start = mark_at;
                    }
                    (State::Text, b'[') => self.state = State::Header,
                    (State::Text, b']') => self.clean = true,
                    (State::Datagram, b')') => {
                        self.state = State::Text;
                        self.clean = true;
                        if let (None, Some(s)) = (found.datagram, start) {
                            found.datagram = Some((s, i + 1));
                        }
                    }
                    (State::Datagram, b'(') => start = mark_at,
                    (_, CTRL_Y) => {
                        self.ctrl = true;
                        mark_at = Some(i);
                    }
                    _ => {}
                }
                continue;
            }
            if b == CTRL_Y {
                self.ctrl = true;
                self.clean = false;
                mark_at = Some(i);
                continue;
            }
            match self.state {
                State::Text => self.clean = b == b'\n',
                State::Header => {
                    if b == b'\n' {
                        self.state = State::Text;
                        self.clean = true;
                    }
                }
                State::Datagram => {}
            }
        }
        if self.clean && !self.ctrl && found.clean.is_none() {
            found.clean = Some(chunk.len());
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ics::icc::{Chunk, Deframer};

    #[test]
    fn places_between_datagrams_and_lines_never_inside() {
        let mut s = IccScan::default();
        let f = s.feed(b"\x19(24 7 e4\x19)\x19(56 7 W 1 1\x19)");
        assert_eq!(f.clean, Some(0));
        assert_eq!(f.datagram, Some((0, 11)));
        // Inside a datagram at the end of the last read: the first place is past its end.
        let mut s = IccScan::default();
        assert_eq!(s.feed(b"abc\n\x19(24 7").clean, Some(0));
        let f = s.feed(b" e4\x19)text");
        assert_eq!(f.clean, Some(5), "after the datagram's end");
        assert_eq!(f.datagram, None, "it began in the read before");
        // Mid-line text: the next line start.
        let f = s.feed(b" more\r\nnext");
        assert_eq!(f.clean, Some(7));
        // A control-Y split from its mark across reads.
        let mut s = IccScan::default();
        assert_eq!(s.feed(b"\x19").clean, Some(0));
        let f = s.feed(b"(24 7 e4\x19)");
        assert_eq!(f.clean, Some(10));
        assert_eq!(f.datagram, None);
        // A level-1 unit: not in its header line; after it.
        let mut s = IccScan::default();
        let f = s.feed(b"\x19[5 wily\nabc");
        assert_eq!(f.clean, Some(0));
        let f = s.feed(b"x\x19]");
        assert_eq!(f.clean, Some(3));
    }

    #[test]
    fn every_fault_datagram_stays_one_datagram() {
        let mut kinds = [0; 3];
        for (kind, bytes) in ICC_GARBAGE {
            kinds[*kind as usize] += 1;
            let mut d = Deframer::new();
            let mut out = Vec::new();
            d.feed(b"before\n", &mut out);
            d.feed(bytes, &mut out);
            d.feed(b"after\n", &mut out);
            let texts: Vec<&Vec<u8>> = out
                .iter()
                .filter_map(|c| match c {
                    Chunk::Text(t) => Some(t),
                    _ => None,
                })
                .collect();
            assert_eq!(texts, vec![&b"before\n".to_vec(), &b"after\n".to_vec()]);
            let dgs: Vec<&Chunk> = out
                .iter()
                .filter(|c| matches!(c, Chunk::Datagram(_) | Chunk::Bad(_)))
                .collect();
            assert_eq!(dgs.len(), 1, "{bytes:?}: {out:?}");
            // Well framed unless malformed at the framing level; an unknown or out-of-order
            // one always frames.
            if *kind != IccFault::Malformed {
                assert!(matches!(dgs[0], Chunk::Datagram(_)), "{bytes:?}");
            }
            assert_eq!(
                IccScan::default().feed(bytes).datagram,
                Some((0, bytes.len()))
            );
        }
        assert!(kinds.iter().all(|&n| n >= 3), "{kinds:?}");
    }
}
