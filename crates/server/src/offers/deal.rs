//! [`Deal`]: what an offers handler works on. The handlers of this folder (`pending.rs`,
//! `challenge.rs`, `accept.rs`, `seeks.rs`) are its methods: an offer or a seek ad
//! ([`Offers`]) reaches into the connections, the games (adjourned games to resume, the
//! game an accepted challenge starts), the accounts (titles) and the colour draw, so each
//! handler borrows those parts of the server for one call. A game's start and the
//! in-game requests are the games' handlers (`games/play.rs`); [`Deal::playing`] lends
//! the parts on to them.

use crate::accounts::store::Accounts;
use crate::core::Net;
use crate::games::play::Play;
use crate::games::Games;
use crate::icc::out::View;
use crate::journal::Journal;
use crate::offers::Offers;
use crate::tourney::config::Director;
use rand::rngs::StdRng;

/// The offers and the parts of the server their handlers reach.
pub struct Deal<'a> {
    pub net: &'a mut Net,
    pub games: &'a mut Games,
    pub offers: &'a mut Offers,
    pub accounts: &'a Accounts,
    /// The server's random numbers (colour draws).
    pub rng: &'a mut StdRng,
    /// Passed on to a game this handler starts.
    pub journal: Option<&'a Journal>,
    pub shutting_down: bool,
    pub director: Option<&'a mut Director>,
}

impl Deal<'_> {
    /// The same parts, lent to a games handler.
    pub fn playing(&mut self) -> Play<'_> {
        Play {
            net: self.net,
            games: self.games,
            offers: self.offers,
            accounts: self.accounts,
            rng: self.rng,
            journal: self.journal,
            shutting_down: self.shutting_down,
            director: self.director.as_deref_mut(),
        }
    }

    /// The server as the ICC renderers read it.
    pub fn icc_view(&self) -> View<'_> {
        View {
            net: self.net,
            accounts: self.accounts,
            games: self.games,
            offers: self.offers,
            shutting_down: self.shutting_down,
        }
    }
}
