//! `wily ics replay --datagrams`: a capture that starts in the middle of a game (written by
//! hand from ICC's `formats.txt`) prints every datagram with its number, name and fields,
//! typed, announced game or not, with the level-1 unit around some of them; and the typed
//! events of the same capture carry what ICC says beyond FICS (titles, ratings, ECO, the
//! fancy time control, the assessment, a withdrawn challenge's receiver and text).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use wily::ics::icc::login::turned_on;
use wily::ics::icc::schema::MODIFIERS;

use crate::icc_replay::{json_lines, wily};

fn capture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/icc/midgame_capture.bin")
}

/// The datagram lines of `wily ics replay --datagrams` over the mid-game capture.
fn datagram_lines() -> Vec<Value> {
    let path = capture();
    let (ok, out, err) = wily(
        &["ics", "replay", path.to_str().unwrap(), "--datagrams"],
        None,
    );
    assert!(ok, "{err}");
    json_lines(&out)
}

/// Field `name` of the first datagram numbered `code`.
fn field(lines: &[Value], code: u64, name: &str) -> Value {
    let dg = lines
        .iter()
        .find(|v| v["kind"] == "datagram" && v["dg"] == code)
        .unwrap_or_else(|| panic!("datagram {code} not printed"));
    dg["fields"]
        .as_array()
        .and_then(|f| f.iter().find(|x| x["field"] == name))
        .map(|x| x["value"].clone())
        .unwrap_or_else(|| panic!("{name} missing from {dg}"))
}

#[test]
fn every_datagram_of_a_mid_game_capture_is_printed() {
    let lines = datagram_lines();
    let printed: BTreeSet<u64> = lines
        .iter()
        .filter(|v| v["kind"] == "datagram")
        .map(|v| v["dg"].as_u64().unwrap())
        .collect();
    // The datagrams issue 64 names, and every one wily turns on (the move-field switches
    // and the like change other datagrams and are never sent themselves).
    let mut want: BTreeSet<u64> = [
        24, 101, 25, 56, 21, 22, 38, 43, 39, 20, 70, 112, 84, 19, 139,
    ]
    .into_iter()
    .collect();
    want.extend(
        turned_on()
            .into_iter()
            .filter(|c| !MODIFIERS.contains(c))
            .map(u64::from),
    );
    let absent: Vec<&u64> = want.difference(&printed).collect();
    assert!(absent.is_empty(), "not printed: {absent:?}");
    for v in lines.iter().filter(|v| v["kind"] == "datagram") {
        let unreadable = v["fields"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x.get("unreadable").is_some()));
        if v["dg"] == 250 || unreadable {
            continue;
        }
        assert!(
            v["name"].as_str().is_some_and(|n| n.starts_with("DG_")),
            "{v}"
        );
        assert!(v.get("raw").is_none(), "typed by its form: {v}");
        assert!(
            v.get("missing").is_none() && v.get("extra").is_none(),
            "{v}"
        );
    }
    assert_eq!(lines.iter().filter(|v| v["kind"] == "datagram").count(), 36);

    // Values as formats.txt defines the fields.
    assert_eq!(field(&lines, 24, "gamenumber"), 7);
    assert_eq!(field(&lines, 24, "smith-move"), "g1f3");
    assert_eq!(field(&lines, 24, "clock")["ms"], 178_000);
    assert_eq!(field(&lines, 56, "color"), "white");
    assert_eq!(field(&lines, 56, "running"), false);
    assert_eq!(field(&lines, 101, "nmoves-to-follow"), 2);
    assert_eq!(field(&lines, 25, "initial-position"), "*");
    assert_eq!(field(&lines, 21, "wdraw"), true);
    assert_eq!(field(&lines, 22, "takeback-count"), 2);
    assert_eq!(field(&lines, 38, "black-clock")["ms"], 115_500);
    assert_eq!(field(&lines, 43, "symbol"), "PW");
    assert_eq!(field(&lines, 39, "flip"), false);
    assert_eq!(field(&lines, 20, "symbol"), "PB");
    assert_eq!(field(&lines, 112, "value"), "ICC 3 0");
    assert_eq!(field(&lines, 84, "side-to-move"), "white");
    assert_eq!(field(&lines, 16, "ECO"), "C20");
    assert_eq!(field(&lines, 0, "titles"), json!(["C"]));
    assert_eq!(field(&lines, 29, "assess-win"), 8);
    assert_eq!(field(&lines, 29, "fancy-time-control"), "40/5400+30:900+30");
    assert_eq!(field(&lines, 30, "explanation"), "declined {busy}");
    assert_eq!(field(&lines, 15, "black-titles"), json!(["GM"]));
    assert_eq!(field(&lines, 18, "ex-string"), "Ex: continuation");
    assert_eq!(field(&lines, 18, "played-game"), false);
    assert_eq!(field(&lines, 144, "lag"), 120);
    assert_eq!(field(&lines, 50, "fancy-time-control"), "G/25m");

    // The unit around the first move, the unknown number, the field that cannot be read
    // and the first line (the capture saying it was written by hand).
    let unit = lines.iter().find(|v| v["kind"] == "unit").unwrap();
    assert_eq!(
        (&unit["command"], &unit["issuer"], &unit["tag"]),
        (&json!(24), &json!("*"), &json!("m1"))
    );
    assert_eq!(lines.iter().filter(|v| v["kind"] == "unit-end").count(), 1);
    let unknown = lines.iter().find(|v| v["dg"] == 250).unwrap();
    assert_eq!(unknown["name"], Value::Null);
    assert_eq!(unknown["raw"], json!(["mystery", "two words"]));
    let bad_color = lines.iter().rfind(|v| v["dg"] == 56).unwrap();
    assert_eq!(bad_color["fields"][1]["unreadable"], "not W or B");
    assert!(lines[0]["text"]
        .as_str()
        .unwrap()
        .starts_with("Written by hand from ICC's formats.txt"));
}

#[test]
fn the_typed_events_carry_what_icc_says_beyond_fics() {
    let path = capture();
    let (ok, out, err) = wily(
        &["ics", "replay", path.to_str().unwrap(), "--dialect", "icc"],
        None,
    );
    assert!(ok, "{err}");
    let lines = json_lines(&out);
    let icc: Vec<&Value> = lines
        .iter()
        .filter(|v| v["kind"] == "icc")
        .map(|v| &v["event"]["Icc"])
        .collect();
    let find = |k: &str| {
        icc.iter()
            .find(|v| v.get(k).is_some() || **v == k)
            .unwrap_or_else(|| panic!("{k} missing from {icc:?}"))
    };
    assert_eq!(find("Unit")["Unit"]["tag"], "m1");
    find("UnitEnd");
    assert_eq!(find("Me")["Me"]["titles"], json!(["C"]));
    let result = &find("Result")["Result"];
    assert_eq!(
        (&result["eco"], &result["code"]),
        (&json!("C20"), &json!("Res"))
    );
    let removed = &find("MatchRemoved")["MatchRemoved"];
    assert_eq!(removed["receiver"], "wily");
    assert_eq!(removed["text"], "declined {busy}");
    let games: Vec<&Value> = icc.iter().filter_map(|v| v.get("Game")).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["black"]["titles"], json!(["GM"]));
    assert_eq!(games[0]["black"]["rating"]["Rated"]["value"], 2650);
    assert_eq!(games[0]["fancy_time_control"], "40/5400+30:900+30");
    assert_eq!(games[1]["tie"], "Observing");
    assert_eq!(games[1]["rating_type"], "Standard");
    assert_eq!(games[1]["ex_string"], "Ex: continuation");
    assert_eq!(games[1]["white"]["rating"]["Rated"]["value"], 1800);
    assert_eq!(games[1]["white"]["titles"], json!(["IM"]));
    let challenge = lines
        .iter()
        .find(|v| v["kind"] == "issuing" || v["kind"] == "challenge")
        .unwrap();
    let offer = challenge["event"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap();
    assert_eq!(offer["assess"], json!([-8, 0, 8]));
    assert_eq!(offer["fancy_time_control"], "40/5400+30:900+30");
    let seek = lines.iter().find(|v| v["kind"] == "seek").unwrap();
    assert_eq!(seek["event"]["Seek"]["fancy_time_control"], "G/25m");
}
