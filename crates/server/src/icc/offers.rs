//! Offers on the local server's ICC dialect: challenges (DG_MATCH to both sides, and
//! DG_MATCH_REMOVED with its explanation when one goes) and the offers inside a game
//! (DG_OFFERS_IN_MY_GAME: draw, adjourn, abort and takeback for each colour), sent to the
//! players and observers each time they change.

use super::out::{rating_type, Dg, View};
use crate::conn::Sid;
use crate::games::ratings::Category;
use crate::offers::offer::{Offer, OfferKind};
use cozy_chess::Color;
use ics::icc::numbers::*;

impl View<'_> {
    /// DG_MATCH of a challenge, for `sid` (either side of it); "" for other offers.
    pub fn match_text(&self, sid: Sid, o: &Offer) -> String {
        let Some(t) = &o.terms else {
            return String::new();
        };
        let cat = Category::of(t.base, t.inc);
        let (from, to) = (self.net.name_of(o.from), self.net.name_of(o.to));
        let (fr, fa) = self.rating(&from, cat);
        let (tr, ta) = self.rating(&to, cat);
        let color = match t.color {
            None => -1,
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
        };
        let dg = Dg::new(DG_MATCH)
            .word(&from)
            .num(fr)
            .num(fa)
            .braced(self.titles(&from))
            .word(&to)
            .num(tr)
            .num(ta)
            .braced(self.titles(&to))
            .num(if t.chess960 { 22 } else { 0 })
            .word(rating_type(cat, t.chess960))
            .flag(t.rated)
            .flag(t.resume)
            .num(t.base)
            .num(t.inc)
            .num(t.base)
            .num(t.inc)
            .num(color)
            .braced("");
        self.net.dg_for(sid, &dg)
    }

    /// DG_MATCH_REMOVED of a challenge, for `sid`, with the reason in words.
    pub fn match_removed_text(&self, sid: Sid, o: &Offer, why: &str) -> String {
        if o.kind != OfferKind::Match {
            return String::new();
        }
        let dg = Dg::new(DG_MATCH_REMOVED)
            .word(self.net.name_of(o.from))
            .word(self.net.name_of(o.to))
            .quoted(why);
        self.net.dg_for(sid, &dg)
    }

    /// DG_MATCH of every challenge to or from `sid` (when it turns DG_MATCH on).
    pub fn pending_matches(&self, sid: Sid) -> String {
        self.offers
            .offers
            .iter()
            .filter(|o| o.from == sid || o.to == sid)
            .map(|o| self.match_text(sid, o))
            .collect()
    }

    /// DG_OFFERS_IN_MY_GAME of the game `a` plays, for every player and observer of it
    /// who asked: `(sid, text)` pairs, none when `a` plays no game.
    pub fn game_offers(&self, a: Sid) -> Vec<(Sid, String)> {
        let Some(game) = self
            .net
            .sess(a)
            .and_then(|s| s.game)
            .and_then(|g| self.games.games.get(&g))
        else {
            return Vec::new();
        };
        let (Some(w), Some(b)) = (game.white.sid, game.black.sid) else {
            return Vec::new();
        };
        let has = |from: Sid, to: Sid, f: &dyn Fn(&OfferKind) -> bool| {
            self.offers
                .offers
                .iter()
                .any(|o| o.from == from && o.to == to && f(&o.kind))
        };
        let takeback = |from: Sid, to: Sid| {
            self.offers
                .offers
                .iter()
                .find_map(|o| match o.kind {
                    OfferKind::Takeback(n) if o.from == from && o.to == to => Some(n),
                    _ => None,
                })
                .unwrap_or(0)
        };
        let draw = |k: &OfferKind| *k == OfferKind::Draw;
        let adjourn = |k: &OfferKind| *k == OfferKind::Adjourn;
        let abort = |k: &OfferKind| *k == OfferKind::Abort;
        let dg = Dg::new(DG_OFFERS_IN_MY_GAME)
            .num(game.number)
            .flag(has(w, b, &draw))
            .flag(has(b, w, &draw))
            .flag(has(w, b, &adjourn))
            .flag(has(b, w, &adjourn))
            .flag(has(w, b, &abort))
            .flag(has(b, w, &abort))
            .num(takeback(w, b))
            .num(takeback(b, w));
        [w, b]
            .into_iter()
            .chain(game.observers.iter().copied())
            .map(|s| (s, self.net.dg_for(s, &dg)))
            .filter(|(_, t)| !t.is_empty())
            .collect()
    }
}
