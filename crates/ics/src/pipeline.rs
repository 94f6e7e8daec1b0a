//! The whole receive path without I/O: bytes -> telnet -> lines, prompts and timeseal
//! pings -> typed events. The connection feeds it what the socket reads; tests and the
//! benchmark feed it recorded bytes.
//!
//! With ICC's level 2 on ([`PipelineOptions::icc_level2`]) the text first goes through the
//! datagram [`Deframer`]: datagrams go to the [`IccReader`], the text between them to the
//! line parsers as before. Once a datagram has been seen, text events the datagrams also
//! give (ICC prints some messages both ways) are dropped, so each thing arrives once; until
//! then text is read as usual, so a server that ignores `level2settings=` still works.
//! A board update held for the clocks of its move (see [`IccReader`]) is released by the
//! datagram that ends the move or by [`Pipeline::flush`] after a moment of silence, never
//! by where a read happened to end.

use crate::events::Event;
use crate::icc::datagram::{Chunk, Deframer};
use crate::icc::info::IccInfo;
use crate::icc::parse::{covered_by_datagrams, IccReader, MoveFields};
use crate::lines::{LineSplitter, Piece};
use crate::parse::{ClockUnit, Parser};
use crate::telnet::TelnetFilter;

/// What one feed produced besides events.
#[derive(Debug, Default)]
pub struct Output {
    pub events: Vec<Event>,
    /// Raw bytes to write back at once (answers to telnet negotiation).
    pub telnet_replies: Vec<u8>,
    /// Timeseal pings seen (each needs one encoded reply).
    pub pings: u32,
    /// Bad input skipped (malformed or cut-short ICC datagrams, moves not legal in the
    /// position kept), one line each, for the log.
    pub warnings: Vec<String>,
}

impl Output {
    pub fn clear(&mut self) {
        self.events.clear();
        self.telnet_replies.clear();
        self.pings = 0;
        self.warnings.clear();
    }
}

/// Options of the receive path.
#[derive(Debug, Clone, Copy)]
pub struct PipelineOptions {
    /// Answer telnet negotiation (turn off with timeseal).
    pub answer_telnet: bool,
    pub clock_unit: ClockUnit,
    /// Read ICC level-2 datagrams (ICC with `server.icc_level2`).
    pub icc_level2: bool,
    /// Which optional fields ICC's move datagrams carry.
    pub icc_moves: MoveFields,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            answer_telnet: true,
            clock_unit: ClockUnit::Auto,
            icc_level2: false,
            icc_moves: MoveFields::default(),
        }
    }
}

/// The level-2 part of an ICC receive path.
struct Level2 {
    deframer: Deframer,
    reader: IccReader,
    chunks: Vec<Chunk>,
    /// A datagram has arrived: level 2 is really on.
    active: bool,
}

/// The receive path of one connection.
pub struct Pipeline {
    telnet: TelnetFilter,
    text: Vec<u8>,
    splitter: LineSplitter,
    pieces: Vec<Piece>,
    parser: Parser,
    lines: u64,
    icc: Option<Level2>,
    scratch: Vec<Event>,
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
            icc: opts.icc_level2.then(|| Level2 {
                deframer: Deframer::new(),
                reader: IccReader::new(opts.icc_moves),
                chunks: Vec::new(),
                active: false,
            }),
            scratch: Vec::new(),
        }
    }

    /// Runs text (datagrams already taken out) through the line splitter and parsers.
    /// `filter`: drop the text events the datagrams also give.
    fn text(&mut self, text: &[u8], filter: bool, out: &mut Output) {
        self.pieces.clear();
        self.splitter.feed(text, &mut self.pieces);
        let sink = if filter {
            &mut self.scratch
        } else {
            &mut out.events
        };
        for piece in self.pieces.drain(..) {
            match piece {
                Piece::Line(line) => {
                    self.lines += 1;
                    self.parser.line(&line, sink);
                }
                Piece::Prompt(p) => self.parser.prompt(p, sink),
                Piece::Ping => out.pings += 1,
            }
        }
        if filter {
            out.events
                .extend(self.scratch.drain(..).filter(|e| !covered_by_datagrams(e)));
        }
    }

    /// Feeds bytes as read from the socket; results are appended to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Output) {
        self.text.clear();
        self.telnet
            .feed(bytes, &mut self.text, &mut out.telnet_replies);
        let text = std::mem::take(&mut self.text);
        match self.icc.take() {
            None => self.text(&text, false, out),
            Some(mut l2) => {
                l2.chunks.clear();
                l2.deframer.feed(&text, &mut l2.chunks);
                let chunks = std::mem::take(&mut l2.chunks);
                for chunk in &chunks {
                    match chunk {
                        Chunk::Text(t) => self.text(t, l2.active, out),
                        Chunk::Datagram(d) => {
                            l2.active = true;
                            l2.reader.datagram(d, &mut out.events);
                        }
                        Chunk::Bad(b) => out.warnings.push(format!("ICC datagram {b}; skipped")),
                        Chunk::Overflow => out.warnings.push(
                            "the server discarded output that overflowed its buffer (^Z)".into(),
                        ),
                        Chunk::Unit(h) => l2.reader.unit(IccInfo::Unit(h.clone()), &mut out.events),
                        Chunk::UnitEnd => l2.reader.unit(IccInfo::UnitEnd, &mut out.events),
                    }
                }
                l2.chunks = chunks;
                out.warnings.extend(l2.reader.warnings());
                self.icc = Some(l2);
            }
        }
        self.text = text;
    }

    /// Emits a line held for a possible continuation (call after a moment of silence).
    pub fn flush(&mut self, out: &mut Output) {
        self.parser.flush(&mut out.events);
        if let Some(l2) = &mut self.icc {
            l2.reader.settle(&mut out.events);
        }
    }

    /// The end of the stream: a datagram still open is reported as cut short, then
    /// everything held is handed on.
    pub fn finish(&mut self, out: &mut Output) {
        if let Some(l2) = &mut self.icc {
            let mut chunks = Vec::new();
            l2.deframer.finish(&mut chunks);
            for c in chunks {
                match c {
                    Chunk::Bad(b) => out.warnings.push(format!("ICC datagram {b}; skipped")),
                    Chunk::Unit(h) => l2.reader.unit(IccInfo::Unit(h), &mut out.events),
                    _ => {}
                }
            }
        }
        self.flush(out);
    }

    /// Our handle as ICC's `DG_WHO_AM_I` gave it (level 2 only).
    pub fn icc_handle(&self) -> Option<&str> {
        self.icc.as_ref().and_then(|l| l.reader.me())
    }

    /// True when a line is held waiting for a possible continuation.
    pub fn has_held(&self) -> bool {
        self.parser.has_held() || self.icc.as_ref().is_some_and(|l| l.reader.has_held())
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
    p.finish(&mut out);
    events.append(&mut out.events);
    (events, pings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Prompt;

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
