//! The bot's resume state ([`Resume`], the `resume` part of the session): the adjourned
//! (or interrupted) game waiting to be resumed, what was asked of the server on this
//! connection to get a game back (`resume`, `match NAME`, `stored`), and how long seeks
//! wait for it. The handlers that use it are `play/interrupted.rs` (a game cut off by a lost
//! connection), `session.rs` (login, the server's notices of adjourned games),
//! `play/handle.rs` (a game adjourned, or resumed) and `find/seeking.rs` (seeks wait for it).

use crate::play::game::PlayedGame;
use std::time::{Duration, Instant};

/// Seeks wait this long for an adjourned game to be resumed.
const ADJOURNED_WAIT: Duration = Duration::from_secs(300);

/// The resume part of the session.
#[derive(Default)]
pub(crate) struct Resume {
    /// An adjourned (or interrupted) game waiting to be resumed.
    pub adjourned: Option<PlayedGame>,
    /// When the adjourned game started waiting (seeks wait a while for it).
    pub adjourned_at: Option<Instant>,
    /// `resume` was sent on this connection.
    pub asked: bool,
    /// The server reported adjourned games this wily did not know of (after a restart)
    /// and `resume` was sent at this time: seeks wait a while for the game, as for
    /// [`Resume::adjourned`].
    pub wait: Option<Instant>,
    /// The server holds an adjourned game of this account (reported at login, or its
    /// opponent's arrival announced) that has not been resumed since: `resume` is asked
    /// again after each game, in case another game started in its place.
    pub hint: bool,
    /// `stored` was sent at this time to learn whether the interrupted game ended as the
    /// connection went (see [`crate::play::interrupted`]).
    pub stored_check: Option<Instant>,
}

impl Resume {
    /// Keeps `g` (adjourned, or cut off by the connection) to be resumed, from `now`.
    pub fn park(&mut self, g: PlayedGame, now: Instant) {
        self.adjourned = Some(g);
        self.adjourned_at = Some(now);
    }

    /// The connection went: what was asked on it is void.
    pub fn disconnected(&mut self) {
        self.asked = false;
        self.wait = None;
        self.stored_check = None;
    }

    /// Seeks wait: a game of wily's waits to be resumed, or the server's reported one
    /// was asked for, within the last [`ADJOURNED_WAIT`].
    pub fn holds_seeks(&self, now: Instant) -> bool {
        let recent = |t: Instant| now.saturating_duration_since(t) < ADJOURNED_WAIT;
        (self.adjourned.is_some() && self.adjourned_at.is_some_and(recent))
            || self.wait.is_some_and(recent)
    }
}
