//! The engine options of the two GUI protocols in one table ([`OPTIONS`]): each option's
//! UCI and xboard names, its kind (a spin with its range, a check, a button or a string),
//! the value a fresh `wily uci` / `wily xboard` starts with, and what it sets. UCI
//! (`uci.rs`) writes its `option name ...` lines from it and reads `setoption` through it;
//! xboard (`xboard/features.rs`, `xboard/session.rs`) writes its `feature option="..."`
//! lines from it and reads `option NAME=VALUE` through it. A listing shows each option's
//! value in use as its default.
//!
//! The search's tunable constants (`engine::tunables`) are not rows: they stay settable by
//! UCI `setoption`, but only `ucifull` (or `uci` under `wily uci --full`) lists them, after
//! the user options, so a GUI shows only the options a player wants. docs/engine.md's
//! options table is [`doc_table`], checked by a test here.

use engine::skill::{ELO_MAX, ELO_MIN};

/// What an option sets; each front end acts on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    Hash,
    PawnHash,
    Threads,
    Ponder,
    MultiPv,
    MoveOverhead,
    Chess960,
    Contempt,
    DrawScore,
    Resign,
    Whisper,
    Kibitz,
    Noise,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    Swindle,
    EvalFile,
    Eval,
    LimitStrength,
    Elo,
    Strength,
    ClearHash,
}

/// An option's kind with the value a fresh session starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    /// An action (no value).
    Button,
    /// Free text; an empty default is written `<empty>` to UCI.
    Text {
        default: &'static str,
    },
    /// One of a fixed list of words (ASCII case ignored when read).
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
}

/// One row of [`OPTIONS`].
#[derive(Clone, Copy, Debug)]
pub struct EngineOption {
    pub opt: Opt,
    /// The UCI name, if UCI has the option.
    pub uci: Option<&'static str>,
    /// The xboard name, if xboard has the option.
    pub xboard: Option<&'static str>,
    pub kind: Kind,
    /// What it sets, for the manual.
    pub sets: &'static str,
}

/// A value of an option: one read from a front end, or the one in use (shown as the
/// default in a listing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
    /// A button pressed.
    Press,
}

impl Value {
    /// The number of a spin (0 for any other kind).
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            _ => 0,
        }
    }

    /// The state of a check (false for any other kind).
    pub fn flag(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// The text of a string option ("" for any other kind).
    pub fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }
}

const fn spin(default: i64, min: i64, max: i64) -> Kind {
    Kind::Spin { default, min, max }
}

const fn row(
    opt: Opt,
    uci: Option<&'static str>,
    xboard: Option<&'static str>,
    kind: Kind,
    sets: &'static str,
) -> EngineOption {
    EngineOption {
        opt,
        uci,
        xboard,
        kind,
        sets,
    }
}

/// Every engine option of UCI and xboard, in the order the listings show them.
pub const OPTIONS: &[EngineOption] = &[
    row(
        Opt::Hash,
        Some("Hash"),
        Some("Hash (MB)"),
        spin(64, 1, 65_536),
        "transposition table size in MB (at most what the machine allows)",
    ),
    row(
        Opt::PawnHash,
        Some("Pawn Hash"),
        None,
        spin(1, 1, 1024),
        "pawn hash table of each search thread in MB",
    ),
    row(
        Opt::Threads,
        Some("Threads"),
        Some("Threads"),
        spin(1, 1, 256),
        "search threads (Lazy SMP)",
    ),
    row(
        Opt::Ponder,
        Some("Ponder"),
        Some("Ponder"),
        Kind::Check { default: false },
        "UCI: nothing (the GUI sends `go ponder`); xboard: think on the opponent's time",
    ),
    row(
        Opt::MultiPv,
        Some("MultiPV"),
        None,
        spin(1, 1, 256),
        "principal variations reported",
    ),
    row(
        Opt::MoveOverhead,
        Some("Move Overhead"),
        None,
        spin(50, 0, 5000),
        "ms kept back from the clock per move for lag (from `go movetime` at most a tenth)",
    ),
    row(
        Opt::Chess960,
        Some("UCI_Chess960"),
        None,
        Kind::Check { default: false },
        "Chess960: king-takes-rook castling, X-FEN and Shredder-FEN positions",
    ),
    row(
        Opt::Contempt,
        Some("Contempt"),
        None,
        spin(0, -500, 500),
        "contempt in cp: the draw score is its negative",
    ),
    row(
        Opt::DrawScore,
        None,
        Some("Draw score (cp)"),
        spin(0, -1000, 1000),
        "the value of a draw in cp from wily's side",
    ),
    row(
        Opt::Resign,
        None,
        Some("Resign threshold (pawns)"),
        spin(9, 0, 100),
        "resign after several scores this many pawns behind (0: never)",
    ),
    row(
        Opt::Whisper,
        None,
        Some("Whisper level"),
        spin(0, 0, 6),
        "what is whispered to an ICS after each move (0: nothing)",
    ),
    row(
        Opt::Kibitz,
        None,
        Some("Kibitz level"),
        spin(0, 0, 6),
        "what is kibitzed to an ICS after each move (0: nothing)",
    ),
    row(
        Opt::Noise,
        None,
        Some("Noise (nodes)"),
        spin(100_000, 0, 1_000_000_000),
        "ICS whispers and kibitzes only about searches of at least this many nodes",
    ),
    row(
        Opt::SyzygyPath,
        Some("SyzygyPath"),
        None,
        Kind::Text { default: "" },
        "Syzygy table folders, `:`-separated (xboard: `egtpath syzygy`)",
    ),
    row(
        Opt::SyzygyProbeDepth,
        Some("SyzygyProbeDepth"),
        Some("Syzygy probe depth"),
        spin(1, 1, 100),
        "shallowest depth the search probes the tables at",
    ),
    row(
        Opt::Syzygy50MoveRule,
        Some("Syzygy50MoveRule"),
        Some("Syzygy 50-move rule"),
        Kind::Check { default: true },
        "cursed wins and blessed losses count as draws",
    ),
    row(
        Opt::Swindle,
        Some("Swindle"),
        Some("Swindle"),
        Kind::Check { default: true },
        "in a position the tables call drawn, play the drawing move that keeps the most chances",
    ),
    row(
        Opt::EvalFile,
        Some("EvalFile"),
        Some("EvalFile"),
        Kind::Text { default: "" },
        "the network file `Eval=nnue` evaluates with (docs/nnue.md)",
    ),
    row(
        Opt::Eval,
        Some("Eval"),
        Some("Eval"),
        Kind::Combo {
            default: "hce",
            choices: &["hce", "nnue"],
        },
        "`hce`: the hand-written evaluation (the strength knobs apply to it only); `nnue`: the network of `EvalFile`",
    ),
    row(
        Opt::LimitStrength,
        Some("UCI_LimitStrength"),
        None,
        Kind::Check { default: false },
        "play at `UCI_Elo`",
    ),
    row(
        Opt::Elo,
        Some("UCI_Elo"),
        None,
        spin(1500, ELO_MIN as i64, ELO_MAX as i64),
        "the Elo of limited strength",
    ),
    row(
        Opt::Strength,
        None,
        Some("Strength (Elo, 0 off)"),
        spin(0, 0, ELO_MAX as i64),
        "limited strength's Elo (0: full strength; 1-799 play as 800)",
    ),
    row(
        Opt::ClearHash,
        Some("Clear Hash"),
        Some("Clear Hash"),
        Kind::Button,
        "empties the hash tables",
    ),
];

/// The UCI option named `name` (ASCII case ignored).
pub fn find_uci(name: &str) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| o.uci.is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

/// The xboard option named exactly `name`.
pub fn find_xboard(name: &str) -> Option<&'static EngineOption> {
    OPTIONS.iter().find(|o| o.xboard == Some(name))
}

impl EngineOption {
    /// The value a fresh session starts with (`Press` for a button).
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Spin { default, .. } => Value::Int(default),
            Kind::Check { default } => Value::Bool(default),
            Kind::Button => Value::Press,
            Kind::Text { default } | Kind::Combo { default, .. } => {
                Value::Text(default.to_string())
            }
        }
    }

    /// The `option name ...` line of the UCI listing, `current` shown as the default.
    pub fn uci_line(&self, current: &Value) -> String {
        let name = self.uci.unwrap_or_default();
        match self.kind {
            Kind::Spin { min, max, .. } => format!(
                "option name {name} type spin default {} min {min} max {max}",
                current.int()
            ),
            Kind::Check { .. } => {
                format!("option name {name} type check default {}", current.flag())
            }
            Kind::Button => format!("option name {name} type button"),
            Kind::Text { .. } => {
                let t = current.text();
                let shown = if t.is_empty() { "<empty>" } else { t };
                format!("option name {name} type string default {shown}")
            }
            Kind::Combo { choices, .. } => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!(
                    "option name {name} type combo default {}{vars}",
                    current.text()
                )
            }
        }
    }

    /// The `NAME -KIND ...` text of xboard's `feature option="..."`, `current` shown.
    pub fn xboard_text(&self, current: &Value) -> String {
        let name = self.xboard.unwrap_or_default();
        match self.kind {
            Kind::Spin { min, max, .. } => format!("{name} -spin {} {min} {max}", current.int()),
            Kind::Check { .. } => format!("{name} -check {}", u8::from(current.flag())),
            Kind::Button => format!("{name} -button"),
            Kind::Text { .. } => format!("{name} -string {}", current.text()),
            Kind::Combo { choices, .. } => {
                let shown: Vec<String> = choices
                    .iter()
                    .map(|c| {
                        if *c == current.text() {
                            format!("*{c}")
                        } else {
                            c.to_string()
                        }
                    })
                    .collect();
                format!("{name} -combo {}", shown.join(" /// "))
            }
        }
    }

    /// Reads a UCI `setoption` value: a spin's number clamped into its range (`None` when
    /// it is no number), a check's `true` (anything else is false), a string's text.
    pub fn parse_uci(&self, value: &str) -> Option<Value> {
        let value = value.trim();
        match self.kind {
            Kind::Spin { min, max, .. } => value
                .parse::<i64>()
                .ok()
                .map(|v| Value::Int(v.clamp(min, max))),
            Kind::Check { .. } => Some(Value::Bool(value.eq_ignore_ascii_case("true"))),
            Kind::Button => Some(Value::Press),
            Kind::Text { .. } => Some(Value::Text(value.to_string())),
            Kind::Combo { choices, .. } => choice(choices, value),
        }
    }

    /// Reads an xboard `option NAME=VALUE` value: a spin's number in its range, a check's
    /// number (not 0 is on), a string's text; `None` for a bad or missing value.
    pub fn parse_xboard(&self, value: Option<&str>) -> Option<Value> {
        let int = || value.and_then(|v| v.trim().parse::<i64>().ok());
        match self.kind {
            Kind::Spin { min, max, .. } => {
                int().filter(|v| (min..=max).contains(v)).map(Value::Int)
            }
            Kind::Check { .. } => int().map(|v| Value::Bool(v != 0)),
            Kind::Button => Some(Value::Press),
            Kind::Text { .. } => value.map(|v| Value::Text(v.trim().to_string())),
            Kind::Combo { choices, .. } => value.and_then(|v| choice(choices, v.trim())),
        }
    }
}

/// The choice of a combo named `value` (ASCII case ignored).
fn choice(choices: &[&'static str], value: &str) -> Option<Value> {
    choices
        .iter()
        .find(|c| c.eq_ignore_ascii_case(value))
        .map(|c| Value::Text(c.to_string()))
}

/// The options table of docs/engine.md, one row per option.
pub fn doc_table() -> String {
    let mut s = String::from(
        "| UCI | xboard | kind | default | range | sets |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    let name = |n: Option<&str>| n.map_or_else(|| "-".to_string(), |n| format!("`{n}`"));
    for o in OPTIONS {
        let (kind, default, range) = match o.kind {
            Kind::Spin { default, min, max } => {
                ("spin", default.to_string(), format!("{min} to {max}"))
            }
            Kind::Check { default } => ("check", default.to_string(), String::new()),
            Kind::Button => ("button", String::new(), String::new()),
            Kind::Text { default } => {
                let d = if default.is_empty() { "empty" } else { default };
                ("string", d.to_string(), String::new())
            }
            Kind::Combo { default, choices } => ("combo", default.to_string(), choices.join(", ")),
        };
        s.push_str(&format!(
            "| {} | {} | {kind} | {default} | {range} | {} |\n",
            name(o.uci),
            name(o.xboard),
            o.sets
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_row_has_a_protocol() {
        for (i, a) in OPTIONS.iter().enumerate() {
            assert!(a.uci.is_some() || a.xboard.is_some(), "{:?}", a.opt);
            for b in &OPTIONS[i + 1..] {
                assert_ne!(a.opt, b.opt);
                if let (Some(x), Some(y)) = (a.uci, b.uci) {
                    assert!(!x.eq_ignore_ascii_case(y), "{x}");
                }
                if a.xboard.is_some() {
                    assert_ne!(a.xboard, b.xboard);
                }
            }
            if let Kind::Spin { default, min, max } = a.kind {
                assert!(min <= default && default <= max, "{:?}", a.opt);
            }
            // No user option takes a tunable's name.
            let tunable = |n: &str| {
                engine::tunables::TUNABLES
                    .iter()
                    .any(|t| t.name.eq_ignore_ascii_case(n))
            };
            assert!(!a.uci.is_some_and(tunable), "{:?}", a.opt);
        }
    }

    #[test]
    fn values_are_read_by_each_protocol_rules() {
        let hash = find_uci("hash").expect("Hash");
        assert_eq!(find_xboard("Hash (MB)").map(|o| o.opt), Some(Opt::Hash));
        assert!(find_xboard("hash (mb)").is_none());
        assert_eq!(hash.parse_uci(" 99999 "), Some(Value::Int(65_536)));
        assert_eq!(hash.parse_uci("lots"), None);
        assert_eq!(hash.parse_xboard(Some("99999")), None);
        assert_eq!(hash.parse_xboard(Some("16")), Some(Value::Int(16)));
        let rule = find_uci("SYZYGY50MOVERULE").expect("rule");
        assert_eq!(rule.parse_uci("TRUE"), Some(Value::Bool(true)));
        assert_eq!(rule.parse_uci("yes"), Some(Value::Bool(false)));
        assert_eq!(rule.parse_xboard(Some("0")), Some(Value::Bool(false)));
        assert_eq!(rule.parse_xboard(None), None);
        let path = find_uci("syzygypath").expect("path");
        assert_eq!(
            path.uci_line(&path.default_value()),
            "option name SyzygyPath type string default <empty>"
        );
        assert_eq!(
            rule.xboard_text(&Value::Bool(true)),
            "Syzygy 50-move rule -check 1"
        );
        let eval = find_uci("eval").expect("Eval");
        assert_eq!(
            eval.uci_line(&eval.default_value()),
            "option name Eval type combo default hce var hce var nnue"
        );
        assert_eq!(eval.parse_uci("NNUE"), Some(Value::Text("nnue".into())));
        assert_eq!(eval.parse_uci("neural"), None);
        assert_eq!(
            eval.parse_xboard(Some("hce")),
            Some(Value::Text("hce".into()))
        );
        assert_eq!(
            eval.xboard_text(&eval.default_value()),
            "Eval -combo *hce /// nnue"
        );
    }

    #[test]
    fn the_manual_shows_this_table() {
        let manual = include_str!("../../../docs/engine.md");
        let table = doc_table();
        assert!(
            manual.contains(&table),
            "docs/engine.md's options table differs from crates/uci/src/options.rs; it should read:\n{table}"
        );
    }
}
