//! Session tests of what others say to wily: challenges, operator commands and strangers,
//! and observed games (analysis, whispers, boards of games not observed).

use super::*;
use ics::outqueue::{OutLine, OutQueue, RateLimit};

fn challenge(
    name: &str,
    base: u32,
    computer_notice: bool,
    s: &mut Session,
    now: Instant,
) -> Vec<String> {
    let mut out = s.handle(
        ev(ServerEvent::Challenge(Challenge {
            name: name.into(),
            rating: Some(1500),
            registered: true,
            titles: ServerTitles::default(),
            rated: true,
            kind: "blitz".into(),
            variant: None,
            base,
            increment: 0,
            other_clock: None,
            adjourned: false,
        })),
        now,
    );
    if computer_notice {
        out.extend(s.handle(ev(ServerEvent::IsComputer { name: name.into() }), now));
    }
    out.extend(s.handle(Input::Tick, now + Duration::from_millis(200)));
    sends(&out)
        .into_iter()
        .filter(|c| !c.starts_with("seek") && c != "unseek")
        .collect()
}

#[test]
fn challenges_are_filtered_politely() {
    let (mut s, now) = session();
    assert_eq!(
        challenge("Alice", 3, false, &mut s, now),
        vec!["accept Alice"]
    );
    let d = challenge("Carol", 500, false, &mut s, now);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[0].starts_with("tell Carol Sorry Carol"));
    assert_eq!(d[1], "decline Carol");
    s.bot.cfg.accept.computers = false;
    let d = challenge("DeepBot", 3, true, &mut s, now);
    assert_eq!(
        d.last().map(String::as_str),
        Some("decline DeepBot"),
        "{d:?}"
    );
    assert_eq!(s.totals().declined, 2);
}

#[test]
fn operator_obeyed_stranger_answered_once() {
    let (mut s, now) = session();
    let a = s.handle(
        ev(ServerEvent::Tell {
            from: "boss".into(),
            titles: ServerTitles::default(),
            text: "seek off".into(),
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["unseek", "tell boss seeking off"]);
    assert!(!s.matching.seeking);
    let a = s.handle(
        ev(ServerEvent::Tell {
            from: "boss".into(),
            titles: ServerTitles::default(),
            text: "rm -rf /".into(),
        }),
        now,
    );
    assert_eq!(sends(&a).len(), 1);
    assert!(sends(&a)[0].starts_with("tell boss unknown command rm"));
    let stranger = || {
        ev(ServerEvent::Tell {
            from: "Eve".into(),
            titles: ServerTitles::default(),
            text: "seek on".into(),
        })
    };
    let a = s.handle(stranger(), now);
    assert_eq!(sends(&a).len(), 1);
    assert!(sends(&a)[0].starts_with("tell Eve Hi!"));
    assert!(!s.matching.seeking, "a stranger's command is not obeyed");
    assert!(
        sends(&s.handle(stranger(), now)).is_empty(),
        "answered once only"
    );
}

#[test]
fn observing_analyses_and_whispers() {
    let mut c = cfg();
    c.observe.whisper = 2;
    c.talk.noise = 1000;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    let obs = |fen: &str, last: Option<&str>| {
        ev(ServerEvent::Board(Box::new(BoardUpdate {
            game: 12,
            white: "Carl".into(),
            black: "Dana".into(),
            relation: Relation::Observing,
            board: parse_fen(fen).unwrap(),
            castling: CastleFlags::of_board(&parse_fen(fen).unwrap()),
            white_ms: 60_000,
            black_ms: 60_000,
            base: 5,
            increment: 0,
            move_number: 1,
            last_move_verbose: last.map(String::from),
            last_move_san: None,
            last_move_ms: 0,
            received: now,
        })))
    };
    s.handle(ev(ServerEvent::ObserveStarted { game: 12 }), now);
    let a = s.handle(obs(START, None), now);
    let spec = started(&a).expect("analysis").clone();
    assert!(spec.limits.infinite);
    let info = engine::SearchInfo {
        depth: 9,
        score: Score::Cp(20),
        nodes: 5000,
        pv: vec![move_from_uci(&parse_fen(START).unwrap(), "d2d4", false).unwrap()],
        time: Duration::from_millis(500),
        multipv: 1,
        ..Default::default()
    };
    s.handle(Input::Info { id: spec.id, info }, now);
    let a = s.handle(obs(E4, Some("P/e2-e4")), now);
    let cmds = sends(&a);
    assert_eq!(cmds, vec!["whisper d9 +0.20 0.5s"]);
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id } if *id == spec.id)));
    let next = started(&a).expect("restarted").id;
    let a = s.handle(
        ev(ServerEvent::GameEnd {
            game: 12,
            white: "Carl".into(),
            black: "Dana".into(),
            result: "0-1".into(),
            kind: EndKind::Resignation,
            text: "Carl resigns".into(),
        }),
        now,
    );
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id } if *id == next)));
    assert!(s.active_search().is_none());
}

#[test]
fn boards_of_games_not_observed_are_ignored() {
    let (mut s, now) = session();
    let a = s.handle(
        ev(ServerEvent::Board(Box::new(BoardUpdate {
            game: 77,
            white: "Ghost".into(),
            black: "Phantom".into(),
            relation: Relation::Observing,
            board: parse_fen(START).unwrap(),
            castling: CastleFlags::default(),
            white_ms: 1,
            black_ms: 1,
            base: 1,
            increment: 0,
            move_number: 1,
            last_move_verbose: None,
            last_move_san: None,
            last_move_ms: 0,
            received: now,
        }))),
        now,
    );
    assert!(started(&a).is_none());
    assert!(s.active_search().is_none());
}

/// An operator's `noise N` (docs/bot.md, "Operators") governs what wily says about the
/// games it observes, from the next analysis on: below N nodes nothing, from N on the
/// `observe.whisper` line.
#[test]
fn operator_noise_applies_to_observed_games() {
    let mut c = cfg();
    c.observe.whisper = 2;
    c.talk.noise = 0;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    let obs = |fen: &str| {
        ev(ServerEvent::Board(Box::new(BoardUpdate {
            game: 12,
            white: "Carl".into(),
            black: "Dana".into(),
            relation: Relation::Observing,
            board: parse_fen(fen).unwrap(),
            castling: CastleFlags::of_board(&parse_fen(fen).unwrap()),
            white_ms: 60_000,
            black_ms: 60_000,
            base: 5,
            increment: 0,
            move_number: 1,
            last_move_verbose: None,
            last_move_san: None,
            last_move_ms: 0,
            received: now,
        })))
    };
    let boss = |text: &str| {
        ev(ServerEvent::Tell {
            from: "Boss".into(),
            titles: ServerTitles::default(),
            text: text.into(),
        })
    };
    // Analyses `fen` with a report of 5000 nodes; returns what the next board makes
    // wily say about it.
    let analyse = |s: &mut Session, fen: &str, next: &str| {
        let a = s.handle(obs(fen), now);
        let spec = started(&a).expect("analysis").clone();
        let info = engine::SearchInfo {
            depth: 9,
            score: Score::Cp(20),
            nodes: 5000,
            pv: vec![],
            time: Duration::from_millis(500),
            multipv: 1,
            ..Default::default()
        };
        s.handle(Input::Info { id: spec.id, info }, now);
        sends(&s.handle(obs(next), now))
    };
    s.handle(ev(ServerEvent::ObserveStarted { game: 12 }), now);
    assert_eq!(
        sends(&s.handle(boss("noise 6000"), now)),
        vec!["tell Boss noise 6000 nodes"]
    );
    assert!(
        analyse(&mut s, START, E4).is_empty(),
        "5000 nodes is below noise 6000"
    );
    s.handle(boss("noise 4000"), now);
    assert_eq!(
        analyse(&mut s, E4E5, START),
        vec!["whisper d9 +0.20 0.5s"],
        "5000 nodes is above noise 4000"
    );
}

/// Puts actions on the link's outgoing queue the way the driver hands them over: `Send`
/// rate-limited, `SendNow` and `SendMove` urgent, `SendTopical` rate-limited about a
/// position, `Expire` dropping a game's waiting topical lines.
fn queue(q: &mut OutQueue, actions: &[Action]) {
    for a in actions {
        let line = |text: &str| OutLine {
            text: text.into(),
            secret: false,
        };
        match a {
            Action::Send(t) => {
                q.push(line(t), false);
            }
            Action::SendNow(t) | Action::SendMove { text: t, .. } => {
                q.push(line(t), true);
            }
            Action::SendTopical {
                text,
                game,
                position,
            } => {
                q.push_topical(line(text), crate::input::queue_topic(*game, *position));
            }
            Action::Expire { game } => q.expire(u64::from(*game)),
            _ => {}
        }
    }
}

#[test]
fn greeting_goes_first_and_stale_iteration_lines_are_dropped() {
    let mut c = cfg();
    c.talk.greeting = "Hello {opponent}".into();
    c.talk.whisper = 5;
    c.talk.noise = 0;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    // A fast game: the link's queue has little room for chat.
    let limit = RateLimit {
        per_second: 1.0,
        burst: 2,
        max_queue: 100,
    };
    let mut q = OutQueue::new(limit, now);
    let a = s.handle(
        ev(ServerEvent::GameStart {
            game: 7,
            white: "wily".into(),
            black: "Bob".into(),
            continuing: false,
            rated: false,
            category: "lightning".into(),
        }),
        now,
    );
    queue(&mut q, &a);
    let a = s.handle(board(START, Relation::MyMove, None, now), now);
    queue(&mut q, &a);
    let id = started(&a).expect("wily thinks").id;
    let start = parse_fen(START).unwrap();
    for depth in [1, 2] {
        let info = engine::SearchInfo {
            depth,
            score: Score::Cp(20),
            nodes: 5000,
            pv: vec![move_from_uci(&start, "e2e4", false).unwrap()],
            time: Duration::from_millis(10),
            multipv: 1,
            ..Default::default()
        };
        let a = s.handle(Input::Info { id, info }, now);
        assert!(
            a.iter().any(|x| matches!(x, Action::SendTopical { .. })),
            "level 5 says each iteration: {a:?}"
        );
        queue(&mut q, &a);
    }
    let a = s.handle(
        Input::Done {
            id,
            result: result(&start, "e2e4", None, 20),
        },
        now,
    );
    queue(&mut q, &a);
    let out: Vec<String> = std::iter::from_fn(|| q.pop(now)).map(|l| l.text).collect();
    assert_eq!(
        out.first().map(String::as_str),
        Some("say Hello Bob"),
        "{out:?}"
    );
    assert_eq!(out.get(1).map(String::as_str), Some("e2e4"), "{out:?}");
    assert!(
        out.get(2).is_some_and(|w| w.starts_with("whisper d10")),
        "the move's whisper follows it: {out:?}"
    );
    // The iteration lines were about the position the move left: dropped, never late.
    let later: Vec<String> = std::iter::from_fn(|| q.pop(now + Duration::from_secs(60)))
        .map(|l| l.text)
        .collect();
    assert!(later.is_empty(), "{later:?}");
    assert_eq!(q.stale(), 2);
}
