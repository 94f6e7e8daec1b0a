//! Test vectors from other ICC programs (see `tests/fixtures/icc/README.md` for where each
//! came from): icclegacy's datagram tests, QueenMaxima's login bit string and pychess's
//! datagram numbers. They must read to the values those programs expect.

use std::collections::HashMap;
use std::path::Path;

use wily::ics::events::{title, Event, OfferKind, Rating};
use wily::ics::icc::datagram::{deframe, Chunk};
use wily::ics::icc::login::turned_on;
use wily::ics::icc::numbers::{self, parse_level2settings};
use wily::ics::icc::{IccInfo, UnitHeader};
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::Color;

fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/icc")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The icclegacy vectors by name, `\x19` and `\r\n` escapes turned into bytes.
fn legacy() -> HashMap<String, Vec<u8>> {
    fixture("icclegacy_vectors.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, body) = l.split_once('\t').expect("name TAB bytes");
            let bytes = body
                .replace("\\x19", "\x19")
                .replace("\\r\\n", "\r\n")
                .into_bytes();
            (name.to_string(), bytes)
        })
        .collect()
}

fn all_events(bytes: &[u8]) -> Vec<Event> {
    let opts = PipelineOptions {
        icc_level2: true,
        ..Default::default()
    };
    events_of(bytes, &[3], opts).0
}

/// The events shared with FICS (what ICC says beyond them is [`icc`]).
fn events(bytes: &[u8]) -> Vec<Event> {
    all_events(bytes)
        .into_iter()
        .filter(|e| !matches!(e, Event::Icc(_)))
        .collect()
}

/// What ICC says beyond the shared events, level-1 units included.
fn icc(bytes: &[u8]) -> Vec<IccInfo> {
    all_events(bytes)
        .into_iter()
        .filter_map(|e| match e {
            Event::Icc(i) => Some(*i),
            _ => None,
        })
        .collect()
}

#[test]
fn icclegacy_login_vectors() {
    let v = legacy();
    let ev = events(&v["who-am-i"]);
    assert_eq!(
        ev,
        vec![Event::SessionStarted {
            name: "uuzz".into(),
            unregistered: false
        }]
    );
    // The level-1 unit the vector wraps it in, and the titles (formats.txt: myname titles).
    assert_eq!(
        icc(&v["who-am-i"]),
        vec![
            IccInfo::Unit(UnitHeader {
                command: Some(10),
                issuer: "*".into(),
                tag: None
            }),
            IccInfo::Me {
                name: "uuzz".into(),
                titles: ["TM", "C", "H", "GM"].map(String::from).to_vec()
            },
            IccInfo::UnitEnd
        ]
    );
    // Code 11 is "Invalid password" in formats.txt's DG_LOGIN_FAILED table.
    assert_eq!(events(&v["login-failed"]), vec![Event::InvalidPassword]);
}

#[test]
fn icclegacy_match_vectors() {
    let v = legacy();
    let ev = events(&v["match"]);
    let Event::Challenge(m) = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(m.challenger.name, "challenger-name");
    assert_eq!(m.receiver.name, "receiver-name");
    // icclegacy keeps the number 1111; its annotation 0 means "no games in this category"
    // (formats.txt, DG_BULLET), which wily reads as unrated.
    assert_eq!(m.challenger.rating, Rating::Unrated);
    assert_eq!(m.challenger_titles, vec!["C".to_string(), "DM".to_string()]);
    assert!(m.rated && !m.adjourned);
    assert_eq!(m.category, "standard");
    assert_eq!(m.variant, None, "wild 0");
    assert_eq!((m.base_minutes, m.increment_secs), (20, 30));
    assert_eq!(m.other_clock, Some((40, 50)));
    assert_eq!(m.challenger_color, Some(Color::White));
    // formats.txt: [assess-loss assess-draw assess-win] fancy-time-control.
    assert_eq!(m.assess, Some([-30, -10, -20]));
    assert_eq!(m.fancy_time_control, "fancy-time-control");
    assert_eq!(
        ev.get(1),
        Some(&Event::IsComputer {
            name: "challenger-name".into()
        }),
        "titles hold C"
    );
    let ev = events(&v["match-removed"]);
    assert_eq!(
        ev,
        vec![Event::OfferWithdrawn {
            by_me: false,
            other: "challenger-name".into(),
            kind: OfferKind::Match
        }]
    );
    assert!(icc(&v["match-removed"]).contains(&IccInfo::MatchRemoved {
        challenger: "challenger-name".into(),
        receiver: "receiver-name".into(),
        text: "Explanation".into()
    }));
}

#[test]
fn icclegacy_seek_vectors() {
    let v = legacy();
    let ev = events(&v["seek"]);
    let Event::Seek(s) = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!((s.index, s.name.as_str()), (123, "iccguy"));
    assert_eq!(
        s.titles,
        title::GM | title::COMPUTER,
        "GM C H TD: H and TD have no bit"
    );
    assert_eq!(s.rating.value(), Some(1234));
    assert_eq!(s.category, "wild/5");
    assert_eq!((s.base_minutes, s.increment_secs, s.rated), (15, 0, true));
    assert_eq!(s.rating_range, Some((1000, 2000)));
    assert!(s.automatic);
    // icclegacy's test sends colour 2 and expects "white"; formats.txt defines only -1, 0
    // and 1 for the colour, so wily reads 2 as no colour asked.
    assert_eq!(s.color, None);
    assert_eq!(
        events(&v["seek-removed"]),
        vec![Event::SeekRemoved { indices: vec![11] }]
    );
}

#[test]
fn icclegacy_framing_vectors_nested_in_level1() {
    let v = legacy();
    let c = deframe(&v["level2-in-level1"]);
    let dgs: Vec<_> = c
        .iter()
        .filter_map(|c| match c {
            Chunk::Datagram(d) => Some(d),
            _ => None,
        })
        .collect();
    assert_eq!(dgs.len(), 1);
    assert_eq!(dgs[0].code, 100);
    assert_eq!(
        dgs[0].fields,
        ["p1", "p2 with spaces", "{p3 with brackets and spaces}"]
    );
    let text: Vec<u8> = c
        .iter()
        .filter_map(|c| match c {
            Chunk::Text(t) => Some(t.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(text, b"level 2 test", "the level-1 header line is dropped");

    let c = deframe(&v["nested-level1"]);
    let dgs: Vec<_> = c
        .iter()
        .filter_map(|c| match c {
            Chunk::Datagram(d) => Some(d.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        dgs.iter().map(|d| d.code).collect::<Vec<_>>(),
        [100, 101, 102, 103, 104, 105]
    );
    for d in &dgs {
        let n = d.code;
        assert_eq!(
            d.fields,
            [
                format!("l2_{n}"),
                format!("l2_{n} with space"),
                format!("l2_{n} with {{brackets}} and spaces")
            ]
        );
    }
    assert!(!c.iter().any(|c| matches!(c, Chunk::Bad(_))));
}

#[test]
fn queenmaxima_turns_on_what_wily_turns_on() {
    let bits = fixture("queenmaxima_level2settings.txt");
    let qm = parse_level2settings(&bits);
    assert_eq!(
        qm,
        [0, 10, 15, 16, 24, 26, 29, 31, 33, 34, 35, 36, 56, 101],
        "the string decodes to QueenMaxima's datagrams"
    );
    let ours = turned_on();
    // Everything a playing computer needs that QueenMaxima asks for, wily asks for too
    // (DG_OPEN is a player-list companion wily has no use for).
    for code in qm.iter().filter(|&&c| c != numbers::DG_OPEN) {
        assert!(
            ours.contains(code),
            "{} is turned on by QueenMaxima but not by wily",
            numbers::name(*code).unwrap_or("?")
        );
    }
}

#[test]
fn pychess_numbers_agree_with_the_table() {
    let text = fixture("pychess_dg_numbers.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| l.contains('=')) {
        let (name, n) = line.split_once('=').unwrap();
        let n: u16 = n.trim().parse().unwrap();
        let name = name.trim();
        assert!(
            numbers::name(n).is_some(),
            "{name} = {n} missing from wily's table"
        );
        // pychess spells two names differently; the numbers must still agree.
        if let Some(ours) = numbers::number(name) {
            assert_eq!(ours, n, "{name}");
        }
        checked += 1;
    }
    assert_eq!(checked, 136, "every line of the file was read");
}
