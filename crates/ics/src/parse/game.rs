//! Game lifecycle lines: `Creating:`, `{Game N (W vs. B) ...}` starts and results (with the
//! reason mapped to [`EndReason`]), rating adjustments, observation start and stop.

use std::sync::LazyLock;

use regex::Regex;

use crate::events::{Creating, EndReason, Event, GameEnd, GameResult, GameStart, Rating};

static BRACED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\{Game (\d+) \((\S+) vs\. (\S+)\) ([^}]*)\}\s*(\S*)").expect("valid regex")
});
static START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(Creating|Continuing) (rated|unrated) (\S+) match\.?$").expect("valid regex")
});
static CREATING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^Creating: (\S+) \(\s*([^)]*)\) (\S+) \(\s*([^)]*)\) (rated|unrated) (\S+) (\d+) (\d+)",
    )
    .expect("valid regex")
});
static RATING_ADJ: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S+) rating adjustment: (\d+) --> (\d+)").expect("valid regex")
});
static OBSERVING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Observing\s+(\d+) \[[^\]]*\]:\s*(.*)$").expect("valid regex"));

fn num(s: &str) -> Option<u32> {
    s.parse().ok()
}

/// Maps a result text (between `)` and `}`) to a reason and the player it names.
pub fn classify_end(text: &str, white: &str, black: &str) -> (EndReason, Option<String>) {
    let t = text.to_ascii_lowercase();
    let reason = if t.contains("checkmated") {
        EndReason::Checkmate
    } else if t.contains("resign") {
        EndReason::Resignation
    } else if t.contains("forfeits on time") {
        EndReason::Time
    } else if t.contains("forfeits by disconnection") {
        EndReason::Disconnection
    } else if t.contains("ran out of time") && t.contains("no material") {
        EndReason::TimeVsNoMaterial
    } else if t.contains("both players ran out of time") {
        EndReason::BothOutOfTime
    } else if t.contains("stalemate") {
        EndReason::Stalemate
    } else if t.contains("repetition") {
        EndReason::Repetition
    } else if t.contains("50 move") || t.contains("fifty move") {
        EndReason::FiftyMoveRule
    } else if t.contains("mating material") || t.contains("insufficient material") {
        EndReason::InsufficientMaterial
    } else if t.contains("adjudicat") {
        EndReason::Adjudication
    } else if t.contains("courtesyabort") {
        EndReason::CourtesyAborted
    } else if t.contains("courtesyadjourn") {
        EndReason::CourtesyAdjourned
    } else if t.contains("aborted on move 1") {
        EndReason::AbortedOnMove1
    } else if t.contains("abort") {
        EndReason::Aborted
    } else if t.contains("adjourn") {
        EndReason::Adjourned
    } else if t.contains("drawn") && t.contains("agree") {
        EndReason::DrawAgreed
    } else {
        EndReason::Other
    };
    // The player the text names: its first word, or its last (`... by X`).
    let is_player = |w: &str| {
        let w = w.trim_end_matches(|c: char| !c.is_alphanumeric());
        let w = w.strip_suffix("'s").unwrap_or(w);
        (w.eq_ignore_ascii_case(white) || w.eq_ignore_ascii_case(black)).then(|| {
            if w.eq_ignore_ascii_case(white) {
                white.to_string()
            } else {
                black.to_string()
            }
        })
    };
    let mut words = text.split_whitespace();
    let who = words
        .next()
        .and_then(is_player)
        .or_else(|| text.split_whitespace().last().and_then(is_player));
    (reason, who)
}

/// `{Game N (W vs. B) ...}` lines: a start or an end.
pub fn parse_braced(line: &str) -> Option<Event> {
    let c = BRACED.captures(line)?;
    let game = num(&c[1])?;
    let white = c[2].to_string();
    let black = c[3].to_string();
    let text = c[4].trim();
    if let Some(s) = START.captures(text) {
        return Some(Event::GameStart(GameStart {
            game,
            white,
            black,
            continuing: &s[1] == "Continuing",
            rated: &s[2] == "rated",
            category: s[3].to_string(),
        }));
    }
    let result = GameResult::parse(&c[5])?;
    let (reason, who) = classify_end(text, &white, &black);
    Some(Event::GameEnd(GameEnd {
        game,
        white,
        black,
        result,
        reason,
        who,
        text: text.to_string(),
        tourney: crate::parse::tourney::result_suffix(line),
    }))
}

/// Other game lines: `Creating:`, rating adjustments, observation.
pub fn parse(line: &str) -> Option<Event> {
    if line.starts_with("{Game ") {
        return parse_braced(line);
    }
    if line.starts_with("Creating: ") {
        let c = CREATING.captures(line)?;
        return Some(Event::Creating(Creating {
            white: c[1].to_string(),
            white_rating: Rating::parse(&c[2])?,
            black: c[3].to_string(),
            black_rating: Rating::parse(&c[4])?,
            rated: &c[5] == "rated",
            category: c[6].to_string(),
            base_minutes: num(&c[7])?,
            increment_secs: num(&c[8])?,
        }));
    }
    if line == "No ratings adjustment done." {
        return Some(Event::NoRatingChange);
    }
    if line == "Your opponent has lost contact or quit." {
        return Some(Event::OpponentLostContact);
    }
    if line.contains(" rating adjustment: ") {
        let c = RATING_ADJ.captures(line)?;
        return Some(Event::RatingChange {
            category: c[1].to_ascii_lowercase(),
            old: num(&c[2])?,
            new: num(&c[3])?,
        });
    }
    if let Some(rest) = line.strip_prefix("You are now observing game ") {
        return Some(Event::ObserveStarted {
            game: num(rest.trim_end_matches('.'))?,
        });
    }
    if let Some(rest) = line.strip_prefix("Removing game ") {
        let n = rest.strip_suffix(" from observation list.")?;
        return Some(Event::ObserveStopped { game: num(n)? });
    }
    if let Some(rest) = line.strip_prefix("You are no longer observing game ") {
        return Some(Event::ObserveStopped {
            game: num(rest.trim_end_matches('.'))?,
        });
    }
    if line.starts_with("Observing ") {
        let c = OBSERVING.captures(line)?;
        let names = c[2].split_whitespace().map(str::to_string).collect();
        return Some(Event::Observers {
            game: num(&c[1])?,
            names,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::RatingFlag;

    fn end(line: &str) -> GameEnd {
        match parse(line) {
            Some(Event::GameEnd(e)) => e,
            other => panic!("not an end: {line} -> {other:?}"),
        }
    }

    #[test]
    fn starts() {
        assert_eq!(
            parse("{Game 1 (AlphaBot vs. BetaBot) Creating rated blitz match.}"),
            Some(Event::GameStart(GameStart {
                game: 1,
                white: "AlphaBot".into(),
                black: "BetaBot".into(),
                continuing: false,
                rated: true,
                category: "blitz".into()
            }))
        );
        match parse("{Game 412 (GuestA vs. wily) Continuing unrated non-standard match.}") {
            Some(Event::GameStart(s)) => {
                assert!(s.continuing && !s.rated);
                assert_eq!((s.game, s.category.as_str()), (412, "non-standard"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_result_line_maps_to_a_reason() {
        let w = "AlphaBot";
        let cases: &[(&str, GameResult, EndReason, Option<&str>)] = &[
            (
                "AlphaBot checkmated} 0-1",
                GameResult::BlackWins,
                EndReason::Checkmate,
                Some(w),
            ),
            (
                "BetaBot resigns} 1-0",
                GameResult::WhiteWins,
                EndReason::Resignation,
                Some("BetaBot"),
            ),
            (
                "BetaBot forfeits on time} 1-0",
                GameResult::WhiteWins,
                EndReason::Time,
                Some("BetaBot"),
            ),
            (
                "AlphaBot forfeits by disconnection} 0-1",
                GameResult::BlackWins,
                EndReason::Disconnection,
                Some(w),
            ),
            (
                "Game drawn by stalemate} 1/2-1/2",
                GameResult::Draw,
                EndReason::Stalemate,
                None,
            ),
            (
                "Game drawn by mutual agreement} 1/2-1/2",
                GameResult::Draw,
                EndReason::DrawAgreed,
                None,
            ),
            (
                "Game drawn by repetition} 1/2-1/2",
                GameResult::Draw,
                EndReason::Repetition,
                None,
            ),
            (
                "Game drawn by the 50 move rule} 1/2-1/2",
                GameResult::Draw,
                EndReason::FiftyMoveRule,
                None,
            ),
            (
                "Neither player has mating material} 1/2-1/2",
                GameResult::Draw,
                EndReason::InsufficientMaterial,
                None,
            ),
            (
                "Game drawn because neither player has mating material} 1/2-1/2",
                GameResult::Draw,
                EndReason::InsufficientMaterial,
                None,
            ),
            (
                "AlphaBot ran out of time and BetaBot has no material to mate} 1/2-1/2",
                GameResult::Draw,
                EndReason::TimeVsNoMaterial,
                Some(w),
            ),
            (
                "Both players ran out of time} 1/2-1/2",
                GameResult::Draw,
                EndReason::BothOutOfTime,
                None,
            ),
            (
                "Game adjourned by mutual agreement} *",
                GameResult::NoResult,
                EndReason::Adjourned,
                None,
            ),
            (
                "adjourned} *",
                GameResult::NoResult,
                EndReason::Adjourned,
                None,
            ),
            (
                "BetaBot lost connection; game adjourned} *",
                GameResult::NoResult,
                EndReason::Adjourned,
                Some("BetaBot"),
            ),
            (
                "Game aborted by mutual agreement} *",
                GameResult::NoResult,
                EndReason::Aborted,
                None,
            ),
            (
                "Game aborted on move 1} *",
                GameResult::NoResult,
                EndReason::AbortedOnMove1,
                None,
            ),
            (
                "BetaBot lost connection and too few moves; game aborted} *",
                GameResult::NoResult,
                EndReason::Aborted,
                Some("BetaBot"),
            ),
            (
                "Game courtesyaborted by AlphaBot} *",
                GameResult::NoResult,
                EndReason::CourtesyAborted,
                Some(w),
            ),
            (
                "Game courtesyadjourned by BetaBot} *",
                GameResult::NoResult,
                EndReason::CourtesyAdjourned,
                Some("BetaBot"),
            ),
            (
                "AlphaBot wins by adjudication} 1-0",
                GameResult::WhiteWins,
                EndReason::Adjudication,
                Some(w),
            ),
            (
                "Game drawn by adjudication} 1/2-1/2",
                GameResult::Draw,
                EndReason::Adjudication,
                None,
            ),
            (
                "Game aborted by adjudication} *",
                GameResult::NoResult,
                EndReason::Adjudication,
                None,
            ),
            (
                "Something new happened} *",
                GameResult::NoResult,
                EndReason::Other,
                None,
            ),
        ];
        for (tail, result, reason, who) in cases {
            let e = end(&format!("{{Game 7 (AlphaBot vs. BetaBot) {tail}"));
            assert_eq!(
                (e.result, e.reason, e.who.as_deref()),
                (*result, *reason, *who),
                "{tail}"
            );
            assert_eq!(
                (e.game, e.white.as_str(), e.black.as_str()),
                (7, "AlphaBot", "BetaBot")
            );
        }
    }

    #[test]
    fn malformed_braced_lines() {
        assert_eq!(parse("{Game x (A vs. B) A resigns} 1-0"), None);
        assert_eq!(parse("{Game 1 (A vs. B) A resigns} 3-0"), None);
        assert_eq!(parse("{Game 1 (A vs. B) A resigns"), None);
        assert_eq!(parse("{Game 99999999999 (A vs. B) A resigns} 1-0"), None);
    }

    #[test]
    fn creating_and_ratings() {
        match parse("Creating: AlphaBot (1720) BetaBot (1720P) rated blitz 2 12") {
            Some(Event::Creating(c)) => {
                assert_eq!(
                    c.white_rating,
                    Rating::Rated {
                        value: 1720,
                        flag: RatingFlag::Established
                    }
                );
                assert_eq!(
                    c.black_rating,
                    Rating::Rated {
                        value: 1720,
                        flag: RatingFlag::Provisional
                    }
                );
                assert_eq!(
                    (
                        c.rated,
                        c.category.as_str(),
                        c.base_minutes,
                        c.increment_secs
                    ),
                    (true, "blitz", 2, 12)
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            parse("Blitz rating adjustment: 0 --> 1558"),
            Some(Event::RatingChange {
                category: "blitz".into(),
                old: 0,
                new: 1558
            })
        );
        assert_eq!(
            parse("blitz rating adjustment: 1558 --> 1643"),
            Some(Event::RatingChange {
                category: "blitz".into(),
                old: 1558,
                new: 1643
            })
        );
        assert_eq!(
            parse("No ratings adjustment done."),
            Some(Event::NoRatingChange)
        );
    }

    #[test]
    fn observation() {
        assert_eq!(
            parse("You are now observing game 12."),
            Some(Event::ObserveStarted { game: 12 })
        );
        assert_eq!(
            parse("Removing game 1 from observation list."),
            Some(Event::ObserveStopped { game: 1 })
        );
        assert_eq!(
            parse("Observing  1 [AlphaBot vs. BetaBot]: GammaBot Watcher"),
            Some(Event::Observers {
                game: 1,
                names: vec!["GammaBot".into(), "Watcher".into()]
            })
        );
        assert_eq!(parse("Removing game x from observation list."), None);
    }
}
