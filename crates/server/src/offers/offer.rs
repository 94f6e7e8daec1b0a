//! An offer between two players on the local server, as a value: a match challenge with
//! its terms, or an in-game draw, abort or adjourn request. The server's handling of
//! offers is in `offers/pending.rs`.

use crate::conn::Sid;
use cozy_chess::Color;
pub use ics::events::OfferKind;

/// Terms of a challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchTerms {
    pub base: u32,
    pub inc: u32,
    pub rated: bool,
    /// The colour the challenger asked for.
    pub color: Option<Color>,
    /// Continue the adjourned game between the two.
    pub resume: bool,
    /// A Chess960 game (`match NAME ... fr` or `wild fr`).
    pub chess960: bool,
}

/// One pending offer.
#[derive(Debug, Clone)]
pub struct Offer {
    pub id: u32,
    pub kind: OfferKind,
    /// A challenge's terms: `Some` exactly when `kind` is [`OfferKind::Match`].
    pub terms: Option<MatchTerms>,
    pub from: Sid,
    pub to: Sid,
    /// The `Challenge:` text without its final period (matches only).
    pub text: String,
}

/// Messages produced while tidying up: (who, text). Third parties get the
/// prompt after their text; the two players get theirs woven into their
/// accept texts.
pub type Notes = Vec<(Sid, String)>;
