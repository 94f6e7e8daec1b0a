//! Operator commands sent by tell: a closed set of words parsed into [`OpCommand`].
//!
//! Nothing a tell says is ever passed on as a server command, a shell command or a file
//! path: every argument is a number, `on`/`off`, a list name, or a handle checked by
//! [`valid_handle`]. Anything else is a usage error answered with a short help line.

use lists::{valid_handle, ListKind};

/// Which opponent class a resign/draw setting applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingClass {
    Gm,
    Im,
    Default,
}

/// What to observe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObserveTarget {
    Game(u32),
    Player(String),
}

/// A command an operator may give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpCommand {
    Help,
    Status,
    Seek(bool),
    Accept(bool),
    /// `list GM +name -name` (the arguments after `list`, already checked).
    List(String),
    /// Resign threshold in pawns (0 = never).
    Resign(SettingClass, u32),
    /// Consecutive moves below the threshold before resigning.
    ResignMoves(u32),
    /// Draw score in centipawns.
    Draw(SettingClass, i32),
    /// Contempt against the S list.
    Contempt(i32),
    Observe(ObserveTarget),
    /// `None`: stop observing everything.
    Unobserve(Option<u32>),
    Whisper(u8),
    Kibitz(u8),
    Noise(u64),
    /// Finish the current game, then log out and exit.
    Quit,
}

/// One line listing the commands, sent in answer to `help` or a bad command.
pub const HELP: &str =
    "commands: status | seek on|off | accept on|off | list [GM|IM|C|AK|S [+name -name]] | \
resign [gm|im] N | resignmoves N | draw [gm|im] N | contempt N | observe N|name | unobserve [N] | \
whisper N | kibitz N | noise N | quit";

fn on_off(w: Option<&str>) -> Result<bool, String> {
    match w.map(str::to_ascii_lowercase).as_deref() {
        Some("on") | Some("1") | Some("yes") => Ok(true),
        Some("off") | Some("0") | Some("no") => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

fn number<T: std::str::FromStr>(w: Option<&str>, what: &str) -> Result<T, String> {
    w.and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("expected {what}"))
}

fn level(w: Option<&str>) -> Result<u8, String> {
    let v: u8 = number(w, "a level 0-6")?;
    if v > 6 {
        return Err("expected a level 0-6".into());
    }
    Ok(v)
}

/// Reads a class word if present: `gm`, `im`, or nothing (default).
fn class_and_value<'a>(
    mut words: impl Iterator<Item = &'a str>,
) -> (SettingClass, Option<&'a str>) {
    match words.next() {
        Some(w) if w.eq_ignore_ascii_case("gm") => (SettingClass::Gm, words.next()),
        Some(w) if w.eq_ignore_ascii_case("im") => (SettingClass::Im, words.next()),
        Some(w) if w.eq_ignore_ascii_case("default") => (SettingClass::Default, words.next()),
        other => (SettingClass::Default, other),
    }
}

/// Parses the text of a tell into a command; the error is a short reason.
pub fn parse(text: &str) -> Result<OpCommand, String> {
    let text = text.trim();
    if text.len() > 200 {
        return Err("too long".into());
    }
    let mut words = text.split_whitespace();
    let Some(verb) = words.next() else {
        return Err("empty command".into());
    };
    let verb = verb.to_ascii_lowercase();
    let cmd = match verb.as_str() {
        "help" | "?" => OpCommand::Help,
        "status" => OpCommand::Status,
        "seek" => OpCommand::Seek(on_off(words.next())?),
        "accept" => OpCommand::Accept(on_off(words.next())?),
        "list" => {
            let rest: Vec<&str> = words.by_ref().collect();
            if let Some(first) = rest.first() {
                if ListKind::parse(first).is_none() {
                    return Err(format!("unknown list {first} (GM, IM, C, AK, S)"));
                }
            }
            for w in rest.iter().skip(1) {
                let body = w.get(1..).unwrap_or("");
                if !(w.starts_with('+') || w.starts_with('-')) || !valid_handle(body) {
                    return Err(format!("{w} is not +handle or -handle"));
                }
            }
            OpCommand::List(rest.join(" "))
        }
        "resign" => {
            let (class, v) = class_and_value(words.by_ref());
            let pawns: u32 = number(v, "pawns 0-100")?;
            if pawns > 100 {
                return Err("expected pawns 0-100".into());
            }
            OpCommand::Resign(class, pawns)
        }
        "resignmoves" => {
            let n: u32 = number(words.next(), "moves 1-100")?;
            if !(1..=100).contains(&n) {
                return Err("expected moves 1-100".into());
            }
            OpCommand::ResignMoves(n)
        }
        "draw" => {
            let (class, v) = class_and_value(words.by_ref());
            let cp: i32 = number(v, "centipawns -1000..1000")?;
            if !(-1000..=1000).contains(&cp) {
                return Err("expected centipawns -1000..1000".into());
            }
            OpCommand::Draw(class, cp)
        }
        "contempt" => {
            let cp: i32 = number(words.next(), "centipawns -1000..1000")?;
            if !(-1000..=1000).contains(&cp) {
                return Err("expected centipawns -1000..1000".into());
            }
            OpCommand::Contempt(cp)
        }
        "observe" => {
            let w = words.next().ok_or("expected a game number or a handle")?;
            if let Ok(n) = w.parse::<u32>() {
                OpCommand::Observe(ObserveTarget::Game(n))
            } else if valid_handle(w) {
                OpCommand::Observe(ObserveTarget::Player(w.to_string()))
            } else {
                return Err("expected a game number or a handle".into());
            }
        }
        "unobserve" => match words.next() {
            None => OpCommand::Unobserve(None),
            Some(w) => OpCommand::Unobserve(Some(number(Some(w), "a game number")?)),
        },
        "whisper" => OpCommand::Whisper(level(words.next())?),
        "kibitz" => OpCommand::Kibitz(level(words.next())?),
        "noise" => OpCommand::Noise(number(words.next(), "a node count")?),
        "quit" | "exit" => OpCommand::Quit,
        _ => return Err(format!("unknown command {verb}")),
    };
    if words.next().is_some() {
        return Err("too many words".into());
    }
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command() {
        assert_eq!(parse("status"), Ok(OpCommand::Status));
        assert_eq!(parse("  HELP "), Ok(OpCommand::Help));
        assert_eq!(parse("seek off"), Ok(OpCommand::Seek(false)));
        assert_eq!(parse("accept ON"), Ok(OpCommand::Accept(true)));
        assert_eq!(
            parse("list GM +Bob -eve"),
            Ok(OpCommand::List("GM +Bob -eve".into()))
        );
        assert_eq!(parse("list"), Ok(OpCommand::List(String::new())));
        assert_eq!(
            parse("resign 5"),
            Ok(OpCommand::Resign(SettingClass::Default, 5))
        );
        assert_eq!(
            parse("resign gm 2"),
            Ok(OpCommand::Resign(SettingClass::Gm, 2))
        );
        assert_eq!(parse("resignmoves 3"), Ok(OpCommand::ResignMoves(3)));
        assert_eq!(
            parse("draw im -20"),
            Ok(OpCommand::Draw(SettingClass::Im, -20))
        );
        assert_eq!(parse("contempt 40"), Ok(OpCommand::Contempt(40)));
        assert_eq!(
            parse("observe 12"),
            Ok(OpCommand::Observe(ObserveTarget::Game(12)))
        );
        assert_eq!(
            parse("observe Magnus"),
            Ok(OpCommand::Observe(ObserveTarget::Player("Magnus".into())))
        );
        assert_eq!(parse("unobserve"), Ok(OpCommand::Unobserve(None)));
        assert_eq!(parse("unobserve 3"), Ok(OpCommand::Unobserve(Some(3))));
        assert_eq!(parse("whisper 3"), Ok(OpCommand::Whisper(3)));
        assert_eq!(parse("kibitz 0"), Ok(OpCommand::Kibitz(0)));
        assert_eq!(parse("noise 5000"), Ok(OpCommand::Noise(5000)));
        assert_eq!(parse("quit"), Ok(OpCommand::Quit));
    }

    #[test]
    fn refuses_anything_that_could_smuggle_a_command() {
        for bad in [
            "",
            "shout hello",
            "quit; rm -rf /",
            "observe ../../etc/passwd",
            "observe a;b",
            "list GM +a;b",
            "list GM bob",
            "list ../x +a",
            "whisper 9",
            "noise lots",
            "resign 1000",
            "seek maybe",
            "status now",
            "draw 5000",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
