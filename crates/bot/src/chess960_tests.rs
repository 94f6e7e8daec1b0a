//! Session tests of Chess960 games, fed the style-12 and challenge lines a lasker 2.2 /
//! capablanca server sends for its `fr` variant: seeks and accepts with the server's
//! variant words, castling rights worked out from the flags and the start's rooks, `o-o`
//! sent and echoed, and no book move outside the standard start.

use crate::hooks::NoBook;
use crate::input::*;
use crate::session_tests::{cfg, result, sends, session_with, started, OneMoveBook};
use crate::translate::translate;
use cozy_chess::{Color, File};
use ics::parse::{ClockUnit, Parser};
use std::time::{Duration, Instant};

/// The bot's inputs for server lines (wrapped lines joined as the protocol layer does).
fn inputs(lines: &[&str], now: Instant) -> Vec<Input> {
    let mut p = Parser::new(ClockUnit::Auto);
    let mut events = Vec::new();
    for l in lines {
        p.line(l, &mut events);
    }
    p.flush(&mut events);
    events
        .into_iter()
        .filter_map(|e| translate(e, now))
        .map(Input::Server)
        .collect()
}

#[test]
fn seeks_carry_the_servers_chess960_words() {
    let mut c = cfg();
    c.server.chess960 = "fr".into();
    c.seek.ads[1].variant = "chess960".into();
    let (s, _) = session_with(c, Box::new(NoBook));
    assert_eq!(
        s.seek_commands(),
        vec!["seek 3 0 unrated m", "seek 5 2 unrated fr m"]
    );
    let mut c = cfg();
    c.seek.ads[0].variant = "chess960".into();
    c.seek.ads[0].formula = true;
    let (s, _) = session_with(c, Box::new(NoBook));
    assert_eq!(s.seek_commands()[0], "seek 3 0 unrated wild fr m formula");
}

#[test]
fn a_wrapped_fr_challenge_is_accepted_only_when_chess960_is() {
    // The lasker server wraps this line after "Loaded from ".
    let lines = [
        "Challenge: Bob (----) [white] wily (----) rated wild 1 0 Loaded from ",
        "\\   fischerandom/0.",
        "You can \"accept\" or \"decline\", or propose different parameters.",
    ];
    for (variants, want) in [
        (vec!["chess"], vec!["decline Bob"]),
        (vec!["chess", "chess960"], vec!["accept Bob"]),
    ] {
        let mut c = cfg();
        c.seek.enabled = false;
        c.accept.variants = variants.iter().map(|v| v.to_string()).collect();
        c.accept.decline.variant = String::new();
        let (mut s, now) = session_with(c, Box::new(NoBook));
        let mut out = Vec::new();
        for i in inputs(&lines, now) {
            out.extend(s.handle(i, now));
        }
        out.extend(s.handle(Input::Tick, now + Duration::from_millis(200)));
        assert_eq!(sends(&out), want, "{variants:?}");
    }
}

#[test]
fn castles_with_the_rook_of_the_start_and_skips_the_book() {
    let mut c = cfg();
    c.engine.book = true;
    // A book that would answer every position: it must not be asked in a 960 game.
    let (mut s, now) = session_with(c, Box::new(OneMoveBook));
    let start = inputs(
        &[
            "{Game 7 (wily vs. Bob) Creating rated fischerandom match.}",
            "<12> rbbnkrqn pppppppp -------- -------- -------- -------- PPPPPPPP RBBNKRQN W -1 1 1 1 1 0 7 wily Bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0",
        ],
        now,
    );
    let mut a = Vec::new();
    for i in start {
        a.extend(s.handle(i, now));
    }
    let spec = started(&a).expect("a search, not a book move");
    assert!(!sends(&a).iter().any(|m| m.starts_with("MOVE")), "{a:?}");
    let rights = spec.board.castle_rights(Color::White);
    assert_eq!((rights.short, rights.long), (Some(File::F), Some(File::A)));
    let g = s.play.game.as_ref().unwrap();
    assert!(g.chess960() && !g.book_allowed());
    // Later the a-rook has reached h1, outside the f-rook that still may castle: the
    // flag means the start's f-rook (X-FEN's `K` would mean the outermost, h1).
    let later = inputs(&["<12> rbbnkrqn -ppppppp p------- -------- ------P- -----NQ- PPPPPP-P -BBNKR-R W -1 1 0 1 1 0 7 wily Bob 1 5 0 39 39 250 250 8 P/a7-a6 (0:02) a6 0 1"], now);
    let mut a = Vec::new();
    for i in later {
        a.extend(s.handle(i, now));
    }
    let spec = started(&a).expect("a search");
    let rights = spec.board.castle_rights(Color::White);
    assert_eq!((rights.short, rights.long), (Some(File::F), None));
    // The engine castles (king takes rook, e1f1): the server is sent o-o.
    let id = s.bot.search.as_ref().unwrap().id;
    let board = spec.board.clone();
    let a = s.handle(
        Input::Done {
            id,
            result: result(&board, "e1f1", None, 30),
        },
        now,
    );
    assert_eq!(sends(&a), vec!["MOVE o-o"]);
    // The server's echo: king on g1, the f-rook stays; flags cleared.
    let echo = inputs(&["<12> rbbnkrqn -ppppppp p------- -------- ------P- -----NQ- PPPPPP-P -BBN-RKR B -1 0 0 1 1 1 7 wily Bob -1 5 0 39 39 248 250 8 o-o (0:02) O-O 0 1"], now);
    for i in echo {
        s.handle(i, now);
    }
    let g = s.play.game.as_ref().unwrap();
    assert_eq!(g.last_recorded().map(|(san, _)| san), Some("O-O"));
    assert_eq!(g.board().castle_rights(Color::White).short, None);
    assert_eq!(g.board().castle_rights(Color::Black).short, Some(File::F));
    let f = g.finish("test", "*", EndKind::Aborted, "");
    let pgn = f.record.to_pgn();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("O-O"), "{pgn}");
}

#[test]
fn the_standard_start_keeps_its_book() {
    let mut c = cfg();
    c.engine.book = true;
    let (mut s, now) = session_with(c, Box::new(OneMoveBook));
    let mut a = Vec::new();
    for i in inputs(
        &[
            "{Game 7 (wily vs. Bob) Creating rated blitz match.}",
            "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 wily Bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0",
        ],
        now,
    ) {
        a.extend(s.handle(i, now));
    }
    assert_eq!(sends(&a), vec!["MOVE e2e4"]);
}
