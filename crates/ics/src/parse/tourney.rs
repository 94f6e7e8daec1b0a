//! A tournament director's lines (mamer on FICS-lineage servers) as
//! [`TourneyNotice`]s: its announcements and channel reports (read from the chat line
//! that carries them), its `:mamer notes:` replies and `listtourneys` rows, the standings
//! header and rows, the bye tell, the tournament-flag notice, and the ` [b i r p t]`
//! suffix of a tournament game's result line.
//!
//! Names and texts are data: nothing here decides whether a sender is a director the
//! bot trusts (the bot does, from its settings). A line that names an announcement in a
//! shape not known here becomes [`TourneyNotice::Unreadable`], never a guess.

use std::sync::LazyLock;

use regex::Regex;

use crate::events::{ChatKind, Event};
use crate::parse::chat;
use crate::tourney::{TourneyGameTag, TourneyInfo, TourneyNotice, TourneyRow};

const HANDLE: &str = r"[A-Za-z][A-Za-z0-9_-]{0,19}";

static ANNOUNCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\*{{5}}Tourney Announcement\*{{5}}\s*Trny #(\d{{1,6}})\s+(\d{{1,3}})\s+(\d{{1,3}})\s+([ru])\s+(SWISS|RR|McMahon)(?:\s+(Wild\s+[0-9a-z]{{1,3}}|Bug|Suicide))?\s+(\d{{1,4}})-(\d{{1,4}})\s+(\d{{1,4}})\s+plr\(s\)\.\s+tell\s+({HANDLE})\s+join\s+(\d{{1,6}})\b"
    ))
    .expect("valid regex")
});
static NOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^:({HANDLE}) [Nn]otes:\s?(.*)$")).expect("valid regex"));
static FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^({HANDLE}) has set your tourney variable to (ON|OFF)\.?$"
    ))
    .expect("valid regex")
});
static ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^:\s*(\d{1,6})\s+(\d{1,3})\s+([srm])\s+(\d{1,3})\s+(\d{1,3})\s+([ru])\s+([rwbs])(\S*)\s+(\d{1,4})-(\d{1,4})\s+([a-z]+)\b",
    )
    .expect("valid regex")
});
static ROUND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^:Tourney Players: Round (\d{1,3}) of (\d{1,3})\b").expect("valid regex")
});
static STANDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^:\s*(\d{{1,4}})\s+([+-])(_BYE_|{HANDLE})\s+\[\s*\d{{1,4}}\]\s+(\d{{1,3}}(?:\.\d)?)\s"
    ))
    .expect("valid regex")
});
static JOINED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^({HANDLE}) \([^)]{{0,8}}\) has joined tourney #(\d{{1,6}}) (\d{{1,4}}) players? now\."
    ))
    .expect("valid regex")
});
static REPORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^({HANDLE}) vs\. ({HANDLE}) a game in tourney #(\d{{1,6}}) just (started|ended)\.\s*(.*)$"
    ))
    .expect("valid regex")
});
static RESULTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Tourney Results: First place in tourney #(\d{1,6}) goes to:\s*(.*)$")
        .expect("valid regex")
});
static BYE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^you get a BYE this round\.?$").expect("valid regex"));
static SUFFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\}\s*\S+\s+\[(\d{1,3}) (\d{1,3}) ([01]) ([01]) (\d{1,3})\]\s*$")
        .expect("valid regex")
});

/// The notice on `line`, if it is a director's line.
pub fn parse(line: &str) -> Option<Event> {
    notice(line).map(Event::Tourney)
}

fn notice(line: &str) -> Option<TourneyNotice> {
    let t = line.trim_end();
    if t.starts_with(':') {
        return qtell_line(t);
    }
    if let Some(c) = FLAG.captures(t) {
        return Some(TourneyNotice::Flag {
            director: c[1].to_string(),
            on: &c[2] == "ON",
        });
    }
    let Some(Event::Chat(chat)) = chat::parse(t) else {
        return None;
    };
    let text = chat.text.trim();
    match chat.kind {
        ChatKind::Tell => BYE.is_match(text).then(|| TourneyNotice::Bye {
            director: chat.from.clone(),
        }),
        ChatKind::Channel(_) | ChatKind::CShout | ChatKind::Shout => channel_text(&chat.from, text),
        _ => None,
    }
}

/// The text of a director's channel tell or shout.
fn channel_text(from: &str, text: &str) -> Option<TourneyNotice> {
    if text.to_ascii_lowercase().contains("tourney announcement") {
        return Some(match announcement(from, text) {
            Some(info) => TourneyNotice::Announced(info),
            None => TourneyNotice::Unreadable {
                text: text.to_string(),
            },
        });
    }
    if let Some(c) = JOINED.captures(text) {
        return Some(TourneyNotice::Joined {
            director: from.to_string(),
            number: c[2].parse().ok()?,
            player: c[1].to_string(),
            players: c[3].parse().ok()?,
        });
    }
    if let Some(c) = REPORT.captures(text) {
        return Some(TourneyNotice::GameReported {
            director: from.to_string(),
            number: c[3].parse().ok()?,
            white: c[1].to_string(),
            black: c[2].to_string(),
            ended: &c[4] == "ended",
            text: c[5].trim().to_string(),
        });
    }
    if let Some(c) = RESULTS.captures(text) {
        return Some(TourneyNotice::Finished {
            director: from.to_string(),
            number: c[1].parse().ok()?,
            winners: c[2]
                .split_whitespace()
                .filter(|w| is_handle(w))
                .map(str::to_string)
                .collect(),
        });
    }
    None
}

fn is_handle(w: &str) -> bool {
    let b = w.as_bytes();
    !b.is_empty()
        && b.len() <= 20
        && b[0].is_ascii_alphabetic()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
}

/// An announcement's text; `None` when it is not in the known shape or names another
/// director than its sender.
fn announcement(from: &str, text: &str) -> Option<TourneyInfo> {
    let c = ANNOUNCE.captures(text)?;
    let director = c[10].to_string();
    if !director.eq_ignore_ascii_case(from) || c[1] != c[11] {
        return None;
    }
    let variant = match c.get(6).map(|m| m.as_str().to_ascii_lowercase()) {
        None => "chess".to_string(),
        Some(v) if v == "bug" => "bughouse".into(),
        Some(v) if v == "suicide" => "suicide".into(),
        Some(v) => wild_variant(v.split_whitespace().nth(1).unwrap_or("")),
    };
    let lower = text.to_ascii_lowercase();
    let computers = if lower.contains("no computer") || lower.contains("computers not") {
        Some(false)
    } else if lower.contains("computer") {
        Some(true)
    } else {
        None
    };
    Some(TourneyInfo {
        director,
        number: c[1].parse().ok()?,
        base: c[2].parse().ok()?,
        increment: c[3].parse().ok()?,
        rated: c[4].eq_ignore_ascii_case("r"),
        style: style_name(&c[5]),
        variant,
        rating_range: (c[7].parse().ok()?, c[8].parse().ok()?),
        players: c[9].parse().ok()?,
        rounds: None,
        computers,
    })
}

fn wild_variant(kind: &str) -> String {
    match kind {
        "fr" | "10" => "chess960".into(),
        "" => "wild".into(),
        k => format!("wild/{k}"),
    }
}

fn style_name(s: &str) -> String {
    match s.to_ascii_lowercase().as_str() {
        "s" | "swiss" => "swiss".into(),
        "r" | "rr" => "round robin".into(),
        _ => "mcmahon".into(),
    }
}

/// A line of a director's `qtell` (it starts with `:`).
fn qtell_line(t: &str) -> Option<TourneyNotice> {
    if let Some(c) = NOTE.captures(t) {
        return Some(TourneyNotice::Note {
            director: c[1].to_string(),
            text: c[2].trim().to_string(),
        });
    }
    if let Some(c) = ROUND.captures(t) {
        return Some(TourneyNotice::Round {
            round: c[1].parse().ok()?,
            rounds: c[2].parse().ok()?,
        });
    }
    if let Some(c) = ROW.captures(t) {
        let variant = match &c[7] {
            "r" => "chess".to_string(),
            "b" => "bughouse".into(),
            "s" => "suicide".into(),
            _ => wild_variant(&c[8]),
        };
        return Some(TourneyNotice::Listed(TourneyRow {
            info: TourneyInfo {
                director: String::new(),
                number: c[1].parse().ok()?,
                base: c[4].parse().ok()?,
                increment: c[5].parse().ok()?,
                rated: &c[6] == "r",
                style: style_name(&c[3]),
                variant,
                rating_range: (c[9].parse().ok()?, c[10].parse().ok()?),
                players: 0,
                rounds: Some(c[2].parse().ok()?),
                computers: None,
            },
            status: c[11].to_string(),
        }));
    }
    if let Some(c) = STANDING.captures(t) {
        return Some(TourneyNotice::Standing {
            place: c[1].parse().ok()?,
            name: c[3].to_string(),
            active: &c[2] == "+",
            score: c[4].to_string(),
        });
    }
    None
}

/// True when a line carrying `n` may go on in a `\` continuation line (the chat lines
/// a director's channel notices come in).
pub fn may_continue(n: &TourneyNotice) -> bool {
    matches!(
        n,
        TourneyNotice::Announced(_)
            | TourneyNotice::Unreadable { .. }
            | TourneyNotice::Joined { .. }
            | TourneyNotice::GameReported { .. }
            | TourneyNotice::Finished { .. }
            | TourneyNotice::Bye { .. }
    )
}

/// The ` [5 0 1 0 2]` suffix of a result line (`{Game 1 (A vs. B) A resigns} 0-1 [1 0 0
/// 0 5]`), when there is one.
pub fn result_suffix(line: &str) -> Option<TourneyGameTag> {
    let c = SUFFIX.captures(line.trim_end())?;
    Some(TourneyGameTag {
        base: c[1].parse().ok()?,
        increment: c[2].parse().ok()?,
        rated: &c[3] == "1",
        private: &c[4] == "1",
        kind: c[5].parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(line: &str) -> Option<TourneyNotice> {
        notice(line)
    }

    #[test]
    fn an_announcement_joined_from_its_wrapped_lines() {
        let line = "mamer(49): *****Tourney Announcement***** Trny #2  1 0 u  SWISS 0-9999 0 plr(s).  tell mamer join 2. Avg:   0.0";
        let Some(TourneyNotice::Announced(i)) = n(line) else {
            panic!("{:?}", n(line))
        };
        assert_eq!(
            (i.director.as_str(), i.number, i.base, i.increment, i.rated),
            ("mamer", 2, 1, 0, false)
        );
        assert_eq!((i.style.as_str(), i.variant.as_str()), ("swiss", "chess"));
        assert_eq!(
            (i.rating_range, i.players, i.computers),
            ((0, 9999), 0, None)
        );
        let fr = "mamer c-shouts: *****Tourney Announcement***** Trny #7  3 2 r  RR Wild fr 1200-2400 3 plr(s).  tell mamer join 7. Avg: 1500.0";
        let Some(TourneyNotice::Announced(i)) = n(fr) else {
            panic!()
        };
        assert_eq!(
            (i.variant.as_str(), i.style.as_str(), i.rated),
            ("chess960", "round robin", true)
        );
    }

    #[test]
    fn odd_announcements_are_unreadable_not_guessed() {
        for bad in [
            "mamer(49): *****Tourney Announcement*****",
            "mamer(49): *****Tourney Announcement***** Trny #2  1 0 u  SWISS 0-9999 0 plr(s).  tell other join 2.",
            "mamer(49): *****Tourney Announcement***** Trny #2  1 0 u  SWISS 0-9999 0 plr(s).  tell mamer join 3.",
            "mamer(49): *****Tourney Announcement***** Trny #x",
        ] {
            assert!(matches!(n(bad), Some(TourneyNotice::Unreadable { .. })), "{bad}");
        }
        assert_eq!(n("mamer(49): hello"), None);
        assert_eq!(n(":"), None);
        assert_eq!(n(": --- --- --- ----"), None);
    }

    #[test]
    fn notes_rows_flags_and_reports() {
        assert_eq!(
            n(":mamer notes: You joined the tournament."),
            Some(TourneyNotice::Note {
                director: "mamer".into(),
                text: "You joined the tournament.".into()
            })
        );
        let Some(TourneyNotice::Listed(r)) =
            n(":   2   3   s    1   0  u    r    0-9999   open n/a            n/a           ")
        else {
            panic!()
        };
        assert_eq!(
            (r.info.number, r.info.rounds, r.status.as_str()),
            (2, Some(3), "open")
        );
        assert_eq!(
            n("mamer has set your tourney variable to OFF."),
            Some(TourneyNotice::Flag {
                director: "mamer".into(),
                on: false
            })
        );
        assert_eq!(
            n("mamer tells you: you get a BYE this round."),
            Some(TourneyNotice::Bye {
                director: "mamer".into()
            })
        );
        assert_eq!(
            n(":Tourney Players: Round 2 of 3 "),
            Some(TourneyNotice::Round {
                round: 2,
                rounds: 3
            })
        );
        assert!(matches!(
            n(":  1 +TPlayC            [   0]  1.0  [2075] [1675] +03b *02w "),
            Some(TourneyNotice::Standing {
                place: 1,
                active: true,
                ..
            })
        ));
        assert!(matches!(
            n("mamer(49): TPlayA vs. TPlayC a game in tourney #2 just ended.  TPlayA resigns 0-1"),
            Some(TourneyNotice::GameReported {
                number: 2,
                ended: true,
                ..
            })
        ));
        assert_eq!(
            n("mamer(49): Tourney Results: First place in tourney #2 goes to:  TPlayC TPlayD"),
            Some(TourneyNotice::Finished {
                director: "mamer".into(),
                number: 2,
                winners: vec!["TPlayC".into(), "TPlayD".into()]
            })
        );
    }

    #[test]
    fn the_result_suffix() {
        assert_eq!(
            result_suffix("{Game 1 (TPlayA vs. TPlayC) TPlayA resigns} 0-1 [1 0 0 0 5]"),
            Some(TourneyGameTag {
                base: 1,
                increment: 0,
                rated: false,
                private: false,
                kind: 5
            })
        );
        assert_eq!(result_suffix("{Game 1 (A vs. B) A resigns} 0-1"), None);
        assert_eq!(
            result_suffix("{Game 1 (A vs. B) A resigns} 0-1 [1 0 7 0 5]"),
            None
        );
    }
}
