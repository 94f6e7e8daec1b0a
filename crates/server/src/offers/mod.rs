//! Offers between players on the local server: the offer as a value, pending offers (draw, abort, adjourn, decline, withdraw), challenges, accepting, and seek ads.

pub(crate) mod accept;
pub(crate) mod challenge;
pub(crate) mod offer;
pub(crate) mod pending;
pub(crate) mod seek_ad;
pub(crate) mod seeks;
