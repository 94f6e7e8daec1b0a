//! The login of the local server's ICC dialect: `level2settings=BITS` (and `level1=N`,
//! accepted and otherwise ignored) typed at the `login:` prompt set the client's DGs and
//! ask for the name again; DG_WHO_AM_I tells a client its name and titles once it is in,
//! DG_LOGIN_FAILED why it is not. The first two work on the connection alone
//! (`accounts/login.rs` calls them during the dialogue).

use super::level2::Level2;
use super::out::{Dg, View};
use crate::conn::Sid;
use crate::core::Net;
use ics::icc::numbers::*;

/// DG_LOGIN_FAILED codes the local server uses (ICC's numbers).
pub const NAME_TOO_LONG: u8 = 2;
pub const NAME_TOO_SHORT: u8 = 3;
pub const NAME_BAD_LETTERS: u8 = 4;
pub const SOMETHING_WRONG: u8 = 10;
pub const BAD_PASSWORD: u8 = 11;
pub const ALREADY_LOGGED_IN: u8 = 14;

/// The ICC login prompt.
pub const ICC_LOGIN_PROMPT: &str = "login: ";

/// A `level2settings=`/`level1=` line at the login prompt: settings taken, the
/// prompt again. False for any other line.
pub fn login_setting(net: &mut Net, sid: Sid, line: &str) -> bool {
    let line = line.trim();
    if let Some(bits) = line.strip_prefix("level2settings=") {
        let l2 = Level2::from_bits(bits.trim());
        if let Some(s) = net.sessions.get_mut(&sid) {
            s.level2 = l2;
        }
        net.send(sid, ICC_LOGIN_PROMPT);
        return true;
    }
    if line.starts_with("level1=") {
        net.send(sid, ICC_LOGIN_PROMPT);
        return true;
    }
    false
}

/// DG_LOGIN_FAILED, where the client asked for it.
pub fn login_failed(net: &mut Net, sid: Sid, code: u8, text: &str) {
    let dg = Dg::new(DG_LOGIN_FAILED).num(code).braced(text);
    let t = net.dg_for(sid, &dg);
    net.send(sid, &t);
}

impl View<'_> {
    /// Right after login: DG_WHO_AM_I, and the seek list for a client with DG_SEEK on.
    pub fn logged_in(&self, sid: Sid) -> String {
        let Some(s) = self.net.sess(sid) else {
            return String::new();
        };
        let titles = if s.registered {
            super::out::titles_words(&s.titles)
        } else {
            "U".into()
        };
        let who = Dg::new(DG_WHO_AM_I).word(&s.handle).braced(titles);
        let mut text = self.net.dg_for(sid, &who);
        text.push_str(&self.sought_list(sid));
        text
    }
}
