//! [`Deal`]: what an offers handler works on. The handlers of this folder (`pending.rs`,
//! `challenge.rs`, `accept.rs`, `seeks.rs`) are its methods: an offer or a seek ad
//! (`Offers`) reaches into the connections, the games (adjourned games to resume, the
//! game an accepted challenge starts), the accounts (titles) and the colour draw, so each
//! handler borrows those parts of the server for one call: the one [`Parts`] borrow that
//! the games' handlers work on as a `Play`. A game's start and the
//! in-game requests are the games' handlers (`games/play.rs`); [`Deal::playing`] lends
//! the parts on to them.

use crate::core::Parts;
use crate::games::play::Play;
use crate::icc::out::View;

/// The offers and the parts of the server their handlers reach, borrowed for one call.
pub struct Deal<'a> {
    pub parts: Parts<'a>,
}

impl Deal<'_> {
    /// The same parts, lent to a games handler.
    pub fn playing(&mut self) -> Play<'_> {
        Play {
            parts: self.parts.reborrow(),
        }
    }

    /// The server as the ICC renderers read it.
    pub fn icc_view(&self) -> View<'_> {
        self.parts.icc_view()
    }
}
