//! Replays every recording in `shared/data/ics` through the whole byte -> event pipeline,
//! in one piece, byte by byte and in random chunk sizes (fixed seeds): the events never
//! depend on the split, every style-12 line becomes a board that follows from the last
//! by a legal move, no telnet byte leaks. Then logins (registered, bad password, guest,
//! unregistered) and the fool's-mate match with observer and chat. The other scenarios
//! are checked in `ics_scenarios.rs`.

use crate::ics_common;

use ics_common::*;
use wily::ics::events::{ChatKind, EndReason, GameResult, OfferKind, Prompt, Relation};
use wily::ics::login::{Login, LoginFailure, Password, Step};
use wily::ics::{Color, Event};

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
