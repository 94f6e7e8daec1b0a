//! `[watch]`: which games wily observes beyond the followed players of `[observe]`:
//! relayed games (examined games of relay accounts), the games of tournaments run by a
//! tournament director (mamer), and the highest-rated games of the kinds named; how the
//! candidates are scored, how many are observed at once, how each is analysed and talked
//! about, and whether they are saved. `docs/watch.md` explains every key.

use serde::Deserialize;

/// `[watch]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct WatchSection {
    /// Off by default: nothing below is used until this is true.
    pub enabled: bool,
    /// Relay accounts whose relayed games are candidates (`tell NAME listgames`).
    pub relay: Vec<String>,
    /// The tournament director asked for tournament games (`tell NAME games N`).
    pub director: String,
    /// Tournament numbers whose games are candidates.
    pub tourneys: Vec<u32>,
    /// Kinds whose highest-rated games are candidates (`blitz`, `standard`,
    /// `lightning`), from the server's `games` list.
    pub top: Vec<String>,
    /// Games observed at once by the watcher (followed players' games not counted).
    pub max_games: usize,
    /// Candidates scoring below this are never observed.
    pub min_score: i32,
    /// A full watcher drops its worst game for a candidate scoring this much more.
    pub replace_margin: i32,
    /// How often the lists are asked for again, seconds.
    pub poll_secs: u64,
    /// Search time given to each new position of an observed game, milliseconds.
    pub analysis_ms: u64,
    /// Whisper and kibitz levels in watched games (the `[talk]` scale, 0-6).
    pub whisper: u8,
    pub kibitz: u8,
    /// At most this many whispers/kibitzes per watched game per minute.
    pub per_game_per_minute: u32,
    /// Append each watched game with its analysis to `logs/observed.pgn`.
    pub save: bool,
    /// Score added to a relayed game.
    pub relay_bonus: i32,
    /// Score added to a tournament game.
    pub tourney_bonus: i32,
    /// Score taken off for each computer player.
    pub computer_penalty: i32,
    /// Score added to a rated game.
    pub rated_bonus: i32,
    /// Rating assumed for a player without one.
    pub unknown_rating: u32,
}

impl Default for WatchSection {
    fn default() -> Self {
        WatchSection {
            enabled: false,
            relay: vec!["relay".into()],
            director: "mamer".into(),
            tourneys: Vec::new(),
            top: vec!["standard".into(), "blitz".into()],
            max_games: 2,
            min_score: 1500,
            replace_margin: 150,
            poll_secs: 60,
            analysis_ms: 5000,
            whisper: 2,
            kibitz: 0,
            per_game_per_minute: 4,
            save: true,
            relay_bonus: 1000,
            tourney_bonus: 500,
            computer_penalty: 400,
            rated_bonus: 100,
            unknown_rating: 1200,
        }
    }
}

/// The kinds `top` may name.
pub const WATCH_KINDS: &[&str] = &["lightning", "blitz", "standard"];

impl WatchSection {
    /// Problems as (key, message).
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut v = Vec::new();
        let handle = |h: &str| {
            !h.is_empty()
                && h.len() <= 20
                && h.starts_with(|c: char| c.is_ascii_alphabetic())
                && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        for (i, r) in self.relay.iter().enumerate() {
            if !handle(r) {
                v.push((
                    format!("watch.relay[{i}]"),
                    format!("{r:?} is not a handle"),
                ));
            }
        }
        if !handle(&self.director) {
            v.push((
                "watch.director".into(),
                format!("{:?} is not a handle", self.director),
            ));
        }
        for (i, k) in self.top.iter().enumerate() {
            if !WATCH_KINDS.contains(&k.as_str()) {
                v.push((
                    format!("watch.top[{i}]"),
                    format!("{k:?} is not one of {}", WATCH_KINDS.join(", ")),
                ));
            }
        }
        let mut range = |key: &str, val: i64, lo: i64, hi: i64| {
            if val < lo || val > hi {
                v.push((
                    format!("watch.{key}"),
                    format!("must be between {lo} and {hi} (got {val})"),
                ));
            }
        };
        range("max_games", self.max_games as i64, 1, 30);
        range("poll_secs", self.poll_secs as i64, 1, 3600);
        range("analysis_ms", self.analysis_ms as i64, 100, 600_000);
        range("whisper", i64::from(self.whisper), 0, 6);
        range("kibitz", i64::from(self.kibitz), 0, 6);
        range(
            "per_game_per_minute",
            i64::from(self.per_game_per_minute),
            1,
            60,
        );
        range("replace_margin", i64::from(self.replace_margin), 0, 10_000);
        range("unknown_rating", i64::from(self.unknown_rating), 0, 4000);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_named() {
        assert!(WatchSection::default().problems().is_empty());
        let w = WatchSection {
            relay: vec!["bad name".into()],
            top: vec!["bullet".into()],
            max_games: 0,
            ..WatchSection::default()
        };
        let keys: Vec<String> = w.problems().into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["watch.relay[0]", "watch.top[0]", "watch.max_games"]);
    }
}
