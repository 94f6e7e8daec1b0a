//! The relay account of the local server, as values: its settings ([`RelayConfig`]), the
//! games it relays and how far each has got, and the names it gives players. What it
//! does on the server (opening, moving and closing its examined games, answering
//! `tell relay listgames`) is in `relay/bot.rs`.

use chess::pgn::PgnGame;
use cozy_chess::Move;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How the relay account runs.
#[derive(Debug, Clone)]
pub struct RelayConfig {
    /// Its handle (`relay`).
    pub name: String,
    /// The event named in `listgames`.
    pub event: String,
    /// The games to replay, in order.
    pub games: Vec<PgnGame>,
    /// Games relayed at once.
    pub at_once: usize,
    /// Time between two moves of a game.
    pub move_interval: Duration,
    /// How long a finished game stays listed (with its result) before it is closed.
    pub linger: Duration,
    /// A game makes its first move only once someone observes it (tests).
    pub wait_for_observer: bool,
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig {
            name: "relay".into(),
            event: "wily relay".into(),
            games: Vec::new(),
            at_once: 2,
            move_interval: Duration::from_secs(5),
            linger: Duration::from_secs(10),
            wait_for_observer: false,
        }
    }
}

/// One relayed game in progress.
#[derive(Debug)]
pub(crate) struct Live {
    pub(crate) number: u32,
    pub(crate) moves: Vec<Move>,
    pub(crate) next: usize,
    pub(crate) next_at: Instant,
    /// The PGN result, shown once every move is out.
    pub(crate) result: String,
    pub(crate) eco: Option<String>,
    pub(crate) done_at: Option<Instant>,
}

/// The relay's state.
#[derive(Debug)]
pub struct Relay {
    pub(crate) cfg: RelayConfig,
    pub(crate) queue: VecDeque<PgnGame>,
    pub(crate) live: Vec<Live>,
}

impl Relay {
    pub fn new(cfg: RelayConfig) -> Relay {
        Relay {
            queue: cfg.games.iter().cloned().collect(),
            cfg,
            live: Vec::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.cfg.name
    }
}

/// A PGN player name the way FICS's relay writes it: the title, then the surname (the
/// part before a comma, else the last word), letters and digits only.
pub fn relay_name(name: &str, title: Option<&str>, fallback: &str) -> String {
    let surname = match name.split_once(',') {
        Some((s, _)) => s,
        None => name.split_whitespace().last().unwrap_or(""),
    };
    let mut out: String = title
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .take(3)
        .collect();
    out.extend(surname.chars().filter(|c| c.is_ascii_alphanumeric()));
    out.truncate(17);
    if out.is_empty() || !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        fallback.to_string()
    } else {
        out
    }
}

/// A rating tag of a PGN game.
pub fn rating(g: &PgnGame, tag: &str) -> Option<u32> {
    g.tag(tag).and_then(|v| v.trim().parse().ok())
}
#[cfg(test)]
mod tests {
    use super::relay_name;

    #[test]
    fn names_as_the_relay_writes_them() {
        assert_eq!(
            relay_name("Carlsen, Magnus", Some("GM"), "White"),
            "GMCarlsen"
        );
        assert_eq!(relay_name("Garry Kasparov", None, "White"), "Kasparov");
        assert_eq!(relay_name("", None, "Black"), "Black");
        assert_eq!(relay_name("O'Kelly", None, "White"), "OKelly");
    }
}
