//! Chat: tells, says, kibitzes and whispers (with titles, rating and game number), channel
//! tells, shouts, and the server's delivery confirmations (`(told X)`, `kibitzed to N.`).
//!
//! Handles and titles are data: the sender's name and text are returned as strings and
//! nothing here interprets them.

use std::sync::LazyLock;

use regex::Regex;

use crate::events::{Chat, ChatKind, Event, Rating};
use crate::parse::seeks::split_titles;

const NAME: &str = r"([A-Za-z][A-Za-z0-9_-]{0,19})((?:\([A-Z*]{1,4}\))*)";

static TELL_SAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^{NAME}(?:\[(\d+)\])? (tells you|says): (.*)$")).expect("valid regex")
});
static KIB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^{NAME}\(([0-9]{{1,5}}[PE]?|-{{4}}|\+{{4}}|UNR)\)(?:\[(\d+)\])? (kibitzes|whispers): (.*)$"
    ))
    .expect("valid regex")
});
static CHANNEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^{NAME}\((\d{{1,3}})\): (.*)$")).expect("valid regex"));
static SHOUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^{NAME} (shouts|c-shouts): (.*)$")).expect("valid regex")
});
static EMOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^--> {NAME} ?(.*)$")).expect("valid regex"));
static TOLD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\(told ([A-Za-z][A-Za-z0-9_-]*)(?:,[^)]*)?\)").expect("valid regex")
});
static DELIVERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\(?(kibitzed|whispered) to (\d+)").expect("valid regex"));

fn titles(s: Option<regex::Match<'_>>) -> Vec<String> {
    s.map(|m| {
        split_titles(m.as_str())
            .into_iter()
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

fn game(m: Option<regex::Match<'_>>) -> Option<u32> {
    m.and_then(|m| m.as_str().parse().ok())
}

/// Parses a chat line or a delivery confirmation.
pub fn parse(line: &str) -> Option<Event> {
    if line.starts_with('(') || line.starts_with("kibitzed ") || line.starts_with("whispered ") {
        if let Some(c) = TOLD.captures(line) {
            return Some(Event::Told {
                to: c[1].to_string(),
            });
        }
        if let Some(c) = DELIVERED.captures(line) {
            return Some(Event::ChatDelivered {
                whisper: &c[1] == "whispered",
                count: c[2].parse().ok()?,
            });
        }
        return None;
    }
    if line.starts_with("--> ") {
        let c = EMOTE.captures(line)?;
        return Some(Event::Chat(Chat {
            kind: ChatKind::Emote,
            from: c[1].to_string(),
            titles: titles(c.get(2)),
            rating: None,
            game: None,
            text: c[3].to_string(),
        }));
    }
    if line.contains(" tells you: ") || line.contains(" says: ") {
        if let Some(c) = TELL_SAY.captures(line) {
            let kind = if &c[4] == "says" {
                ChatKind::Say
            } else {
                ChatKind::Tell
            };
            return Some(Event::Chat(Chat {
                kind,
                from: c[1].to_string(),
                titles: titles(c.get(2)),
                rating: None,
                game: game(c.get(3)),
                text: c[5].to_string(),
            }));
        }
    }
    if line.contains(" kibitzes: ") || line.contains(" whispers: ") {
        if let Some(c) = KIB.captures(line) {
            let kind = if &c[5] == "kibitzes" {
                ChatKind::Kibitz
            } else {
                ChatKind::Whisper
            };
            return Some(Event::Chat(Chat {
                kind,
                from: c[1].to_string(),
                titles: titles(c.get(2)),
                rating: Rating::parse(&c[3]),
                game: game(c.get(4)),
                text: c[6].to_string(),
            }));
        }
    }
    if line.contains("shouts: ") {
        if let Some(c) = SHOUT.captures(line) {
            let kind = if &c[3] == "shouts" {
                ChatKind::Shout
            } else {
                ChatKind::CShout
            };
            return Some(Event::Chat(Chat {
                kind,
                from: c[1].to_string(),
                titles: titles(c.get(2)),
                rating: None,
                game: None,
                text: c[4].to_string(),
            }));
        }
    }
    if line.contains("): ") {
        if let Some(c) = CHANNEL.captures(line) {
            return Some(Event::Chat(Chat {
                kind: ChatKind::Channel(c[3].parse().ok()?),
                from: c[1].to_string(),
                titles: titles(c.get(2)),
                rating: None,
                game: None,
                text: c[4].to_string(),
            }));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat(line: &str) -> Chat {
        match parse(line) {
            Some(Event::Chat(c)) => c,
            other => panic!("{line} -> {other:?}"),
        }
    }

    #[test]
    fn tells_and_says() {
        let c = chat("BetaBot tells you: thanks, you too");
        assert_eq!(
            (c.kind, c.from.as_str(), c.text.as_str()),
            (ChatKind::Tell, "BetaBot", "thanks, you too")
        );
        let c = chat("Hyatt(*)(C) tells you: status");
        assert_eq!(c.titles, vec!["*".to_string(), "C".to_string()]);
        assert!(c.has_title("c"));
        let c = chat("AlphaBot says: good luck");
        assert_eq!((c.kind, c.game), (ChatKind::Say, None));
        let c = chat("GuestABCD(U)[45] says: hi: there");
        assert_eq!((c.game, c.text.as_str()), (Some(45), "hi: there"));
    }

    #[test]
    fn kibitz_and_whisper() {
        let c = chat("GammaBot(----) kibitzes: Nice opening, white!");
        assert_eq!(
            (c.kind, c.rating, c.game),
            (ChatKind::Kibitz, Some(Rating::Unrated), None)
        );
        let c = chat("AlphaBot(1896) whispers: players can whisper too");
        assert_eq!(
            (c.kind, c.rating.and_then(|r| r.value())),
            (ChatKind::Whisper, Some(1896))
        );
        let c = chat("Kasparov(GM)(2812)[123] kibitzes: Nf3 is best");
        assert_eq!(c.titles, vec!["GM".to_string()]);
        assert_eq!(
            (c.rating.and_then(|r| r.value()), c.game),
            (Some(2812), Some(123))
        );
        let c = chat("Crafty(C)(UNR)[7] whispers: d=12 +0.31");
        assert_eq!(
            (c.titles.clone(), c.rating),
            (vec!["C".to_string()], Some(Rating::Unrated))
        );
    }

    #[test]
    fn channels_shouts_and_acks() {
        let c = chat("Dummy(TD)(50): hello channel");
        assert_eq!(
            (c.kind, c.titles.clone(), c.text.as_str()),
            (
                ChatKind::Channel(50),
                vec!["TD".to_string()],
                "hello channel"
            )
        );
        let c = chat("Someone shouts: anyone for blitz?");
        assert_eq!(c.kind, ChatKind::Shout);
        let c = chat("Someone(IM) c-shouts: 5 0 anyone?");
        assert_eq!((c.kind, c.titles.len()), (ChatKind::CShout, 1));
        let c = chat("--> Someone waves");
        assert_eq!((c.kind, c.text.as_str()), (ChatKind::Emote, "waves"));
        assert_eq!(
            parse("(told BetaBot)"),
            Some(Event::Told {
                to: "BetaBot".into()
            })
        );
        assert_eq!(
            parse("(told BetaBot, who is playing)"),
            Some(Event::Told {
                to: "BetaBot".into()
            })
        );
        assert_eq!(
            parse("kibitzed to 2."),
            Some(Event::ChatDelivered {
                whisper: false,
                count: 2
            })
        );
        assert_eq!(
            parse("whispered to 0."),
            Some(Event::ChatDelivered {
                whisper: true,
                count: 0
            })
        );
    }

    #[test]
    fn not_chat() {
        for line in [
            "Statistics for AlphaBot    On for: 0 secs",
            "Observing  1 [AlphaBot vs. BetaBot]: GammaBot",
            "(After logging in,do \"help register\" for more info on how to register.)",
            "Blitz     ----    350.0      0      0      0      0",
            " tells you: x",
        ] {
            assert_eq!(parse(line), None, "{line}");
        }
    }
}
