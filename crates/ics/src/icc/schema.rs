//! The forms of ICC's datagrams as `formats.txt` gives them: each field's name and type, so
//! `wily ics replay --datagrams` can print any datagram field by field, typed, whether or
//! not the reader followed the game it belongs to. A datagram without a form here is
//! printed with its raw fields.

use serde_json::{json, Value};

use crate::icc::datagram::Datagram;
use crate::icc::numbers::*;
use crate::icc::parse::MoveFields;

/// Switches that change other datagrams and are never sent themselves (`formats.txt`: the
/// move fields 33-36 and 113 of `DG_SEND_MOVES`, 85 the assessment of `DG_MATCH`, 132 how
/// wild-22 moves are sent).
pub const MODIFIERS: &[u16] = &[
    DG_MOVE_ALGEBRAIC,
    DG_MOVE_SMITH,
    DG_MOVE_TIME,
    DG_MOVE_CLOCK,
    DG_MATCH_ASSESSMENT,
    DG_IS_VARIATION,
    DG_KNOWS_FISCHER_RANDOM,
];

/// How a field is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// A whole number.
    Int,
    /// `0` or `1`.
    Flag,
    /// Any text (a name, a quoted string).
    Text,
    /// Blank-separated title letters (`GM C`).
    Titles,
    /// `W` or `B`.
    Color,
    /// Seconds, possibly with a fraction (shown with their milliseconds too).
    Seconds,
}

/// A field: its name in `formats.txt` and its type.
pub type Field = (&'static str, FieldType);

use FieldType::*;

const GAME: Field = ("gamenumber", Int);

const GAME_STARTED: &[Field] = &[
    GAME,
    ("whitename", Text),
    ("blackname", Text),
    ("wild-number", Int),
    ("rating-type", Text),
    ("rated", Flag),
    ("white-initial", Int),
    ("white-increment", Int),
    ("black-initial", Int),
    ("black-increment", Int),
    ("played-game", Flag),
    ("ex-string", Text),
    ("white-rating", Int),
    ("black-rating", Int),
    ("game-id", Int),
    ("white-titles", Titles),
    ("black-titles", Titles),
    ("irregular-legality", Flag),
    ("irregular-semantics", Flag),
    ("uses-plunkers", Flag),
    ("fancy-timecontrol", Text),
    ("promote-to-king", Flag),
];

const GAME_RESULT: &[Field] = &[
    GAME,
    ("become-examined", Flag),
    ("game_result_code", Text),
    ("score_string2", Text),
    ("description-string", Text),
    ("ECO", Text),
];

const MATCH_HEAD: &[Field] = &[
    ("challenger-name", Text),
    ("challenger-rating", Int),
    ("challenger-rating-annotation", Int),
    ("challenger-titles", Titles),
    ("receiver-name", Text),
    ("receiver-rating", Int),
    ("receiver-rating-annotation", Int),
    ("receiver-titles", Titles),
    ("wild-number", Int),
    ("rating-type", Text),
    ("is-it-rated", Flag),
    ("is-it-adjourned", Flag),
    ("challenger-initial", Int),
    ("challenger-increment", Int),
    ("receiver-initial", Int),
    ("receiver-increment", Int),
    ("challenger-color-request", Int),
];

const ASSESS: &[Field] = &[
    ("assess-loss", Int),
    ("assess-draw", Int),
    ("assess-win", Int),
];

/// The fixed form of a datagram (the variable ones, 24, 25, 29 and 111, are built in
/// [`form`]).
fn fixed(code: u16) -> Option<&'static [Field]> {
    Some(match code {
        DG_WHO_AM_I => &[("myname", Text), ("titles", Titles)],
        DG_GAME_STARTED | DG_MY_GAME_STARTED | DG_STARTED_OBSERVING | DG_ISOLATED_BOARD
        | DG_MY_GAME_CHANGE => GAME_STARTED,
        DG_GAME_RESULT | DG_MY_GAME_RESULT => GAME_RESULT,
        DG_EXAMINED_GAME_IS_GONE
        | DG_MY_GAME_ENDED
        | DG_STOP_OBSERVING
        | DG_REFRESH
        | DG_MY_TURN
        | DG_DISABLE_PREMOVE => &[GAME],
        DG_PLAYERS_IN_MY_GAME => &[
            GAME,
            ("playername", Text),
            ("symbol", Text),
            ("kibvalue", Int),
        ],
        DG_OFFERS_IN_MY_GAME => &[
            GAME,
            ("wdraw", Flag),
            ("bdraw", Flag),
            ("wadjourn", Flag),
            ("badjourn", Flag),
            ("wabort", Flag),
            ("babort", Flag),
            ("wtakeback", Int),
            ("btakeback", Int),
        ],
        DG_TAKEBACK => &[GAME, ("takeback-count", Int)],
        DG_BACKWARD => &[GAME, ("backup-count", Int)],
        DG_KIBITZ => &[
            GAME,
            ("playername", Text),
            ("titles", Titles),
            ("kib/whi", Flag),
            ("kib string", Text),
        ],
        DG_PEOPLE_IN_MY_CHANNEL => &[("channel", Int), ("playername", Text), ("come/go", Flag)],
        DG_CHANNEL_TELL => &[
            ("channel", Int),
            ("playername", Text),
            ("titles", Titles),
            ("tell string", Text),
            ("type", Int),
        ],
        DG_MATCH_REMOVED => &[
            ("challenger-name", Text),
            ("receiver-name", Text),
            ("explanation", Text),
        ],
        DG_PERSONAL_TELL => &[
            ("playername", Text),
            ("titles", Titles),
            ("tell string", Text),
            ("type", Int),
        ],
        DG_SHOUT => &[
            ("playername", Text),
            ("titles", Titles),
            ("type", Int),
            ("shout string", Text),
        ],
        DG_BUGHOUSE_HOLDINGS => &[GAME, ("white-holding", Text), ("black-holding", Text)],
        DG_SET_CLOCK => &[GAME, ("white-clock", Seconds), ("black-clock", Seconds)],
        DG_FLIP => &[GAME, ("flip", Flag)],
        DG_ILLEGAL_MOVE => &[GAME, ("movestring", Text), ("reason", Int)],
        DG_MY_RELATION_TO_GAME => &[GAME, ("symbol", Text)],
        DG_PARTNERSHIP => &[("name", Text), ("name", Text), ("forming", Flag)],
        DG_MY_VARIABLE => &[("variable-name", Text), ("value", Int)],
        DG_MY_STRING_VARIABLE => &[("variable-name", Text), ("value", Text)],
        DG_SEEK => &[
            ("index", Int),
            ("name", Text),
            ("titles", Titles),
            ("rating", Int),
            ("provisional-status", Int),
            ("wild", Int),
            ("rating-type", Text),
            ("time", Int),
            ("inc", Int),
            ("rated", Flag),
            ("color", Int),
            ("minrating", Int),
            ("maxrating", Int),
            ("autoaccept", Flag),
            ("formula", Flag),
            ("fancy-time-control", Text),
        ],
        DG_SEEK_REMOVED => &[("index", Int), ("reasoncode", Int)],
        DG_MY_RATING => &[
            ("bullet-rating", Int),
            ("blitz-rating", Int),
            ("standard-rating", Int),
            ("wild-rating", Int),
            ("bughouse-rating", Int),
        ],
        DG_SOUND => &[("code", Int)],
        DG_MSEC => &[
            GAME,
            ("color", Color),
            ("msec", Int),
            ("running", Flag),
            ("free_time_to_move", Int),
            ("min_move_time", Int),
        ],
        DG_MORETIME => &[GAME, ("color", Color), ("seconds", Int)],
        DG_PERSONAL_TELL_ECHO => &[("receivername", Text), ("type", Int), ("string", Text)],
        DG_LOGIN_FAILED => &[("code", Int), ("explanation-string", Text)],
        DG_FEN => &[GAME, ("FEN-string", Text)],
        DG_DUMMY_RESPONSE => &[],
        DG_CHANNEL_QTELL => &[
            ("channel", Int),
            ("name", Text),
            ("titles", Titles),
            ("qtell-string", Text),
        ],
        DG_PERSONAL_QTELL => &[
            ("playername", Text),
            ("titles", Titles),
            ("qtell-string", Text),
        ],
        DG_SET_BOARD => &[GAME, ("64-character-board", Text), ("side-to-move", Color)],
        DG_POSITION_BEGIN | DG_POSITION_BEGIN2 => {
            &[GAME, ("initial-FEN", Text), ("nmoves-to-follow", Int)]
        }
        DG_TOURNEY => &[
            ("index", Int),
            ("bitfield", Int),
            ("description", Text),
            ("join-command", Text),
            ("watch-command", Text),
            ("info-command", Text),
            ("confirm-text", Text),
        ],
        DG_REMOVE_TOURNEY => &[("index", Int)],
        DG_PGN_TAG => &[GAME, ("tagname", Text), ("value", Text)],
        DG_SET2 => &[("dg-code", Int), ("off/on", Flag)],
        DG_MUGSHOT => &[("player", Text), ("URL", Text), ("gamenumber", Int)],
        DG_TOURNEY_GAME_ENDED => &[
            ("event-label", Text),
            ("white", Text),
            ("black", Text),
            ("id", Int),
            ("score-string2", Text),
        ],
        DG_MOVE_LAG => &[("player", Text), ("lag", Int)],
        DG_COUNTRY => &[("player", Text), ("gamenumber", Int), ("country", Text)],
        DG_ERROR => &[
            ("int-unique-error-number", Int),
            ("2-letter-iso-language", Text),
            ("string-error-text", Text),
            ("URL", Text),
        ],
        DG_FAIL => &[("command_id", Int), ("error_message", Text)],
        _ => return None,
    })
}

/// The form of `dg` (`None`: not described here). `DG_SEND_MOVES` and `DG_PAST_MOVE` carry
/// the optional fields `moves` says are on; `DG_MATCH` has the assessment when it has
/// three fields more than without; `DG_MOVE_LIST`'s moves and `DG_NEW_MY_RATING`'s
/// ratings repeat.
pub fn form(dg: &Datagram, moves: MoveFields) -> Option<Vec<Field>> {
    Some(match dg.code {
        DG_SEND_MOVES | DG_PAST_MOVE => {
            let mut f = vec![GAME];
            let optional = [
                (moves.algebraic, ("algebraic-move", Text)),
                (moves.smith, ("smith-move", Text)),
                (moves.time, ("time", Seconds)),
                (moves.clock, ("clock", Seconds)),
                (moves.variation, ("is-variation", Flag)),
            ];
            f.extend(optional.iter().filter(|(on, _)| *on).map(|(_, x)| *x));
            f
        }
        DG_MOVE_LIST => {
            let mut f = vec![GAME, ("initial-position", Text)];
            f.extend((2..dg.fields.len().max(2)).map(|_| ("move-info", Text)));
            f
        }
        DG_NEW_MY_RATING => dg.fields.iter().map(|_| ("rating", Int)).collect(),
        DG_MATCH => {
            let mut f = MATCH_HEAD.to_vec();
            if dg.fields.len() > MATCH_HEAD.len() + ASSESS.len() {
                f.extend_from_slice(ASSESS);
            }
            f.push(("fancy-time-control", Text));
            f
        }
        code => fixed(code)?.to_vec(),
    })
}

/// One field's value as its type reads it; `Err` with the reason when it does not.
fn typed(raw: &str, ty: FieldType) -> Result<Value, &'static str> {
    let t = raw.trim();
    match ty {
        Text => Ok(json!(raw)),
        Int => t
            .parse::<i64>()
            .map(|v| json!(v))
            .map_err(|_| "not a number"),
        Flag => match t {
            "0" => Ok(json!(false)),
            "1" => Ok(json!(true)),
            _ => Err("not 0 or 1"),
        },
        Titles => Ok(json!(t.split_whitespace().collect::<Vec<_>>())),
        Color => match t {
            "W" | "w" => Ok(json!("white")),
            "B" | "b" => Ok(json!("black")),
            _ => Err("not W or B"),
        },
        Seconds => match t.parse::<f64>() {
            Ok(v) if v.is_finite() => {
                Ok(json!({ "seconds": v, "ms": (v * 1000.0).round() as i64 }))
            }
            _ => Err("not a number of seconds"),
        },
    }
}

/// The datagram as one JSON object: `dg` (its number), `name` (`DG_...`, null when
/// `formats.txt` names no such number), and `fields`, each `{"field", "value"}` typed by
/// its form (a field its type cannot read keeps its text with `"unreadable"` saying why),
/// `missing` (the form's fields the datagram lacks), `extra` (fields beyond the form) or,
/// for a datagram without a form here, `raw` (its fields as text).
pub fn describe(dg: &Datagram, moves: MoveFields) -> Value {
    let mut v = json!({ "kind": "datagram", "dg": dg.code, "name": name(dg.code) });
    let Some(form) = form(dg, moves) else {
        v["raw"] = json!(dg.fields);
        return v;
    };
    let mut fields = Vec::new();
    for (raw, (field, ty)) in dg.fields.iter().zip(&form) {
        fields.push(match typed(raw, *ty) {
            Ok(value) => json!({ "field": field, "value": value }),
            Err(why) => json!({ "field": field, "value": raw, "unreadable": why }),
        });
    }
    v["fields"] = json!(fields);
    if form.len() > dg.fields.len() {
        let missing: Vec<&str> = form[dg.fields.len()..].iter().map(|f| f.0).collect();
        v["missing"] = json!(missing);
    }
    if dg.fields.len() > form.len() {
        v["extra"] = json!(dg.fields[form.len()..]);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get<'a>(v: &'a Value, field: &str) -> &'a Value {
        v["fields"]
            .as_array()
            .and_then(|a| a.iter().find(|f| f["field"] == field))
            .map(|f| &f["value"])
            .unwrap_or(&Value::Null)
    }

    #[test]
    fn every_datagram_wily_turns_on_has_a_form() {
        for code in crate::icc::login::turned_on() {
            if MODIFIERS.contains(&code) {
                continue;
            }
            let dg = Datagram::new(code);
            assert!(
                form(&dg, MoveFields::default()).is_some(),
                "{:?}",
                name(code)
            );
        }
    }

    #[test]
    fn send_moves_follows_the_move_switches() {
        // formats.txt: (gamenumber algebraic-move smith-move time clock is-variation),
        // the last five there only when switched on.
        let dg = Datagram::new(24)
            .with(7)
            .with("e4")
            .with("e2e4")
            .with(2)
            .with(298);
        let v = describe(&dg, MoveFields::default());
        assert_eq!(v["name"], "DG_SEND_MOVES");
        assert_eq!(get(&v, "gamenumber"), 7);
        assert_eq!(get(&v, "smith-move"), "e2e4");
        assert_eq!(get(&v, "clock")["ms"], 298_000);
        let only_smith = MoveFields {
            algebraic: false,
            smith: true,
            time: false,
            clock: false,
            variation: false,
        };
        let v = describe(&Datagram::new(24).with(7).with("e2e4"), only_smith);
        assert_eq!(get(&v, "smith-move"), "e2e4");
        assert!(v.get("extra").is_none());
    }

    #[test]
    fn match_with_and_without_the_assessment() {
        let dg = |tail: &[&str]| {
            let head = "Bob 1500 2 GM wily 1600 1 C 0 Blitz 1 0 5 0 5 0 -1";
            let mut fields: Vec<String> = head.split(' ').map(str::to_string).collect();
            fields.extend(tail.iter().map(|s| s.to_string()));
            Datagram { code: 29, fields }
        };
        let v = describe(&dg(&[""]), MoveFields::default());
        assert_eq!(get(&v, "challenger-titles"), &json!(["GM"]));
        assert_eq!(get(&v, "is-it-rated"), true);
        assert_eq!(get(&v, "fancy-time-control"), "");
        assert!(
            v.get("missing").is_none() && v.get("extra").is_none(),
            "{v}"
        );
        let v = describe(&dg(&["-8", "0", "8", "40/5400+30"]), MoveFields::default());
        assert_eq!(get(&v, "assess-win"), 8);
        assert_eq!(get(&v, "fancy-time-control"), "40/5400+30");
    }

    #[test]
    fn bad_fields_unknown_datagrams_and_missing_fields() {
        let v = describe(
            &Datagram::new(56).with(7).with("X").with(1000),
            MoveFields::default(),
        );
        let color = &v["fields"][1];
        assert_eq!(color["unreadable"], "not W or B");
        assert_eq!(
            v["missing"],
            json!(["running", "free_time_to_move", "min_move_time"])
        );
        let v = describe(
            &Datagram::new(999).with("a").with("b c"),
            MoveFields::default(),
        );
        assert_eq!(v["name"], Value::Null);
        assert_eq!(v["raw"], json!(["a", "b c"]));
        let v = describe(&Datagram::new(139).with(7).with(8), MoveFields::default());
        assert_eq!(v["extra"], json!(["8"]));
    }
}
