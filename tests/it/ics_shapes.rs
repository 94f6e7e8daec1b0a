//! Real FICS and ICC shapes that the recordings do not contain, written as literal bytes
//! from the servers' protocol documentation (style 12 with milliseconds, clock-ticking and
//! lag fields; `iset seekinfo`, `iset pendinfo`; timeseal pings; ICC's `aics%` prompt),
//! run through the whole pipeline.

use wily::ics::events::{
    title, ChatKind, DisconnectReason, EndReason, GameResult, OfferKind, Prompt, RatingFlag,
    Relation,
};
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::{Color, Event, Rating};

fn run(bytes: &[u8]) -> (Vec<Event>, u32) {
    let whole = events_of(bytes, &[usize::MAX], PipelineOptions::default());
    for sizes in [&[1usize][..], &[2, 3, 5, 7], &[13, 1, 64]] {
        assert_eq!(
            events_of(bytes, sizes, PipelineOptions::default()),
            whole,
            "split {sizes:?}"
        );
    }
    whole
}

fn no_prompts(ev: Vec<Event>) -> Vec<Event> {
    ev.into_iter()
        .filter(|e| !matches!(e, Event::Prompt(_)))
        .collect()
}

#[test]
fn fics_style12_with_ms_and_lag() {
    let bytes = b"\n\r<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 101 GuestQRST wily 1 3 0 39 39 179234 180000 1 P/e2-e4 (0:00.766) e4 0 1 312\n\rfics% ";
    let (ev, _) = run(bytes);
    let ev = no_prompts(ev);
    assert_eq!(ev.len(), 1);
    let Event::Board(b) = &ev[0] else {
        panic!("{ev:?}")
    };
    assert!(b.clocks_in_ms);
    assert_eq!(
        (b.white_clock_ms, b.black_clock_ms, b.last_move_time_ms),
        (179_234, 180_000, 766)
    );
    assert_eq!((b.clock_ticking, b.lag_ms), (Some(true), Some(312)));
    assert_eq!(
        (b.game, b.relation, b.side_to_move),
        (101, Relation::MyMove, Color::Black)
    );
    assert_eq!(
        b.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn negative_clock_and_examined_and_isolated_boards() {
    let lines = [
        "<12> -------- -------- -------- ----k--- -------- -------- ----K--- -------- W -1 0 0 0 0 12 55 A B -1 1 0 0 0 -1523 4000 60 K/d2-e2 (0:02.100) Ke2 0 1 0",
        "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 me me 2 0 0 39 39 0 0 1 none (0:00) none 0 0 0",
        "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 A B -3 0 0 39 39 0 0 1 none (0:00) none 0",
    ];
    let bytes = lines.join("\n\r") + "\n\r";
    let (ev, _) = run(bytes.as_bytes());
    let b: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Board(b) => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(b.len(), 3);
    assert_eq!(b[0].white_clock_ms, -1523);
    assert_eq!(b[1].relation, Relation::Examining);
    assert_eq!(b[2].relation, Relation::IsolatedPosition);
}

#[test]
fn fics_seekinfo_lines() {
    let bytes = b"fics% <sc>\n\r<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f\n\r<sn> 12 w=saeph ti=00 rt=1407P t=1 i=0 r=u tp=lightning c=W rr=0-9999 a=f f=t\n\rfics% <sr> 8 12\n\rfics% ";
    let ev = no_prompts(run(bytes).0);
    assert_eq!(ev[0], Event::SeeksCleared);
    let Event::Seek(s) = &ev[1] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (s.index, s.name.as_str(), s.titles, s.category.as_str()),
        (8, "visar", title::COMPUTER, "suicide")
    );
    let Event::Seek(s) = &ev[2] else {
        panic!("{ev:?}")
    };
    assert!(s.notify && !s.automatic && s.formula && !s.rated);
    assert_eq!(
        s.rating,
        Rating::Rated {
            value: 1407,
            flag: RatingFlag::Provisional
        }
    );
    assert_eq!(s.color, Some(Color::White));
    assert_eq!(
        ev[3],
        Event::SeekRemoved {
            indices: vec![8, 12]
        }
    );
}

#[test]
fn fics_pendinfo_and_offers() {
    let bytes = b"\n\rChallenge: GuestQRST (----) [black] wily (2100E) unrated blitz 5 0.\n\r--** GuestQRST is a computer **--\n\rYou can \"accept\" or \"decline\", or propose different parameters.\n\r<pf> 34 w=GuestQRST t=match p=GuestQRST (----) [black] wily (2100E) unrated blitz 5 0\n\rfics% \n\rGuestQRST would like to take back 1 half move(s).\n\r<pf> 35 w=GuestQRST t=takeback p=1\n\rfics% <pr> 35\n\rfics% \n\rGuestQRST withdraws the match offer.\n\r<pr> 34\n\rfics% ";
    let ev = no_prompts(run(bytes).0);
    let Event::Challenge(o) = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(o.challenger_color, Some(Color::Black));
    assert_eq!(
        o.receiver.rating,
        Rating::Rated {
            value: 2100,
            flag: RatingFlag::Estimated
        }
    );
    assert_eq!(
        ev[1],
        Event::IsComputer {
            name: "GuestQRST".into()
        }
    );
    assert!(matches!(&ev[2], Event::Unknown(_)));
    assert!(matches!(&ev[3], Event::PendingFrom(p) if p.index == 34 && p.kind == "match"));
    assert_eq!(
        ev[4],
        Event::OfferReceived {
            from: "GuestQRST".into(),
            kind: OfferKind::Takeback(1)
        }
    );
    assert!(matches!(&ev[5], Event::PendingFrom(p) if p.index == 35 && p.params == "1"));
    assert_eq!(ev[6], Event::PendingRemoved { index: 35 });
    assert_eq!(
        ev[7],
        Event::OfferWithdrawn {
            by_me: false,
            other: "GuestQRST".into(),
            kind: OfferKind::Match
        }
    );
    assert_eq!(ev[8], Event::PendingRemoved { index: 34 });
}

#[test]
fn fics_guest_login_and_timeseal_pings() {
    let bytes = b"\n\rlogin: \xff\xfb\x01\n\rLogging you in as \"GuestZXCV\"; you may use this name to play unrated games.\n\r(After logging in, do \"help register\" for more info on how to register.)\n\r\n\rPress return to enter the server as \"GuestZXCV\":\xff\xfc\x01\n\r**** Starting FICS session as GuestZXCV(U) ****\n\r\n\r[G]\n\rfics% [G]\0\n\rGuestZXCV(U)(50): hi[G]\0 all\n\rfics% ";
    let (ev, pings) = run(bytes);
    assert_eq!(pings, 3);
    let ev = no_prompts(ev);
    assert_eq!(
        ev[0],
        Event::GuestName {
            name: "GuestZXCV".into()
        }
    );
    assert_eq!(
        ev[1],
        Event::Unknown(
            "(After logging in, do \"help register\" for more info on how to register.)".into()
        )
    );
    assert_eq!(
        ev[2],
        Event::SessionStarted {
            name: "GuestZXCV".into(),
            unregistered: true
        }
    );
    let Event::Chat(c) = &ev[3] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (c.kind.clone(), c.text.as_str()),
        (ChatKind::Channel(50), "hi all")
    );
    let (with_prompts, _) = run(bytes);
    assert!(with_prompts.contains(&Event::Prompt(Prompt::PressReturn {
        name: "GuestZXCV".into()
    })));
}

#[test]
fn icc_prompt_and_lines() {
    let bytes = b"aics% \n\rChallenge: Hyatt (2850) wily (2400) rated blitz 3 0.\n\raics% \n\rCrafty(C)(2750)[23] whispers: d=22 +0.35 Nf3 Nf6\n\raics% {Game 23 (Crafty vs. Hyatt) Hyatt resigns} 1-0\n\raics% ";
    let (ev, _) = run(bytes);
    assert_eq!(
        ev.iter()
            .filter(|e| **e == Event::Prompt(Prompt::Command))
            .count(),
        4
    );
    let ev = no_prompts(ev);
    assert!(matches!(&ev[0], Event::Challenge(o) if o.challenger.name == "Hyatt" && o.rated));
    let Event::Chat(c) = &ev[1] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (c.kind.clone(), c.titles.clone(), c.game),
        (ChatKind::Whisper, vec!["C".to_string()], Some(23))
    );
    assert!(
        matches!(&ev[2], Event::GameEnd(g) if g.reason == EndReason::Resignation && g.result == GameResult::WhiteWins)
    );
}

#[test]
fn chat_with_titles_and_shouts() {
    let bytes = b"\n\rKasparov(GM)(2812)[12] kibitzes: nice\n\rfics% \n\rRoboBot(C)(*) tells you: hello\n\rfics% \n\rSomeone(FM) shouts: blitz anyone?\n\rfics% \n\rSomeone c-shouts: 5 0?\n\rfics% \n\r--> Someone smiles\n\rfics% \n\rOpp[12] says: gg\n\rfics% ";
    let ev = no_prompts(run(bytes).0);
    let kinds: Vec<ChatKind> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Chat(c) => Some(c.kind.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            ChatKind::Kibitz,
            ChatKind::Tell,
            ChatKind::Shout,
            ChatKind::CShout,
            ChatKind::Emote,
            ChatKind::Say
        ]
    );
    let Event::Chat(k) = &ev[0] else { panic!() };
    assert!(k.has_title("GM"));
    assert_eq!(
        (k.rating.and_then(|r| r.value()), k.game),
        (Some(2812), Some(12))
    );
    let Event::Chat(t) = &ev[1] else { panic!() };
    assert!(t.has_title("C") && t.has_title("*"));
}

#[test]
fn every_end_reason_through_the_pipeline() {
    let tails = [
        (
            "wily forfeits by disconnection} 0-1",
            EndReason::Disconnection,
        ),
        ("Game drawn by stalemate} 1/2-1/2", EndReason::Stalemate),
        ("Game drawn by repetition} 1/2-1/2", EndReason::Repetition),
        (
            "Game drawn by the 50 move rule} 1/2-1/2",
            EndReason::FiftyMoveRule,
        ),
        (
            "Neither player has mating material} 1/2-1/2",
            EndReason::InsufficientMaterial,
        ),
        (
            "wily ran out of time and Opp has no material to mate} 1/2-1/2",
            EndReason::TimeVsNoMaterial,
        ),
        ("Game aborted on move 1} *", EndReason::AbortedOnMove1),
        ("Game courtesyaborted by Opp} *", EndReason::CourtesyAborted),
        (
            "Game courtesyadjourned by Opp} *",
            EndReason::CourtesyAdjourned,
        ),
        (
            "Game adjourned by mutual agreement} *",
            EndReason::Adjourned,
        ),
        ("Opp wins by adjudication} 0-1", EndReason::Adjudication),
    ];
    let mut bytes = Vec::new();
    for (t, _) in &tails {
        bytes.extend_from_slice(format!("\n\r{{Game 9 (wily vs. Opp) {t}\n\rfics% ").as_bytes());
    }
    let ev = no_prompts(run(&bytes).0);
    let got: Vec<EndReason> = ev
        .iter()
        .filter_map(|e| match e {
            Event::GameEnd(g) => Some(g.reason),
            _ => None,
        })
        .collect();
    assert_eq!(got, tails.iter().map(|t| t.1).collect::<Vec<_>>());
}

#[test]
fn notices_auto_logout_and_arrivals() {
    let bytes = b"\n\rNotification: Hyatt has arrived.\n\rfics% \n\rNotification: Hyatt has departed.\n\rfics% \n\rYou have 2 adjourned games.\n\r\n\r**** Auto-logout because you were idle more than 60 minutes. ****\n\rThank you for using the Free Internet Chess server (http://www.freechess.org).\n\r";
    let ev = no_prompts(run(bytes).0);
    assert_eq!(
        ev,
        vec![
            Event::Arrival {
                name: "Hyatt".into(),
                adjourned: false
            },
            Event::Departure {
                name: "Hyatt".into()
            },
            Event::AdjournedGames { count: 2 },
            Event::AutoLogout {
                text: "**** Auto-logout because you were idle more than 60 minutes. ****".into()
            },
            Event::Goodbye,
        ]
    );
    // Not parsed: reported by the connection itself.
    let _ = DisconnectReason::Dead;
}
