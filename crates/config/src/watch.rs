//! `[watch]`: which games wily observes beyond the followed players of `[observe]`:
//! relayed games (examined games of relay accounts), the games of tournaments run by a
//! tournament director (mamer), and the highest-rated games of the kinds named; how the
//! candidates are scored, how many are observed at once, how each is analysed and talked
//! about, and whether they are saved. `docs/watch.md` explains every key.

use settings::settings;

settings! {
    /// `[watch]`
    pub struct WatchSection in "watch" {
        /// Off by default: nothing below is used until this is true.
        enabled: bool = false;
        /// Relay accounts whose relayed games are candidates (`tell NAME listgames`).
        relay: Vec<String> = vec!["relay".into()];
        /// The tournament director asked for tournament games (`tell NAME games N`).
        director: String = "mamer".into();
        /// Tournament numbers whose games are candidates.
        tourneys: Vec<u32> = Vec::new();
        /// Kinds whose highest-rated games are candidates (`blitz`, `standard`,
        /// `lightning`), from the server's `games` list.
        top: Vec<String> = vec!["standard".into(), "blitz".into()];
        /// Games observed at once by the watcher (followed players' games not counted).
        max_games: usize = 2, range 1..=30;
        /// Candidates scoring below this are never observed.
        min_score: i32 = 1500;
        /// A full watcher drops its worst game for a candidate scoring this much more.
        replace_margin: i32 = 150, range 0..=10_000;
        /// How often the lists are asked for again, seconds.
        poll_secs: u64 = 60, range 1..=3600;
        /// Search time given to each new position of an observed game, milliseconds.
        analysis_ms: u64 = 5000, range 100..=600_000;
        /// Whisper level in watched games (the `[talk]` scale, 0-6).
        whisper: u8 = 2, range 0..=6;
        /// Kibitz level in watched games (the `[talk]` scale, 0-6).
        kibitz: u8 = 0, range 0..=6;
        /// At most this many whispers/kibitzes per watched game per minute.
        per_game_per_minute: u32 = 4, range 1..=60;
        /// Append each watched game with its analysis to `logs/observed.pgn`.
        save: bool = true;
        /// Score added to a relayed game.
        relay_bonus: i32 = 1000;
        /// Score added to a tournament game.
        tourney_bonus: i32 = 500;
        /// Score taken off for each computer player.
        computer_penalty: i32 = 400;
        /// Score added to a rated game.
        rated_bonus: i32 = 100;
        /// Rating assumed for a player without one.
        unknown_rating: u32 = 1200, range 0..=4000;
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
        v.extend(self.range_problems());
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
