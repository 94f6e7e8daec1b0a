//! Notifications and errors: login results (a login that replaces an older session of the
//! account, and the older session's notice that it was replaced), arrivals and departures,
//! adjourned-game notices, illegal moves, command errors, setting acknowledgements and refusals,
//! auto-logout and idle warnings, goodbye.

use std::sync::LazyLock;

use regex::Regex;

use crate::events::Event;

static QUOTED_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^"([^"]+)" is (not )?a registered name"#).expect("valid regex"));
static GUEST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^Logging you in as "([^"]+)""#).expect("valid regex"));
static SESSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\*\*\*\* Starting \S+ session as ([A-Za-z0-9_-]+)((?:\([A-Z*]{1,4}\))*) \*\*\*\*")
        .expect("valid regex")
});
static NOTIFICATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Notification: ([A-Za-z][A-Za-z0-9_-]*)[, ](.*)$").expect("valid regex")
});
static COMMAND_ERR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\S+): Command (not found|has failed)\.").expect("valid regex"));
static NO_SUCH_VAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(?:No such (?:variable name|i?variable)|Ambiguous (?:variable name|i?variable)) "?([^".]+)"?\.?$"#)
        .expect("valid regex")
});
static VAR_SET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:Style \d+|[a-z]+) (?:set|unset)\.?$").expect("valid regex"));
static ADJOURNED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:You have (\d+) adjourned games?\.|(\d+) stored games? found\.)")
        .expect("valid regex")
});

/// Lines a setting command answers with (besides `<var> set`).
const SETTING_ACKS: [&str; 8] = [
    "You will now hear ads.",
    "You will not hear ads.",
    "Bell off.",
    "Bell on.",
    "You are now open to receive match requests.",
    "You are no longer open to receive match requests.",
    "You will not see seek ads.",
    "You will now see seek ads.",
];

/// Parses a notification or error line.
pub fn parse(line: &str) -> Option<Event> {
    match line {
        "**** Invalid password! ****" => return Some(Event::InvalidPassword),
        "It is not your move." => return Some(Event::NotYourMove),
        "You are not playing a game." | "You are not playing or examining a game." => {
            return Some(Event::NotPlaying)
        }
        _ => {}
    }
    if line.starts_with("Illegal move") {
        return Some(Event::IllegalMove {
            text: line.to_string(),
        });
    }
    if line.starts_with("Thank you for using") {
        return Some(Event::Goodbye);
    }
    if line.starts_with("**** Auto-logout") || line.starts_with("**** Autologout") {
        return Some(Event::AutoLogout {
            text: line.to_string(),
        });
    }
    if line.starts_with("**** Starting ") {
        let c = SESSION.captures(line)?;
        let unregistered = c.get(2).is_some_and(|m| m.as_str().contains("(U)"));
        return Some(Event::SessionStarted {
            name: c[1].to_string(),
            unregistered,
        });
    }
    if line.starts_with('"') {
        let c = QUOTED_NAME.captures(line)?;
        let name = c[1].to_string();
        return Some(if c.get(2).is_some() {
            Event::NameNotRegistered { name }
        } else {
            Event::NameRegistered { name }
        });
    }
    if line.starts_with("Logging you in as ") {
        return GUEST.captures(line).map(|c| Event::GuestName {
            name: c[1].to_string(),
        });
    }
    if let Some(ev) = replacement(line) {
        return Some(ev);
    }
    if line.starts_with("A name should be ")
        || line.starts_with("Sorry, names ")
        || line.starts_with("Sorry, names can")
        || (line.contains(" is already logged in") && !line.contains("tells you"))
        || line.starts_with("Invalid login")
    {
        return Some(Event::LoginRefused {
            text: line.to_string(),
        });
    }
    if line.starts_with("Notification: ") {
        let c = NOTIFICATION.captures(line)?;
        let name = c[1].to_string();
        let rest = &c[2];
        if rest.contains("has arrived") {
            return Some(Event::Arrival {
                name,
                adjourned: rest.contains("adjourned game"),
            });
        }
        if rest.contains("has departed") {
            return Some(Event::Departure { name });
        }
        return None;
    }
    if line.contains(": Command ") {
        if let Some(c) = COMMAND_ERR.captures(line) {
            let command = c[1].to_string();
            return Some(if &c[2] == "not found" {
                Event::CommandNotFound { command }
            } else {
                Event::CommandFailed { command }
            });
        }
    }
    if line.starts_with("No such ") || line.starts_with("Ambiguous ") {
        if let Some(c) = NO_SUCH_VAR.captures(line) {
            return Some(Event::SettingRefused {
                name: c[1].trim().to_string(),
            });
        }
    }
    let maybe_var_set =
        (line.ends_with(" set") || line.ends_with(" set.") || line.ends_with("unset."))
            && VAR_SET.is_match(line);
    if maybe_var_set
        || SETTING_ACKS.contains(&line)
        || line.starts_with("Interface set to")
        || line.starts_with("Your interface")
    {
        return Some(Event::SettingAck {
            text: line.to_string(),
        });
    }
    if line.contains(" adjourned game") || line.contains(" stored game") {
        // `X has no adjourned games.`: the answer to `stored` when the list is empty.
        if let Some(player) = super::lists::no_stored(line) {
            return Some(Event::StoredGames {
                player,
                games: Vec::new(),
            });
        }
        if let Some(c) = ADJOURNED.captures(line) {
            let n = c.get(1).or(c.get(2))?.as_str().parse().ok()?;
            return Some(Event::AdjournedGames { count: n });
        }
    }
    let lower_idle = line.contains("idle") || line.contains("Idle");
    if lower_idle
        && (line.contains("logged out")
            || line.contains("log you out")
            || line.contains("auto-logout"))
    {
        return Some(Event::IdleWarning {
            text: line.to_string(),
        });
    }
    if line.starts_with("ERROR: ")
        || line.starts_with("You cannot ")
        || line.starts_with("You can't ")
        || line.starts_with("You must be ")
        || line.starts_with("No user named ")
        || line.starts_with("You are not allowed")
        || line.starts_with("Sorry, ")
    {
        return Some(Event::Refused {
            text: line.to_string(),
        });
    }
    None
}

/// The two sides of a second login of the same registered account (FICS and lasker):
/// the new session is told `**** X is already logged in - kicking them out. ****` (older
/// FICS: `... kicking other copy out.`) and goes on; the old one is told
/// `**** X has arrived - you can't both be logged in. ****` and is closed.
fn replacement(line: &str) -> Option<Event> {
    let t = line.trim_start();
    if !t.starts_with("***") {
        return None;
    }
    let text = t.to_string();
    if t.contains(" is already logged in") && t.contains("kicking") {
        return Some(Event::SessionReplaced { text });
    }
    if t.contains("can't both be logged in") {
        return Some(Event::SessionTakenOver { text });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn login_lines() {
        assert_eq!(
            parse("\"AlphaBot\" is a registered name.  If it is yours, type the password."),
            Some(Event::NameRegistered {
                name: "AlphaBot".into()
            })
        );
        assert_eq!(
            parse(
                "\"guest\" is not a registered name. You may use this name to play unrated games."
            ),
            Some(Event::NameNotRegistered {
                name: "guest".into()
            })
        );
        assert_eq!(
            parse("Logging you in as \"GuestWLRM\""),
            Some(Event::GuestName {
                name: "GuestWLRM".into()
            })
        );
        assert_eq!(
            parse("Logging you in as \"GuestWLRM\"; you may use this name to play unrated games."),
            Some(Event::GuestName {
                name: "GuestWLRM".into()
            })
        );
        assert_eq!(
            parse("**** Starting FICS session as GuestWLRM(U) ****"),
            Some(Event::SessionStarted {
                name: "GuestWLRM".into(),
                unregistered: true
            })
        );
        assert_eq!(
            parse("**** Starting FICS session as AlphaBot ****"),
            Some(Event::SessionStarted {
                name: "AlphaBot".into(),
                unregistered: false
            })
        );
        assert_eq!(
            parse("**** Invalid password! ****"),
            Some(Event::InvalidPassword)
        );
        assert!(matches!(
            parse("A name should be at least three characters long!  Try again."),
            Some(Event::LoginRefused { .. })
        ));
        assert!(matches!(
            parse("Sorry, names can only consist of lower and upper case letters. Try again."),
            Some(Event::LoginRefused { .. })
        ));
        assert_eq!(
            parse("Thank you for using a Free (GNU) Internet Chess server."),
            Some(Event::Goodbye)
        );
    }

    #[test]
    fn second_login_of_an_account() {
        // lasker prints the first one with a leading space.
        assert_eq!(
            parse(" **** GammaBot is already logged in - kicking them out. ****"),
            Some(Event::SessionReplaced {
                text: "**** GammaBot is already logged in - kicking them out. ****".into()
            })
        );
        assert!(matches!(
            parse("**** GammaBot is already logged in - kicking other copy out. ****"),
            Some(Event::SessionReplaced { .. })
        ));
        assert_eq!(
            parse("**** GammaBot has arrived - you can't both be logged in. ****"),
            Some(Event::SessionTakenOver {
                text: "**** GammaBot has arrived - you can't both be logged in. ****".into()
            })
        );
        // Refusals stay refusals (unregistered names on lasker and the local server).
        for l in [
            "*** Sorry GammaBot is already logged in ***",
            "Sorry, \"Visitor\" is already logged in.  Try again.",
        ] {
            assert!(matches!(parse(l), Some(Event::LoginRefused { .. })), "{l}");
        }
        assert!(!matches!(
            parse("Foo tells you: **** X is already logged in - kicking them out. ****"),
            Some(Event::SessionReplaced { .. } | Event::LoginRefused { .. })
        ));
    }

    #[test]
    fn notifications_and_errors() {
        assert_eq!(
            parse("Notification: BetaBot, who has an adjourned game with you, has arrived."),
            Some(Event::Arrival {
                name: "BetaBot".into(),
                adjourned: true
            })
        );
        assert_eq!(
            parse("Notification: Foo has arrived."),
            Some(Event::Arrival {
                name: "Foo".into(),
                adjourned: false
            })
        );
        assert_eq!(
            parse("Notification: Foo has departed and isn't on your notify list."),
            Some(Event::Departure { name: "Foo".into() })
        );
        assert_eq!(
            parse("Illegal move."),
            Some(Event::IllegalMove {
                text: "Illegal move.".into()
            })
        );
        assert_eq!(
            parse("Illegal move (e2e5)."),
            Some(Event::IllegalMove {
                text: "Illegal move (e2e5).".into()
            })
        );
        assert_eq!(parse("It is not your move."), Some(Event::NotYourMove));
        assert_eq!(
            parse("nosuchcommand: Command not found."),
            Some(Event::CommandNotFound {
                command: "nosuchcommand".into()
            })
        );
        assert_eq!(
            parse("qh4#: Command has failed."),
            Some(Event::CommandFailed {
                command: "qh4#".into()
            })
        );
        assert_eq!(
            parse("No such ivariable \"nosuchvar\"."),
            Some(Event::SettingRefused {
                name: "nosuchvar".into()
            })
        );
        assert_eq!(
            parse("No such variable name lock."),
            Some(Event::SettingRefused {
                name: "lock".into()
            })
        );
        assert_eq!(
            parse("Style 12 set."),
            Some(Event::SettingAck {
                text: "Style 12 set.".into()
            })
        );
        assert_eq!(
            parse("ms set"),
            Some(Event::SettingAck {
                text: "ms set".into()
            })
        );
        assert_eq!(
            parse("You will now hear ads."),
            Some(Event::SettingAck {
                text: "You will now hear ads.".into()
            })
        );
        assert_eq!(
            parse("1 stored game found."),
            Some(Event::AdjournedGames { count: 1 })
        );
        assert_eq!(
            parse("WilyB has no adjourned games."),
            Some(Event::StoredGames {
                player: "WilyB".into(),
                games: Vec::new()
            })
        );
        assert_eq!(parse("a b has no adjourned games."), None);
        assert_eq!(
            parse("You have 2 adjourned games."),
            Some(Event::AdjournedGames { count: 2 })
        );
        // lasker's login notice names players, not a count: the line collector in
        // `parse/mod.rs` turns it and the names after it into `AdjournedOnline`.
        assert_eq!(
            parse("1 player, who has an adjourned game with you, is online:\u{7}"),
            None
        );
        assert!(matches!(
            parse("**** Auto-logout because you were idle more than 60 minutes. ****"),
            Some(Event::AutoLogout { .. })
        ));
        assert!(matches!(
            parse("You have been idle for 55 minutes; you will be logged out in 5 minutes."),
            Some(Event::IdleWarning { .. })
        ));
        assert!(matches!(
            parse("You cannot flag before both players have moved."),
            Some(Event::Refused { .. })
        ));
        assert!(matches!(
            parse("ERROR: You cannot respond to your own seek ads"),
            Some(Event::Refused { .. })
        ));
        assert_eq!(parse("Statistics for AlphaBot"), None);
    }
}
