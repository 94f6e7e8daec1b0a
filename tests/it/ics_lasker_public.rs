//! wily's finger notes and public commands on a real lasker 2.2 server, replayed from the
//! bytes recorded during the live check (`tests/fixtures/ics/lasker/public_tells.*`; how
//! they were made is in the README there): what wily's connection received (its old
//! notes and the configured ones in two `finger` displays, the tells of a registered
//! player and of a guest), and what the guest received (wily's answers, wrapped by lasker
//! at 79 columns with `\   ` continuations, read back whole). Each file gives the same
//! events in any chunking.

use crate::ics_common;
use wily::ics::events::{ChatKind, EndReason, GameResult};
use wily::ics::Event;

fn fixture(name: &str) -> Vec<u8> {
    ics_common::fixture_in("ics/lasker", name)
}

/// The file's events, the same whatever the chunking.
fn events(name: &str) -> Vec<Event> {
    ics_common::events_any_chunking(name, &fixture(name))
}

/// The tells in `all`, in order: (sender, text).
fn tells(all: &[Event]) -> Vec<(&str, &str)> {
    all.iter()
        .filter_map(|e| match e {
            Event::Chat(c) if c.kind == ChatKind::Tell => Some((c.from.as_str(), c.text.as_str())),
            _ => None,
        })
        .collect()
}

const HELP: &str =
    "I am wily, a chess program. Tell me: help | info | record | games | seeks | eval [game].";
const INFO: &str = "wily 0.1.0 (Rust): hand-written evaluation, 1 search thread(s), 8 MB \
     hash, ponder on, book off, opponent lists GM 0, IM 0, C 0, AK 0, S 0";
const EVAL: &str = "I evaluate only relayed games and games between computers that I \
     observe, game 1 is not one of them.";

#[test]
fn wily_hears_a_guest_and_reads_its_notes_back() {
    let all = events("public_tells.WilyLive.raw");
    assert!(
        all.iter().any(|e| matches!(e,
            Event::SessionStarted { name, unregistered: false } if name == "WilyLive")),
        "{all:?}"
    );
    // Its own finger, before and after it wrote the configured notes (`set 1`, `set 2`,
    // `set 3` alone, answered with lasker's `Plan variable` lines).
    let fingers: Vec<&Vec<String>> = all
        .iter()
        .filter_map(|e| match e {
            Event::FingerNotes { name, notes } if name == "WilyLive" => Some(notes),
            _ => None,
        })
        .collect();
    assert_eq!(
        fingers,
        vec![
            &vec![
                "an old first line".to_string(),
                "an old second line".into(),
                "a third".into()
            ],
            &vec![
                "wily 0.1.0: live check, 1 thread(s), 8 MB hash".to_string(),
                "Tell me help for what I answer.".into()
            ],
        ]
    );
    // The registered player's and the guest's tells, the guest without a title.
    assert_eq!(
        tells(&all),
        vec![
            ("LiveOpp", "help"),
            ("LiveOpp", "info"),
            ("GuestLKKA", "help"),
            ("GuestLKKA", "info"),
            ("GuestLKKA", "eval 1"),
            ("LiveOpp", "eval 1"),
        ]
    );
    let guest_titles = all.iter().find_map(|e| match e {
        Event::Chat(c) if c.from == "GuestLKKA" => Some(c.titles.clone()),
        _ => None,
    });
    assert_eq!(guest_titles, Some(vec![]));
}

#[test]
fn the_guest_reads_wilys_wrapped_answers_whole() {
    let all = events("public_tells.GuestLKKA.raw");
    assert!(
        all.iter().any(|e| matches!(e,
            Event::SessionStarted { name, unregistered: true } if name == "GuestLKKA")),
        "{all:?}"
    );
    // Each answer came in two or three wrapped lines; read back, it is the text wily
    // sent, and none has a `;` (lasker would have cut it there).
    assert_eq!(
        tells(&all),
        vec![("WilyLive", HELP), ("WilyLive", INFO), ("WilyLive", EVAL)]
    );
    assert!(all.iter().any(|e| matches!(e,
        Event::GameEnd(g) if g.reason == EndReason::Resignation
            && g.result == GameResult::WhiteWins
            && g.who.as_deref() == Some("GuestLKKA"))));
}
