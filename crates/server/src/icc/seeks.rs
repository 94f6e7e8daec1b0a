//! Seek ads on the local server's ICC dialect: DG_SEEK for each ad (the whole list when
//! a client turns it on) and DG_SEEK_REMOVED with ICC's reason code when one goes. A
//! client with DG_SEEK on gets no seek text.

use super::out::{rating_type, Dg, View};
use crate::conn::Sid;
use crate::offers::seek_ad::Seek;
use cozy_chess::Color;
use ics::icc::numbers::*;

/// DG_SEEK_REMOVED reasons: the seeker left, started playing, removed the ad.
pub const SEEKER_LEFT: u8 = 1;
pub const SEEKER_PLAYING: u8 = 2;
pub const SEEKER_REMOVED: u8 = 3;

impl View<'_> {
    /// DG_SEEK of one ad.
    pub fn seek_dg(&self, k: &Seek) -> Dg {
        let color = match k.color {
            None => -1,
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
        };
        Dg::new(DG_SEEK)
            .num(k.id)
            .word(&k.name)
            .braced(if k.registered {
                self.titles(&k.name)
            } else {
                "U".into()
            })
            .num(k.rating.unwrap_or(0))
            .num(if k.rating.is_some() { 2 } else { 0 })
            .num(if k.chess960 { 22 } else { 0 })
            .word(rating_type(k.category, k.chess960))
            .num(k.base)
            .num(k.inc)
            .flag(k.rated)
            .num(color)
            .num(0)
            .num(9999)
            .num(1)
            .num(0)
            .braced("")
    }

    /// Whether `sid` takes seeks as DGs (and so gets no seek text).
    pub fn seeks_as_dgs(&self, sid: Sid) -> bool {
        self.net.dg_on(sid, DG_SEEK)
    }

    /// DG_SEEK_REMOVED of ad `id`.
    pub fn seek_removed_text(&self, sid: Sid, id: u32, reason: u8) -> String {
        self.net
            .dg_for(sid, &Dg::new(DG_SEEK_REMOVED).num(id).num(reason))
    }

    /// DG_SEEK of every ad (when a client turns DG_SEEK on).
    pub fn sought_list(&self, sid: Sid) -> String {
        self.offers
            .seeks
            .values()
            .map(|k| self.net.dg_for(sid, &self.seek_dg(k)))
            .collect()
    }
}
