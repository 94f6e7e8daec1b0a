//! Talk on the local server's ICC dialect: DG_PERSONAL_TELL (tells and says, in place of
//! the text form), DG_PERSONAL_TELL_ECHO to the sender, and DG_KIBITZ (kibitzes and
//! whispers, in place of the text form).

use super::out::{Dg, View};
use crate::conn::Sid;
use ics::icc::numbers::*;

/// DG_PERSONAL_TELL types.
pub const TELL_SAY: u8 = 0;
pub const TELL_TELL: u8 = 1;

impl View<'_> {
    /// DG_PERSONAL_TELL from `from` for `to` ("" when `to` takes tells as text).
    pub fn tell_text(&self, to: Sid, from: Sid, text: &str, kind: u8) -> String {
        let Some(s) = self.net.sess(from) else {
            return String::new();
        };
        let titles = if s.registered {
            self.titles(&s.handle)
        } else {
            "U".into()
        };
        let dg = Dg::new(DG_PERSONAL_TELL)
            .word(&s.handle)
            .braced(titles)
            .quoted(text)
            .num(kind);
        self.net.dg_for(to, &dg)
    }

    /// DG_PERSONAL_TELL_ECHO to the sender of a tell or say.
    pub fn tell_echo_text(&self, from: Sid, to: Sid, text: &str, kind: u8) -> String {
        let dg = Dg::new(DG_PERSONAL_TELL_ECHO)
            .word(self.net.name_of(to))
            .num(kind)
            .quoted(text);
        self.net.dg_for(from, &dg)
    }

    /// DG_KIBITZ for `to` ("" when `to` takes kibitzes as text).
    pub fn kibitz_text(&self, to: Sid, g: u32, from: Sid, text: &str, kibitz: bool) -> String {
        let Some(s) = self.net.sess(from) else {
            return String::new();
        };
        let titles = if s.registered {
            self.titles(&s.handle)
        } else {
            "U".into()
        };
        let dg = Dg::new(DG_KIBITZ)
            .num(g)
            .word(&s.handle)
            .braced(titles)
            .flag(kibitz)
            .quoted(text);
        self.net.dg_for(to, &dg)
    }
}
