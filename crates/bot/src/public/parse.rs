//! Public commands (`[public]`): the small set of tells anyone may send wily, registered
//! or guest: `help`, `info`, `record`, `games`, `seeks`, `eval [N]`. This file parses a
//! tell into a [`PublicCommand`] and keeps the rate limits (per handle and for everyone
//! together); the answers are built in `public/answers.rs`.
//!
//! A tell is data: only its first word picks a command from the closed list, and the
//! one argument `eval` takes is a game number. Nothing of it is ever sent back to the
//! server except inside the one-line `tell` answer to its sender.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// A public command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublicCommand {
    Help,
    Info,
    Record,
    Games,
    Seeks,
    /// `eval` of game N, or of the one game wily may evaluate.
    Eval(Option<u32>),
}

impl PublicCommand {
    /// Its word in `public.commands`.
    /// Its place in `config::PUBLIC_COMMANDS` (the words, declared once there).
    pub fn index(self) -> usize {
        match self {
            PublicCommand::Help => 0,
            PublicCommand::Info => 1,
            PublicCommand::Record => 2,
            PublicCommand::Games => 3,
            PublicCommand::Seeks => 4,
            PublicCommand::Eval(_) => 5,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            PublicCommand::Help => "help",
            PublicCommand::Info => "info",
            PublicCommand::Record => "record",
            PublicCommand::Games => "games",
            PublicCommand::Seeks => "seeks",
            PublicCommand::Eval(_) => "eval",
        }
    }
}

/// The command a tell asks for; `None` for anything else (a greeting, a question).
pub fn parse(text: &str) -> Option<PublicCommand> {
    let text = text.trim();
    if text.len() > 100 {
        return None;
    }
    let mut words = text.split_whitespace();
    let verb = words.next()?.to_ascii_lowercase();
    let cmd = match verb.trim_end_matches(['?', '!', '.']) {
        "help" | "commands" => PublicCommand::Help,
        "info" | "about" => PublicCommand::Info,
        "record" | "results" => PublicCommand::Record,
        "games" | "game" | "playing" => PublicCommand::Games,
        "seeks" | "seek" | "accept" => PublicCommand::Seeks,
        "eval" => {
            let n = match words.next() {
                None => None,
                Some(w) => {
                    let n: u32 = w.trim_start_matches('#').parse().ok()?;
                    if n == 0 || n > 99_999 {
                        return None;
                    }
                    Some(n)
                }
            };
            PublicCommand::Eval(n)
        }
        _ => return None,
    };
    if words.next().is_some() {
        return None;
    }
    Some(cmd)
}

/// How long the rate limits look back.
const WINDOW: Duration = Duration::from_secs(60);
/// At most this many handles are remembered (the oldest are forgotten first).
const MAX_HANDLES: usize = 2000;

/// The rate limits of the public commands.
#[derive(Debug, Clone, Default)]
pub(crate) struct PublicLimits {
    all: VecDeque<Instant>,
    by_handle: HashMap<String, VecDeque<Instant>>,
    /// Tells not answered because of a limit.
    pub dropped: u64,
    /// Answers given, by command ([`PublicCommand::index`]); `/metrics` counts them.
    pub answered: [u64; 6],
}

impl PublicLimits {
    /// True (and counted) when an answer to `handle` keeps within both limits.
    pub fn allow(&mut self, handle: &str, now: Instant, per_handle: u32, all: u32) -> bool {
        let old = |t: &Instant| now.saturating_duration_since(*t) >= WINDOW;
        while self.all.front().is_some_and(old) {
            self.all.pop_front();
        }
        if self.by_handle.len() >= MAX_HANDLES {
            self.by_handle
                .retain(|_, q| q.back().is_some_and(|t| !old(t)));
            if self.by_handle.len() >= MAX_HANDLES {
                self.by_handle.clear();
            }
        }
        let q = self
            .by_handle
            .entry(handle.to_ascii_lowercase())
            .or_default();
        while q.front().is_some_and(old) {
            q.pop_front();
        }
        if q.len() >= per_handle.max(1) as usize || self.all.len() >= all.max(1) as usize {
            self.dropped += 1;
            return false;
        }
        q.push_back(now);
        self.all.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_closed_list_only() {
        assert_eq!(parse("help"), Some(PublicCommand::Help));
        assert_eq!(parse(" INFO "), Some(PublicCommand::Info));
        assert_eq!(parse("record?"), Some(PublicCommand::Record));
        assert_eq!(parse("games"), Some(PublicCommand::Games));
        assert_eq!(parse("seeks"), Some(PublicCommand::Seeks));
        assert_eq!(parse("eval"), Some(PublicCommand::Eval(None)));
        assert_eq!(parse("eval 12"), Some(PublicCommand::Eval(Some(12))));
        assert_eq!(parse("eval #7"), Some(PublicCommand::Eval(Some(7))));
        for not in [
            "",
            "hello there",
            "eval 12 13",
            "eval ../x",
            "eval 0",
            "eval -1",
            "help me please",
            "quit",
            "status",
            "seek on",
            "info; quit",
        ] {
            assert_eq!(parse(not), None, "{not:?}");
        }
    }

    #[test]
    fn words_and_indexes_agree() {
        for cmd in [
            PublicCommand::Help,
            PublicCommand::Info,
            PublicCommand::Record,
            PublicCommand::Games,
            PublicCommand::Seeks,
            PublicCommand::Eval(Some(3)),
        ] {
            assert_eq!(config::PUBLIC_COMMANDS[cmd.index()], cmd.word());
            assert_eq!(parse(cmd.word()).map(|c| c.index()), Some(cmd.index()));
        }
    }

    #[test]
    fn limits_per_handle_and_for_everyone() {
        let mut l = PublicLimits::default();
        let t0 = Instant::now();
        assert!(l.allow("Bob", t0, 2, 3));
        assert!(l.allow("bob", t0, 2, 3));
        assert!(!l.allow("BOB", t0, 2, 3), "third from Bob in a minute");
        assert!(l.allow("Ann", t0, 2, 3));
        assert!(!l.allow("Cid", t0, 2, 3), "fourth in all");
        assert_eq!(l.dropped, 2);
        let later = t0 + Duration::from_secs(61);
        assert!(l.allow("Bob", later, 2, 3));
        assert!(l.allow("Cid", later, 2, 3));
    }
}
