//! How the bot finds games ([`Matching`], the `matching` part of the session): whether it
//! seeks and accepts challenges (operators and settings reloads switch them), when its
//! seek ads last went out, whether they carry FICS's manual flag, and the challenge that
//! waits a moment for its `--** X is a computer **--` line. Its handlers are its methods in
//! this folder: `find/seeking.rs` (the ads) and `find/accepting.rs` (answers to its own ads,
//! the refused manual flag, rematches); `session.rs` judges challenges with
//! `find/challenge.rs`.

use crate::input::Challenge;
use std::time::Instant;

/// A challenge waiting a moment for a `--** X is a computer **--` line.
#[derive(Debug, Clone)]
pub(crate) struct PendingChallenge {
    pub challenge: Challenge,
    pub at: Instant,
}

/// The matching part of the session.
pub(crate) struct Matching {
    /// Seek ads are posted (`seek.enabled`, switched by operators).
    pub seeking: bool,
    /// Challenges are judged for acceptance (`accept.enabled`, switched by operators).
    pub accepting: bool,
    /// When the seek ads last went out on this connection.
    pub last_seek: Option<Instant>,
    /// Seeks carry FICS's `m` (manual) flag: `seek.manual`, until a server refuses it.
    pub manual_seeks: bool,
    /// The challenge waiting for its computer notice.
    pub pending: Option<PendingChallenge>,
}

impl Matching {
    /// Seeking, accepting and the manual flag as the settings say; nothing sent yet.
    pub fn new(seeking: bool, accepting: bool, manual_seeks: bool) -> Matching {
        Matching {
            seeking,
            accepting,
            last_seek: None,
            manual_seeks,
            pending: None,
        }
    }
}
