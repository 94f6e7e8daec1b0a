//! Replays of the lasker recordings kept in `tests/fixtures/ics/lasker` (how each was made
//! is in the README there): a login that replaces a still-connected older session of the
//! account, and the account's stored follow list across logins. Through the protocol
//! layer (events, login flow) and on through the bot's session (what it sends back),
//! in one piece, byte by byte and in random chunks.

use crate::ics_common;

use ics_common::*;
use std::time::Instant;
use wily::bot::hooks::NoBook;
use wily::bot::input::{Action, Input, ServerEvent};
use wily::bot::session::Session;
use wily::bot::translate::translate;
use wily::config::Config;
use wily::ics::events::ListChange;
use wily::ics::login::{Login, LoginFailure, Password, Step};
use wily::ics::Event;
use wily::lists::OpponentLists;

const FILES: [&str; 8] = [
    "lasker/follow_list_first_use.RsNew.raw",
    "lasker/login_replaces_session.RsBot_new.raw",
    "lasker/login_replaces_session.RsBot_old.raw",
    "lasker/follow_list_stored.RsBot_1.raw",
    "lasker/follow_list_stored.RsBot_2.raw",
    "lasker/follow_list_stored.RsBot_3.raw",
    "lasker/follow_list_stored.RsAlpha.raw",
    "lasker/follow_list_stored.RsBeta.raw",
];

fn rsbot() -> Login {
    Login::Registered {
        handle: "RsBot".into(),
        password: Password::new("rsbotpw"),
    }
}

#[test]
fn the_recordings_replay_the_same_in_any_chunking() {
    for name in FILES {
        let bytes = fixture(name);
        let reference = events(&bytes);
        assert!(
            reference
                .iter()
                .any(|e| matches!(e, Event::SessionStarted { .. })),
            "{name}"
        );
        for seed in 1..=4u64 {
            assert_eq!(events_chunked(&bytes, seed * 104_729), reference, "{name}");
        }
        let (bytewise, _) = wily::ics::pipeline::events_of(&bytes, &[1], Default::default());
        assert_eq!(bytewise, reference, "{name}: byte by byte");
    }
}

#[test]
fn a_login_over_a_still_connected_session_is_a_login() {
    let ev = events(&fixture("lasker/login_replaces_session.RsBot_new.raw"));
    assert_in_order(
        "new login",
        &ev,
        &[
            &|e| matches!(e, Event::SessionReplaced { text } if text == "**** RsBot is already logged in - kicking them out. ****"),
            &|e| matches!(e, Event::SessionStarted { name, unregistered: false } if name == "RsBot"),
        ],
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::LoginRefused { .. })),
        "the kick line is not a refusal"
    );
    let steps = login_outcome(&ev, rsbot());
    assert_eq!(
        steps.last(),
        Some(&Step::Done {
            handle: "RsBot".into(),
            guest: false
        }),
        "{steps:?}"
    );
    // The old session hears that it was replaced, and the bot waits before coming back.
    let ev = events(&fixture("lasker/login_replaces_session.RsBot_old.raw"));
    assert!(ev.iter().any(|e| matches!(e, Event::SessionTakenOver { text } if text.contains("you can't both be logged in"))));
    let mut s = bot(&[]);
    feed(&mut s, ev);
    assert!(s.take_taken_over() && !s.take_taken_over());
}

#[test]
fn an_already_logged_in_line_then_a_new_prompt_is_still_a_refusal() {
    // The same line followed by `login:` again (a server that refuses): refused.
    let mut bytes = fixture("lasker/login_replaces_session.RsBot_new.raw");
    let at = bytes
        .windows(10)
        .position(|w| w == b"\n\r**** Sta")
        .expect("session start");
    bytes.truncate(at);
    bytes.extend_from_slice(b"\n\rlogin: ");
    let steps = login_outcome(&events(&bytes), rsbot());
    assert_eq!(
        steps.last(),
        Some(&Step::Failed(LoginFailure::Refused {
            text: "**** RsBot is already logged in - kicking them out. ****".into()
        }))
    );
}

#[test]
fn the_follow_list_answers_are_events() {
    let ev = events(&fixture("lasker/follow_list_stored.RsBot_2.raw"));
    let lists: Vec<&Event> = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::ListMembers { .. } | Event::ListChanged { .. } | Event::NoSuchList { .. }
            )
        })
        .collect();
    let changed = |name: &str, change| Event::ListChanged {
        list: "follow".into(),
        name: name.into(),
        change,
    };
    let members = |names: &[&str]| Event::ListMembers {
        list: "follow".into(),
        names: names.iter().map(|n| n.to_string()).collect(),
    };
    let want = vec![
        members(&["RsAlpha"]),
        changed("RsAlpha", ListChange::Removed),
        changed("RsAlpha", ListChange::Added),
        changed("RsAlpha", ListChange::Removed),
        changed("RsAlpha", ListChange::NotOn),
        changed("RsAlpha", ListChange::Added),
        changed("RsBeta", ListChange::Added),
        members(&["RsAlpha", "RsBeta"]),
        changed("RsBeta", ListChange::Removed),
        Event::NoSuchList {
            list: "nosuchlist".into(),
        },
    ];
    assert_eq!(lists, want.iter().collect::<Vec<_>>());
    let first = events(&fixture("lasker/follow_list_stored.RsBot_1.raw"));
    assert!(first.contains(&members(&[])));
    assert!(first.contains(&changed("RsAlpha", ListChange::AlreadyOn)));
}

/// A bot session as `wily ics` runs it, following `follow`, seeks off.
fn bot(follow: &[&str]) -> Session {
    let mut c = Config::default();
    c.server.local = false;
    c.server.handle = "RsBot".into();
    c.seek.enabled = false;
    c.observe.follow = follow.iter().map(|h| h.to_string()).collect();
    c.observe.whisper = 2;
    c.paths.lists = "/proc/wily-ics-restart-no-lists".into();
    // The follow list alone: no finger notes and no public commands (`set tell 1`) at
    // login, which bot_public.rs tests.
    c.server.notes = Some(Vec::new());
    c.public.enabled = false;
    Session::new(c, OpponentLists::default(), Box::new(NoBook))
}

/// Feeds the events as the connection does (with its `LoggedIn` once the session has
/// started); returns every action.
fn feed(s: &mut Session, events: Vec<Event>) -> Vec<Action> {
    let mut out = Vec::new();
    for ev in events {
        let started = matches!(ev, Event::SessionStarted { .. });
        if let Some(se) = translate(ev, Instant::now()) {
            out.extend(s.handle(Input::Server(se), Instant::now()));
        }
        if started {
            let login = ServerEvent::LoggedIn {
                handle: "RsBot".into(),
            };
            out.extend(s.handle(Input::Server(login), Instant::now()));
        }
    }
    out
}

/// What a bot following RsAlpha sends at login on the FICS dialect.
const LOGIN: [&str; 3] = ["+follow RsAlpha", "=follow", "observe RsAlpha"];

/// `LOGIN`, then `more`.
fn after_login(more: &[&'static str]) -> Vec<&'static str> {
    LOGIN.iter().chain(more).copied().collect()
}

/// A bot following `follow` fed the recording `file`: every action.
fn replay(follow: &[&str], file: &str) -> Vec<Action> {
    feed(&mut bot(follow), events(&fixture(file)))
}

fn sends(a: &[Action]) -> Vec<&str> {
    a.iter()
        .filter_map(|x| match x {
            Action::Send(s) | Action::SendNow(s) => Some(s.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_bot_never_toggles_the_stored_list_and_corrects_what_the_server_reports() {
    let a = replay(&["RsAlpha"], "lasker/follow_list_stored.RsBot_2.raw");
    // Login: the adding form and a read-back, never lasker's toggling `follow NAME`.
    // Then each answer that differs from the settings is corrected: RsAlpha taken off
    // (by the toggles the recording sent) goes back on, twice at most in one login;
    // RsBeta, which the settings do not follow, comes off.
    assert_eq!(
        sends(&a),
        after_login(&[
            "+follow RsAlpha",
            "+follow RsAlpha",
            "-follow RsBeta",
            "-follow RsBeta",
        ])
    );
    // Following nobody: whatever the account held is taken off.
    let a = replay(&[], "lasker/follow_list_stored.RsBot_3.raw");
    assert_eq!(sends(&a), vec!["=follow", "-follow RsAlpha"]);
}

#[test]
fn a_game_the_server_observes_for_the_follow_list_is_analysed() {
    let a = replay(&["RsAlpha"], "lasker/follow_list_stored.RsBot_3.raw");
    let analyses = a
        .iter()
        .filter(|x| matches!(x, Action::StartSearch(spec) if spec.limits.infinite))
        .count();
    assert_eq!(
        analyses, 2,
        "one analysis per position of the observed game"
    );
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::Commentary(c) if c.contains("observed game 1 ends"))));
    // The recorder took RsAlpha off at the end; the bot puts it back.
    assert_eq!(sends(&a), after_login(&["+follow RsAlpha"]));
}

#[test]
fn the_first_add_that_lasker_drops_is_made_again_after_the_read_back() {
    let a = replay(&["RsAlpha"], "lasker/follow_list_first_use.RsNew.raw");
    // `+follow RsAlpha` got no answer; `=follow` shows the list empty: add it again.
    // The recorder's `-follow` at the end is answered the same way.
    assert_eq!(
        sends(&a),
        after_login(&["+follow RsAlpha", "+follow RsAlpha"])
    );
}
