//! Two accounts of one `wily ics` process (`[[accounts]]`: `wilybot` and `WilyTwo`)
//! playing at the same time on a real lasker 2.2 server, replayed from the recorded bytes
//! in `tests/fixtures/ics/lasker/two_accounts.*` (how they were made is in the README
//! there). Lines not covered by the other fixtures: both accounts' own seek ads and their
//! removal when a game starts (`Ads removed:` on lasker, which refuses `iset seekremove`),
//! `You will not hear ads.`, an adjourn request declined, the opponent's lost connection
//! adjourning the game, the opponent's return (`who has an adjourned game with you`), the
//! resumed game (`Continuing`), a tell to a player gone (`No user named ...`), and, from
//! the opponent's side, the resume challenge and the `stored` list. Each file gives the
//! same events in any chunking, every board is typed, and every line the bot acts on
//! after the login is a typed event, in the order the server sent it.

use crate::ics_common;
use wily::ics::events::{EndReason, GameResult, OfferKind};
use wily::ics::Event;

fn fixture(name: &str) -> Vec<u8> {
    ics_common::fixture_in("ics/lasker", name)
}

/// The file's events, checked to be the same whatever the chunking, with one board per
/// style-12 line.
fn events(name: &str) -> Vec<Event> {
    let bytes = fixture(name);
    let whole = ics_common::events_any_chunking(name, &bytes);
    let boards = whole
        .iter()
        .filter(|e| matches!(e, Event::Board(_)))
        .count();
    assert_eq!(
        boards,
        bytes.windows(5).filter(|w| w == b"<12> ").count(),
        "{name}: boards"
    );
    whole
}

/// The events after the session started, less prompts, blank lines and boards.
fn session(all: &[Event]) -> Vec<&Event> {
    let start = all
        .iter()
        .position(|e| matches!(e, Event::SessionStarted { .. }))
        .expect("the session started");
    all[start..]
        .iter()
        .filter(|e| !matches!(e.kind(), "prompt" | "blank" | "board"))
        .collect()
}

/// The texts of the lines left unclassified after the session started, less lasker's
/// welcome banner (rules and `Do 'help' ...` lines).
fn unknown_after_login(all: &[Event]) -> Vec<String> {
    session(all)
        .into_iter()
        .filter_map(|e| match e {
            Event::Unknown(t) if !t.starts_with("Do 'help") && !t.starts_with("_____") => {
                Some(t.clone())
            }
            _ => None,
        })
        .collect()
}

/// True when the kinds `want` appear in this order among `got` (others may come between).
fn in_order(got: &[&Event], want: &[&str]) -> bool {
    let mut it = got.iter().map(|e| e.kind());
    want.iter().all(|w| it.any(|k| k == *w))
}

#[test]
fn wilybot_adjourned_by_a_lost_connection_then_resumed() {
    let all = events("two_accounts.wilybot.raw");
    let s = session(&all);
    let kinds: Vec<&str> = s.iter().map(|e| e.kind()).collect();
    assert!(
        in_order(
            &s,
            &[
                "seek",
                "offer-accepted",
                "seek-removed",
                "creating",
                "game-start",
                "offer-received",
                "you-declined",
                "opponent-lost-contact",
                "game-end",
                "arrival",
                "offer-withdrawn",
                "game-start",
                "game-end",
                "seek",
            ]
        ),
        "{kinds:?}"
    );
    assert!(s.iter().any(|e| matches!(e, Event::Seek(ad)
        if ad.name == "wilybot" && (ad.base_minutes, ad.increment_secs) == (2, 0) && !ad.rated)));
    assert!(s
        .iter()
        .any(|e| matches!(e, Event::SeekRemoved { indices } if indices == &[1])));
    assert!(s.iter().any(
        |e| matches!(e, Event::OfferReceived { from, kind: OfferKind::Adjourn }
        if from == "AlphaBot")
    ));
    let ends: Vec<_> = s
        .iter()
        .filter_map(|e| match e {
            Event::GameEnd(g) => Some(g),
            _ => None,
        })
        .collect();
    assert_eq!(ends.len(), 2);
    assert_eq!(
        (ends[0].game, ends[0].result, ends[0].reason),
        (2, GameResult::NoResult, EndReason::Adjourned)
    );
    assert_eq!(
        (ends[1].game, ends[1].result, ends[1].reason),
        (1, GameResult::WhiteWins, EndReason::Resignation)
    );
    assert!(s
        .iter()
        .any(|e| matches!(e, Event::Arrival { name, adjourned: true } if name == "AlphaBot")));
    let starts: Vec<_> = s
        .iter()
        .filter_map(|e| match e {
            Event::GameStart(g) => Some((g.white.as_str(), g.black.as_str(), g.continuing)),
            _ => None,
        })
        .collect();
    assert_eq!(
        starts,
        vec![
            ("wilybot", "AlphaBot", false),
            ("wilybot", "AlphaBot", true)
        ]
    );
    // wily's own resume request, echoed as a wrapped `Issuing:` with both clocks.
    assert!(s.iter().any(|e| matches!(e, Event::Issuing(o)
        if o.adjourned && o.receiver.name == "AlphaBot" && o.other_clock == Some((2, 2)))));
    let left = unknown_after_login(&all);
    assert!(left.is_empty(), "unclassified: {left:?}");
}

#[test]
fn wily_two_plays_at_the_same_time_and_its_tell_finds_nobody() {
    let all = events("two_accounts.WilyTwo.raw");
    let s = session(&all);
    assert!(
        in_order(
            &s,
            &[
                "setting-ack",
                "seek",
                "offer-accepted",
                "seek-removed",
                "creating",
                "game-start",
                "game-end",
                "refused",
                "seek",
            ]
        ),
        "{:?}",
        s.iter().map(|e| e.kind()).collect::<Vec<_>>()
    );
    assert!(s
        .iter()
        .any(|e| matches!(e, Event::SettingAck { text } if text == "You will not hear ads.")));
    assert!(s.iter().any(|e| matches!(e, Event::GameEnd(g)
        if g.reason == EndReason::Checkmate && g.result == GameResult::WhiteWins && g.black == "BetaBot")));
    assert!(s.iter().any(|e| matches!(e, Event::Refused { text }
        if text == "No user named 'BetaBot' is logged in.")));
    let left = unknown_after_login(&all);
    assert!(left.is_empty(), "unclassified: {left:?}");
}

#[test]
fn the_opponent_back_sees_its_stored_game() {
    let all = events("two_accounts.AlphaBot_2.raw");
    let s = session(&all);
    assert!(s
        .iter()
        .any(|e| matches!(e, Event::AdjournedGames { count: 1 })));
    assert!(s.iter().any(|e| matches!(e, Event::GameStart(g)
        if g.continuing && g.white == "wilybot" && g.black == "AlphaBot")));
    assert!(s.iter().any(|e| matches!(e, Event::GameEnd(g)
        if g.reason == EndReason::Resignation && g.who.as_deref() == Some("AlphaBot"))));
}

/// lasker offers the resumption of an adjourned game with the two sides' clocks
/// (`unrated wild 2 0 : 2 2 Loaded from` / `\   non-standard/0 (adjourned).`): a typed
/// challenge that says it resumes the game, with both clocks; the login's list of the
/// players online with an adjourned game and the `stored` answer are typed too.
#[test]
fn the_resume_challenge_is_typed() {
    let all = events("two_accounts.AlphaBot_2.raw");
    let s = session(&all);
    let resume = s.iter().find_map(|e| match e {
        Event::Challenge(o) => Some(o),
        _ => None,
    });
    let o = resume.unwrap_or_else(|| panic!("{:?}", unknown_after_login(&all)));
    assert!(o.adjourned && !o.rated);
    assert_eq!(
        (o.challenger.name.as_str(), o.receiver.name.as_str()),
        ("wilybot", "AlphaBot")
    );
    assert_eq!(
        (
            o.category.as_str(),
            o.base_minutes,
            o.increment_secs,
            o.other_clock
        ),
        ("wild", 2, 0, Some((2, 2)))
    );
    assert_eq!(o.variant.as_deref(), Some("non-standard/0"));
    assert!(s
        .iter()
        .any(|e| matches!(e, Event::AdjournedOnline { names } if names == &["wilybot"])));
    assert!(s
        .iter()
        .any(|e| matches!(e, Event::StoredGames { player, games }
        if player == "AlphaBot" && games == &[("wilybot".to_string(), "alphabot".to_string())])));
    assert!(in_order(
        &s,
        &[
            "adjourned-online",
            "challenge",
            "stored-games",
            "adjourned-games",
            "you-accepted"
        ]
    ));
    // Left unclassified: only lasker's hint after the challenge and its word that the
    // challenger joined the match (information; the game start follows).
    let left: Vec<String> = unknown_after_login(&all)
        .into_iter()
        .filter(|t| {
            !t.starts_with("You can \"accept\"") && !t.contains(", who was challenging you, ")
        })
        .collect();
    assert!(left.is_empty(), "unclassified: {left:?}");
}

/// What wily sent: its password never (`********` in its place, put there when the file
/// was made; the recording proxy saw the real one), its seek, `decline adjourn` and the
/// resume `match` in the one session.
#[test]
fn what_the_accounts_sent() {
    for (name, handle) in [
        ("two_accounts.wilybot.sent", "wilybot"),
        ("two_accounts.WilyTwo.sent", "WilyTwo"),
    ] {
        let text = String::from_utf8_lossy(&fixture(name)).into_owned();
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.trim_matches(|c: char| c == '\r' || !c.is_ascii() || c.is_control()))
            .collect();
        assert_eq!(lines[0], handle, "{name}");
        assert_eq!(lines[1], "********", "{name}: the password is masked");
        assert!(lines.contains(&"seek 2 0 unrated"), "{name}");
        assert!(lines.contains(&"quit"), "{name}");
    }
    let text = String::from_utf8_lossy(&fixture("two_accounts.wilybot.sent")).into_owned();
    assert!(text.contains("decline adjourn\n") && text.contains("match AlphaBot\n"));
}
