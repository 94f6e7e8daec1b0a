//! `wily ics replay`: the bytes a server sent, read by the same receive path the bot uses,
//! printed as typed events one JSON object a line, with every field the parsers read (for
//! a board also its FEN and the move in SAN and coordinates). Bad input is printed as a
//! `warning` line and skipped; nothing here panics on any input.
//!
//! Pure: the caller reads the file and hands over the bytes.

use serde_json::{json, Value};

use crate::dialect::Dialect;
use crate::events::Event;
use crate::pipeline::{Output, Pipeline, PipelineOptions};

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
}
