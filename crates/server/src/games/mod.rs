//! Games on the local server: the game as a value, its start and end, moves, clocks, takebacks, notation and style 12, Chess960, ratings, examining and observing.
//! [`Games`] is the games' part of the server state. Examining (`examine.rs`) is its own
//! methods, given the connections ([`Net`]) as a parameter; the handlers of a game's start,
//! moves, takebacks, end and observers are methods of `Play` (`play.rs`), the games with
//! the other parts of the server a game reaches.

pub(crate) mod clock;
pub(crate) mod examine;
pub(crate) mod game;
pub(crate) mod lifecycle;
pub(crate) mod moves;
pub(crate) mod notation;
pub(crate) mod observe;
pub(crate) mod play;
pub(crate) mod ratings;
pub(crate) mod style12;
pub(crate) mod takeback;
pub(crate) mod variant;

use crate::conn::Sid;
use crate::core::Net;
use game::Game;
use ratings::{rating_text, Category, Ratings};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// The games' part of the server state.
pub struct Games {
    /// Games being played or examined, by number.
    pub games: BTreeMap<u32, Game>,
    /// Adjourned games, resumable with `match`/`resume`.
    pub stored: Vec<Game>,
    /// Ratings by lower-case handle (registered players only).
    pub ratings: HashMap<String, Ratings>,
}

impl Games {
    pub fn new(ratings: HashMap<String, Ratings>) -> Games {
        Games {
            games: BTreeMap::new(),
            stored: Vec::new(),
            ratings,
        }
    }

    /// The lowest game number not in use.
    pub(crate) fn free_game_number(&self) -> u32 {
        (1..).find(|n| !self.games.contains_key(n)).unwrap_or(1)
    }

    /// The style 12 line of game `g` for `sid` ("" if no such game).
    /// On ICC only style 12 gets a board line (style 13: the client lives on DGs).
    pub fn board_for(&self, net: &Net, g: u32, sid: Sid) -> String {
        if net.icc() && net.sess(sid).is_some_and(|s| s.vars.style != 12) {
            return String::new();
        }
        let ms = net.sess(sid).is_some_and(|s| s.vars.ms);
        self.games
            .get(&g)
            .map(|game| game.board_line(sid, ms, Instant::now()))
            .unwrap_or_default()
    }

    /// The rating of a registered handle in a category.
    pub fn rating(&self, name: &str, cat: Category) -> Option<u32> {
        self.ratings
            .get(&name.to_ascii_lowercase())
            .and_then(|r| r.get(cat))
    }

    /// `----`, `++++` or the number, for a session.
    pub fn rating_shown(&self, net: &Net, sid: Sid, cat: Category) -> String {
        match net.sess(sid) {
            Some(s) => rating_text(
                s.registered,
                if s.registered {
                    self.rating(&s.handle, cat)
                } else {
                    None
                },
            ),
            None => "----".into(),
        }
    }

    /// The adjourned game between two handles, either colour.
    pub fn stored_between(&self, a: &str, b: &str) -> Option<&Game> {
        self.stored.iter().find(|g| {
            (g.white.name.eq_ignore_ascii_case(a) && g.black.name.eq_ignore_ascii_case(b))
                || (g.white.name.eq_ignore_ascii_case(b) && g.black.name.eq_ignore_ascii_case(a))
        })
    }
}
