//! Challenge filters: decide whether to accept a match request, and the polite reason
//! when not. Pure logic over the challenge as the server described it, the settings in
//! `[accept]`, and the recent games against each opponent.

use config::{AcceptSection, DeclineMessages};
use lists::Category;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// What the bot knows about an incoming challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeInfo {
    pub name: String,
    /// `None` for `----` (no rating yet) and `++++` (unregistered).
    pub rating: Option<u32>,
    /// False for unregistered players (`++++`, guests).
    pub registered: bool,
    /// The opponent's class (lists, titles, computer notice).
    pub category: Category,
    pub rated: bool,
    /// The server's game type word: `blitz`, `lightning`, `standard`, `wild/fr`, ...
    pub kind: String,
    /// Minutes.
    pub base: u32,
    /// Seconds.
    pub increment: u32,
    /// The other side's minutes and seconds when the server shows a second clock.
    pub other_clock: Option<(u32, u32)>,
    /// The resumption of an adjourned game.
    pub adjourned: bool,
}

/// Why a challenge is declined (selects the message in `[accept.decline]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclineReason {
    TimeControl,
    Rated,
    Unrated,
    Variant,
    Rating,
    Computers,
    Humans,
    Guests,
    Blocked,
    TooMany,
    Busy,
    Closed,
}

impl DeclineReason {
    /// The configured message with `{name}` filled in; `None` to decline silently.
    pub fn message(self, m: &DeclineMessages, name: &str) -> Option<String> {
        let t = match self {
            DeclineReason::TimeControl => &m.time_control,
            DeclineReason::Rated => &m.rated,
            DeclineReason::Unrated => &m.unrated,
            DeclineReason::Variant => &m.variant,
            DeclineReason::Rating => &m.rating,
            DeclineReason::Computers => &m.computers,
            DeclineReason::Humans => &m.humans,
            DeclineReason::Guests => &m.guests,
            DeclineReason::Blocked => &m.blocked,
            DeclineReason::TooMany => &m.too_many,
            DeclineReason::Busy => &m.busy,
            DeclineReason::Closed => &m.closed,
        };
        (!t.trim().is_empty()).then(|| t.replace("{name}", name))
    }
}

/// The variant of a server game type word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Variant {
    Chess,
    Chess960,
    Other(String),
}

impl Variant {
    pub fn from_kind(kind: &str) -> Variant {
        let k = kind.trim().to_ascii_lowercase();
        match k.as_str() {
            "" | "lightning" | "blitz" | "standard" | "untimed" | "non-standard" | "bullet"
            | "rapid" | "classical" | "chess" | "1-minute" | "3-minute" | "5-minute"
            | "15-minute" | "45-minute" => Variant::Chess,
            // FICS `wild/fr` (challenges: `wild ... Loaded from wild/fr`), lasker 2.2 and
            // capablanca `fischerandom` (challenges: `Loaded from fischerandom/0`), ICC
            // wild 22.
            "wild/fr" | "wild fr" | "fr" | "chess960" | "wild/22" | "w22" | "fischerandom" => {
                Variant::Chess960
            }
            _ if k.starts_with("fischerandom/") => Variant::Chess960,
            _ => Variant::Other(k),
        }
    }

    fn setting_name(&self) -> &str {
        match self {
            Variant::Chess => "chess",
            Variant::Chess960 => "chess960",
            Variant::Other(s) => s,
        }
    }
}

/// Recent games, for the "in a row" and "per hour" limits.
#[derive(Debug, Clone, Default)]
pub struct OpponentHistory {
    /// (lower-case handle, when the game started), oldest first.
    games: VecDeque<(String, Instant)>,
}

impl OpponentHistory {
    /// Records the start of a game against `name`.
    pub fn record(&mut self, name: &str, at: Instant) {
        self.games.push_back((name.to_ascii_lowercase(), at));
        while self.games.len() > 200 {
            self.games.pop_front();
        }
    }

    /// Games in a row, ending with the latest, against `name`.
    pub fn in_a_row(&self, name: &str) -> u32 {
        let n = name.to_ascii_lowercase();
        self.games.iter().rev().take_while(|(h, _)| *h == n).count() as u32
    }

    /// Games against `name` that started within the hour before `now`.
    pub fn last_hour(&self, name: &str, now: Instant) -> u32 {
        let n = name.to_ascii_lowercase();
        self.games
            .iter()
            .filter(|(h, at)| {
                *h == n && now.saturating_duration_since(*at) < Duration::from_secs(3600)
            })
            .count() as u32
    }
}

/// Accept or decline `c`. `busy` when wily is already playing.
pub fn judge(
    c: &ChallengeInfo,
    s: &AcceptSection,
    history: &OpponentHistory,
    busy: bool,
    now: Instant,
) -> Result<(), DeclineReason> {
    let name = c.name.to_ascii_lowercase();
    if s.block.iter().any(|b| b.eq_ignore_ascii_case(&name)) {
        return Err(DeclineReason::Blocked);
    }
    if !s.allow.is_empty() && !s.allow.iter().any(|a| a.eq_ignore_ascii_case(&name)) {
        return Err(DeclineReason::Blocked);
    }
    if busy {
        return Err(DeclineReason::Busy);
    }
    if !s.enabled {
        return Err(DeclineReason::Closed);
    }
    if c.adjourned {
        // Finishing an adjourned game is always welcome.
        return Ok(());
    }
    let v = Variant::from_kind(&c.kind);
    if !s.variants.iter().any(|x| x == v.setting_name()) {
        return Err(DeclineReason::Variant);
    }
    let clock_fits = |(base, increment): (u32, u32)| {
        (s.min_base..=s.max_base).contains(&base)
            && (s.min_increment..=s.max_increment).contains(&increment)
    };
    if !clock_fits((c.base, c.increment)) || !c.other_clock.is_none_or(clock_fits) {
        return Err(DeclineReason::TimeControl);
    }
    if c.rated && !s.rated {
        return Err(DeclineReason::Rated);
    }
    if !c.rated && !s.unrated {
        return Err(DeclineReason::Unrated);
    }
    if !c.registered && !s.guests {
        return Err(DeclineReason::Guests);
    }
    let computer = c.category == Category::Computer;
    if computer && !s.computers {
        return Err(DeclineReason::Computers);
    }
    if !computer && !s.humans {
        return Err(DeclineReason::Humans);
    }
    if let Some(r) = c.rating {
        if r < s.min_rating || r > s.max_rating {
            return Err(DeclineReason::Rating);
        }
    }
    if s.max_in_row > 0 && history.in_a_row(&name) >= s.max_in_row {
        return Err(DeclineReason::TooMany);
    }
    if s.max_per_hour > 0 && history.last_hour(&name, now) >= s.max_per_hour {
        return Err(DeclineReason::TooMany);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch() -> ChallengeInfo {
        ChallengeInfo {
            name: "Bob".into(),
            rating: Some(1500),
            registered: true,
            category: Category::Other,
            rated: true,
            kind: "blitz".into(),
            base: 3,
            increment: 0,
            other_clock: None,
            adjourned: false,
        }
    }

    fn judge_default(c: &ChallengeInfo) -> Result<(), DeclineReason> {
        judge(
            c,
            &AcceptSection::default(),
            &OpponentHistory::default(),
            false,
            Instant::now(),
        )
    }

    #[test]
    fn accepts_an_ordinary_challenge() {
        assert_eq!(judge_default(&ch()), Ok(()));
    }

    #[test]
    fn each_filter_declines_with_its_reason() {
        let s = AcceptSection::default();
        let h = OpponentHistory::default();
        let now = Instant::now();
        let j = |c: &ChallengeInfo, s: &AcceptSection| judge(c, s, &h, false, now);
        assert_eq!(
            j(&ChallengeInfo { base: 120, ..ch() }, &s),
            Err(DeclineReason::TimeControl)
        );
        assert_eq!(
            j(
                &ChallengeInfo {
                    increment: 45,
                    ..ch()
                },
                &s
            ),
            Err(DeclineReason::TimeControl)
        );
        assert_eq!(
            j(
                &ChallengeInfo {
                    kind: "crazyhouse".into(),
                    ..ch()
                },
                &s
            ),
            Err(DeclineReason::Variant)
        );
        assert_eq!(
            j(
                &ChallengeInfo {
                    kind: "wild/fr".into(),
                    ..ch()
                },
                &s
            ),
            Err(DeclineReason::Variant)
        );
        let s960 = AcceptSection {
            variants: vec!["chess".into(), "chess960".into()],
            ..s.clone()
        };
        // FICS, lasker 2.2 / capablanca and ICC names of Chess960.
        for kind in ["wild/fr", "fischerandom/0", "fischerandom", "wild/22"] {
            let c = ChallengeInfo {
                kind: kind.into(),
                ..ch()
            };
            assert_eq!(j(&c, &s960), Ok(()), "{kind}");
            assert_eq!(j(&c, &s), Err(DeclineReason::Variant), "{kind}");
        }
        // Other wild boards and crazyhouse are not Chess960.
        for kind in ["wild/0", "wild", "crazyhouse", "fischerandomish"] {
            let c = ChallengeInfo {
                kind: kind.into(),
                ..ch()
            };
            assert_eq!(j(&c, &s960), Err(DeclineReason::Variant), "{kind}");
        }
        let unrated_only = AcceptSection {
            rated: false,
            ..s.clone()
        };
        assert_eq!(j(&ch(), &unrated_only), Err(DeclineReason::Rated));
        let rated_only = AcceptSection {
            unrated: false,
            ..s.clone()
        };
        assert_eq!(
            j(
                &ChallengeInfo {
                    rated: false,
                    ..ch()
                },
                &rated_only
            ),
            Err(DeclineReason::Unrated)
        );
        let no_guests = AcceptSection {
            guests: false,
            ..s.clone()
        };
        assert_eq!(
            j(
                &ChallengeInfo {
                    registered: false,
                    rating: None,
                    ..ch()
                },
                &no_guests
            ),
            Err(DeclineReason::Guests)
        );
        let no_comp = AcceptSection {
            computers: false,
            ..s.clone()
        };
        assert_eq!(
            j(
                &ChallengeInfo {
                    category: Category::Computer,
                    ..ch()
                },
                &no_comp
            ),
            Err(DeclineReason::Computers)
        );
        let no_humans = AcceptSection {
            humans: false,
            ..s.clone()
        };
        assert_eq!(j(&ch(), &no_humans), Err(DeclineReason::Humans));
        let strong = AcceptSection {
            min_rating: 1800,
            ..s.clone()
        };
        assert_eq!(j(&ch(), &strong), Err(DeclineReason::Rating));
        assert_eq!(
            j(
                &ChallengeInfo {
                    rating: None,
                    ..ch()
                },
                &strong
            ),
            Ok(()),
            "unknown rating passes"
        );
        let blocked = AcceptSection {
            block: vec!["bob".into()],
            ..s.clone()
        };
        assert_eq!(j(&ch(), &blocked), Err(DeclineReason::Blocked));
        let allow = AcceptSection {
            allow: vec!["alice".into()],
            ..s.clone()
        };
        assert_eq!(j(&ch(), &allow), Err(DeclineReason::Blocked));
        let closed = AcceptSection {
            enabled: false,
            ..s.clone()
        };
        assert_eq!(j(&ch(), &closed), Err(DeclineReason::Closed));
        assert_eq!(judge(&ch(), &s, &h, true, now), Err(DeclineReason::Busy));
    }

    #[test]
    fn both_clocks_must_fit() {
        let c = ChallengeInfo {
            other_clock: Some((3, 0)),
            ..ch()
        };
        assert_eq!(judge_default(&c), Ok(()));
        let c = ChallengeInfo {
            other_clock: Some((300, 0)),
            ..ch()
        };
        assert_eq!(judge_default(&c), Err(DeclineReason::TimeControl));
        let c = ChallengeInfo {
            adjourned: true,
            ..c
        };
        assert_eq!(judge_default(&c), Ok(()));
    }

    #[test]
    fn adjourned_games_are_resumed_even_outside_the_filters() {
        let c = ChallengeInfo {
            base: 300,
            kind: "standard".into(),
            adjourned: true,
            ..ch()
        };
        assert_eq!(judge_default(&c), Ok(()));
    }

    #[test]
    fn repeat_limits() {
        let s = AcceptSection {
            max_in_row: 2,
            max_per_hour: 3,
            ..AcceptSection::default()
        };
        let t0 = Instant::now();
        let mut h = OpponentHistory::default();
        h.record("bob", t0);
        h.record("BOB", t0);
        assert_eq!(judge(&ch(), &s, &h, false, t0), Err(DeclineReason::TooMany));
        h.record("carol", t0);
        assert_eq!(judge(&ch(), &s, &h, false, t0), Ok(()));
        h.record("bob", t0);
        h.record("carol", t0);
        assert_eq!(
            judge(&ch(), &s, &h, false, t0),
            Err(DeclineReason::TooMany),
            "3 in the hour"
        );
        let later = t0 + Duration::from_secs(3601);
        assert_eq!(judge(&ch(), &s, &h, false, later), Ok(()));
    }

    #[test]
    fn decline_messages() {
        let m = DeclineMessages::default();
        let t = DeclineReason::TimeControl.message(&m, "Bob").unwrap();
        assert!(t.contains("Bob") && !t.contains("{name}"));
        assert_eq!(DeclineReason::Blocked.message(&m, "Bob"), None);
    }
}
