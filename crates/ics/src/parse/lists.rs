//! The account's lists (`+follow X`, `-follow X`, `=follow`, and the same for `notify`,
//! `censor`, ...): the one-line answers to adding and removing a name, the answer when a
//! server has no such list, and the header of a list display (whose names follow on the
//! next lines; [`super::Parser`] collects them). Two other displays of names at login and
//! after `stored` are read the same way: the players online with an adjourned game with
//! us, and the stored games (`   white vs. black` rows).

use crate::events::{Event, ListChange};

/// `[X] added to your L list.` and its siblings, `"L" does not match any list name.`
pub fn parse(line: &str) -> Option<Event> {
    if let Some(rest) = line.strip_prefix('[') {
        let (name, rest) = rest.split_once("] ")?;
        let (change, rest) = [
            ("added to ", ListChange::Added),
            ("removed from ", ListChange::Removed),
            ("is already on ", ListChange::AlreadyOn),
            ("is not in ", ListChange::NotOn),
        ]
        .into_iter()
        .find_map(|(p, c)| rest.strip_prefix(p).map(|r| (c, r)))?;
        let rest = rest
            .strip_prefix("your ")
            .or_else(|| rest.strip_prefix("the "))?;
        let list = rest.strip_suffix(" list.")?;
        if !is_word(name) || !is_word(list) {
            return None;
        }
        return Some(Event::ListChanged {
            list: list.to_ascii_lowercase(),
            name: name.to_string(),
            change,
        });
    }
    if let Some(rest) = line.strip_prefix('"') {
        let (list, rest) = rest.split_once('"')?;
        if rest == " does not match any list name." && is_word(list) {
            return Some(Event::NoSuchList {
                list: list.to_ascii_lowercase(),
            });
        }
    }
    None
}

/// `-- follow list: 2 names --`: the list's name and how many entries follow.
pub fn header(line: &str) -> Option<(String, usize)> {
    let rest = line.trim().strip_prefix("-- ")?.strip_suffix(" --")?;
    let (list, rest) = rest.split_once(" list: ")?;
    let (count, _unit) = rest.split_once(' ')?;
    if !is_word(list) {
        return None;
    }
    Some((list.to_ascii_lowercase(), count.parse().ok()?))
}

/// `1 player, who has an adjourned game with you, is online:` (`N players, who have ...,
/// are online:`): how many names follow. lasker and FICS end the line with a bell.
pub fn adjourned_online_header(line: &str) -> Option<usize> {
    let t = line.trim_end_matches(|c: char| c == '\x07' || c.is_whitespace());
    let (count, rest) = t.split_once(' ')?;
    let rest = rest
        .strip_prefix("players, who have")
        .or_else(|| rest.strip_prefix("player, who has"))?;
    let rest = rest.strip_prefix(" an adjourned game with you, ")?;
    if rest != "is online:" && rest != "are online:" {
        return None;
    }
    count.parse().ok()
}

/// `Stored games for X:`: whose stored games the rows after it list.
pub fn stored_header(line: &str) -> Option<String> {
    let name = line
        .trim()
        .strip_prefix("Stored games for ")?
        .strip_suffix(':')?;
    is_word(name).then(|| name.to_string())
}

/// `X has no adjourned games.`: the answer to `stored` for a player with none (lasker and
/// FICS word it alike).
pub fn no_stored(line: &str) -> Option<String> {
    let name = line.trim().strip_suffix(" has no adjourned games.")?;
    is_word(name).then(|| name.to_string())
}

/// A line of the stored games of `player`: `Some(Some((white, black)))` for a game,
/// `Some(None)` for FICS's column heading, `None` for other output. Rows come in two
/// shapes: lasker's `   wilybot vs. alphabot`, and FICS's
/// ` 1: W AlphaBot   N [ br  2  12]  39-39 W3   C44 ...` (the colour `player` has, then
/// the opponent).
pub fn stored_row(line: &str, player: &str) -> Option<Option<(String, String)>> {
    let t = line.trim();
    if let Some((white, black)) = t.split_once(" vs. ") {
        return (is_word(white) && is_word(black))
            .then(|| Some((white.to_string(), black.to_string())));
    }
    let mut words = t.split_whitespace();
    let first = words.next()?;
    if first == "C" && words.next() == Some("Opponent") {
        return Some(None);
    }
    let number = first.strip_suffix(':')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let colour = words.next()?;
    let opponent = words.next().filter(|o| is_word(o))?;
    let (p, o) = (player.to_string(), opponent.to_string());
    match colour {
        "W" => Some(Some((p, o))),
        "B" => Some(Some((o, p))),
        _ => None,
    }
}

/// The entries on one line of a list display (names in columns), or `None` when the line
/// is something else.
pub fn entries(line: &str) -> Option<Vec<String>> {
    let v: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    (!v.is_empty() && v.iter().all(|w| is_word(w))).then_some(v)
}

/// A handle, a list name or a channel number: letters, digits, `_`, `-`.
fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_to_adding_and_removing() {
        for (line, list, name, change) in [
            (
                "[RsAlpha] added to your follow list.",
                "follow",
                "RsAlpha",
                ListChange::Added,
            ),
            (
                "[RsAlpha] removed from your follow list.",
                "follow",
                "RsAlpha",
                ListChange::Removed,
            ),
            (
                "[RsAlpha] is already on your follow list.",
                "follow",
                "RsAlpha",
                ListChange::AlreadyOn,
            ),
            (
                "[RsAlpha] is not in your follow list.",
                "follow",
                "RsAlpha",
                ListChange::NotOn,
            ),
            (
                "[Foo] added to the computer list.",
                "computer",
                "Foo",
                ListChange::Added,
            ),
        ] {
            let want = Event::ListChanged {
                list: list.into(),
                name: name.into(),
                change,
            };
            assert_eq!(parse(line), Some(want), "{line}");
        }
        assert_eq!(
            parse("\"follow\" does not match any list name."),
            Some(Event::NoSuchList {
                list: "follow".into()
            })
        );
        assert!(ListChange::Added.present() && ListChange::AlreadyOn.present());
        assert!(!ListChange::Removed.present() && !ListChange::NotOn.present());
    }

    #[test]
    fn other_lines_are_not_list_answers() {
        for l in [
            "[RsAlpha] added to your follow list",
            "[Rs Alpha] added to your follow list.",
            "[RsAlpha] was added to your follow list.",
            "[] added to your follow list.",
            "\"follow\" is a registered name.",
            "There is no player matching that name.",
        ] {
            assert_eq!(parse(l), None, "{l}");
        }
    }

    #[test]
    fn list_display() {
        assert_eq!(
            header("-- follow list: 2 names --"),
            Some(("follow".into(), 2))
        );
        assert_eq!(
            header("-- channel list: 1 channels --"),
            Some(("channel".into(), 1))
        );
        assert_eq!(header("-- follow list: x names --"), None);
        assert_eq!(header("-- follow --"), None);
        assert_eq!(
            entries("RsAlpha  RsBeta   "),
            Some(vec!["RsAlpha".into(), "RsBeta".into()])
        );
        assert_eq!(entries("fics% hello, there"), None);
        assert_eq!(entries("   "), None);
    }

    #[test]
    fn adjourned_players_online_and_stored_games() {
        let one = "1 player, who has an adjourned game with you, is online:\x07";
        assert_eq!(adjourned_online_header(one), Some(1));
        assert_eq!(
            adjourned_online_header("2 players, who have an adjourned game with you, are online:"),
            Some(2)
        );
        for bad in [
            "1 player, who has an adjourned game with you, is online",
            "1 player, who has an adjourned game with you",
            "x player, who has an adjourned game with you, is online:",
            "99999999999999999999999 players, who have an adjourned game with you, are online:",
            "1 player",
            "",
        ] {
            assert_eq!(adjourned_online_header(bad), None, "{bad:?}");
        }
        assert_eq!(
            stored_header("Stored games for AlphaBot:"),
            Some("AlphaBot".into())
        );
        assert_eq!(stored_header("Stored games for :"), None);
        assert_eq!(stored_header("Stored games for a b:"), None);
        assert_eq!(stored_header("Stored games for AlphaBot"), None);
        let row = |l: &str| stored_row(l, "WilyBot");
        assert_eq!(
            row("   wilybot vs. alphabot"),
            Some(Some(("wilybot".into(), "alphabot".into())))
        );
        assert_eq!(row("   wilybot vs. "), None);
        assert_eq!(row("1 stored game found."), None);
        assert_eq!(row("a b vs. c"), None);
        // FICS: the heading, then numbered rows with wily's colour and the opponent.
        assert_eq!(
            row("    C Opponent       On Type          Str  M    ECO Date"),
            Some(None)
        );
        assert_eq!(
            row(" 1: W AlphaBot        N [ br  2  12]  39-39 W3   C44 Thu Nov 26, 11:03 UTC 2026"),
            Some(Some(("WilyBot".into(), "AlphaBot".into())))
        );
        assert_eq!(
            row(" 2: B BetaBot         Y [ lu  1   0]  39-39 B14  A00 Thu Nov 26, 11:04 UTC 2026"),
            Some(Some(("BetaBot".into(), "WilyBot".into())))
        );
        assert_eq!(row(" x: W AlphaBot N"), None);
        assert_eq!(row(" 3: Q AlphaBot N"), None);
        assert_eq!(
            no_stored("WilyB has no adjourned games."),
            Some("WilyB".into())
        );
        assert_eq!(no_stored("has no adjourned games."), None);
    }
}
