//! The whole receive path without I/O: bytes -> telnet -> lines, prompts and timeseal
//! pings -> typed events. The connection feeds it what the socket reads; tests and the
//! benchmark feed it recorded bytes.

use crate::ics::events::Event;
use crate::ics::lines::{LineSplitter, Piece};
use crate::ics::parse::{ClockUnit, Parser};
use crate::ics::telnet::TelnetFilter;

/// What one feed produced besides events.
#[derive(Debug, Default)]
pub struct Output {
    pub events: Vec<Event>,
    /// Raw bytes to write back at once (answers to telnet negotiation).
    pub telnet_replies: Vec<u8>,
    /// Timeseal pings seen (each needs one encoded reply).
    pub pings: u32,
}

impl Output {
    pub fn clear(&mut self) {
        self.events.clear();
        self.telnet_replies.clear();
        self.pings = 0;
    }
}

/// Options of the receive path.
#[derive(Debug, Clone, Copy)]
pub struct PipelineOptions {
    /// Answer telnet negotiation (turn off with timeseal).
    pub answer_telnet: bool,
    pub clock_unit: ClockUnit,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            answer_telnet: true,
            clock_unit: ClockUnit::Auto,
        }
    }
}

/// The receive path of one connection.
pub struct Pipeline {
    telnet: TelnetFilter,
    text: Vec<u8>,
    splitter: LineSplitter,
    pieces: Vec<Piece>,
    parser: Parser,
    lines: u64,
}

impl Pipeline {
    pub fn new(opts: PipelineOptions) -> Pipeline {
        Pipeline {
            telnet: TelnetFilter::new(opts.answer_telnet),
            text: Vec::with_capacity(4096),
            splitter: LineSplitter::new(),
            pieces: Vec::with_capacity(64),
            parser: Parser::new(opts.clock_unit),
            lines: 0,
        }
    }

    /// Feeds bytes as read from the socket; results are appended to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Output) {
        self.text.clear();
        self.telnet
            .feed(bytes, &mut self.text, &mut out.telnet_replies);
        self.pieces.clear();
        self.splitter.feed(&self.text, &mut self.pieces);
        for piece in self.pieces.drain(..) {
            match piece {
                Piece::Line(line) => {
                    self.lines += 1;
                    self.parser.line(&line, &mut out.events);
                }
                Piece::Prompt(p) => self.parser.prompt(p, &mut out.events),
                Piece::Ping => out.pings += 1,
            }
        }
    }

    /// Emits a line held for a possible continuation (call after a moment of silence).
    pub fn flush(&mut self, out: &mut Output) {
        self.parser.flush(&mut out.events);
    }

    /// True when a line is held waiting for a possible continuation.
    pub fn has_held(&self) -> bool {
        self.parser.has_held()
    }

    pub fn set_clock_unit(&mut self, unit: ClockUnit) {
        self.parser.set_clock_unit(unit);
    }

    /// Complete lines seen so far.
    pub fn lines_seen(&self) -> u64 {
        self.lines
    }

    /// Text received after the last complete line (diagnostics).
    pub fn partial(&self) -> &[u8] {
        self.splitter.partial()
    }
}

/// Runs a whole byte stream through a fresh pipeline in the given chunk sizes (cycled) and
/// returns every event, flushed at the end. For tests and benchmarks.
pub fn events_of(bytes: &[u8], chunk_sizes: &[usize], opts: PipelineOptions) -> (Vec<Event>, u32) {
    let mut p = Pipeline::new(opts);
    let mut out = Output::default();
    let mut events = Vec::new();
    let mut pings = 0;
    let mut pos = 0;
    let mut k = 0;
    while pos < bytes.len() {
        let size = chunk_sizes
            .get(k % chunk_sizes.len().max(1))
            .copied()
            .unwrap_or(bytes.len())
            .max(1);
        k += 1;
        let end = (pos + size).min(bytes.len());
        out.clear();
        p.feed(&bytes[pos..end], &mut out);
        events.append(&mut out.events);
        pings += out.pings;
        pos = end;
    }
    out.clear();
    p.flush(&mut out);
    events.append(&mut out.events);
    (events, pings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ics::events::Prompt;

    #[test]
    fn bytes_to_events() {
        let bytes = b"login: \xff\xfb\x01\n\r\"AlphaBot\" is a registered name.\n\rpassword: \xff\xfc\x01\n\r**** Starting FICS session as AlphaBot ****\n\rfics% Style 12 set.\n\rfics% [G]\0";
        let (ev, pings) = events_of(bytes, &[3, 1, 7], PipelineOptions::default());
        assert_eq!(pings, 1);
        assert_eq!(
            ev,
            vec![
                Event::Prompt(Prompt::Login),
                Event::NameRegistered {
                    name: "AlphaBot".into()
                },
                Event::Prompt(Prompt::Password),
                Event::SessionStarted {
                    name: "AlphaBot".into(),
                    unregistered: false
                },
                Event::Prompt(Prompt::Command),
                Event::SettingAck {
                    text: "Style 12 set.".into()
                },
                Event::Prompt(Prompt::Command),
            ]
        );
    }

    #[test]
    fn telnet_answers_are_returned() {
        let mut p = Pipeline::new(PipelineOptions::default());
        let mut out = Output::default();
        p.feed(b"\xff\xfd\x18", &mut out);
        assert_eq!(out.telnet_replies, vec![255, 252, 0x18]);
        let mut quiet = Pipeline::new(PipelineOptions {
            answer_telnet: false,
            ..Default::default()
        });
        out.clear();
        quiet.feed(b"\xff\xfd\x18", &mut out);
        assert!(out.telnet_replies.is_empty());
    }
}
