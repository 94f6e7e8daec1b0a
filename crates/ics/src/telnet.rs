//! The telnet layer: strips IAC sequences from the server's byte stream and answers the
//! server's option negotiation, so no IAC byte ever reaches the text layers.
//!
//! Framing is done here, across reads: a sequence split between two reads (`ff` | `fb 01`)
//! is held until it is complete, `ff ff` is an escaped data byte, and subnegotiations are
//! skipped (bounded, so a stray `IAC SB` cannot swallow the stream). Each complete
//! negotiation (`IAC WILL/WONT/DO/DONT opt`) is handed to the `libtelnet-rs` parser, whose
//! option table decides the answer: wily accepts the server's ECHO and SUPPRESS-GO-AHEAD
//! (as a telnet client does around the password prompt) and refuses every other option.

use libtelnet_rs::compatibility::CompatibilityTable;
use libtelnet_rs::events::TelnetEvents;
use libtelnet_rs::Parser;

const IAC: u8 = 255;
const DONT: u8 = 254;
const WILL: u8 = 251;
const SB: u8 = 250;
const SE: u8 = 240;
const OPT_ECHO: u8 = 1;
const OPT_SGA: u8 = 3;

/// Longest subnegotiation body kept before the sequence is declared broken.
const MAX_SUBNEGOTIATION: usize = 512;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Data,
    Iac,
    /// Saw `IAC <cmd>`; the option byte comes next.
    Negotiation(u8),
    Sub,
    SubIac,
}

/// Streaming IAC filter for one connection.
pub struct TelnetFilter {
    parser: Parser,
    state: State,
    sub_len: usize,
    answer: bool,
    negotiations: u32,
}

impl TelnetFilter {
    /// `answer`: send replies to negotiations. Turn it off when timeseal is on: a timeseal
    /// server decodes every client byte, and raw telnet replies would corrupt the next line.
    pub fn new(answer: bool) -> TelnetFilter {
        let mut table = CompatibilityTable::new();
        table.support_remote(OPT_ECHO);
        table.support_remote(OPT_SGA);
        TelnetFilter {
            parser: Parser::with_support(table),
            state: State::Data,
            sub_len: 0,
            answer,
            negotiations: 0,
        }
    }

    /// Filters `input`: plain text is appended to `text`, the answers to negotiations (raw
    /// bytes for the socket) to `replies`.
    pub fn feed(&mut self, input: &[u8], text: &mut Vec<u8>, replies: &mut Vec<u8>) {
        let mut i = 0;
        while i < input.len() {
            if self.state == State::Data {
                // Copy the run of plain bytes up to the next IAC in one go.
                let rest = &input[i..];
                let run = rest.iter().position(|&b| b == IAC).unwrap_or(rest.len());
                text.extend_from_slice(&rest[..run]);
                i += run;
                if i < input.len() {
                    self.state = State::Iac;
                    i += 1;
                }
                continue;
            }
            let b = input[i];
            i += 1;
            self.step(b, text, replies);
        }
    }

    fn step(&mut self, b: u8, text: &mut Vec<u8>, replies: &mut Vec<u8>) {
        match self.state {
            State::Data => {
                if b == IAC {
                    self.state = State::Iac;
                } else {
                    text.push(b);
                }
            }
            State::Iac => self.after_iac(b, text),
            State::Negotiation(cmd) => {
                self.state = State::Data;
                self.negotiate(cmd, b, replies);
            }
            State::Sub => {
                if b == IAC {
                    self.state = State::SubIac;
                } else {
                    self.sub_len += 1;
                    if self.sub_len > MAX_SUBNEGOTIATION {
                        tracing::debug!("telnet: unterminated subnegotiation dropped");
                        self.state = State::Data;
                    }
                }
            }
            State::SubIac => match b {
                SE => self.state = State::Data,
                IAC => {
                    self.sub_len += 1;
                    self.state = State::Sub;
                }
                _ => {
                    // A broken subnegotiation: treat this byte as a fresh command.
                    self.after_iac(b, text);
                }
            },
        }
    }

    fn after_iac(&mut self, b: u8, text: &mut Vec<u8>) {
        self.state = match b {
            IAC => {
                text.push(IAC);
                State::Data
            }
            WILL..=DONT => State::Negotiation(b),
            SB => {
                self.sub_len = 0;
                State::Sub
            }
            // GA, NOP, DM, BRK, IP, AO, AYT, EC, EL, SE: nothing to do.
            _ => State::Data,
        };
    }

    fn negotiate(&mut self, cmd: u8, opt: u8, replies: &mut Vec<u8>) {
        self.negotiations = self.negotiations.saturating_add(1);
        for ev in self.parser.receive(&[IAC, cmd, opt]) {
            if let TelnetEvents::DataSend(bytes) = ev {
                if self.answer {
                    replies.extend_from_slice(&bytes);
                }
            }
        }
    }

    /// Whether the server has said it echoes (it does so around the password prompt).
    pub fn server_echoes(&self) -> bool {
        let o = self.parser.options.get_option(OPT_ECHO);
        o.remote_state
    }

    /// Number of complete negotiations seen so far.
    pub fn negotiations(&self) -> u32 {
        self.negotiations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: &mut TelnetFilter, chunks: &[&[u8]]) -> (Vec<u8>, Vec<u8>) {
        let (mut t, mut r) = (Vec::new(), Vec::new());
        for c in chunks {
            f.feed(c, &mut t, &mut r);
        }
        (t, r)
    }

    #[test]
    fn strips_echo_negotiation_and_answers() {
        let mut f = TelnetFilter::new(true);
        let (t, r) = run(
            &mut f,
            &[b"login: \xff\xfb\x01\n\rpassword: \xff\xfc\x01___\n\r"],
        );
        assert_eq!(t, b"login: \n\rpassword: ___\n\r");
        assert_eq!(r, vec![IAC, 253, OPT_ECHO, IAC, DONT, OPT_ECHO]);
        assert!(!f.server_echoes());
        assert_eq!(f.negotiations(), 2);
    }

    #[test]
    fn sequences_split_across_reads_never_leak() {
        let whole: &[u8] =
            b"ab\xff\xfb\x01cd\xff\xffe\xff\xfa\x18\x01\xff\xf0f\xff\xf9g\xff\xfc\x01h";
        let mut expect_f = TelnetFilter::new(true);
        let (t1, r1) = run(&mut expect_f, &[whole]);
        assert_eq!(t1, b"abcd\xffefgh");
        for split in 1..whole.len() {
            let mut f = TelnetFilter::new(true);
            let (t, r) = run(&mut f, &[&whole[..split], &whole[split..]]);
            assert_eq!(t, t1, "split at {split}");
            assert_eq!(r, r1, "split at {split}");
        }
        let mut f = TelnetFilter::new(true);
        let bytes: Vec<&[u8]> = whole.chunks(1).collect();
        assert_eq!(run(&mut f, &bytes).0, t1);
    }

    #[test]
    fn refuses_unknown_options_and_can_stay_silent() {
        let mut f = TelnetFilter::new(true);
        let (_, r) = run(&mut f, &[b"\xff\xfd\x18\xff\xfb\x1f"]);
        assert_eq!(r, vec![IAC, 252, 0x18, IAC, DONT, 0x1f]);
        let mut quiet = TelnetFilter::new(false);
        let (t, r) = run(&mut quiet, &[b"x\xff\xfb\x01y"]);
        assert_eq!(t, b"xy");
        assert!(r.is_empty());
        assert!(quiet.server_echoes());
    }

    #[test]
    fn runaway_subnegotiation_is_bounded() {
        let mut f = TelnetFilter::new(true);
        let mut input = vec![IAC, SB];
        input.extend(std::iter::repeat_n(b'x', MAX_SUBNEGOTIATION + 1));
        input.extend_from_slice(b"visible");
        let (t, _) = run(&mut f, &[&input]);
        assert_eq!(t, b"visible");
    }
}
