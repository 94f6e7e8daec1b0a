//! [`Play`]: what a games handler works on. The handlers of this folder (`moves.rs`,
//! `takeback.rs`, `lifecycle.rs`, `observe.rs`) are its methods: a game's start, moves
//! and end reach past the games ([`Games`]) into the connections, the offers about the
//! game, the accounts' follow lists, the colour draw, the journal and the tournament
//! director, so each borrows those parts of the server for one call. The offers'
//! handlers borrow the same parts as a `Deal` (`offers/deal.rs`); [`Play::dealing`]
//! lends them on.

use crate::accounts::store::Accounts;
use crate::core::Net;
use crate::games::Games;
use crate::icc::out::View;
use crate::journal::Journal;
use crate::offers::deal::Deal;
use crate::offers::Offers;
use crate::tourney::config::Director;
use rand::rngs::StdRng;

/// The games and the parts of the server their handlers reach.
pub struct Play<'a> {
    pub net: &'a mut Net,
    pub games: &'a mut Games,
    /// The offers (a game's draw, abort, adjourn and takeback requests among them).
    pub offers: &'a mut Offers,
    /// The accounts (follow lists, titles).
    pub accounts: &'a Accounts,
    /// The server's random numbers (Chess960 start positions).
    pub rng: &'a mut StdRng,
    /// Where finished and adjourned games are reported, when the owner asked for it.
    pub journal: Option<&'a Journal>,
    /// The server is stopping (games that end now are adjourned by the shutdown).
    pub shutting_down: bool,
    /// The tournament director, which hears of its games' ends.
    pub director: Option<&'a mut Director>,
}

impl Play<'_> {
    /// The same parts, lent to an offers handler.
    pub fn dealing(&mut self) -> Deal<'_> {
        Deal {
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
