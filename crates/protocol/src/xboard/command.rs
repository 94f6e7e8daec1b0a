//! Parsing of xboard (CECP v2) command lines into [`XbCommand`] values.
//!
//! Parsing never fails hard: an unknown word becomes [`XbCommand::Unknown`] and a known
//! command with bad arguments becomes [`XbCommand::Bad`], which the session answers with
//! the protocol's `Error (...)` line.

use crate::timecontrol::{parse_level, parse_seconds, TimeControl};
use std::time::Duration;

/// One xboard command.
#[derive(Clone, Debug, PartialEq)]
pub enum XbCommand {
    Xboard,
    Protover(u32),
    Accepted(String),
    Rejected(String),
    New,
    Variant(String),
    Quit,
    Random,
    Force,
    Go,
    Playother,
    White,
    Black,
    Level(TimeControl),
    St(Duration),
    Sd(u32),
    Nps(u64),
    /// Engine's clock in centiseconds.
    Time(i64),
    /// Opponent's clock in centiseconds.
    Otim(i64),
    /// A move, from `usermove MOVE` or a bare move.
    Usermove(String),
    /// `?`: move now.
    MoveNow,
    Ping(String),
    Draw,
    Result {
        result: String,
        comment: String,
    },
    Setboard(String),
    Edit,
    Hint,
    Bk,
    Undo,
    Remove,
    Hard,
    Easy,
    Post,
    Nopost,
    Analyze,
    Exit,
    /// `.`: analysis status request.
    Dot,
    Name(String),
    Rating {
        engine: i32,
        opponent: i32,
    },
    Ics(String),
    Computer,
    Pause,
    Resume,
    /// Memory in megabytes.
    Memory(u64),
    Cores(usize),
    Egtpath {
        kind: String,
        path: String,
    },
    Option {
        name: String,
        value: Option<String>,
    },
    /// Lines an interface may send that need no answer.
    Ignored(String),
    /// A known command with a bad argument: `(command, reason)`.
    Bad(String, String),
    Unknown(String),
}

/// Parses one line of xboard input.
pub fn parse(line: &str) -> XbCommand {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let args: Vec<&str> = rest.split_whitespace().collect();
    let bad = |reason: String| XbCommand::Bad(word.to_string(), reason);
    let int_arg = |what: &str| -> Result<i64, String> {
        args.first()
            .ok_or_else(|| format!("{word} needs {what}"))?
            .parse::<i64>()
            .map_err(|_| format!("{word}: '{}' is not {what}", args[0]))
    };
    match word {
        "xboard" => XbCommand::Xboard,
        "protover" => match int_arg("a version number") {
            Ok(n) if (1..=100).contains(&n) => XbCommand::Protover(n as u32),
            Ok(n) => bad(format!("unsupported version {n}")),
            Err(e) => bad(e),
        },
        "accepted" => XbCommand::Accepted(rest.to_string()),
        "rejected" => XbCommand::Rejected(rest.to_string()),
        "new" => XbCommand::New,
        "variant" => XbCommand::Variant(rest.to_string()),
        "quit" => XbCommand::Quit,
        "random" => XbCommand::Random,
        "force" => XbCommand::Force,
        "go" => XbCommand::Go,
        "playother" => XbCommand::Playother,
        "white" => XbCommand::White,
        "black" => XbCommand::Black,
        "level" => match parse_level(&args) {
            Ok(tc) => XbCommand::Level(tc),
            Err(e) => bad(e),
        },
        "st" => match args.first().map(|a| parse_seconds(a)) {
            Some(Ok(d)) if !d.is_zero() => XbCommand::St(d),
            Some(Ok(_)) => bad("st needs a positive number of seconds".into()),
            Some(Err(e)) => bad(e),
            None => bad("st needs seconds".into()),
        },
        "sd" => match int_arg("a depth") {
            Ok(n) if (1..=127).contains(&n) => XbCommand::Sd(n as u32),
            Ok(n) => bad(format!("depth {n} is out of range 1-127")),
            Err(e) => bad(e),
        },
        "nps" => match int_arg("a node rate") {
            Ok(n) if n >= 0 => XbCommand::Nps(n as u64),
            Ok(_) => bad("nps must not be negative".into()),
            Err(e) => bad(e),
        },
        "time" => match int_arg("centiseconds") {
            Ok(n) => XbCommand::Time(n),
            Err(e) => bad(e),
        },
        "otim" => match int_arg("centiseconds") {
            Ok(n) => XbCommand::Otim(n),
            Err(e) => bad(e),
        },
        "usermove" => match args.as_slice() {
            [m] => XbCommand::Usermove(m.to_string()),
            _ => bad("usermove needs one move".into()),
        },
        "?" => XbCommand::MoveNow,
        "ping" => XbCommand::Ping(args.first().unwrap_or(&"").to_string()),
        "draw" => XbCommand::Draw,
        "result" => {
            let (result, comment) = match rest.split_once(char::is_whitespace) {
                Some((r, c)) => (r.to_string(), c.trim().to_string()),
                None => (rest.to_string(), String::new()),
            };
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&result.as_str()) {
                XbCommand::Result { result, comment }
            } else {
                bad(format!("'{result}' is not a result (1-0, 0-1, 1/2-1/2, *)"))
            }
        }
        "setboard" => {
            if rest.is_empty() {
                bad("setboard needs a FEN".into())
            } else {
                XbCommand::Setboard(rest.to_string())
            }
        }
        "edit" => XbCommand::Edit,
        "hint" => XbCommand::Hint,
        "bk" => XbCommand::Bk,
        "undo" => XbCommand::Undo,
        "remove" => XbCommand::Remove,
        "hard" => XbCommand::Hard,
        "easy" => XbCommand::Easy,
        "post" => XbCommand::Post,
        "nopost" => XbCommand::Nopost,
        "analyze" => XbCommand::Analyze,
        "exit" => XbCommand::Exit,
        "." => XbCommand::Dot,
        "name" => XbCommand::Name(rest.to_string()),
        "rating" => match args.as_slice() {
            [a, b] => match (a.parse(), b.parse()) {
                (Ok(engine), Ok(opponent)) => XbCommand::Rating { engine, opponent },
                _ => bad("rating needs two numbers".into()),
            },
            _ => bad("rating needs two numbers".into()),
        },
        "ics" => XbCommand::Ics(rest.to_string()),
        "computer" => XbCommand::Computer,
        "pause" => XbCommand::Pause,
        "resume" => XbCommand::Resume,
        "memory" => match int_arg("megabytes") {
            Ok(n) if (1..=1 << 20).contains(&n) => XbCommand::Memory(n as u64),
            Ok(n) => bad(format!("memory {n} MB is out of range")),
            Err(e) => bad(e),
        },
        "cores" => match int_arg("a core count") {
            Ok(n) if (1..=1024).contains(&n) => XbCommand::Cores(n as usize),
            Ok(n) => bad(format!("{n} cores is out of range 1-1024")),
            Err(e) => bad(e),
        },
        "egtpath" => match rest.split_once(char::is_whitespace) {
            Some((k, p)) => XbCommand::Egtpath {
                kind: k.to_string(),
                path: p.trim().to_string(),
            },
            None => bad("egtpath needs a type and a path".into()),
        },
        "option" => match rest.split_once('=') {
            Some((n, v)) => XbCommand::Option {
                name: n.trim().to_string(),
                value: Some(v.trim().to_string()),
            },
            None if !rest.is_empty() => XbCommand::Option {
                name: rest.to_string(),
                value: None,
            },
            None => bad("option needs NAME[=VALUE]".into()),
        },
        // Board-highlighting notices some interfaces send; wily has no use for them.
        "hover" | "lift" | "put" => XbCommand::Ignored(line.to_string()),
        _ if looks_like_move(line) => XbCommand::Usermove(line.to_string()),
        _ => XbCommand::Unknown(line.to_string()),
    }
}

/// True for a bare coordinate move (`e2e4`, `e7e8q`, `e1g1`) or castling (`O-O`, `o-o-o`),
/// which protocol version 1 interfaces send without `usermove`.
pub fn looks_like_move(s: &str) -> bool {
    let b = s.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => sq(b[0], b[1]) && sq(b[2], b[3]),
        5 => sq(b[0], b[1]) && sq(b[2], b[3]) && b"qrbnk".contains(&b[4].to_ascii_lowercase()),
        _ => matches!(s, "O-O" | "O-O-O" | "o-o" | "o-o-o" | "0-0" | "0-0-0"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_commands() {
        assert_eq!(parse("protover 2"), XbCommand::Protover(2));
        assert_eq!(parse("usermove e2e4"), XbCommand::Usermove("e2e4".into()));
        assert_eq!(parse("e7e8q"), XbCommand::Usermove("e7e8q".into()));
        assert_eq!(parse("ping 17"), XbCommand::Ping("17".into()));
        assert_eq!(parse("time 30000"), XbCommand::Time(30000));
        assert_eq!(parse("sd 6"), XbCommand::Sd(6));
        assert_eq!(parse("st 0.5"), XbCommand::St(Duration::from_millis(500)));
        assert_eq!(
            parse("result 1-0 {White mates}"),
            XbCommand::Result {
                result: "1-0".into(),
                comment: "{White mates}".into()
            }
        );
        assert_eq!(
            parse("option Hash=64"),
            XbCommand::Option {
                name: "Hash".into(),
                value: Some("64".into())
            }
        );
        assert!(matches!(parse("level 40 5 0"), XbCommand::Level(_)));
        assert_eq!(
            parse("setboard 8/8/8/8/8/8/8/K6k w - - 0 1"),
            XbCommand::Setboard("8/8/8/8/8/8/8/K6k w - - 0 1".into())
        );
    }

    #[test]
    fn bad_and_unknown() {
        assert!(matches!(parse("sd x"), XbCommand::Bad(_, _)));
        assert!(matches!(parse("time"), XbCommand::Bad(_, _)));
        assert!(matches!(parse("level 40"), XbCommand::Bad(_, _)));
        assert!(matches!(parse("result 2-0"), XbCommand::Bad(_, _)));
        assert!(matches!(parse("usermove"), XbCommand::Bad(_, _)));
        assert!(matches!(parse("memory -5"), XbCommand::Bad(_, _)));
        assert!(matches!(parse("frobnicate"), XbCommand::Unknown(_)));
        assert!(matches!(parse("e2e9"), XbCommand::Unknown(_)));
        assert!(matches!(parse(""), XbCommand::Unknown(_)));
    }
}
