//! Session tests of what others say to wily: challenges, operator commands and strangers,
//! and observed games (analysis, whispers, boards of games not observed).

use super::*;

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
    s.cfg.accept.computers = false;
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
