//! The commands only the local server's ICC dialect knows: `set-2 N V` (one DG on or
//! off, acknowledged with DG_SET2 where asked for; turning on DG_SEEK sends the seek list,
//! DG_MATCH the pending challenges, DG_DUMMY_RESPONSE a dummy response).

use super::out::Dg;
use crate::conn::Sid;
use crate::core::Core;
use ics::icc::numbers::*;

impl Core {
    /// `set-2 N V`.
    pub fn cmd_set2(&mut self, sid: Sid, args: &[&str]) {
        let n = args.first().and_then(|a| a.parse::<u16>().ok());
        let v = args.get(1).map(|a| *a != "0").unwrap_or(true);
        let Some(n) = n.filter(|n| usize::from(*n) <= super::level2::MAX_DG) else {
            self.net.reply(sid, "Usage: set-2 dg-number value\n");
            return;
        };
        let was = self.net.dg_on(sid, n);
        if let Some(s) = self.net.sessions.get_mut(&sid) {
            s.level2.set(usize::from(n), v);
        }
        let mut text = self.net.dg_for(sid, &Dg::new(DG_SET2).num(n).flag(v));
        if v {
            match n {
                DG_SEEK => text.push_str(&self.icc_sought_list(sid)),
                DG_MATCH => text.push_str(&self.icc_pending_matches(sid)),
                DG_DUMMY_RESPONSE => {
                    text.push_str(&self.net.dg_for(sid, &Dg::new(DG_DUMMY_RESPONSE)))
                }
                _ => {}
            }
        }
        tracing::debug!(sid, dg = n, on = v, was, "set-2");
        self.net.reply(sid, &text);
    }
}
