//! `[tourney]`: taking part in a tournament director's (mamer's) tournaments: whether
//! to join, which directors to trust, which tournaments suit (time controls, variants,
//! rated, rounds), how often, and how long a silent tournament may hold the bot.

use settings::settings;

settings! {
    /// `[tourney]`
    pub struct TourneySection in "tourney" {
        /// Join suitable tournaments by itself (off: tournament notices are only logged).
        join: bool = false;
        /// The director bots whose announcements and pairings wily trusts.
        directors: Vec<String> = vec!["mamer".into()];
        /// The channel the directors announce on (joined at login when `join` is on; 0:
        /// none).
        channel: u32 = 49, range 0..=255;
        /// Time controls to join, as `"base increment"` (minutes, seconds); empty: any.
        time_controls: Vec<String> = Vec::new();
        /// Variants to join (`chess`, `chess960`, `wild/N`, `bughouse`, `suicide`).
        variants: Vec<String> = vec!["chess".into()];
        /// `"any"`, `"rated"` or `"unrated"`.
        rated: String = "any".into();
        /// Join only tournaments of at most this many rounds when the director shows them
        /// (0: any).
        max_rounds: u32 = 0, range 0..=99;
        /// Join only tournaments whose announcement says computers may play (lasker's mamer
        /// never says; FICS marks some).
        require_computer_mark: bool = false;
        /// At least this many minutes between joining two tournaments (0: join the next one
        /// as soon as the last has ended).
        join_every_mins: u64 = 0, range 0..=7 * 24 * 60;
        /// Ask each director for its tournament list (`listtourneys`) this often while idle
        /// (0: rely on announcements only).
        list_every_mins: u64 = 15, range 0..=24 * 60;
        /// Withdraw and go back to normal play when the tournament has said and paired
        /// nothing for this long.
        stall_mins: u64 = 20, range 1..=24 * 60;
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
