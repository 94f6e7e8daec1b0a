//! Offers between players on the local server: the offer as a value, pending offers (draw, abort, adjourn, decline, withdraw), challenges, accepting, and seek ads.
//! [`Offers`] is the offers' part of the server state (offers and seek ads); the handlers
//! of this folder are methods of `Deal` (`deal.rs`), the offers with the other parts of
//! the server an offer reaches.

pub(crate) mod accept;
pub(crate) mod challenge;
pub(crate) mod deal;
pub(crate) mod offer;
pub(crate) mod pending;
pub(crate) mod seek_ad;
pub(crate) mod seeks;

use offer::Offer;
use seek_ad::Seek;
use std::collections::BTreeMap;

/// The offers' part of the server state.
pub struct Offers {
    /// Seek ads by number.
    pub seeks: BTreeMap<u32, Seek>,
    /// Pending offers: challenges and in-game requests.
    pub offers: Vec<Offer>,
    /// The number the next offer gets.
    pub next_offer: u32,
}

impl Offers {
    pub fn new() -> Offers {
        Offers {
            seeks: BTreeMap::new(),
            offers: Vec::new(),
            next_offer: 1,
        }
    }

    /// The pending offer numbered `id`, if there is one.
    pub fn get(&self, id: u32) -> Option<&Offer> {
        self.offers.iter().find(|o| o.id == id)
    }
}
