//! Session tests of playing a game: seeks at login, thinking and pondering, book moves,
//! resigning, offers, illegal moves, the game's end, list changes mid-game and flagging.

use super::*;

#[test]
fn login_posts_the_seeks() {
    let (s, _) = session();
    let cmds = s.seek_commands();
    assert_eq!(
        cmds,
        vec!["seek 3 0 unrated m", "seek 5 2 unrated m"],
        "guest handle: unrated; manual seeks by default"
    );
    let mut c = cfg();
    c.server.handle = "wily".into();
    let mut s = Session::new(c, OpponentLists::default(), Box::new(NoBook));
    let a = s.handle(
        ev(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        Instant::now(),
    );
    // The follow list is read back even when nothing is followed (old entries go);
    // guests' tells are heard (public commands) and the finger notes read.
    assert_eq!(
        sends(&a),
        vec![
            "=follow",
            "set tell 1",
            "finger",
            "seek 3 0 rated m",
            "seek 5 2 rated m"
        ]
    );
}

#[test]
fn thinks_moves_ponders_and_ponder_hits() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let spec = started(&a).expect("a search for the first move").clone();
    assert!(spec.new_game && !spec.limits.ponder);
    assert_eq!(spec.limits.wtime, Some(Duration::from_millis(60_000)));
    let start = parse_fen(START).unwrap();
    let a = s.handle(
        Input::Done {
            id: spec.id,
            result: result(&start, "e2e4", Some("e7e5"), 30),
        },
        now,
    );
    assert_eq!(sends(&a), vec!["MOVE e2e4"]);
    // The server echoes the move: ponder on e7e5.
    let a = s.handle(
        board(E4, Relation::OpponentToMove, Some("P/e2-e4"), now),
        now,
    );
    let ponder = started(&a).expect("ponder search").clone();
    assert!(ponder.limits.ponder);
    assert!(crate::play::game::same_position(
        &ponder.board,
        &parse_fen(E4E5).unwrap()
    ));
    // The opponent plays it: ponder hit, no new search.
    let t = now + Duration::from_millis(5);
    let a = s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), t), t);
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::PonderHit { id } if *id == ponder.id)));
    assert!(started(&a).is_none());
    let b = parse_fen(E4E5).unwrap();
    let a = s.handle(
        Input::Done {
            id: ponder.id,
            result: result(&b, "g1f3", None, 25),
        },
        t,
    );
    let m = a.iter().find_map(|x| match x {
        Action::SendMove {
            text,
            source,
            since,
        } => Some((text.clone(), *source, *since)),
        _ => None,
    });
    assert_eq!(
        m,
        Some(("g1f3".to_string(), MoveSource::PonderThenSearch, t))
    );
}

#[test]
fn ponder_miss_restarts_the_search() {
    let (mut s, now) = session();
    let a = answer_e4(&mut s, now, Some("c7c5"), 30);
    let ponder = started(&a).unwrap().id;
    let a = s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), now), now);
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id } if *id == ponder)));
    let spec = started(&a).expect("a fresh search");
    assert!(!spec.limits.ponder);
    // A late result of the stopped ponder search is ignored.
    let b = parse_fen(E4E5).unwrap();
    let a = s.handle(
        Input::Done {
            id: ponder,
            result: result(&b, "g1f3", None, 0),
        },
        now,
    );
    assert!(sends(&a).is_empty());
}

#[test]
fn book_moves_go_out_at_once() {
    let mut c = cfg();
    c.engine.book = true;
    c.talk.whisper = 4;
    let (mut s, now) = session_with(c, Box::new(OneMoveBook));
    let a = start_game(&mut s, now);
    assert!(started(&a).is_none());
    assert_eq!(sends(&a), vec!["MOVE e2e4", "whisper book 1. e4 (e4 100%)"]);
    assert!(a.iter().any(|x| matches!(
        x,
        Action::SendMove {
            source: MoveSource::Book,
            ..
        }
    )));
}

#[test]
fn policy_resign_integration() {
    // Drive the policy directly through the session's game: five low scores, plenty of
    // opponent time: resign; with the opponent short of time: play on.
    for (opp_ms, expect) in [(60_000i64, true), (10_000, false)] {
        let (mut s, now) = session();
        start_game(&mut s, now);
        let g = s.play.game.as_mut().unwrap();
        for _ in 0..4 {
            g.policy.record_score(-2000);
        }
        if let Some(c) = &mut g.clocks {
            c.black_ms = opp_ms;
            c.white_ms = 30_000;
        }
        let id = s.bot.search.as_ref().unwrap().id;
        let b = parse_fen(START).unwrap();
        let a = s.handle(
            Input::Done {
                id,
                result: result(&b, "e2e4", None, -2000),
            },
            now,
        );
        assert_eq!(
            sends(&a).contains(&"resign".to_string()),
            expect,
            "opponent clock {opp_ms}"
        );
    }
}

#[test]
fn draw_abort_takeback_offers() {
    let (mut s, now) = session();
    start_game(&mut s, now);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Abort,
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["abort"]);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Takeback(1),
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["decline takeback"]);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Draw,
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["decline draw"], "no score yet");
    s.play.game.as_mut().unwrap().policy.record_score(-10);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Draw,
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["draw"]);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Mallory".into(),
            kind: OfferKind::Draw,
        }),
        now,
    );
    assert!(sends(&a).is_empty(), "offers from others are not ours");
}

#[test]
fn illegal_move_refreshes_and_thinks_again() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let b = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&b, "e2e4", None, 0),
        },
        now,
    );
    let a = s.handle(
        ev(ServerEvent::IllegalMove {
            text: "Illegal move (e2e4).".into(),
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["refresh"]);
    let a = s.handle(board(START, Relation::MyMove, None, now), now);
    assert!(started(&a).is_some(), "thinks again after the refresh");
}

#[test]
fn game_end_while_thinking_stops_and_records() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let a = s.handle(
        ev(ServerEvent::GameEnd {
            game: 7,
            white: "wily".into(),
            black: "Bob".into(),
            result: "1-0".into(),
            kind: EndKind::Resignation,
            text: "Bob resigns".into(),
        }),
        now,
    );
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id: i } if *i == id)));
    let over = a.iter().find_map(|x| match x {
        Action::GameOver(f) => Some(f),
        _ => None,
    });
    let f = over.expect("game recorded");
    assert_eq!(f.record.result, "1-0");
    assert_eq!(f.record.termination, "normal");
    assert_eq!(s.totals().wins, 1);
    assert!(
        sends(&a).iter().any(|c| c.starts_with("seek ")),
        "re-seeks after the game"
    );
    // The late result is ignored.
    let b = parse_fen(START).unwrap();
    assert!(sends(&s.handle(
        Input::Done {
            id,
            result: result(&b, "e2e4", None, 0)
        },
        now
    ))
    .is_empty());
}

#[test]
fn list_change_changes_the_resign_threshold_mid_game() {
    let lists = testkit::scratch::dir("session-lists");
    let mut c = cfg();
    c.paths.lists = lists.path().to_path_buf();
    let (mut s, now) = session_with(c, Box::new(NoBook));
    start_game(&mut s, now);
    assert_eq!(
        s.play.game.as_ref().unwrap().policy.profile().resign_cp,
        Some(900)
    );
    let a = s.handle(
        ev(ServerEvent::Tell {
            from: "Boss".into(),
            titles: ServerTitles::default(),
            text: "list GM +bob".into(),
        }),
        now,
    );
    assert!(sends(&a)[0].contains("added bob"), "{:?}", sends(&a));
    assert_eq!(
        s.play.game.as_ref().unwrap().policy.profile().resign_cp,
        Some(300)
    );
    s.handle(
        ev(ServerEvent::Tell {
            from: "Boss".into(),
            titles: ServerTitles::default(),
            text: "list GM -bob".into(),
        }),
        now,
    );
    assert_eq!(
        s.play.game.as_ref().unwrap().policy.profile().resign_cp,
        Some(900)
    );
}

#[test]
fn flags_an_opponent_whose_clock_ran_out() {
    let (mut s, now) = session();
    answer_e4(&mut s, now, None, 0);
    assert!(sends(&s.handle(Input::Tick, now + Duration::from_secs(59)))
        .iter()
        .all(|c| c != "flag"));
    let late = now + Duration::from_millis(60_300);
    assert!(sends(&s.handle(Input::Tick, late)).contains(&"flag".to_string()));
    assert!(
        !sends(&s.handle(Input::Tick, late)).contains(&"flag".to_string()),
        "not twice at once"
    );
}

#[test]
fn ponder_hit_after_the_budget_moves_at_once() {
    let (mut s, now) = session();
    let a = answer_e4(&mut s, now, Some("e7e5"), 30);
    let ponder = started(&a).unwrap().id;
    // 60 s on the clock: a budget of about 2 s; the opponent took 10 s.
    let t = now + Duration::from_secs(10);
    let a = s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), t), t);
    assert!(
        a.iter()
            .any(|x| matches!(x, Action::Finish { id } if *id == ponder)),
        "{a:?}"
    );
    let b = parse_fen(E4E5).unwrap();
    let a = s.handle(
        Input::Done {
            id: ponder,
            result: result(&b, "g1f3", None, 25),
        },
        t,
    );
    assert_eq!(sends(&a), vec!["MOVE g1f3"]);
}

#[test]
fn swindle_mode_follows_the_opponent_class() {
    // Bob is a person: every search of the game asks the engine to swindle.
    let lists = testkit::scratch::dir("session-swindle");
    let mut c = cfg();
    c.paths.lists = lists.path().to_path_buf();
    let (mut s, now) = session_with(c, Box::new(NoBook));
    let a = start_game(&mut s, now);
    let first = started(&a).expect("a search");
    assert!(first.swindle);
    let id = first.id;
    // Listed as a computer mid-game: the next search has swindle mode off.
    let a = s.handle(
        ev(ServerEvent::Tell {
            from: "Boss".into(),
            titles: ServerTitles::default(),
            text: "list C +bob".into(),
        }),
        now,
    );
    assert!(sends(&a)[0].contains("added bob"), "{:?}", sends(&a));
    assert!(!s.play.game.as_ref().unwrap().policy.profile().swindle);
    let start = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&start, "e2e4", Some("c7c5"), 20),
        },
        now,
    );
    // The ponder search on the expected reply, then a real search after a miss.
    let a = s.handle(
        board(E4, Relation::OpponentToMove, Some("P/e2-e4"), now),
        now,
    );
    assert!(!started(&a).expect("the ponder search").swindle);
    let a = s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), now), now);
    assert!(!started(&a).expect("the next search").swindle);
}

#[test]
fn swindle_settings_turn_it_around() {
    let mut c = cfg();
    c.opponents.swindle_humans = false;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    let a = start_game(&mut s, now);
    assert!(!started(&a).expect("a search").swindle);
}

#[test]
fn icc_game_start_titles_classify_an_opponent_met_by_a_seek() {
    use ics::pipeline::{events_of, PipelineOptions};
    // Written by hand from ICC's formats.txt: DG_MY_GAME_STARTED (15) of a game no challenge
    // announced (a seek was accepted); field 16 is the black titles: Bob is a GM.
    let bytes =
        b"\x19(15 7 wily Bob 0 Blitz 0 1 0 1 0 1 {} 1500 2500 1234 {C} {GM} 0 0 0 {} 0\x19)";
    let opts = PipelineOptions {
        icc_level2: true,
        ..Default::default()
    };
    let (events, _) = events_of(bytes, &[bytes.len()], opts);
    let (mut s, now) = session();
    let mut told = false;
    for e in events {
        if let Some(se) = crate::translate::translate(e, now) {
            told |= matches!(&se, ServerEvent::PlayersTitles(p)
                if p.iter().any(|(n, t)| n == "Bob" && t.gm && !t.computer));
            s.handle(ev(se), now);
        }
    }
    assert!(told, "the game start's titles reach the bot");
    start_game(&mut s, now);
    let g = s.play.game.as_ref().expect("the game is played");
    assert_eq!(g.policy.profile().class.category, lists::Category::Gm);
}
