//! The games wily watches: games by number, followed players and the top game when idle,
//! the server commands that start observing them, and the talker that comments on them.
//! The session's handling of observed boards (analysis, whispers) is in `watch/observe.rs`.

use crate::talk::Talker;
use config::ObserveSection;
use cozy_chess::Board;
use lists::valid_handle;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How often, while idle, wily looks again for the followed players' games.
const IDLE_LOOK: Duration = Duration::from_secs(60);

/// One observed game.
#[derive(Debug, Clone)]
pub struct Watched {
    pub white: String,
    pub black: String,
    pub board: Option<Board>,
}

/// The observing state.
#[derive(Debug, Clone)]
pub struct Observer {
    pub(crate) games: BTreeMap<u32, Watched>,
    wanted_games: Vec<u32>,
    follow: Vec<String>,
    top_when_idle: bool,
    /// The rate limit of what is said in observed games (the levels are `[observe]`'s
    /// and the noise `[talk]`'s, read when a line is due).
    pub talker: Talker,
    last_look: Option<Instant>,
}

impl Observer {
    pub fn new(s: &ObserveSection) -> Observer {
        Observer {
            games: BTreeMap::new(),
            wanted_games: s.games.clone(),
            follow: s.follow.clone(),
            top_when_idle: s.top_game_when_idle,
            talker: Talker::new(12),
            last_look: None,
        }
    }

    /// Commands after logging in: observe the configured games and the followed players'
    /// games in progress (the account's follow state is [`crate::ops::follow`]'s). Counts
    /// as the first idle look, so the same `observe` is not sent twice (lasker's `observe`
    /// toggles).
    pub fn login_commands(&mut self, now: Instant) -> Vec<String> {
        let mut v: Vec<String> = self
            .wanted_games
            .iter()
            .map(|g| format!("observe {g}"))
            .collect();
        for h in self.follow.iter().filter(|h| valid_handle(h)) {
            v.push(format!("observe {h}"));
        }
        self.last_look = Some(now);
        v
    }

    /// The followed players (valid handles only).
    pub fn followed(&self) -> Vec<String> {
        self.follow
            .iter()
            .filter(|h| valid_handle(h))
            .cloned()
            .collect()
    }

    /// True when an observed game is `handle`'s.
    pub fn watching(&self, handle: &str) -> bool {
        self.games
            .values()
            .any(|w| w.white.eq_ignore_ascii_case(handle) || w.black.eq_ignore_ascii_case(handle))
    }

    /// Commands while idle, at most once a minute: look for the followed players'
    /// games, and (FICS) the highest-rated blitz game when nothing is observed.
    pub fn idle_commands(&mut self, now: Instant, fics: bool) -> Vec<String> {
        // A game whose first board has not come yet may be a followed player's: sending
        // `observe` for it would toggle it off on lasker. Look again on the next tick.
        let unnamed = self.games.values().any(|w| w.white.is_empty());
        if unnamed
            || self
                .last_look
                .is_some_and(|t| now.saturating_duration_since(t) < IDLE_LOOK)
        {
            return Vec::new();
        }
        self.last_look = Some(now);
        let mut v = Vec::new();
        for h in self.follow.iter().filter(|h| valid_handle(h)) {
            if !self.watching(h) {
                v.push(format!("observe {h}"));
            }
        }
        if self.top_when_idle && fics && self.games.is_empty() {
            v.push("observe /b".into());
        }
        v
    }

    /// Follows `handle`; false when it was followed already.
    pub fn follow(&mut self, handle: &str) -> bool {
        if self.follow.iter().any(|h| h.eq_ignore_ascii_case(handle)) {
            return false;
        }
        self.follow.push(handle.to_string());
        true
    }

    pub fn want_game(&mut self, game: u32) {
        if !self.wanted_games.contains(&game) {
            self.wanted_games.push(game);
        }
    }

    /// Forget wanted games and followed players (operator `unobserve`); returns the
    /// players no longer followed.
    pub fn forget(&mut self, game: Option<u32>) -> Vec<String> {
        match game {
            Some(n) => {
                self.wanted_games.retain(|g| *g != n);
                let Some(w) = self.games.remove(&n) else {
                    return Vec::new();
                };
                let (gone, kept) = std::mem::take(&mut self.follow).into_iter().partition(|h| {
                    h.eq_ignore_ascii_case(&w.white) || h.eq_ignore_ascii_case(&w.black)
                });
                self.follow = kept;
                gone
            }
            None => {
                self.wanted_games.clear();
                self.games.clear();
                std::mem::take(&mut self.follow)
            }
        }
    }

    pub fn started(&mut self, game: u32) {
        self.games.entry(game).or_insert(Watched {
            white: String::new(),
            black: String::new(),
            board: None,
        });
    }

    pub fn has(&self, game: u32) -> bool {
        self.games.contains_key(&game)
    }

    pub fn count(&self) -> usize {
        self.games.len()
    }

    pub fn clear(&mut self) {
        self.games.clear();
    }

    pub(crate) fn stopped(&mut self, game: u32) {
        self.games.remove(&game);
        self.wanted_games.retain(|g| *g != game);
    }
}
