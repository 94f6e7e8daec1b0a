//! Offers: match offers (`Challenge:`, `Issuing:`), computer notices, draw / abort /
//! adjourn / takeback / pause offers and their answers, and FICS pending-offer lines
//! (`<pf>`, `<pt>`, `<pr>`, `iset pendinfo 1`).

use std::sync::LazyLock;

use regex::Regex;

use crate::events::{Color, Event, MatchOffer, OfferKind, PendingOffer, PlayerRating, Rating};

static MATCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(Challenge|Issuing): (\S+) \(\s*([^)]*)\)\s+(?:\[(white|black)\]\s+)?(\S+) \(\s*([^)]*)\)\s+",
        r"(rated|unrated) (\S+) (\d+) (\d+)",
        // lasker 2.2 shows a second clock after " : " (its offers to resume a game).
        r"(?:\s*:\s*(\d+) (\d+))?",
        // lasker 2.2 wraps its Chess960 and resume challenges right after "Loaded from ".
        r"(?:\s+Loaded from\s*(\S+?)?)?\s*(\(adjourned\))?\s*\.?\s*$"
    ))
    .expect("valid regex")
});
static COMPUTER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^--\*\* (\S+) is a computer \*\*--").expect("valid regex"));
static WOULD_LIKE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S+) would like to (abort|adjourn|pause|unpause|switch sides|take back (\d+) half move)")
        .expect("valid regex")
});
static ACCEPTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S+) accepts (?:your|the) (\S+?)(?: (?:request|offer))?\.$")
        .expect("valid regex")
});
static DECLINES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S+) declines (?:your |the )?(\S+?)(?: (?:request|offer))?\.$")
        .expect("valid regex")
});
static WITHDRAWS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S+) withdraws (?:your |the |his |her )?(\S+?)(?: (?:request|offer))?\.$")
        .expect("valid regex")
});
static YOU_ACCEPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^You accept the (\S+?)(?: (?:request|offer))? (?:of|from) (\S+?)\.$")
        .expect("valid regex")
});
static YOU_DECLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^You decline the (\S+?)(?: (?:request|offer))? (?:of|from) (\S+?)\.$")
        .expect("valid regex")
});

/// The kind of offer a word names (`match`, `challenge`, `draw`, ...).
pub fn offer_kind(word: &str) -> OfferKind {
    match word.to_ascii_lowercase().as_str() {
        "match" | "challenge" => OfferKind::Match,
        "draw" => OfferKind::Draw,
        "abort" => OfferKind::Abort,
        "adjourn" | "adjournment" => OfferKind::Adjourn,
        "takeback" => OfferKind::Takeback(0),
        "pause" => OfferKind::Pause,
        "unpause" => OfferKind::Unpause,
        "switch" => OfferKind::Switch,
        w => OfferKind::Other(w.to_string()),
    }
}

fn match_offer(line: &str) -> Option<Event> {
    let c = MATCH.captures(line)?;
    let offer = MatchOffer {
        challenger: PlayerRating {
            name: c[2].to_string(),
            rating: Rating::parse(&c[3])?,
        },
        challenger_color: c.get(4).map(|m| {
            if m.as_str() == "white" {
                Color::White
            } else {
                Color::Black
            }
        }),
        receiver: PlayerRating {
            name: c[5].to_string(),
            rating: Rating::parse(&c[6])?,
        },
        rated: &c[7] == "rated",
        category: c[8].to_string(),
        base_minutes: c[9].parse().ok()?,
        increment_secs: c[10].parse().ok()?,
        other_clock: match (c.get(11), c.get(12)) {
            (Some(b), Some(i)) => Some((b.as_str().parse().ok()?, i.as_str().parse().ok()?)),
            _ => None,
        },
        variant: c.get(13).map(|m| m.as_str().to_string()),
        adjourned: c.get(14).is_some(),
        challenger_titles: Vec::new(),
        assess: None,
        fancy_time_control: String::new(),
    };
    Some(if &c[1] == "Challenge" {
        Event::Challenge(offer)
    } else {
        Event::Issuing(offer)
    })
}

fn pending(line: &str) -> Option<Event> {
    let mut parts = line.splitn(2, ' ');
    let tag = parts.next()?;
    let rest = parts.next().unwrap_or("").trim();
    if tag == "<pr>" {
        return Some(Event::PendingRemoved {
            index: rest.split_whitespace().next()?.parse().ok()?,
        });
    }
    if tag != "<pf>" && tag != "<pt>" {
        return None;
    }
    // <pf> index w=name t=type p=params (params run to the end of the line)
    let (index, rest) = rest.split_once(' ')?;
    let index: u32 = index.parse().ok()?;
    let rest = rest.trim_start();
    let (w, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let name = w.strip_prefix("w=")?.to_string();
    let rest = rest.trim_start();
    let (t, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let kind = t.strip_prefix("t=")?.to_string();
    let params = rest
        .trim_start()
        .strip_prefix("p=")
        .unwrap_or("")
        .to_string();
    let offer = PendingOffer {
        index,
        name,
        kind,
        params,
    };
    Some(if tag == "<pf>" {
        Event::PendingFrom(offer)
    } else {
        Event::PendingTo(offer)
    })
}

/// Parses an offer line.
pub fn parse(line: &str) -> Option<Event> {
    if line.starts_with("Challenge: ") || line.starts_with("Issuing: ") {
        return match_offer(line);
    }
    if line.starts_with("<p") {
        return pending(line);
    }
    if line.starts_with("--** ") {
        return COMPUTER.captures(line).map(|c| Event::IsComputer {
            name: c[1].to_string(),
        });
    }
    if let Some(kind) = line.strip_suffix(" request sent.") {
        return Some(Event::OfferSent {
            kind: offer_kind(kind),
        });
    }
    if let Some(name) = line.strip_suffix(" offers you a draw.") {
        return Some(Event::OfferReceived {
            from: name.to_string(),
            kind: OfferKind::Draw,
        });
    }
    if line.contains(" would like to ") {
        let c = WOULD_LIKE.captures(line)?;
        let kind = match &c[2] {
            "abort" => OfferKind::Abort,
            "adjourn" => OfferKind::Adjourn,
            "pause" => OfferKind::Pause,
            "unpause" => OfferKind::Unpause,
            "switch sides" => OfferKind::Switch,
            _ => OfferKind::Takeback(c.get(3)?.as_str().parse().ok()?),
        };
        return Some(Event::OfferReceived {
            from: c[1].to_string(),
            kind,
        });
    }
    if let Some(rest) = line.strip_prefix("Challenge to ") {
        let name = rest.strip_suffix(" withdrawn.")?;
        return Some(Event::OfferWithdrawn {
            by_me: true,
            other: name.to_string(),
            kind: OfferKind::Match,
        });
    }
    if line.starts_with("You accept ") {
        let c = YOU_ACCEPT.captures(line)?;
        return Some(Event::YouAccepted {
            other: c[2].to_string(),
            kind: offer_kind(&c[1]),
        });
    }
    if line.starts_with("You decline ") {
        let c = YOU_DECLINE.captures(line)?;
        return Some(Event::YouDeclined {
            other: c[2].to_string(),
            kind: offer_kind(&c[1]),
        });
    }
    if line.contains(" accepts ") {
        let c = ACCEPTS.captures(line)?;
        return Some(Event::OfferAccepted {
            by: c[1].to_string(),
            kind: offer_kind(&c[2]),
        });
    }
    if line.contains(" declines ") {
        let c = DECLINES.captures(line)?;
        return Some(Event::OfferDeclined {
            by: c[1].to_string(),
            kind: offer_kind(&c[2]),
        });
    }
    if line.contains(" withdraws ") {
        let c = WITHDRAWS.captures(line)?;
        return Some(Event::OfferWithdrawn {
            by_me: false,
            other: c[1].to_string(),
            kind: offer_kind(&c[2]),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::RatingFlag;

    fn offer(line: &str) -> MatchOffer {
        match parse(line) {
            Some(Event::Challenge(o)) | Some(Event::Issuing(o)) => o,
            other => panic!("{line} -> {other:?}"),
        }
    }

    #[test]
    fn offer_words_both_ways() {
        for w in [
            "match", "draw", "abort", "adjourn", "takeback", "pause", "unpause", "switch", "simul",
        ] {
            assert_eq!(offer_kind(w).word(), w);
        }
        assert_eq!(offer_kind("challenge"), OfferKind::Match);
        assert_eq!(OfferKind::Takeback(2).word(), "takeback");
    }

    #[test]
    fn challenges_in_every_shape() {
        let o = offer("Challenge: AlphaBot (----) [white] BetaBot (----) rated blitz 5 0.");
        assert_eq!(
            o.challenger,
            PlayerRating {
                name: "AlphaBot".into(),
                rating: Rating::Unrated
            }
        );
        assert_eq!(o.receiver.name, "BetaBot");
        assert_eq!(o.challenger_color, Some(Color::White));
        assert!(o.rated && !o.adjourned);
        assert_eq!(
            (o.category.as_str(), o.base_minutes, o.increment_secs),
            ("blitz", 5, 0)
        );

        let o = offer("Challenge: Visitor (++++) [black] Stranger (++++) unrated lightning 1 0.");
        assert_eq!(o.challenger.rating, Rating::Unregistered);
        assert_eq!(o.challenger_color, Some(Color::Black));
        assert!(!o.rated);

        let o = offer("Challenge: BetaBot (1882) AlphaBot (1558) unrated blitz 3 2.");
        assert_eq!(o.challenger_color, None);
        assert_eq!(o.receiver.rating.value(), Some(1558));

        let o = offer("Challenge: BetaBot (1720) AlphaBot (1720) unrated wild 5 0 Loaded from blitz/0 (adjourned).");
        assert!(o.adjourned);
        assert_eq!(o.variant.as_deref(), Some("blitz/0"));
        assert_eq!(o.category, "wild");

        let o =
            offer("Challenge: GuestQRST (1432P) wily (2104E) rated wild 2 12 Loaded from wild/fr.");
        assert_eq!(
            o.challenger.rating,
            Rating::Rated {
                value: 1432,
                flag: RatingFlag::Provisional
            }
        );
        assert_eq!(
            o.receiver.rating,
            Rating::Rated {
                value: 2104,
                flag: RatingFlag::Estimated
            }
        );
        assert_eq!(o.variant.as_deref(), Some("wild/fr"));
        assert_eq!((o.base_minutes, o.increment_secs), (2, 12));

        // lasker 2.2's `fr`: the line wraps after "Loaded from "; the first part alone is
        // a challenge without its variant (held for the continuation), the joined line
        // names it.
        let o =
            offer("Challenge: AlphaBot (----) [white] BetaBot (----) rated wild 1 0 Loaded from");
        assert_eq!((o.category.as_str(), o.variant), ("wild", None));
        let o = offer(
            "Challenge: AlphaBot (----) [white] BetaBot (----) rated wild 1 0 Loaded from fischerandom/0.",
        );
        assert_eq!(o.variant.as_deref(), Some("fischerandom/0"));

        // lasker 2.2's offer to resume an adjourned game shows a second clock after " : "
        // and wraps after "Loaded from "; the first part is held, the joined line says it
        // resumes the game.
        let first = "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : 2 2 Loaded from ";
        let o = offer(first);
        assert_eq!(
            (o.base_minutes, o.increment_secs, o.other_clock),
            (2, 0, Some((2, 2)))
        );
        assert!(!o.adjourned && o.variant.is_none());
        let o = offer(&format!("{first}non-standard/0 (adjourned)."));
        assert_eq!(
            (o.challenger.name.as_str(), o.receiver.name.as_str()),
            ("wilybot", "AlphaBot")
        );
        assert!(o.adjourned && !o.rated);
        assert_eq!(o.category, "wild");
        assert_eq!(o.variant.as_deref(), Some("non-standard/0"));
        assert_eq!(o.other_clock, Some((2, 2)));
        let o = offer("Issuing: wilybot (----) AlphaBot (----) unrated wild 2 0 : 2 2 Loaded from non-standard/0 (adjourned).");
        assert!(o.adjourned);
        // The FICS form of the same offer has no second clock.
        let o = offer("Challenge: BetaBot (1720) AlphaBot (1720) unrated wild 5 0 Loaded from blitz/0 (adjourned).");
        assert_eq!(o.other_clock, None);
        // Cut or broken second clocks are no challenge, and never a panic.
        for bad in [
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 :",
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : 2",
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : x y Loaded from",
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : 2 99999999999 Loaded from",
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : : 2 2",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }

        assert!(matches!(
            parse("Issuing: AlphaBot (1558) [black] BetaBot (1882) rated blitz 2 12."),
            Some(Event::Issuing(_))
        ));
        assert_eq!(parse("Challenge: garbage"), None);
        assert_eq!(parse("Challenge: A (xx) B (----) rated blitz 5 0."), None);
    }

    #[test]
    fn answers_and_withdrawals() {
        let cases: Vec<(&str, Event)> = vec![
            (
                "BetaBot declines the match offer.",
                Event::OfferDeclined {
                    by: "BetaBot".into(),
                    kind: OfferKind::Match,
                },
            ),
            (
                "BetaBot declines draw request.",
                Event::OfferDeclined {
                    by: "BetaBot".into(),
                    kind: OfferKind::Draw,
                },
            ),
            (
                "BetaBot declines the takeback request.",
                Event::OfferDeclined {
                    by: "BetaBot".into(),
                    kind: OfferKind::Takeback(0),
                },
            ),
            (
                "BetaBot accepts your challenge.",
                Event::OfferAccepted {
                    by: "BetaBot".into(),
                    kind: OfferKind::Match,
                },
            ),
            (
                "BetaBot accepts the draw request.",
                Event::OfferAccepted {
                    by: "BetaBot".into(),
                    kind: OfferKind::Draw,
                },
            ),
            (
                "Challenge to BetaBot withdrawn.",
                Event::OfferWithdrawn {
                    by_me: true,
                    other: "BetaBot".into(),
                    kind: OfferKind::Match,
                },
            ),
            (
                "AlphaBot withdraws the match offer.",
                Event::OfferWithdrawn {
                    by_me: false,
                    other: "AlphaBot".into(),
                    kind: OfferKind::Match,
                },
            ),
            (
                "You accept the challenge of AlphaBot.",
                Event::YouAccepted {
                    other: "AlphaBot".into(),
                    kind: OfferKind::Match,
                },
            ),
            (
                "You accept the draw request from AlphaBot.",
                Event::YouAccepted {
                    other: "AlphaBot".into(),
                    kind: OfferKind::Draw,
                },
            ),
            (
                "You decline the match offer from AlphaBot.",
                Event::YouDeclined {
                    other: "AlphaBot".into(),
                    kind: OfferKind::Match,
                },
            ),
            (
                "You decline the draw request from AlphaBot.",
                Event::YouDeclined {
                    other: "AlphaBot".into(),
                    kind: OfferKind::Draw,
                },
            ),
            (
                "Draw request sent.",
                Event::OfferSent {
                    kind: OfferKind::Draw,
                },
            ),
            (
                "Abort request sent.",
                Event::OfferSent {
                    kind: OfferKind::Abort,
                },
            ),
            (
                "AlphaBot offers you a draw.",
                Event::OfferReceived {
                    from: "AlphaBot".into(),
                    kind: OfferKind::Draw,
                },
            ),
            (
                "AlphaBot would like to abort the game; type \"abort\" to accept.",
                Event::OfferReceived {
                    from: "AlphaBot".into(),
                    kind: OfferKind::Abort,
                },
            ),
            (
                "AlphaBot would like to adjourn the game; type \"adjourn\" to accept.",
                Event::OfferReceived {
                    from: "AlphaBot".into(),
                    kind: OfferKind::Adjourn,
                },
            ),
            (
                "AlphaBot would like to take back 2 half move(s).",
                Event::OfferReceived {
                    from: "AlphaBot".into(),
                    kind: OfferKind::Takeback(2),
                },
            ),
            (
                "--** Crafty is a computer **--",
                Event::IsComputer {
                    name: "Crafty".into(),
                },
            ),
        ];
        for (line, ev) in cases {
            assert_eq!(parse(line), Some(ev), "{line}");
        }
    }

    #[test]
    fn pending_info_lines() {
        // Shapes from the FICS `iv_pendinfo` help: <pt>/<pf> index w=name t=type p=params.
        match parse(
            "<pf> 15 w=GuestXYZW t=match p=GuestXYZW (----) [white] wily (1850) unrated blitz 5 0",
        ) {
            Some(Event::PendingFrom(p)) => {
                assert_eq!(
                    (p.index, p.name.as_str(), p.kind.as_str()),
                    (15, "GuestXYZW", "match")
                );
                assert_eq!(
                    p.params,
                    "GuestXYZW (----) [white] wily (1850) unrated blitz 5 0"
                );
            }
            other => panic!("{other:?}"),
        }
        match parse("<pt> 16 w=Crafty t=draw p=#") {
            Some(Event::PendingTo(p)) => assert_eq!(
                (p.index, p.kind.as_str(), p.params.as_str()),
                (16, "draw", "#")
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(parse("<pr> 15"), Some(Event::PendingRemoved { index: 15 }));
        assert_eq!(parse("<pr> x"), None);
        assert_eq!(parse("<pf> 1 name t=match"), None);
        assert_eq!(parse("<pf>"), None);
    }
}
