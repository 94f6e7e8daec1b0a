//! The commands only the local server's ICC dialect knows: `set-2 N V` (one DG on or
//! off, acknowledged with DG_SET2 where asked for; turning on DG_SEEK sends the seek list,
//! DG_MATCH the pending challenges, DG_DUMMY_RESPONSE a dummy response).

use super::out::{Dg, View};
use crate::conn::Sid;
use ics::icc::numbers::*;

/// The usage `set-2` answers to arguments it cannot read.
pub const SET2_USAGE: &str = "Usage: set-2 dg-number value\n";

/// `set-2 N V`'s arguments: the DG (one this server knows) and whether it goes on
/// (`V` left out: on).
pub fn parse_set2(args: &[&str]) -> Option<(u16, bool)> {
    let n = args.first().and_then(|a| a.parse::<u16>().ok());
    let v = args.get(1).map(|a| *a != "0").unwrap_or(true);
    n.filter(|n| usize::from(*n) <= super::level2::MAX_DG)
        .map(|n| (n, v))
}

impl View<'_> {
    /// The answer to `set-2 N V` once the session's DG `n` is set to `v`.
    pub fn set2_text(&self, sid: Sid, n: u16, v: bool) -> String {
        let mut text = self.net.dg_for(sid, &Dg::new(DG_SET2).num(n).flag(v));
        if v {
            match n {
                DG_SEEK => text.push_str(&self.sought_list(sid)),
                DG_MATCH => text.push_str(&self.pending_matches(sid)),
                DG_DUMMY_RESPONSE => {
                    text.push_str(&self.net.dg_for(sid, &Dg::new(DG_DUMMY_RESPONSE)))
                }
                _ => {}
            }
        }
        text
    }
}
