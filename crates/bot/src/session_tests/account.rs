//! Session tests of the computer-account rules and the operator hooks: the variant
//! ivariables at login, a server without them, the manual-seek fallback, the takeback
//! policy, the abort of a game whose opponent never moves, rematch, and each hook.

use super::*;
use ics::Dialect;

fn game_over(s: &mut Session, now: Instant, result: &str) -> Vec<Action> {
    s.handle(
        ev(ServerEvent::GameEnd {
            game: 7,
            white: "wily".into(),
            black: "Bob".into(),
            result: result.into(),
            kind: EndKind::Resignation,
            text: "Bob resigns".into(),
        }),
        now,
    )
}

#[test]
fn chess960_asks_for_iset_fr_until_the_server_has_none() {
    let mut c = cfg();
    let s = Session::new(c.clone(), OpponentLists::default(), Box::new(NoBook));
    assert!(
        s.login_ivariables().is_empty(),
        "chess only: nothing to set"
    );
    c.accept.variants = vec!["chess".into(), "chess960".into()];
    let (mut s, now) = session_with(c.clone(), Box::new(NoBook));
    assert_eq!(s.login_ivariables(), vec![("fr".into(), "1".into())]);
    // Another variable refused changes nothing; `fr` refused (lasker) is not sent again.
    s.handle(
        ev(ServerEvent::SettingRefused {
            name: "nosuchvar".into(),
        }),
        now,
    );
    assert_eq!(s.login_ivariables().len(), 1);
    s.handle(ev(ServerEvent::SettingRefused { name: "fr".into() }), now);
    assert!(s.login_ivariables().is_empty());
    c.server.dialect = Dialect::Icc;
    let s = Session::new(c, OpponentLists::default(), Box::new(NoBook));
    assert!(s.login_ivariables().is_empty(), "ICC has no such ivariable");
}

#[test]
fn a_server_without_manual_seeks_gets_automatic_ones() {
    let (mut s, now) = session();
    assert!(s.seek_commands().iter().all(|c| c.ends_with(" m")));
    let a = s.handle(
        ev(ServerEvent::SeekRefused {
            text: "No such category/board: m/0".into(),
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["seek 3 0 unrated", "seek 5 2 unrated"]);
    let a = s.handle(
        ev(ServerEvent::SeekRefused {
            text: "No such category/board: m/0".into(),
        }),
        now,
    );
    assert!(
        sends(&a).is_empty(),
        "the second ad's refusal changes nothing"
    );
    let mut c = cfg();
    c.seek.manual = false;
    let (s, _) = session_with(c, Box::new(NoBook));
    assert!(s.seek_commands().iter().all(|c| !c.ends_with(" m")));
}

#[test]
fn takebacks_up_to_the_limit() {
    let offer = || {
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Takeback(1),
        })
    };
    let (mut s, now) = session();
    answer_e4(&mut s, now, None, 10);
    assert_eq!(
        sends(&s.handle(offer(), now)),
        vec!["decline takeback"],
        "default 0"
    );
    let mut c = cfg();
    c.accept.takebacks = 2;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    answer_e4(&mut s, now, None, 10);
    assert_eq!(sends(&s.handle(offer(), now)), vec!["accept takeback"]);
    assert_eq!(sends(&s.handle(offer(), now)), vec!["accept takeback"]);
    assert_eq!(sends(&s.handle(offer(), now)), vec!["decline takeback"]);
    // The server's board after the takeback: back to the start, wily to move again.
    let a = s.handle(board(START, Relation::MyMove, None, now), now);
    assert!(started(&a).is_some(), "wily thinks again: {a:?}");
}

#[test]
fn a_game_whose_opponent_never_moves_is_aborted_once() {
    let mut c = cfg();
    c.accept.abort_idle_secs = 30;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    answer_e4(&mut s, now, None, 10);
    let t = |secs| now + Duration::from_secs(secs);
    assert!(!sends(&s.handle(Input::Tick, t(29))).contains(&"abort".to_string()));
    assert!(sends(&s.handle(Input::Tick, t(31))).contains(&"abort".to_string()));
    assert!(!sends(&s.handle(Input::Tick, t(40))).contains(&"abort".to_string()));
    // An opponent who moved is never aborted.
    let mut c = cfg();
    c.accept.abort_idle_secs = 30;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    answer_e4(&mut s, now, None, 10);
    s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), now), now);
    assert!(
        !sends(&s.handle(Input::Tick, now + Duration::from_secs(60)))
            .contains(&"abort".to_string())
    );
    // Off by default.
    let (mut s, now) = session();
    answer_e4(&mut s, now, None, 10);
    assert!(
        !sends(&s.handle(Input::Tick, now + Duration::from_secs(3600)))
            .contains(&"abort".to_string())
    );
}

#[test]
fn rematch_when_on_and_within_the_limits() {
    let (mut s, now) = session();
    answer_e4(&mut s, now, None, 10);
    assert!(
        !sends(&game_over(&mut s, now, "1-0")).contains(&"rematch".to_string()),
        "off by default"
    );
    let mut c = cfg();
    c.accept.rematch = true;
    c.accept.max_in_row = 2;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    answer_e4(&mut s, now, None, 10);
    let a = sends(&game_over(&mut s, now, "1-0"));
    let r = a.iter().position(|c| c == "rematch").expect("a rematch");
    assert!(
        a[..r].iter().all(|c| !c.starts_with("seek")),
        "rematch first: {a:?}"
    );
    answer_e4(&mut s, now, None, 10);
    let a = sends(&game_over(&mut s, now, "0-1"));
    assert!(
        !a.contains(&"rematch".to_string()),
        "two in a row is the limit: {a:?}"
    );
}

#[test]
fn hooks_fire_with_their_fields_and_never_pass_on_a_second_command() {
    let mut c = cfg();
    c.hooks.login = vec!["set 1 {me} is a computer".into()];
    c.hooks.game_start = vec!["tell Boss game {game} vs {opponent} ({rating}) as {color}".into()];
    c.hooks.game_end = vec!["tell Boss {result} {outcome} vs {opponent}".into()];
    c.hooks.idle = vec!["seek 1 0".into()];
    c.hooks.idle_minutes = 1;
    let (mut s, _) = session_with(c.clone(), Box::new(NoBook));
    let mut s2 = Session::new(c, OpponentLists::default(), Box::new(NoBook));
    let now = Instant::now();
    let a = s2.handle(
        ev(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        now,
    );
    assert!(
        sends(&a).contains(&"set 1 wily is a computer".to_string()),
        "{a:?}"
    );
    let a = s.handle(
        ev(ServerEvent::Creating {
            white: "wily".into(),
            black: "Bob".into(),
            white_rating: Some(1800),
            black_rating: Some(1500),
        }),
        now,
    );
    assert!(a.is_empty());
    let start = |game: u32, black: &str| {
        ev(ServerEvent::GameStart {
            game,
            white: "wily".into(),
            black: black.into(),
            continuing: false,
            rated: false,
            category: "lightning".into(),
        })
    };
    let a = sends(&s.handle(start(7, "Bob"), now));
    assert!(
        a.contains(&"tell Boss game 7 vs Bob (1500) as white".to_string()),
        "{a:?}"
    );
    s.handle(board(START, Relation::MyMove, None, now), now);
    let a = sends(&game_over(&mut s, now, "1-0"));
    assert!(a.contains(&"tell Boss 1-0 win vs Bob".to_string()), "{a:?}");
    // Idle a minute after the game: the idle hook, once a spell.
    let a = sends(&s.handle(Input::Tick, now + Duration::from_secs(61)));
    assert!(a.contains(&"seek 1 0".to_string()), "{a:?}");
    let a = sends(&s.handle(Input::Tick, now + Duration::from_secs(62)));
    assert!(!a.contains(&"seek 1 0".to_string()));
    // A name from the server can never carry a second command.
    let later = now + Duration::from_secs(120);
    let a = sends(&s.handle(start(8, "Bob\ntell Boss quit;x"), later));
    assert_eq!(
        a,
        vec!["tell Boss game 8 vs BobtellBossquitx (----) as white"]
    );
}

#[test]
fn an_answer_to_an_own_ad_is_judged_on_who_sent_it() {
    let challenge = |name: &str, kind: &str, base: u32| Challenge {
        name: name.into(),
        rating: Some(1500),
        registered: true,
        titles: ServerTitles::default(),
        rated: false,
        kind: kind.into(),
        variant: None,
        base,
        increment: 1,
        other_clock: None,
        adjourned: false,
    };
    let mut c = cfg();
    c.seek.ads[0].base = 90;
    c.seek.ads[0].increment = 1;
    c.seek.ads[0].variant = "chess960".into();
    c.accept.block = vec!["Eve".into()];
    let (mut s, now) = session_with(c, Box::new(NoBook));
    let decide = |s: &mut Session, ch: Challenge| {
        s.handle(ev(ServerEvent::Challenge(ch)), now);
        sends(&s.handle(Input::Tick, now + Duration::from_secs(1)))
    };
    // The ad's terms (90 1 Chess960) are outside [accept]'s ranges, but the ad asked.
    let a = decide(&mut s, challenge("Bob", "wild/fr", 90));
    assert!(a.contains(&"accept Bob".to_string()), "{a:?}");
    s.handle(
        ev(ServerEvent::GameEnd {
            game: 1,
            white: "wily".into(),
            black: "Bob".into(),
            result: "*".into(),
            kind: EndKind::Aborted,
            text: "aborted".into(),
        }),
        now,
    );
    // Other terms are judged as before; a blocked player is declined whatever the terms.
    let a = decide(&mut s, challenge("Carl", "wild/fr", 80));
    assert!(a.contains(&"decline Carl".to_string()), "{a:?}");
    let a = decide(&mut s, challenge("Eve", "wild/fr", 90));
    assert!(a.contains(&"decline Eve".to_string()), "{a:?}");
}
