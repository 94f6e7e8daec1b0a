//! [`Play`]: what a games handler works on. The handlers of this folder (`moves.rs`,
//! `takeback.rs`, `lifecycle.rs`, `observe.rs`) are its methods: a game's start, moves
//! and end reach past the games (`Games`) into the connections, the offers about the
//! game, the accounts' follow lists, the colour draw, the journal and the tournament
//! director, so each borrows those parts of the server for one call ([`Parts`], declared
//! once in `core.rs`). The offers' handlers work on the same borrow as a `Deal`
//! (`offers/deal.rs`); [`Play::dealing`] lends it on.

use crate::core::Parts;
use crate::icc::out::View;
use crate::offers::deal::Deal;

/// The games and the parts of the server their handlers reach, borrowed for one call.
pub struct Play<'a> {
    pub parts: Parts<'a>,
}

impl Play<'_> {
    /// The same parts, lent to an offers handler.
    pub fn dealing(&mut self) -> Deal<'_> {
        Deal {
            parts: self.parts.reborrow(),
        }
    }

    /// The server as the ICC renderers read it.
    pub fn icc_view(&self) -> View<'_> {
        self.parts.icc_view()
    }
}
