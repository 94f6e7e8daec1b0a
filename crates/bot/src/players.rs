//! What the bot knows of other players ([`Players`], the `players` part of the shared
//! [`Bot`](crate::state::Bot)): the ratings and titles the server showed, the games played
//! against each opponent (for the rematch and repeat-game rules), and when each stranger
//! last got the reply to a tell. Written by `session.rs` (challenges, tells, the server's
//! notices) and `play/handle.rs` (a game's opponent); read by the game hooks, the
//! opponent's profile and the watcher's computer check.

use crate::find::challenge::OpponentHistory;
use lists::ServerTitles;
use std::collections::HashMap;
use std::time::Instant;

/// The players part of the session.
#[derive(Default)]
pub(crate) struct Players {
    /// Ratings by lower-case handle.
    pub ratings: HashMap<String, u32>,
    /// Titles by lower-case handle (merged from every line that showed some).
    pub titles: HashMap<String, ServerTitles>,
    /// Games against each opponent.
    pub history: OpponentHistory,
    /// When each stranger (by lower-case handle) last got the stranger reply.
    pub strangers: HashMap<String, Instant>,
}

impl Players {
    /// The titles the server showed for `name` (none known: no titles).
    pub fn titles_of(&self, name: &str) -> ServerTitles {
        self.titles
            .get(&name.to_ascii_lowercase())
            .copied()
            .unwrap_or_default()
    }

    /// Keeps the rating a line showed for `name`.
    pub fn remember_rating(&mut self, name: &str, rating: u32) {
        self.ratings.insert(name.to_ascii_lowercase(), rating);
    }

    /// The rating the server showed for `name`, if any.
    pub fn rating_of(&self, name: &str) -> Option<u32> {
        self.ratings.get(&name.to_ascii_lowercase()).copied()
    }

    /// Adds the titles a line showed for `name` to those known (at most 10,000 players
    /// are kept: past that the table starts again).
    pub fn remember_titles(&mut self, name: &str, t: ServerTitles) {
        if t == ServerTitles::default() {
            return;
        }
        if self.titles.len() > 10_000 {
            self.titles.clear();
        }
        let e = self.titles.entry(name.to_ascii_lowercase()).or_default();
        *e = e.merge(t);
    }
}
