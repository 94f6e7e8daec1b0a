//! Replays every recording in `shared/data/ics` through the whole byte -> event pipeline,
//! in one piece and in random chunk sizes (fixed seeds), and checks the events of every
//! scenario: logins, bad password, matches and seeks, boards, results, draws, aborts,
//! flags, adjournment and resumption, observation, chat.

mod ics_common;

use ics_common::*;
use wily::ics::events::{ChatKind, EndReason, GameResult, MatchOffer, OfferKind, Prompt, Relation};
use wily::ics::login::{Login, LoginFailure, LoginFlow, Password, Step};
use wily::ics::{Color, Event, Rating};

fn get<'a>(all: &'a [(String, Vec<u8>)], name: &str) -> &'a [u8] {
    all.iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| b.as_slice())
        .unwrap_or_else(|| panic!("recording {name} missing"))
}

fn end_is(e: &Event, reason: EndReason, result: GameResult, who: Option<&str>) -> bool {
    matches!(e, Event::GameEnd(g) if g.reason == reason && g.result == result && g.who.as_deref() == who)
}

fn chat_is(e: &Event, kind: ChatKind, from: &str, text: &str) -> bool {
    matches!(e, Event::Chat(c) if c.kind == kind && c.from == from && c.text == text)
}

fn offer_is(
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

fn login_outcome(events: &[Event], login: Login) -> Vec<Step> {
    let mut flow = LoginFlow::new(login);
    events.iter().filter_map(|e| flow.on_event(e)).collect()
}

#[test]
fn every_recording_replays_the_same_in_any_chunking() {
    let Some(all) = recordings() else { return };
    assert!(
        all.len() >= 40,
        "expected the full set of recordings, found {}",
        all.len()
    );
    for (name, bytes) in &all {
        let reference = events(bytes);
        for seed in 1..=6u64 {
            let got = events_chunked(bytes, seed * 7919);
            assert_eq!(
                got, reference,
                "{name}: chunking with seed {seed} changed the events"
            );
        }
        // Byte by byte, the worst case.
        let (bytewise, _) = wily::ics::pipeline::events_of(bytes, &[1], Default::default());
        assert_eq!(
            bytewise, reference,
            "{name}: byte-by-byte feeding changed the events"
        );

        // Every style-12 line became a board; no telnet byte leaked into any text.
        let raw_boards = bytes.windows(5).filter(|w| w == b"<12> ").count();
        assert_eq!(boards(&reference).len(), raw_boards, "{name}: boards");
        let dump = format!("{reference:?}");
        assert!(
            !dump.contains('\u{fffd}') && !dump.contains('\u{ff}'),
            "{name}: IAC leaked"
        );
        // The server's goodbye ends every session that was not cut off.
        let cut =
            name.contains("badpw") || name.ends_with("07_disconnect_adjourn_resume.BetaBot.raw");
        assert_eq!(reference.contains(&Event::Goodbye), !cut, "{name}: goodbye");
        // Within each game, every board follows from the one before by a legal move.
        let bs = boards(&reference);
        for w in bs.windows(2) {
            let (a, b) = (w[0], w[1]);
            let new_game = b.move_number == 1 && b.last_move_verbose.is_none();
            if a.game == b.game && !new_game {
                assert!(
                    follows(a, b),
                    "{name}: {} does not follow {}",
                    b.to_fen(),
                    a.to_fen()
                );
            }
        }
    }
}

#[test]
fn logins() {
    let Some(all) = recordings() else { return };
    let reg = || Login::Registered {
        handle: "AlphaBot".into(),
        password: Password::new("pw"),
    };
    for server in ["rpblc/01_login", "lasker/01_login_guest_registered"] {
        let ok = events(get(&all, &format!("{server}.AlphaBot.raw")));
        assert_eq!(
            login_outcome(&ok, reg()),
            vec![
                Step::Send {
                    line: "AlphaBot".into(),
                    secret: false
                },
                Step::Send {
                    line: "pw".into(),
                    secret: true
                },
                Step::Done {
                    handle: "AlphaBot".into(),
                    guest: false
                },
            ],
            "{server}"
        );
        assert!(ok.contains(&Event::NameRegistered {
            name: "AlphaBot".into()
        }));
        assert!(ok.contains(&Event::SettingAck {
            text: "Style 12 set.".into()
        }));

        let bad = events(get(&all, &format!("{server}.AlphaBot_badpw.raw")));
        assert!(bad.contains(&Event::InvalidPassword), "{server}");
        assert_eq!(
            login_outcome(&bad, reg()).last(),
            Some(&Step::Failed(LoginFailure::BadPassword {
                handle: "AlphaBot".into()
            }))
        );
        assert!(!bad.iter().any(|e| matches!(e, Event::SettingAck { .. })));
    }
    // lasker asks for the name again after a bad password.
    let bad = events(get(
        &all,
        "lasker/01_login_guest_registered.AlphaBot_badpw.raw",
    ));
    assert_eq!(
        bad.iter()
            .filter(|e| **e == Event::Prompt(Prompt::Login))
            .count(),
        2
    );
    assert!(
        events(get(&all, "lasker/01_login_guest_registered.AlphaBot.raw")).contains(
            &Event::SessionStarted {
                name: "AlphaBot".into(),
                unregistered: false
            }
        )
    );

    // Guests: rpblc lets "guest" in unregistered, lasker assigns GuestXXXX.
    let g = events(get(&all, "rpblc/01_login.guest.raw"));
    assert_eq!(
        login_outcome(&g, Login::Guest).last(),
        Some(&Step::Done {
            handle: "guest".into(),
            guest: true
        })
    );
    assert!(g.contains(&Event::CommandFailed {
        command: "seek".into()
    }));
    assert!(g.contains(&Event::CommandFailed {
        command: "nosuchcommand".into()
    }));
    let g = events(get(&all, "lasker/01_login_guest_registered.guest1.raw"));
    assert_eq!(
        login_outcome(&g, Login::Guest),
        vec![
            Step::Send {
                line: "guest".into(),
                secret: false
            },
            Step::Send {
                line: String::new(),
                secret: false
            },
            Step::Done {
                handle: "GuestWLRM".into(),
                guest: true
            },
        ]
    );
    assert_in_order(
        "lasker guest",
        &g,
        &[
            &|e| {
                *e == Event::GuestName {
                    name: "GuestWLRM".into(),
                }
            },
            &|e| {
                *e == Event::Prompt(Prompt::PressReturn {
                    name: "GuestWLRM".into(),
                })
            },
            &|e| {
                *e == Event::SessionStarted {
                    name: "GuestWLRM".into(),
                    unregistered: true,
                }
            },
            &|e| {
                *e == Event::SettingAck {
                    text: "ms set".into(),
                }
            },
            &|e| {
                *e == Event::SettingRefused {
                    name: "nosuchvar".into(),
                }
            },
            &|e| matches!(e, Event::Seek(s) if s.name == "GuestWLRM" && s.base_minutes == 5 && !s.rated),
            &|e| *e == Event::SeekRemoved { indices: vec![0] },
            &|e| {
                *e == Event::CommandNotFound {
                    command: "nosuchcommand".into(),
                }
            },
            &|e| matches!(e, Event::Refused { text } if text.starts_with("No user named")),
        ],
    );

    // Unregistered names: two refusals, then in as Visitor.
    for file in [
        "rpblc/01_login.unreg.raw",
        "lasker/01_login_guest_registered.unreg.raw",
    ] {
        let u = events(get(&all, file));
        assert_eq!(
            u.iter()
                .filter(|e| matches!(e, Event::LoginRefused { .. }))
                .count(),
            2,
            "{file}"
        );
        assert!(
            u.contains(&Event::NameNotRegistered {
                name: "Visitor".into()
            }),
            "{file}"
        );
        assert!(
            u.contains(&Event::Prompt(Prompt::PressReturn {
                name: "Visitor".into()
            })),
            "{file}"
        );
    }
}

const FOOLS_MATE: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq e6 0 2",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
];

#[test]
fn fools_mate_match_observe_and_talk() {
    let Some(all) = recordings() else { return };
    for prefix in [
        "rpblc/02_match_foolsmate_observe_talk",
        "lasker/02_seek_play_foolsmate_observe_talk",
    ] {
        for who in ["AlphaBot", "BetaBot", "GammaBot"] {
            let name = format!("{prefix}.{who}.raw");
            let ev = events_chunked(get(&all, &name), 42);
            let mut fens: Vec<String> = boards(&ev).iter().map(|b| b.to_fen()).collect();
            fens.dedup();
            assert_eq!(fens, FOOLS_MATE, "{name}");
            let last = *boards(&ev).last().expect("boards");
            assert_eq!(last.last_move_san.as_deref(), Some("Qh4+"));
            assert_eq!(last.last_move_verbose.as_deref(), Some("Q/d8-h4"));
            let want_rel = match who {
                "AlphaBot" => Relation::MyMove,
                "BetaBot" => Relation::OpponentToMove,
                _ => Relation::Observing,
            };
            assert_eq!(last.relation, want_rel, "{name}");
            assert!(
                ev.iter().any(|e| end_is(
                    e,
                    EndReason::Checkmate,
                    GameResult::BlackWins,
                    Some("AlphaBot")
                )),
                "{name}"
            );
            if who != "GammaBot" {
                let start = |e: &Event| matches!(e, Event::GameStart(g) if g.game == 1 && g.white == "AlphaBot" && !g.continuing);
                assert!(ev.iter().any(start), "{name}");
            }
            if prefix.starts_with("lasker") {
                assert!(last.clock_ticking.is_some(), "{name}: 32-field boards");
            } else {
                assert_eq!(last.clock_ticking, None, "{name}: 31-field boards");
            }
        }
    }

    let b = events(get(
        &all,
        "rpblc/02_match_foolsmate_observe_talk.BetaBot.raw",
    ));
    assert_in_order(
        "rpblc BetaBot",
        &b,
        &[
            &|e| offer_is(e, true, "AlphaBot", Some(Color::White), true, 5, 0),
            &|e| {
                *e == Event::YouDeclined {
                    other: "AlphaBot".into(),
                    kind: OfferKind::Match,
                }
            },
            &|e| offer_is(e, true, "AlphaBot", Some(Color::White), true, 5, 0),
            &|e| {
                *e == Event::YouAccepted {
                    other: "AlphaBot".into(),
                    kind: OfferKind::Match,
                }
            },
            &|e| matches!(e, Event::GameStart(g) if g.rated && g.category == "blitz"),
            &|e| matches!(e, Event::Board(b) if b.relation == Relation::OpponentToMove && b.white_clock_ms == 300_000),
            &|e| *e == Event::NotYourMove,
            &|e| chat_is(e, ChatKind::Kibitz, "GammaBot", "Nice opening, white!"),
            &|e| chat_is(e, ChatKind::Say, "AlphaBot", "good luck"),
            &|e| {
                *e == Event::Told {
                    to: "AlphaBot".into(),
                }
            },
            &|e| {
                *e == Event::CommandFailed {
                    command: "qh4#".into(),
                }
            },
            &|e| {
                end_is(
                    e,
                    EndReason::Checkmate,
                    GameResult::BlackWins,
                    Some("AlphaBot"),
                )
            },
            &|e| {
                *e == Event::RatingChange {
                    category: "blitz".into(),
                    old: 0,
                    new: 1882,
                }
            },
            &|e| *e == Event::Goodbye,
        ],
    );
    let a = events(get(
        &all,
        "rpblc/02_match_foolsmate_observe_talk.AlphaBot.raw",
    ));
    assert_in_order(
        "rpblc AlphaBot",
        &a,
        &[
            &|e| offer_is(e, false, "AlphaBot", Some(Color::White), true, 5, 0),
            &|e| {
                *e == Event::OfferDeclined {
                    by: "BetaBot".into(),
                    kind: OfferKind::Match,
                }
            },
            &|e| {
                *e == Event::OfferAccepted {
                    by: "BetaBot".into(),
                    kind: OfferKind::Match,
                }
            },
            &|e| matches!(e, Event::IllegalMove { .. }),
            &|e| chat_is(e, ChatKind::Tell, "BetaBot", "thanks, you too"),
            &|e| {
                *e == Event::RatingChange {
                    category: "blitz".into(),
                    old: 0,
                    new: 1558,
                }
            },
        ],
    );
    for server in [
        "rpblc/02_match_foolsmate_observe_talk",
        "lasker/02_seek_play_foolsmate_observe_talk",
    ] {
        let g = events(get(&all, &format!("{server}.GammaBot.raw")));
        assert_in_order(
            server,
            &g,
            &[
                &|e| *e == Event::ObserveStarted { game: 1 },
                &|e| matches!(e, Event::Board(b) if b.relation == Relation::Observing),
                &|e| {
                    *e == Event::Observers {
                        game: 1,
                        names: vec!["GammaBot".into()],
                    }
                },
                &|e| {
                    *e == Event::ChatDelivered {
                        whisper: false,
                        count: 2,
                    }
                },
                &|e| {
                    *e == Event::ChatDelivered {
                        whisper: true,
                        count: 0,
                    }
                },
                &|e| chat_is(e, ChatKind::Tell, "BetaBot", "hello observer"),
                &|e| {
                    end_is(
                        e,
                        EndReason::Checkmate,
                        GameResult::BlackWins,
                        Some("AlphaBot"),
                    )
                },
            ],
        );
    }
    // lasker: the game comes from a seek ad.
    let a = events(get(
        &all,
        "lasker/02_seek_play_foolsmate_observe_talk.AlphaBot.raw",
    ));
    assert_in_order(
        "lasker AlphaBot",
        &a,
        &[
            &|e| {
                *e == Event::SettingAck {
                    text: "You will now hear ads.".into(),
                }
            },
            &|e| matches!(e, Event::Seek(s) if s.name == "BetaBot" && s.rated && s.base_minutes == 5 && s.category == "blitz"),
            &|e| {
                *e == Event::YouAccepted {
                    other: "BetaBot".into(),
                    kind: OfferKind::Match,
                }
            },
            &|e| *e == Event::SeekRemoved { indices: vec![0] },
            &|e| matches!(e, Event::Creating(c) if c.white == "AlphaBot" && c.category == "non-standard"),
            &|e| matches!(e, Event::GameStart(g) if !g.rated && g.category == "non-standard"),
            &|e| *e == Event::NoRatingChange,
        ],
    );
}

#[test]
fn resignation_draw_and_abort() {
    let Some(all) = recordings() else { return };
    for server in ["rpblc", "lasker"] {
        let a = events_chunked(
            get(&all, &format!("{server}/03_match_resign.AlphaBot.raw")),
            3,
        );
        assert_in_order(
            server,
            &a,
            &[
                &|e| offer_is(e, true, "BetaBot", None, false, 3, 2),
                &|e| matches!(e, Event::GameStart(g) if g.white == "BetaBot" && !g.rated),
                &|e| {
                    end_is(
                        e,
                        EndReason::Resignation,
                        GameResult::BlackWins,
                        Some("BetaBot"),
                    )
                },
                &|e| *e == Event::NoRatingChange,
            ],
        );
        let b = events_chunked(
            get(&all, &format!("{server}/03_match_resign.BetaBot.raw")),
            4,
        );
        assert!(b
            .iter()
            .any(|e| offer_is(e, false, "BetaBot", None, false, 3, 2)));

        let a = events_chunked(
            get(&all, &format!("{server}/04_draw_abort_unreg.AlphaBot.raw")),
            5,
        );
        assert_in_order(
            server,
            &a,
            &[
                &|e| offer_is(e, false, "AlphaBot", Some(Color::Black), true, 2, 12),
                &|e| {
                    *e == Event::OfferSent {
                        kind: OfferKind::Draw,
                    }
                },
                &|e| {
                    *e == Event::OfferDeclined {
                        by: "BetaBot".into(),
                        kind: OfferKind::Draw,
                    }
                },
                &|e| {
                    *e == Event::OfferReceived {
                        from: "BetaBot".into(),
                        kind: OfferKind::Draw,
                    }
                },
                &|e| end_is(e, EndReason::DrawAgreed, GameResult::Draw, None),
                &|e| offer_is(e, false, "AlphaBot", Some(Color::White), true, 5, 0),
                &|e| {
                    *e == Event::OfferSent {
                        kind: OfferKind::Abort,
                    }
                },
                &|e| end_is(e, EndReason::Aborted, GameResult::NoResult, None),
            ],
        );
        // lasker prints the rating adjustment before the result line, rpblc after it.
        assert!(a
            .iter()
            .any(|e| matches!(e, Event::RatingChange { category, .. } if category == "blitz")));
        let b = events_chunked(
            get(&all, &format!("{server}/04_draw_abort_unreg.BetaBot.raw")),
            6,
        );
        assert_in_order(
            server,
            &b,
            &[
                &|e| {
                    *e == Event::OfferReceived {
                        from: "AlphaBot".into(),
                        kind: OfferKind::Draw,
                    }
                },
                &|e| {
                    *e == Event::YouDeclined {
                        other: "AlphaBot".into(),
                        kind: OfferKind::Draw,
                    }
                },
                &|e| {
                    *e == Event::OfferSent {
                        kind: OfferKind::Draw,
                    }
                },
                &|e| end_is(e, EndReason::DrawAgreed, GameResult::Draw, None),
                &|e| {
                    *e == Event::OfferReceived {
                        from: "AlphaBot".into(),
                        kind: OfferKind::Abort,
                    }
                },
                &|e| end_is(e, EndReason::Aborted, GameResult::NoResult, None),
            ],
        );
        let s = events_chunked(
            get(&all, &format!("{server}/04_draw_abort_unreg.Stranger.raw")),
            7,
        );
        assert!(s.iter().any(|e| matches!(e, Event::Challenge(o)
            if o.challenger.rating == Rating::Unregistered && o.receiver.rating == Rating::Unregistered
               && o.category == "lightning" && !o.rated)));
        assert!(s.iter().any(|e| end_is(
            e,
            EndReason::Checkmate,
            GameResult::WhiteWins,
            Some("Stranger")
        )));
        let v = events_chunked(
            get(&all, &format!("{server}/04_draw_abort_unreg.Visitor.raw")),
            8,
        );
        assert!(v
            .iter()
            .any(|e| offer_is(e, false, "Visitor", Some(Color::White), false, 1, 0)));
        assert!(v.iter().any(|e| end_is(
            e,
            EndReason::Checkmate,
            GameResult::WhiteWins,
            Some("Stranger")
        )));
    }
}

#[test]
fn special_moves_and_flag() {
    let Some(all) = recordings() else { return };
    for server in ["rpblc", "lasker"] {
        for who in ["AlphaBot", "BetaBot"] {
            let name = format!("{server}/05_special_moves_flag.{who}.raw");
            let ev = events_chunked(get(&all, &name), 11);
            let bs = boards(&ev);
            let sans: Vec<&str> = bs
                .iter()
                .filter_map(|b| b.last_move_san.as_deref())
                .collect();
            for m in ["exf6", "gxh8=Q", "O-O-O", "O-O", "Qxf8"] {
                assert!(sans.contains(&m), "{name}: {m} missing in {sans:?}");
            }
            // After black castles long, black has no castling rights; after white castles,
            // white has none.
            let ooo = bs
                .iter()
                .find(|b| b.last_move_san.as_deref() == Some("O-O-O"))
                .expect("O-O-O");
            assert!(!ooo.black_castle_short && !ooo.black_castle_long && ooo.white_castle_short);
            assert_eq!(ooo.last_move_verbose.as_deref(), Some("o-o-o"));
            let ep = bs
                .iter()
                .find(|b| b.last_move_san.as_deref() == Some("f5"))
                .expect("f5");
            assert_eq!(ep.ep_file, Some(5));
            let promo = bs
                .iter()
                .find(|b| b.last_move_san.as_deref() == Some("gxh8=Q"))
                .expect("promotion");
            assert_eq!(promo.piece_at(7, 7), Some('Q'));
            assert_in_order(
                &name,
                &ev,
                &[
                    &|e| {
                        end_is(
                            e,
                            EndReason::Resignation,
                            GameResult::WhiteWins,
                            Some("BetaBot"),
                        )
                    },
                    &|e| matches!(e, Event::GameStart(g) if g.category == "lightning"),
                    &|e| end_is(e, EndReason::Time, GameResult::WhiteWins, Some("BetaBot")),
                ],
            );
            if who == "AlphaBot" {
                assert!(ev.iter().any(
                    |e| matches!(e, Event::Refused { text } if text.starts_with("You cannot flag"))
                ));
            }
        }
    }
}

#[test]
fn guests_seek_unseek_play() {
    let Some(all) = recordings() else { return };
    let g1 = events_chunked(
        get(&all, "lasker/06_guests_seek_unseek_play.guest1.raw"),
        13,
    );
    assert_in_order(
        "guest1",
        &g1,
        &[
            &|e| matches!(e, Event::Seek(s) if s.name == "GuestCWQY" && s.base_minutes == 5),
            &|e| matches!(e, Event::SeekRemoved { .. }),
            &|e| matches!(e, Event::Seek(s) if s.name == "GuestCWQY" && s.base_minutes == 3),
            &|e| matches!(e, Event::Refused { text } if text.contains("your own seek")),
            &|e| {
                *e == Event::OfferAccepted {
                    by: "GuestTWVI".into(),
                    kind: OfferKind::Match,
                }
            },
            &|e| matches!(e, Event::GameStart(g) if g.white == "GuestCWQY" && g.black == "GuestTWVI"),
            &|e| {
                end_is(
                    e,
                    EndReason::Checkmate,
                    GameResult::WhiteWins,
                    Some("GuestTWVI"),
                )
            },
        ],
    );
    let g2 = events_chunked(
        get(&all, "lasker/06_guests_seek_unseek_play.guest2.raw"),
        14,
    );
    assert_eq!(
        g2.iter()
            .filter(|e| matches!(e, Event::SeekRemoved { .. }))
            .count(),
        2
    );
    assert!(g2.contains(&Event::YouAccepted {
        other: "GuestCWQY".into(),
        kind: OfferKind::Match
    }));
}

#[test]
fn disconnect_adjourn_resume() {
    let Some(all) = recordings() else { return };
    let a = events_chunked(
        get(&all, "lasker/07_disconnect_adjourn_resume.AlphaBot.raw"),
        17,
    );
    assert_in_order(
        "lasker AlphaBot",
        &a,
        &[
            &|e| *e == Event::OpponentLostContact,
            &|e| end_is(e, EndReason::Adjourned, GameResult::NoResult, None),
            &|e| *e == Event::AdjournedGames { count: 1 },
            &|e| {
                *e == Event::Arrival {
                    name: "BetaBot".into(),
                    adjourned: true,
                }
            },
            &|e| matches!(e, Event::Challenge(o) if o.adjourned && o.challenger.name == "BetaBot"),
            &|e| matches!(e, Event::GameStart(g) if g.continuing),
            &|e| matches!(e, Event::Board(b) if b.move_number == 2 && b.last_move_san.as_deref() == Some("d5")),
            &|e| {
                end_is(
                    e,
                    EndReason::Resignation,
                    GameResult::WhiteWins,
                    Some("BetaBot"),
                )
            },
        ],
    );
    // The server repeats the `Continuing` line; the game starts once.
    let cont = a
        .iter()
        .filter(|e| matches!(e, Event::GameStart(g) if g.continuing))
        .count();
    assert_eq!(cont, 1);
    let b = events_chunked(
        get(&all, "lasker/07_disconnect_adjourn_resume.BetaBot.raw"),
        18,
    );
    assert!(
        !b.iter().any(|e| matches!(e, Event::GameEnd(_))),
        "BetaBot dropped mid-game"
    );
    assert_eq!(boards(&b).len(), 3);
    let again = events_chunked(
        get(
            &all,
            "lasker/07_disconnect_adjourn_resume.BetaBot_again.raw",
        ),
        19,
    );
    assert_in_order(
        "lasker BetaBot again",
        &again,
        &[
            &|e| *e == Event::AdjournedGames { count: 1 },
            &|e| matches!(e, Event::Issuing(o) if o.adjourned),
            &|e| {
                *e == Event::OfferAccepted {
                    by: "AlphaBot".into(),
                    kind: OfferKind::Match,
                }
            },
            &|e| matches!(e, Event::GameStart(g) if g.continuing),
        ],
    );

    let r = events_chunked(
        get(&all, "rpblc/07_disconnect_adjourn_resume.AlphaBot.raw"),
        20,
    );
    assert_in_order(
        "rpblc AlphaBot",
        &r,
        &[
            &|e| {
                *e == Event::Arrival {
                    name: "BetaBot".into(),
                    adjourned: true,
                }
            },
            &|e| *e == Event::OpponentLostContact,
            &|e| end_is(e, EndReason::Adjourned, GameResult::NoResult, None),
            &|e| offer_is(e, true, "BetaBot", None, true, 2, 12),
            &|e| {
                end_is(
                    e,
                    EndReason::Resignation,
                    GameResult::BlackWins,
                    Some("BetaBot"),
                )
            },
            &|e| {
                *e == Event::RatingChange {
                    category: "blitz".into(),
                    old: 1861,
                    new: 1896,
                }
            },
        ],
    );
}

#[test]
fn observers_whisper_kibitz() {
    let Some(all) = recordings() else { return };
    for server in ["rpblc", "lasker"] {
        let w = events_chunked(
            get(
                &all,
                &format!("{server}/08_observers_whisper_kibitz.Watcher.raw"),
            ),
            23,
        );
        assert_in_order(
            server,
            &w,
            &[
                &|e| *e == Event::ObserveStarted { game: 1 },
                &|e| {
                    matches!(e, Event::Chat(c) if c.kind == ChatKind::Whisper && c.from == "GammaBot"
                    && c.rating == Some(Rating::Unrated) && c.text == "Sicilian! (from a registered observer)")
                },
                &|e| matches!(e, Event::Refused { text } if text.starts_with("You must be registered")),
                &|e| matches!(e, Event::Chat(c) if c.kind == ChatKind::Kibitz && c.from == "BetaBot" && c.text == "thanks"),
                &|e| *e == Event::ObserveStopped { game: 1 },
            ],
        );
        let g = events_chunked(
            get(
                &all,
                &format!("{server}/08_observers_whisper_kibitz.GammaBot.raw"),
            ),
            24,
        );
        assert!(g.contains(&Event::Observers {
            game: 1,
            names: vec!["GammaBot".into(), "Watcher".into()]
        }));
        assert!(g.iter().any(
            |e| matches!(e, Event::Chat(c) if c.kind == ChatKind::Whisper && c.from == "AlphaBot"
            && c.rating.and_then(|r| r.value()).is_some())
        ));
        let a = events_chunked(
            get(
                &all,
                &format!("{server}/08_observers_whisper_kibitz.AlphaBot.raw"),
            ),
            25,
        );
        assert!(a.contains(&Event::ChatDelivered {
            whisper: true,
            count: 2
        }));
        let b = events_chunked(
            get(
                &all,
                &format!("{server}/08_observers_whisper_kibitz.BetaBot.raw"),
            ),
            26,
        );
        assert!(b.contains(&Event::ChatDelivered {
            whisper: false,
            count: 3
        }));
        assert!(b.iter().any(|e| end_is(
            e,
            EndReason::Resignation,
            GameResult::WhiteWins,
            Some("BetaBot")
        )));
    }
}

#[test]
fn significant_events_of_a_whole_game_in_order() {
    // The exact significant sequence for one client, as a guard against silent changes.
    let Some(all) = recordings() else { return };
    let ev = events(get(&all, "rpblc/03_match_resign.BetaBot.raw"));
    let kinds: Vec<&str> = significant(&ev).iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        vec![
            "name-registered",
            "setting-ack",
            "issuing",
            "offer-accepted",
            "game-start",
            "board",
            "board",
            "board",
            "game-end",
            "no-rating-change",
            "goodbye",
        ]
    );
}
