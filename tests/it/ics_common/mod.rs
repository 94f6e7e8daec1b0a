//! Helpers shared by the `ics_*` integration tests: finding the recorded server traffic,
//! replaying it through the pipeline in random chunk sizes, and checking that successive
//! style-12 boards follow from each other by a legal move.

#![allow(dead_code)]

use crate::shared_data;

use std::path::PathBuf;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wily::ics::events::{ChatKind, EndReason, GameResult, MatchOffer};
use wily::ics::login::{Login, LoginFlow, Step};
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::{Color, Event, Style12};

/// `data/ics` under `$WILY_SHARED`, else `<manifest>/../shared`; `None` (after printing
/// why) when it is absent.
pub fn ics_data() -> Option<PathBuf> {
    let base = shared_data::root();
    let dir = base.join("data/ics");
    if dir.is_dir() {
        Some(dir)
    } else {
        shared_data::need::missing(
            &format!("recorded server traffic {}", dir.display()),
            shared_data::need::SHARED_HOW,
        );
        None
    }
}

/// A recording kept in the repository (`tests/fixtures/ics/<name>`); always present.
pub fn fixture(name: &str) -> Vec<u8> {
    fixture_in("ics", name)
}

/// A file kept in the repository under `tests/fixtures/<folder>/`; always present.
pub fn fixture_in(folder: &str, name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(folder)
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The events of recording `name`'s `bytes`, checked to be the same fed in one piece,
/// a byte at a time, in uneven pieces and in 4 KiB reads.
pub fn events_any_chunking(name: &str, bytes: &[u8]) -> Vec<Event> {
    let (whole, _) = events_of(bytes, &[usize::MAX], PipelineOptions::default());
    for sizes in [vec![1usize], vec![7, 3, 61, 1, 250], vec![4096]] {
        let (got, _) = events_of(bytes, &sizes, PipelineOptions::default());
        assert_eq!(got, whole, "{name}: chunks {sizes:?}");
    }
    whole
}

/// Every recording, as (`server/file.raw`, bytes), sorted by name.
pub fn recordings() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = ics_data()?;
    let mut out = Vec::new();
    for server in ["lasker", "rpblc"] {
        let Ok(rd) = std::fs::read_dir(dir.join(server)) else {
            continue;
        };
        for entry in rd.flatten() {
            let p = entry.path();
            if p.extension().and_then(|e| e.to_str()) == Some("raw") {
                let name = format!("{server}/{}", p.file_name()?.to_string_lossy());
                out.push((name, std::fs::read(&p).ok()?));
            }
        }
    }
    out.sort();
    Some(out)
}

/// Random chunk sizes (1..=max) from a fixed seed.
pub fn chunk_sizes(seed: u64, max: usize) -> Vec<usize> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..512).map(|_| rng.gen_range(1..=max)).collect()
}

/// The events of a byte stream fed in one piece.
pub fn events(bytes: &[u8]) -> Vec<Event> {
    events_of(bytes, &[usize::MAX], PipelineOptions::default()).0
}

/// The events of a byte stream fed in random chunks.
pub fn events_chunked(bytes: &[u8], seed: u64) -> Vec<Event> {
    events_of(bytes, &chunk_sizes(seed, 97), PipelineOptions::default()).0
}

pub fn boards(events: &[Event]) -> Vec<&Style12> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Board(b) => Some(b.as_ref()),
            _ => None,
        })
        .collect()
}

/// Piece placement and side to move. (Castling rights are left out: one of the servers
/// keeps a right after the rook is captured on its square.)
fn core_fen(fen: &str) -> String {
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// True when `next` is `prev` (a refresh) or follows from it by one legal move.
pub fn follows(prev: &Style12, next: &Style12) -> bool {
    let want = core_fen(&next.to_fen());
    if core_fen(&prev.to_fen()) == want {
        return true;
    }
    // Keep only the castling rights the pieces still allow (see `core_fen`).
    let mut p = prev.clone();
    let at = |f: usize, r: usize, c: char| p.piece_at(f, r) == Some(c);
    let (wk, bk) = (at(4, 0, 'K'), at(4, 7, 'k'));
    let rights = [
        wk && at(7, 0, 'R'),
        wk && at(0, 0, 'R'),
        bk && at(7, 7, 'r'),
        bk && at(0, 7, 'r'),
    ];
    p.white_castle_short &= rights[0];
    p.white_castle_long &= rights[1];
    p.black_castle_short &= rights[2];
    p.black_castle_long &= rights[3];
    let Ok(board) = cozy_chess::Board::from_fen(&p.to_fen(), false) else {
        return false;
    };
    let mut found = false;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut b = board.clone();
            b.play_unchecked(mv);
            if core_fen(&format!("{b}")) == want {
                found = true;
            }
        }
        found
    });
    found
}

/// The significant events (no prompts, no unknown lines), for readable assertions.
pub fn significant(events: &[Event]) -> Vec<&Event> {
    events
        .iter()
        .filter(|e| !matches!(e, Event::Prompt(_) | Event::Unknown(_)))
        .collect()
}

/// Asserts that `want` occurs in `events` as a subsequence (in order, gaps allowed).
pub fn assert_in_order(name: &str, events: &[Event], want: &[&dyn Fn(&Event) -> bool]) {
    let mut i = 0;
    for e in events {
        if i < want.len() && want[i](e) {
            i += 1;
        }
    }
    assert_eq!(
        i,
        want.len(),
        "{name}: only {i} of {} expected events found in order",
        want.len()
    );
}

pub fn get<'a>(all: &'a [(String, Vec<u8>)], name: &str) -> &'a [u8] {
    all.iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| b.as_slice())
        .unwrap_or_else(|| panic!("recording {name} missing"))
}

pub fn end_is(e: &Event, reason: EndReason, result: GameResult, who: Option<&str>) -> bool {
    matches!(e, Event::GameEnd(g) if g.reason == reason && g.result == result && g.who.as_deref() == who)
}

pub fn chat_is(e: &Event, kind: ChatKind, from: &str, text: &str) -> bool {
    matches!(e, Event::Chat(c) if c.kind == kind && c.from == from && c.text == text)
}

pub fn offer_is(
    e: &Event,
    incoming: bool,
    challenger: &str,
    color: Option<Color>,
    rated: bool,
    base: u32,
    inc: u32,
) -> bool {
    let check = |o: &MatchOffer| {
        o.challenger.name == challenger
            && o.challenger_color == color
            && o.rated == rated
            && o.base_minutes == base
            && o.increment_secs == inc
    };
    match e {
        Event::Challenge(o) if incoming => check(o),
        Event::Issuing(o) if !incoming => check(o),
        _ => false,
    }
}

pub fn login_outcome(events: &[Event], login: Login) -> Vec<Step> {
    let mut flow = LoginFlow::new(login);
    events.iter().filter_map(|e| flow.on_event(e)).collect()
}
