//! Scenario checks on the recordings, one test per scenario group: resignation, draw and
//! abort offers, special moves and flag, guests with seeks, adjournment and resumption,
//! observers with whispers and kibitzes. (Logins, the fool's mate match and the
//! chunking-independence checks are in `ics_replay.rs`.)

use crate::ics_common;

use ics_common::*;
use wily::ics::events::{ChatKind, EndReason, GameResult, OfferKind};
use wily::ics::{Color, Event, Rating};

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
