//! `wily ics replay`: the bytes a server sent, read by the same receive path the bot uses,
//! printed as typed events one JSON object a line, with every field the parsers read (for
//! a board also its FEN and the move in SAN and coordinates). Bad input is printed as a
//! `warning` line and skipped; nothing here panics on any input.
//!
//! [`replay_datagrams`] (`--datagrams`) prints instead every ICC datagram as it arrived,
//! its number, name and every field typed by its form ([`crate::icc::schema`]), whether
//! or not the game it belongs to was announced, with the level-1 unit headers and the
//! text lines between them.
//!
//! Pure: the caller reads the file and hands over the bytes.

use serde_json::{json, Value};

use crate::dialect::Dialect;
use crate::events::Event;
use crate::icc::datagram::{Chunk, Deframer};
use crate::icc::parse::MoveFields;
use crate::icc::schema::describe;
use crate::pipeline::{Output, Pipeline, PipelineOptions};
use crate::telnet::TelnetFilter;

/// How to read the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayOptions {
    pub dialect: Dialect,
    /// ICC: read level-2 datagrams (on by default, as wily logs in).
    pub icc_level2: bool,
}

impl ReplayOptions {
    pub fn new(dialect: Dialect) -> ReplayOptions {
        ReplayOptions {
            dialect,
            icc_level2: dialect == Dialect::Icc,
        }
    }
}

/// One event as a JSON object: `{"kind": ..., "event": {...}}`, plus `fen` and the last
/// move's coordinates for a board.
pub fn event_json(ev: &Event) -> Value {
    let mut v = json!({ "kind": ev.kind(), "event": ev });
    if let Event::Board(b) = ev {
        v["fen"] = json!(b.to_fen());
        if let Some(verbose) = &b.last_move_verbose {
            v["move_coordinates"] = json!(coordinates_of(verbose));
        }
    }
    v
}

/// `P/e2-e4` -> `e2e4`, `P/e7-e8=Q` -> `e7e8q`; castling stays `o-o`/`o-o-o`.
fn coordinates_of(verbose: &str) -> String {
    match verbose.split_once('/') {
        Some((_, rest)) => rest.replace(['-', '='], "").to_ascii_lowercase(),
        None => verbose.to_string(),
    }
}

fn warning_json(text: &str) -> Value {
    json!({ "kind": "warning", "text": text })
}

/// Reads the whole stream and returns one JSON line per event and warning, in order.
pub fn replay(bytes: &[u8], opts: ReplayOptions) -> Vec<String> {
    let mut p = Pipeline::new(PipelineOptions {
        icc_level2: opts.dialect == Dialect::Icc && opts.icc_level2,
        ..Default::default()
    });
    let mut out = Output::default();
    let mut lines = Vec::new();
    let take = |out: &mut Output, lines: &mut Vec<String>| {
        for w in out.warnings.drain(..) {
            lines.push(warning_json(&w).to_string());
        }
        for ev in out.events.drain(..) {
            lines.push(event_json(&ev).to_string());
        }
        out.clear();
    };
    for chunk in bytes.chunks(4096) {
        p.feed(chunk, &mut out);
        take(&mut out, &mut lines);
    }
    p.finish(&mut out);
    take(&mut out, &mut lines);
    lines
}

/// Every datagram of an ICC byte stream, one JSON object a line in stream order:
/// `{"kind":"datagram",...}` (see [`describe`]; `DG_SEND_MOVES` read with the move fields
/// wily turns on: algebraic, smith, time, clock), `{"kind":"unit","command":N,"issuer":..,
/// "tag":..}` and `{"kind":"unit-end"}` for level-1 units, `{"kind":"text","text":..}` for
/// each line of text (and the text before a datagram), `{"kind":"bad",...}` for a datagram
/// that could not be read, `{"kind":"overflow"}` for the server's `^Z`.
pub fn replay_datagrams(bytes: &[u8]) -> Vec<String> {
    let mut telnet = TelnetFilter::new(false);
    let mut deframer = Deframer::new();
    let (mut text, mut replies, mut chunks) = (Vec::new(), Vec::new(), Vec::new());
    let mut line: Vec<u8> = Vec::new();
    let mut lines = Vec::new();
    let flush = |line: &mut Vec<u8>, lines: &mut Vec<String>| {
        let t = String::from_utf8_lossy(line)
            .trim_end_matches(['\r', '\n'])
            .to_string();
        if !t.trim().is_empty() {
            lines.push(json!({ "kind": "text", "text": t }).to_string());
        }
        line.clear();
    };
    let moves = MoveFields::default();
    let mut take = |chunks: &mut Vec<Chunk>, lines: &mut Vec<String>| {
        for c in chunks.drain(..) {
            let v = match c {
                Chunk::Text(t) => {
                    for &b in &t {
                        line.push(b);
                        if b == b'\n' {
                            flush(&mut line, lines);
                        }
                    }
                    continue;
                }
                Chunk::Datagram(d) => describe(&d, moves),
                Chunk::Bad(b) => json!({
                    "kind": "bad",
                    "reason": b.reason,
                    "raw": String::from_utf8_lossy(&b.raw),
                }),
                Chunk::Overflow => json!({ "kind": "overflow" }),
                Chunk::Unit(h) => json!({
                    "kind": "unit",
                    "command": h.command,
                    "issuer": h.issuer,
                    "tag": h.tag,
                }),
                Chunk::UnitEnd => json!({ "kind": "unit-end" }),
            };
            flush(&mut line, lines);
            lines.push(v.to_string());
        }
    };
    for part in bytes.chunks(4096) {
        text.clear();
        telnet.feed(part, &mut text, &mut replies);
        deframer.feed(&text, &mut chunks);
        take(&mut chunks, &mut lines);
    }
    deframer.finish(&mut chunks);
    take(&mut chunks, &mut lines);
    flush(&mut line, &mut lines);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fics_text_replays_as_json() {
        let lines = replay(
            b"fics% <12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 wily Bob -1 3 0 39 39 180000 180000 1 P/e2-e4 (0:01.000) e4 0 1 0\n",
            ReplayOptions::new(Dialect::Fics),
        );
        assert_eq!(lines.len(), 2, "{lines:?}");
        let v: Value = serde_json::from_str(&lines[1]).unwrap();
        assert_eq!(v["kind"], "board");
        assert_eq!(v["move_coordinates"], "e2e4");
        assert_eq!(v["event"]["Board"]["white_clock_ms"], 180000);
        assert_eq!(v["event"]["Board"]["ranks"][0], "rnbqkbnr");
        assert!(v["fen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/pppppppp/8/8/4P3"));
    }

    #[test]
    fn every_datagram_is_printed_game_announced_or_not() {
        // A capture that starts in the middle of a game (written by hand from formats.txt):
        // a unit header, a move of game 7 nobody announced, the clocks, my-turn, an
        // unknown datagram number and a line of text.
        let bytes = b"\x19[24 * t1\n\x19(24 7 e4 e2e4 1 299\x19)\x19(56 7 W 299000 0 0 0\x19)\x19(139 7\x19)\x19]\x19(250 a {b c}\x19)Hello\r\naics% \x19(21 7";
        let lines = replay_datagrams(bytes);
        let v: Vec<Value> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let kinds: Vec<&str> = v.iter().map(|x| x["kind"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "unit", "datagram", "datagram", "datagram", "unit-end", "datagram", "text", "text",
                "bad"
            ],
            "{lines:#?}"
        );
        assert_eq!(v[0]["command"], 24);
        assert_eq!(v[0]["tag"], "t1");
        assert_eq!(v[1]["name"], "DG_SEND_MOVES");
        assert_eq!(v[1]["fields"][2]["value"], "e2e4");
        assert_eq!(v[2]["fields"][1]["value"], "white");
        assert_eq!(v[3]["name"], "DG_MY_TURN");
        assert_eq!(v[5]["name"], Value::Null);
        assert_eq!(v[5]["raw"], json!(["a", "b c"]));
        assert_eq!(v[6]["text"], "Hello");
        assert_eq!(v[7]["text"], "aics% ");
    }
}
