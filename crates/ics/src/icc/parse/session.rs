//! Login and session datagrams: `DG_WHO_AM_I` (our handle, at the end of login) and
//! `DG_LOGIN_FAILED`. Our titles come as [`IccInfo::Me`] after the session start.

use crate::events::Event;
use crate::icc::datagram::Datagram;
use crate::icc::info::IccInfo;
use crate::icc::parse::fields::titles_of;
use crate::icc::parse::reader::IccReader;

impl IccReader {
    pub(super) fn who_am_i(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        let Some(name) = dg.field(0).filter(|n| !n.is_empty()) else {
            return self.warn(dg, "no name");
        };
        let titles = titles_of(dg.field(1).unwrap_or_default());
        self.me = Some(name.to_string());
        out.push(Event::SessionStarted {
            name: name.to_string(),
            unregistered: titles.iter().any(|t| t == "U"),
        });
        out.push(Event::Icc(Box::new(IccInfo::Me {
            name: name.to_string(),
            titles,
        })));
    }

    pub(super) fn login_failed(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        let code = dg.num::<u32>(0);
        let text = dg.field(1).unwrap_or_default().trim().to_string();
        match code {
            Some(11) => out.push(Event::InvalidPassword),
            // "is a registered name, type the password" and "hit return to enter":
            // the text prompts that follow carry the login on.
            Some(5) | Some(8) => {}
            Some(_) => out.push(Event::LoginRefused { text }),
            None => self.warn(dg, "no failure code"),
        }
    }
}
