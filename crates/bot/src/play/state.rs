//! The bot's own games ([`Playing`], the `play` part of the session): the game in
//! progress, what its start told (until the first board), whether the next search starts
//! a new game for the engine, the engine time spent on wily's moves, the running totals
//! ([`Totals`]) that `status` shows, and the adjourned game waiting to be resumed
//! (`play/resume.rs`). Its handlers are its methods in this folder: `play/handle.rs`
//! (boards, searches, moves, the end of a game), `play/requests.rs` (offers, refused moves,
//! flagging, the idle abort), `play/interrupted.rs` (a game cut off by a lost connection),
//! and here the opponent's profile recomputed after an operator's change. Other concepts
//! read only whether a game is on ([`Playing::number`], [`Playing::holds_seeks`]).

use crate::play::game::{PlayedGame, StartInfo};
use crate::play::opponent::OpponentProfile;
use crate::play::resume::Resume;
use crate::state::Bot;
use std::time::Instant;

/// Running totals for `status`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub declined: u32,
}

/// The play part of the session.
pub(crate) struct Playing {
    /// The game in progress.
    pub game: Option<PlayedGame>,
    /// What the game's start said, until its first board.
    pub start_info: Option<StartInfo>,
    /// The next search is the first of a game: the engine clears its hash table first.
    pub new_game_flag: bool,
    /// Engine time spent choosing wily's own moves, milliseconds.
    pub think_ms: u64,
    pub totals: Totals,
    /// Games this run plays before it logs out (0: no limit; `--games`, a soak's share).
    pub game_limit: u32,
    /// The adjourned (or interrupted) game and what was asked to get it back.
    pub resume: Resume,
}

impl Default for Playing {
    fn default() -> Playing {
        Playing {
            game: None,
            start_info: None,
            new_game_flag: true,
            think_ms: 0,
            totals: Totals::default(),
            game_limit: 0,
            resume: Resume::default(),
        }
    }
}

impl Playing {
    /// The number of wily's game in progress, if one is.
    pub fn number(&self) -> Option<u32> {
        self.game.as_ref().map(|g| g.number)
    }

    /// Seeks wait: a game is on, or an adjourned one is awaited (`play/resume.rs`).
    pub fn holds_seeks(&self, now: Instant) -> bool {
        self.game.is_some() || self.resume.holds_seeks(now)
    }

    /// Recomputes the current opponent's profile after a list or threshold change.
    pub(crate) fn refresh_profile(&mut self, bot: &Bot) {
        let Some(g) = &mut self.game else {
            return;
        };
        let opp = g.opponent().to_string();
        let titles = bot.players.titles_of(&opp);
        let class = bot.lists.classify(&opp, titles);
        let p = OpponentProfile::new(class, &bot.cfg.opponents);
        tracing::info!("opponent {opp} now: {}", p.describe());
        g.policy.set_profile(p);
    }
}
