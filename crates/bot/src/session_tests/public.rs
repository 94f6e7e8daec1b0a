//! Finger notes at login (`ops/notes.rs`) and the public commands (`public/parse.rs`,
//! `public/answers.rs`): what the session sends, from the documented rules.

use super::*;

fn login(s: &mut Session, now: Instant) -> Vec<String> {
    sends(&s.handle(
        ev(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        now,
    ))
}

fn finger(s: &mut Session, now: Instant, notes: &[&str]) -> Vec<String> {
    sends(&s.handle(
        ev(ServerEvent::FingerNotes {
            name: "wily".into(),
            notes: notes.iter().map(|n| n.to_string()).collect(),
        }),
        now,
    ))
}

fn tell(s: &mut Session, now: Instant, from: &str, text: &str) -> Vec<String> {
    sends(&s.handle(
        ev(ServerEvent::Tell {
            from: from.into(),
            titles: ServerTitles::default(),
            text: text.into(),
        }),
        now,
    ))
}

#[test]
fn default_notes_go_only_to_an_account_without_notes() {
    let mut s = Session::new(cfg(), OpponentLists::default(), Box::new(NoBook));
    s.set_eval("hce");
    let now = Instant::now();
    let a = login(&mut s, now);
    assert!(a.contains(&"finger".to_string()), "{a:?}");
    assert!(
        a.contains(&"set tell 1".to_string()),
        "guests are heard: {a:?}"
    );
    let a = finger(&mut s, now, &[]);
    let n = config::DEFAULT_NOTES.len();
    assert_eq!(a.len(), n + 1, "{a:?}");
    assert!(
        a[0].starts_with(&format!("set 1 wily {}:", env!("CARGO_PKG_VERSION"))),
        "{a:?}"
    );
    assert!(
        a[1].contains("hand-written evaluation, 1 search thread(s), 64 MB hash"),
        "{a:?}"
    );
    assert!(
        a[2].contains("help, info, record, games, seeks, eval"),
        "{a:?}"
    );
    assert_eq!(a[n], "finger");
    // The read-back shows only the first two lines: the third is not sent again, at this
    // login or the next.
    let lines: Vec<String> = a[..n]
        .iter()
        .map(|c| c.splitn(3, ' ').nth(2).unwrap().to_string())
        .collect();
    let shown: Vec<&str> = lines[..2].iter().map(|s| s.as_str()).collect();
    assert!(finger(&mut s, now, &shown).is_empty());
    login(&mut s, now);
    assert!(
        finger(&mut s, now, &shown).is_empty(),
        "a refused line is never retried"
    );
    // An account with notes of its own keeps them.
    let mut s = Session::new(cfg(), OpponentLists::default(), Box::new(NoBook));
    login(&mut s, now);
    assert!(finger(&mut s, now, &["my own words"]).is_empty());
}

#[test]
fn configured_notes_replace_what_differs_and_hooks_win() {
    let mut c = cfg();
    c.server.notes = Some(vec!["wily on {threads} thread(s)".into(), "second".into()]);
    let mut s = Session::new(c.clone(), OpponentLists::default(), Box::new(NoBook));
    let now = Instant::now();
    login(&mut s, now);
    let a = finger(
        &mut s,
        now,
        &["wily on 1 thread(s)", "old", "three", "four"],
    );
    assert_eq!(a, vec!["set 2 second", "set 4", "set 3", "finger"]);
    assert!(finger(&mut s, now, &["wily on 1 thread(s)", "second"]).is_empty());
    // Up to date: nothing written.
    login(&mut s, now);
    assert!(finger(&mut s, now, &["wily on 1 thread(s)", "second"]).is_empty());
    // A finger of someone else changes nothing.
    login(&mut s, now);
    let other = sends(&s.handle(
        ev(ServerEvent::FingerNotes {
            name: "Bob".into(),
            notes: vec![],
        }),
        now,
    ));
    assert!(other.is_empty());
    // `[]` and a login hook that sets a note: the notes are left alone.
    for (notes, hooks) in [
        (Some(vec![]), vec![]),
        (None, vec!["set 1 {me} by Boss".to_string()]),
    ] {
        let mut c = c.clone();
        c.server.notes = notes;
        c.hooks.login = hooks;
        let mut s = Session::new(c, OpponentLists::default(), Box::new(NoBook));
        assert!(!login(&mut s, now).contains(&"finger".to_string()));
        assert!(finger(&mut s, now, &[]).is_empty());
    }
}

#[test]
fn public_commands_answer_anyone_within_the_limits() {
    let (mut s, now) = session();
    let a = tell(&mut s, now, "GuestABCD", "help");
    assert_eq!(a.len(), 1);
    assert!(a[0].starts_with("tell GuestABCD I am wily"), "{a:?}");
    assert!(a[0].contains("eval [game]"), "{a:?}");
    let a = tell(&mut s, now, "Bob", "info");
    assert!(
        a[0].contains("1 search thread(s), 64 MB hash") && a[0].contains("lists GM 0"),
        "{a:?}"
    );
    let a = tell(&mut s, now, "Bob", "record");
    assert!(
        a[0].starts_with("tell Bob since my start: 0 games"),
        "{a:?}"
    );
    let a = tell(&mut s, now, "Bob", "seeks");
    assert!(
        a[0].contains("I seek 3 0 rated, 5 2 rated") && a[0].contains("I accept"),
        "{a:?}"
    );
    // Bob's fifth in a minute is over the limit (4 by default); Ann is still answered.
    assert!(tell(&mut s, now, "Bob", "games").len() == 1);
    assert!(tell(&mut s, now, "Bob", "games").is_empty());
    assert_eq!(tell(&mut s, now, "Ann", "games").len(), 1);
    assert_eq!(
        tell(&mut s, now + Duration::from_secs(61), "Bob", "games").len(),
        1
    );
    // Operator commands stay the operators'.
    let a = tell(&mut s, now, "Cid", "seek off");
    assert!(a.iter().all(|c| !c.starts_with("unseek")), "{a:?}");
    // A command turned off is not answered as one.
    let mut c = cfg();
    c.public.commands.retain(|x| x != "record");
    c.public.guests = false;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    let a = tell(&mut s, now, "Bob", "record");
    assert!(a.iter().all(|x| !x.contains("games")), "{a:?}");
    assert!(
        tell(&mut s, now, "GuestXYZ", "help").is_empty(),
        "guests not heard"
    );
    // The operator gets public answers too.
    let a = tell(&mut s, now, "Boss", "info");
    assert!(a[0].starts_with("tell Boss wily "), "{a:?}");
}

#[test]
fn eval_never_of_a_game_a_person_plays() {
    let (mut s, now) = session();
    // wily observes game 7, wily-named Bob vs Carl, both people.
    s.handle(ev(ServerEvent::ObserveStarted { game: 7 }), now);
    let mut b = board(START, Relation::Observing, None, now);
    if let Input::Server(ServerEvent::Board(u)) = &mut b {
        u.white = "Carl".into();
    }
    let a = sends(&s.handle(b, now));
    let _ = a;
    let a = tell(&mut s, now, "Ann", "eval 7");
    assert!(
        a[0].contains("only relayed games and games between computers"),
        "{a:?}"
    );
    let a = tell(&mut s, now, "Ann", "eval");
    assert!(a[0].contains("I observe none now"), "{a:?}");
    // Both computers by the server's titles: evaluated.
    for n in ["Carl", "Bob"] {
        s.handle(ev(ServerEvent::IsComputer { name: n.into() }), now);
    }
    let a = tell(&mut s, now, "Ann", "eval 7");
    assert!(a[0].starts_with("tell Ann game 7 Carl-Bob:"), "{a:?}");
    // wily's own game: never.
    let (mut s, now) = session();
    start_game(&mut s, now);
    let a = tell(&mut s, now, "Ann", "eval 7");
    assert!(a[0].contains("my own game"), "{a:?}");
    assert!(!a[0].contains('+') && !a[0].contains("depth"), "{a:?}");
}

/// lasker runs what follows a `;` as a command of the sender's own (tried on the server):
/// every public answer is sent as one tell without `;`, the separators written as `,`.
#[test]
fn answers_are_one_command_without_a_semicolon() {
    let (mut s, now) = session();
    for ask in ["help", "info", "record", "games", "seeks", "eval 7", "eval"] {
        let a = tell(&mut s, now, &format!("Asker{}", ask.len()), ask);
        assert_eq!(a.len(), 1, "{ask}: {a:?}");
        assert!(!a[0].contains(';'), "{ask}: {a:?}");
    }
    let a = tell(&mut s, now, "Ann", "eval 7");
    assert!(
        a[0].ends_with("that I observe, game 7 is not one of them."),
        "{a:?}"
    );
    let a = tell(&mut s, now, "Ann", "seeks");
    assert!(a[0].contains(", I accept "), "{a:?}");
}
