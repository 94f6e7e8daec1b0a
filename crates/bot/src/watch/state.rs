//! What the bot watches ([`Observing`], the `observing` part of the session): the games
//! it observes for its followed players and lists ([`Observer`], `[observe]`), the
//! relayed, tournament and top games ([`Watcher`], `[watch]`), and the account's follow
//! list on the server ([`FollowSync`]). Its handlers are its methods in this folder:
//! `watch/observe.rs` (observed games and their analysis) and `watch/handle.rs` (the
//! watcher's games); they take the shared part and the number of wily's own game (which
//! they never analyse and which pauses analysis) as arguments.

use crate::ops::follow::FollowSync;
use crate::watch::candidates::Watcher;
use crate::watch::list::Observer;
use config::Config;
use ics::Dialect;

/// The observing part of the session.
pub(crate) struct Observing {
    pub observer: Observer,
    /// Relayed, tournament and top games (`[watch]`).
    pub watch: Watcher,
    /// The account's follow state on the server.
    pub follow: FollowSync,
}

impl Observing {
    /// Nothing observed yet, as `cfg` sets it up.
    pub fn new(cfg: &Config) -> Observing {
        Observing {
            observer: Observer::new(&cfg.observe),
            watch: Watcher::new(&cfg.watch),
            follow: FollowSync::new(cfg.server.dialect == Dialect::Icc),
        }
    }
}
