//! wily's own Chess960 games on a real lasker 2.2 server, replayed from the recorded
//! bytes in `tests/fixtures/ics/lasker/` (how they were made is in the README there):
//! the byte -> event pipeline gives the same events in any chunking; the bot's session
//! (its engine not run: it only follows) keeps every one of the three `fischerandom` games
//! without losing the position, hands the engine boards whose castling rights are the
//! ones the style-12 flags and the rooks of the game's start give, takes every castling
//! the server echoes, and records each game with its variant and start; and what wily
//! sent in that session was its seek with `fr` and its castling as `o-o-o`. The same for
//! two raw clients' `match ... fr` games (the wrapped challenge, castling on both wings,
//! and castling where the king stays on its square), seen from either side.

use std::path::PathBuf;
use std::time::Instant;
use wily::bot::hooks::NoBook;
use wily::bot::input::{Action, FinishedGame, Input, ServerEvent};
use wily::bot::session::Session;
use wily::bot::translate::translate;
use wily::chess::chess960;
use wily::config::Config;
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::{Event, Style12};
use wily::lists::OpponentLists;

fn fixture(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ics/lasker")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The files of the outermost white rooks on either side of the king in a start array
/// (style 12's first rank, as sent), worked out here from the text alone.
fn outer_rooks(first: &Style12) -> (Option<u8>, Option<u8>) {
    let rank1 = first.ranks[7];
    let king = rank1.iter().position(|&c| c == b'K').expect("a white king") as u8;
    let rooks: Vec<u8> = (0..8u8).filter(|&f| rank1[f as usize] == b'R').collect();
    let long = rooks.iter().copied().find(|&f| f < king);
    let short = rooks.iter().copied().rev().find(|&f| f > king);
    (short, long)
}

fn file_index(f: Option<cozy_chess::File>) -> Option<u8> {
    f.map(|f| f as u8)
}

#[test]
fn the_pipeline_reads_the_recording_the_same_in_any_chunking() {
    let bytes = fixture("chess960_games.wilybot.raw");
    let (whole, _) = events_of(&bytes, &[usize::MAX], PipelineOptions::default());
    for sizes in [vec![1usize], vec![7, 3, 61, 1, 250], vec![4096]] {
        let (got, _) = events_of(&bytes, &sizes, PipelineOptions::default());
        assert_eq!(got, whole, "chunks {sizes:?}");
    }
    let boards = whole
        .iter()
        .filter(|e| matches!(e, Event::Board(_)))
        .count();
    assert_eq!(boards, bytes.windows(5).filter(|w| w == b"<12> ").count());
}

#[test]
fn the_session_follows_and_records_wilys_chess960_games() {
    let bytes = fixture("chess960_games.wilybot.raw");
    let (events, _) = events_of(&bytes, &[usize::MAX], PipelineOptions::default());
    let mut cfg = Config::default();
    cfg.server.local = false;
    cfg.server.handle = "wilybot".into();
    cfg.server.chess960 = "fr".into();
    cfg.seek.ads.truncate(1);
    cfg.seek.ads[0].variant = "chess960".into();
    cfg.accept.variants = vec!["chess".into(), "chess960".into()];
    cfg.engine.book = false;
    cfg.engine.ponder = false;
    cfg.talk.greeting = String::new();
    cfg.talk.goodbye = String::new();
    let mut s = Session::new(cfg, OpponentLists::default(), Box::new(NoBook));
    let now = Instant::now();
    // The connection layer reports the login (the line parser does not).
    let login = ServerEvent::LoggedIn {
        handle: "wilybot".into(),
    };
    s.handle(Input::Server(login), now);
    let mut finished: Vec<FinishedGame> = Vec::new();
    let mut resyncs = 0;
    let mut checked = 0;
    let mut rooks = (None, None);
    let mut last: Option<Style12> = None;
    for ev in events {
        if let Event::Board(b) = &ev {
            if b.move_number == 1 && b.last_move_verbose.is_none() {
                rooks = outer_rooks(b);
                assert!(
                    chess960::index_of(&wily::chess::parse_fen(&b.to_fen()).unwrap()).is_some()
                );
            }
            last = Some((**b).clone());
        }
        let Some(input) = translate(ev, now) else {
            continue;
        };
        for a in s.handle(Input::Server(input), now) {
            match a {
                Action::GameOver(f) => finished.push(*f),
                Action::GameLog(l) if l.contains("re-synchronised") => resyncs += 1,
                Action::StartSearch(spec) => {
                    // The engine gets White's castling rights exactly as the flags and
                    // the start's rooks say.
                    let b = last.as_ref().expect("a board came first");
                    let r = spec.board.castle_rights(cozy_chess::Color::White);
                    let want_short = rooks.0.filter(|_| b.white_castle_short);
                    let want_long = rooks.1.filter(|_| b.white_castle_long);
                    assert_eq!(file_index(r.short), want_short, "{}", b.to_fen());
                    assert_eq!(file_index(r.long), want_long, "{}", b.to_fen());
                    checked += 1;
                }
                _ => {}
            }
        }
    }
    assert_eq!(resyncs, 0, "every board followed from the one before");
    assert!(checked > 40, "searches checked: {checked}");
    let results: Vec<&str> = finished.iter().map(|f| f.record.result.as_str()).collect();
    assert_eq!(results, ["1-0", "0-1", "1-0"]);
    let mut sans = Vec::new();
    for f in &finished {
        let pgn = f.record.to_pgn();
        assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
        assert!(
            pgn.contains("[Event \"unrated fischerandom game\"]"),
            "{pgn}"
        );
        assert!(chess960::index_of(&f.start).is_some(), "{pgn}");
        let games: Vec<_> = wily::chess::PgnReader::new(pgn.as_bytes()).collect();
        let g = games[0].as_ref().expect("the record reads back");
        let pos = g.replay().expect("the record replays");
        assert_eq!(pos.ply(), f.moves.len());
        sans.push(pos.moves_san());
    }
    // Game 1: AlphaBot's O-O; game 2: wily's O-O-O with check, then AlphaBot's O-O-O.
    assert!(sans[0].iter().any(|m| m == "O-O"), "{:?}", sans[0]);
    let long: Vec<(usize, &String)> = sans[1]
        .iter()
        .enumerate()
        .filter(|(_, m)| m.starts_with("O-O-O"))
        .collect();
    assert_eq!(long.len(), 2, "{:?}", sans[1]);
    assert_eq!(long[0].1, "O-O-O+");
    assert_eq!(long[0].0 % 2, 1, "wily, Black in game 2, castled first");
}

#[test]
fn what_wily_sent_in_that_session() {
    let sent = String::from_utf8_lossy(&fixture("chess960_games.wilybot.sent")).to_string();
    let lines: Vec<&str> = sent
        .lines()
        .map(|l| l.trim_matches(|c: char| !c.is_ascii_graphic() && c != ' '))
        .collect();
    assert!(lines.contains(&"seek 2 1 unrated fr"), "{lines:?}");
    assert!(lines.contains(&"o-o-o"), "{lines:?}");
    assert!(!sent.contains("wilypw") && sent.contains("********"));
}

/// Feeds a recording to a session logged in as `handle` that plays Chess960; returns
/// the finished games, the re-synchronisations and every command it sent.
fn follow(bytes: &[u8], handle: &str) -> (Vec<FinishedGame>, usize, Vec<String>) {
    let (events, _) = events_of(bytes, &[usize::MAX], PipelineOptions::default());
    let mut cfg = Config::default();
    cfg.server.local = false;
    cfg.server.handle = handle.into();
    cfg.seek.enabled = false;
    cfg.accept.variants = vec!["chess".into(), "chess960".into()];
    cfg.engine.book = false;
    cfg.talk.greeting = String::new();
    cfg.talk.goodbye = String::new();
    let mut s = Session::new(cfg, OpponentLists::default(), Box::new(NoBook));
    let now = Instant::now();
    let login = ServerEvent::LoggedIn {
        handle: handle.into(),
    };
    s.handle(Input::Server(login), now);
    let (mut finished, mut resyncs, mut sent) = (Vec::new(), 0, Vec::new());
    for ev in events {
        let Some(input) = translate(ev, now) else {
            continue;
        };
        let mut actions = s.handle(Input::Server(input), now);
        actions.extend(s.handle(Input::Tick, now));
        for a in actions {
            match a {
                Action::GameOver(f) => finished.push(*f),
                Action::GameLog(l) if l.contains("re-synchronised") => resyncs += 1,
                Action::Send(c) | Action::SendNow(c) => sent.push(c),
                _ => {}
            }
        }
    }
    (finished, resyncs, sent)
}

#[test]
fn both_sides_of_the_match_recordings_follow_every_castling() {
    for (game, castles) in [
        ("chess960_match_castling", ["O-O", "O-O-O"]),
        ("chess960_match_king_stays", ["O-O", "O-O"]),
    ] {
        for (handle, other) in [("AlphaBot", "BetaBot"), ("BetaBot", "AlphaBot")] {
            let bytes = fixture(&format!("{game}.{handle}.raw"));
            let (finished, resyncs, sent) = follow(&bytes, handle);
            assert_eq!(resyncs, 0, "{game} {handle}");
            if handle == "BetaBot" {
                // The wrapped `Loaded from fischerandom/0` challenge is a Chess960 one.
                assert!(sent.contains(&"accept AlphaBot".to_string()), "{sent:?}");
            }
            assert_eq!(finished.len(), 1, "{game} {handle}");
            let f = &finished[0];
            assert_eq!(f.opponent, other);
            assert_eq!(f.record.result, "1-0");
            let pgn = f.record.to_pgn();
            assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
            let games: Vec<_> = wily::chess::PgnReader::new(pgn.as_bytes()).collect();
            let pos = games[0].as_ref().unwrap().replay().expect("replays");
            let played: Vec<String> = pos
                .moves_san()
                .into_iter()
                .filter(|m| m.starts_with("O-O"))
                .map(|m| m.trim_end_matches(['+', '#']).to_string())
                .collect();
            assert_eq!(played, castles, "{game} {handle}: {pgn}");
        }
    }
}
