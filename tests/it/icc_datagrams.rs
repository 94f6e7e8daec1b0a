//! ICC level-2 byte streams through the whole receive path (`Pipeline` with level 2 on):
//! a login, a played game with millisecond clocks, a resumed wild-22 game, offers, a
//! takeback, a challenge, seeks, tells, kibitzes, an observed game, and bad datagrams, in
//! reads of every size. They must come out as the same events FICS text gives.

use wily::ics::board::Relation;
use wily::ics::events::{
    ChatKind, EndReason, Event, GameResult, OfferKind, Prompt, Rating, TourneyNotice,
};
use wily::ics::icc::Datagram;
use wily::ics::pipeline::{events_of, Output, Pipeline, PipelineOptions};
use wily::ics::Color;

fn opts() -> PipelineOptions {
    PipelineOptions {
        icc_level2: true,
        answer_telnet: true,
        ..Default::default()
    }
}

/// A datagram on the wire.
fn dg(code: u16, fields: &[&str]) -> Vec<u8> {
    fields
        .iter()
        .fold(Datagram::new(code), |d, f| d.with(f))
        .encode()
}

fn stream(parts: &[Vec<u8>]) -> Vec<u8> {
    parts.concat()
}

fn t(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

fn events(bytes: &[u8]) -> Vec<Event> {
    let (ev, _) = events_of(bytes, &[bytes.len().max(1)], opts());
    // The same events whatever the reads.
    for size in [1, 2, 3, 7, 64] {
        let (again, _) = events_of(bytes, &[size], opts());
        assert_eq!(again, ev, "reads of {size} bytes");
    }
    ev
}

fn boards(ev: &[Event]) -> Vec<&wily::ics::Style12> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Board(b) => Some(&**b),
            _ => None,
        })
        .collect()
}

fn game_start(game: &str, white: &str, black: &str, wild: &str, kind: &str) -> Vec<u8> {
    dg(
        15,
        &[
            game, white, black, wild, kind, "1", "3", "0", "3", "0", "1", "", "1850", "1720",
            "1011", "C", "GM", "0", "0", "0", "", "0",
        ],
    )
}

#[test]
fn login_then_a_played_game_gives_the_fics_events() {
    let bytes = stream(&[
        t("login: "),
        t("password: "),
        dg(0, &["wily", "C"]),
        t("\r\naics% "),
        game_start("7", "wily", "Bob", "0", "Blitz"),
        dg(
            101,
            &[
                "7",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "0",
            ],
        ),
        dg(56, &["7", "W", "180000", "1"]),
        dg(56, &["7", "B", "180000", "0"]),
        dg(139, &["7"]),
        t("aics% "),
        dg(24, &["7", "e4", "e2e4", "1", "179"]),
        dg(56, &["7", "W", "179250", "0"]),
        dg(56, &["7", "B", "180000", "1"]),
        dg(144, &["wily", "120"]),
        dg(24, &["7", "e5", "e7e5", "3", "177"]),
        dg(56, &["7", "B", "177010", "0"]),
        dg(56, &["7", "W", "179250", "1"]),
        dg(139, &["7"]),
        dg(16, &["7", "0", "Res", "0-1", "White resigns", "C20"]),
        dg(43, &["7", "X"]),
    ]);
    let ev = events(&bytes);
    assert_eq!(ev[0], Event::Prompt(Prompt::Login));
    assert_eq!(ev[1], Event::Prompt(Prompt::Password));
    assert_eq!(
        ev[2],
        Event::SessionStarted {
            name: "wily".into(),
            unregistered: false
        }
    );
    let Some(Event::Creating(c)) = ev.iter().find(|e| matches!(e, Event::Creating(_))) else {
        panic!("{ev:#?}")
    };
    assert_eq!(c.white_rating.value(), Some(1850));
    assert_eq!((c.base_minutes, c.increment_secs, c.rated), (3, 0, true));
    let Some(Event::GameStart(g)) = ev.iter().find(|e| matches!(e, Event::GameStart(_))) else {
        panic!("{ev:#?}")
    };
    assert_eq!(
        (g.game, g.continuing, g.category.as_str()),
        (7, false, "blitz")
    );
    let b = boards(&ev);
    assert_eq!(b.len(), 3, "start, after e4, after e5: {ev:#?}");
    assert_eq!(b[0].relation, Relation::MyMove);
    assert_eq!(b[0].white_clock_ms, 180_000);
    assert_eq!(b[1].relation, Relation::OpponentToMove);
    assert_eq!(
        b[1].white_clock_ms, 179_250,
        "DG_MSEC beats the seconds of DG_SEND_MOVES"
    );
    assert_eq!(b[1].last_move_san.as_deref(), Some("e4"));
    assert_eq!(b[1].last_move_verbose.as_deref(), Some("P/e2-e4"));
    assert_eq!(
        b[1].lag_ms,
        Some(120),
        "DG_MOVE_LAG rides on the move it belongs to"
    );
    assert_eq!(b[1].side_to_move, Color::Black);
    assert_eq!(b[2].relation, Relation::MyMove);
    assert_eq!(b[2].black_clock_ms, 177_010);
    assert_eq!(b[2].last_move_time_ms, 3000);
    assert_eq!(
        b[2].to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    let Some(Event::GameEnd(end)) = ev.iter().find(|e| matches!(e, Event::GameEnd(_))) else {
        panic!("{ev:#?}")
    };
    assert_eq!(end.result, GameResult::BlackWins);
    assert_eq!(end.reason, EndReason::Resignation);
    assert_eq!(end.who.as_deref(), Some("wily"));
    assert_eq!((end.white.as_str(), end.black.as_str()), ("wily", "Bob"));
}

#[test]
fn a_resumed_wild_22_game_starts_from_its_fen_and_moves() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let bytes = stream(&[
        dg(0, &["wily", ""]),
        game_start("12", "Bob", "wily", "22", "Wild"),
        dg(101, &["12", fen, "2"]),
        dg(24, &["12", "e4", "e2e4", "5", "170"]),
        dg(24, &["12", "Nd5", "f6d5", "4", "171"]),
        dg(56, &["12", "W", "170000", "1"]),
        dg(56, &["12", "B", "171000", "0"]),
        dg(139, &["12"]),
    ]);
    let ev = events(&bytes);
    let Some(Event::GameStart(g)) = ev.iter().find(|e| matches!(e, Event::GameStart(_))) else {
        panic!("{ev:#?}")
    };
    assert!(g.continuing, "moves before the first board: a resumed game");
    assert_eq!(g.category, "wild/22");
    let b = boards(&ev);
    assert_eq!(b.len(), 1, "the initial moves make one board: {ev:#?}");
    assert_eq!(
        b[0].relation,
        Relation::OpponentToMove,
        "we are Black, White to move"
    );
    assert_eq!(b[0].move_number, 10);
    assert_eq!(b[0].last_move_san.as_deref(), Some("Nd5"));
}

#[test]
fn chess960_castling_in_smith_form_is_the_kings_move() {
    let fen = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1";
    // White clears b1..c1? Use a position where long castling is possible at once.
    let fen2 = "1rk1bqrn/pppppppp/8/8/8/8/PPPPPPPP/1RK1BQRN w Bb - 0 1";
    let _ = fen;
    let bytes = stream(&[
        dg(0, &["wily", ""]),
        game_start("3", "wily", "Bob", "22", "Wild"),
        dg(101, &["3", fen2, "0"]),
        dg(24, &["3", "O-O-O", "c1c1C", "0", "180"]),
        dg(139, &["3"]),
    ]);
    let ev = events(&bytes);
    let b = boards(&ev);
    assert_eq!(b.len(), 2, "{ev:#?}");
    assert_eq!(b[1].last_move_verbose.as_deref(), Some("o-o-o"));
    assert!(!b[1].white_castle_long && !b[1].white_castle_short);
}

#[test]
fn offers_takeback_and_illegal_moves() {
    let bytes = stream(&[
        dg(0, &["wily", ""]),
        game_start("5", "wily", "Bob", "0", "Blitz"),
        dg(101, &["5", "", "0"]),
        dg(24, &["5", "e4", "e2e4", "1", "179"]),
        dg(139, &["5"]),
        dg(21, &["5", "0", "1", "0", "0", "0", "0", "0", "0"]),
        dg(21, &["5", "0", "1", "0", "0", "0", "1", "0", "0"]),
        dg(21, &["5", "1", "0", "0", "0", "0", "0", "0", "2"]),
        dg(22, &["5", "1"]),
        dg(42, &["5", "e2e5", "2"]),
        dg(42, &["5", "d2d4", "4"]),
        dg(38, &["5", "200", "190"]),
        dg(61, &["5", "B", "60"]),
    ]);
    let ev = events(&bytes);
    let offers: Vec<&Event> = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::OfferReceived { .. }
                    | Event::OfferSent { .. }
                    | Event::OfferWithdrawn { .. }
                    | Event::OfferDeclined { .. }
            )
        })
        .collect();
    assert_eq!(
        offers,
        vec![
            &Event::OfferReceived {
                from: "Bob".into(),
                kind: OfferKind::Draw
            },
            &Event::OfferReceived {
                from: "Bob".into(),
                kind: OfferKind::Abort
            },
            &Event::OfferSent {
                kind: OfferKind::Draw
            },
            &Event::OfferWithdrawn {
                by_me: false,
                other: "Bob".into(),
                kind: OfferKind::Draw
            },
            &Event::OfferWithdrawn {
                by_me: false,
                other: "Bob".into(),
                kind: OfferKind::Abort
            },
            &Event::OfferReceived {
                from: "Bob".into(),
                kind: OfferKind::Takeback(2)
            },
        ]
    );
    assert!(ev.contains(&Event::NotYourMove));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::IllegalMove { text } if text.contains("e2e5"))));
    let b = boards(&ev);
    let last = b.last().unwrap();
    assert_eq!(
        last.to_fen().split(' ').next(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
        "taken back"
    );
    assert_eq!(
        (last.white_clock_ms, last.black_clock_ms),
        (200_000, 250_000)
    );
}

#[test]
fn challenges_seeks_tells_and_observing() {
    let bytes = stream(&[
        dg(0, &["wily", "C"]),
        dg(
            29,
            &[
                "Bob", "2210", "2", "GM", "wily", "1900", "1", "C", "22", "Wild", "1", "0", "3",
                "0", "3", "0", "-1", "",
            ],
        ),
        dg(
            29,
            &[
                "Robo", "1500", "2", "C", "wily", "1900", "2", "C", "0", "Blitz", "0", "1", "5",
                "2", "5", "2", "1", "",
            ],
        ),
        dg(30, &["Bob", "wily", "Bob withdraws the challenge."]),
        dg(
            50,
            &[
                "17", "Carl", "IM C", "2300", "2", "0", "Blitz", "3", "0", "1", "-1", "0", "9999",
                "1", "0", "",
            ],
        ),
        dg(51, &["17", "3"]),
        dg(31, &["boss", "", "resign", "1"]),
        dg(31, &["Bob", "GM", "hello there", "0"]),
        dg(62, &["Bob", "1", "hi"]),
        dg(
            18,
            &[
                "44", "Ann", "Cid", "0", "Standard", "0", "15", "0", "15", "0", "1", "", "2000",
                "2010", "9", "", "", "0", "0", "0", "", "0",
            ],
        ),
        dg(101, &["44", "", "1"]),
        dg(24, &["44", "d4", "d2d4", "2", "900"]),
        dg(26, &["44", "Ann", "WIM", "1", "good {luck} all"]),
        dg(26, &["44", "Cid", "", "0", "psst"]),
        dg(43, &["44", "X"]),
        dg(
            103,
            &["6", "0", "Blitz tourney", "tell Tomato join", "", "", ""],
        ),
        dg(104, &["6"]),
    ]);
    let ev = events(&bytes);
    let challenges: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Challenge(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(challenges.len(), 2, "{ev:#?}");
    assert_eq!(challenges[0].challenger.name, "Bob");
    assert_eq!(challenges[0].challenger_titles, vec!["GM".to_string()]);
    assert_eq!(challenges[0].variant.as_deref(), Some("wild/22"));
    assert_eq!(challenges[0].challenger_color, None);
    assert_eq!(challenges[1].challenger.rating.value(), Some(1500));
    assert!(challenges[1].adjourned && !challenges[1].rated);
    assert_eq!(challenges[1].challenger_color, Some(Color::White));
    assert_eq!(challenges[1].increment_secs, 2);
    assert!(ev.contains(&Event::IsComputer {
        name: "Robo".into()
    }));
    assert!(ev.contains(&Event::OfferWithdrawn {
        by_me: false,
        other: "Bob".into(),
        kind: OfferKind::Match
    }));
    let Some(Event::Seek(s)) = ev.iter().find(|e| matches!(e, Event::Seek(_))) else {
        panic!()
    };
    assert_eq!(
        s.titles,
        wily::ics::events::title::IM | wily::ics::events::title::COMPUTER
    );
    assert_eq!(s.rating, Rating::parse("2300").unwrap());
    assert!(ev.contains(&Event::SeekRemoved { indices: vec![17] }));
    let chats: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Chat(c) => Some((c.kind.clone(), c.from.as_str(), c.text.as_str(), c.game)),
            _ => None,
        })
        .collect();
    assert_eq!(
        chats,
        vec![
            (ChatKind::Tell, "boss", "resign", None),
            (ChatKind::Say, "Bob", "hello there", None),
            (ChatKind::Kibitz, "Ann", "good {luck} all", Some(44)),
            (ChatKind::Whisper, "Cid", "psst", Some(44)),
        ]
    );
    assert!(ev.contains(&Event::Told { to: "Bob".into() }));
    assert!(ev.contains(&Event::ObserveStarted { game: 44 }));
    assert!(ev.contains(&Event::ObserveStopped { game: 44 }));
    let b = boards(&ev);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].relation, Relation::Observing);
    assert!(ev.iter().any(|e| matches!(e, Event::Tourney(TourneyNotice::Offered { index: 6, join_command, .. }) if join_command == "tell Tomato join")));
    assert!(ev.contains(&Event::Tourney(TourneyNotice::Withdrawn { index: 6 })));
}

#[test]
fn text_duplicates_are_dropped_once_datagrams_flow() {
    let bytes = stream(&[
        t("Challenge: Bob (1500) wily (1600) rated blitz 5 0.\n"),
        dg(0, &["wily", ""]),
        t("Challenge: Bob (1500) wily (1600) rated blitz 5 0.\n"),
        t("Bob(C) tells you: hi\nNo ratings adjustment done.\n"),
    ]);
    let ev = events(&bytes);
    let n = ev
        .iter()
        .filter(|e| matches!(e, Event::Challenge(_)))
        .count();
    assert_eq!(
        n, 1,
        "text read before level 2 is live, dropped after: {ev:#?}"
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::Chat(_))));
    assert!(
        ev.contains(&Event::NoRatingChange),
        "text without a datagram twin stays"
    );
}

#[test]
fn bad_datagrams_are_warned_and_skipped_and_the_game_goes_on() {
    let mut bytes = stream(&[
        dg(0, &["wily", ""]),
        game_start("7", "wily", "Bob", "0", "Blitz"),
        dg(101, &["7", "", "0"]),
        dg(139, &["7"]),
        t("\x19(24 7 e4 e2"),
        dg(24, &["7", "Nf3", "g1f3", "1", "179"]),
        dg(24, &["7", "Qh5", "d8h5", "1", "179"]),
        t("\x19(15 {unterminated\x19)"),
        dg(24, &["7"]),
        dg(56, &["7"]),
        dg(9999, &["x"]),
        dg(24, &["7", "e5", "e7e5", "1", "179"]),
        dg(139, &["7"]),
    ]);
    bytes.extend_from_slice(b"\x19(24 7 d4");
    let mut p = Pipeline::new(opts());
    let mut out = Output::default();
    p.feed(&bytes, &mut out);
    p.finish(&mut out);
    let w = out.warnings.join("\n");
    assert!(w.contains("cut short: a new datagram began"), "{w}");
    assert!(w.contains("not legal"), "{w}");
    assert!(w.contains("unterminated"), "{w}");
    assert!(w.contains("connection ended"), "{w}");
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Unknown(u) if u.contains("9999"))));
    let b = boards(&out.events);
    let last = b.last().unwrap();
    assert_eq!(
        last.last_move_san.as_deref(),
        Some("e5"),
        "the good moves were kept"
    );
    assert_eq!(last.move_number, 2);
}

#[test]
fn the_docs_list_every_datagram_wily_turns_on() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/icc.md"))
        .expect("docs/icc.md");
    for c in wily::ics::icc::login::CHOICES {
        let name = wily::ics::icc::numbers::name(c.code).unwrap();
        assert!(
            doc.contains(&format!("{} `{name}`", c.code)),
            "docs/icc.md lacks {name}"
        );
        assert!(
            doc.contains(c.why),
            "docs/icc.md lacks the reason for {name}"
        );
    }
}
