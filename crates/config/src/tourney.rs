//! `[tourney]`: taking part in a tournament director's (mamer's) tournaments: whether
//! to join, which directors to trust, which tournaments suit (time controls, variants,
//! rated, rounds), how often, and how long a silent tournament may hold the bot.

use serde::Deserialize;

/// `[tourney]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct TourneySection {
    /// Join suitable tournaments by itself (off: tournament notices are only logged).
    pub join: bool,
    /// The director bots whose announcements and pairings wily trusts.
    pub directors: Vec<String>,
    /// The channel the directors announce on (joined at login when `join` is on; 0:
    /// none).
    pub channel: u32,
    /// Time controls to join, as `"base increment"` (minutes, seconds); empty: any.
    pub time_controls: Vec<String>,
    /// Variants to join (`chess`, `chess960`, `wild/N`, `bughouse`, `suicide`).
    pub variants: Vec<String>,
    /// `"any"`, `"rated"` or `"unrated"`.
    pub rated: String,
    /// Join only tournaments of at most this many rounds when the director shows them
    /// (0: any).
    pub max_rounds: u32,
    /// Join only tournaments whose announcement says computers may play (lasker's mamer
    /// never says; FICS marks some).
    pub require_computer_mark: bool,
    /// At least this many minutes between joining two tournaments (0: join the next one
    /// as soon as the last has ended).
    pub join_every_mins: u64,
    /// Ask each director for its tournament list (`listtourneys`) this often while idle
    /// (0: rely on announcements only).
    pub list_every_mins: u64,
    /// Withdraw and go back to normal play when the tournament has said and paired
    /// nothing for this long.
    pub stall_mins: u64,
}

impl Default for TourneySection {
    fn default() -> Self {
        TourneySection {
            join: false,
            directors: vec!["mamer".into()],
            channel: 49,
            time_controls: Vec::new(),
            variants: vec!["chess".into()],
            rated: "any".into(),
            max_rounds: 0,
            require_computer_mark: false,
            join_every_mins: 0,
            list_every_mins: 15,
            stall_mins: 20,
        }
    }
}

impl TourneySection {
    /// The time controls as (minutes, seconds); entries that do not read are skipped
    /// (validation reports them).
    pub fn controls(&self) -> Vec<(u32, u32)> {
        self.time_controls
            .iter()
            .filter_map(|s| parse_control(s))
            .collect()
    }
}

/// `"3 0"` as (3, 0).
pub fn parse_control(s: &str) -> Option<(u32, u32)> {
    let mut it = s.split_whitespace();
    let b = it.next()?.parse().ok()?;
    let i = it.next()?.parse().ok()?;
    if it.next().is_some() || b > 999 || i > 999 {
        return None;
    }
    Some((b, i))
}
