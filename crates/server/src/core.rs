//! The heart of the local server: one task owns every session, game, seek and
//! offer ([`Core`]), so no locks are needed and no client can block another
//! (output goes through bounded per-client queues; a client whose queue is full
//! is dropped). [`Core`] is the sum of the concepts' parts (`Accounts`, `Games`,
//! `Offers`, the relay and the director, each declared and handled in its folder); this
//! file holds it, the connections' part [`Net`] with the output helpers every handler
//! writes through, and the borrows the concepts' handlers work on (`playing`, `dealing`,
//! `icc_view`). The event loop that feeds the handlers is `events.rs`.

use crate::accounts::session::{LoginState, Session};
use crate::accounts::store::{Account, Accounts};
use crate::conn::{Out, Sid};
use crate::games::play::Play;
use crate::games::ratings::Ratings;
use crate::games::Games;
use crate::icc::out::{Dg, View};
use crate::journal::Journal;
use crate::offers::deal::Deal;
use crate::offers::Offers;
use crate::tourney::config::Director;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// The prompt the lasker server prints (no newline).
pub const PROMPT: &str = "fics% ";
/// The prompt ICC prints.
pub const ICC_PROMPT: &str = "aics% ";

/// Settings the core needs at run time.
#[derive(Debug, Clone)]
pub struct CoreConfig {
    pub auto_flag: bool,
    pub idle_timeout: Option<Duration>,
    pub login_timeout: Duration,
    pub server_name: String,
    pub seed: u64,
    pub zero_base_ms: i64,
    /// FICS text, or ICC with level-2 datagrams.
    pub dialect: ics::Dialect,
    pub abort_before_moves: bool,
    pub computer_ivars: bool,
    pub manual_seeks: bool,
}

/// The connections: every session, the settings, and the output helpers every
/// concept's handlers write through (each handler takes this part as a parameter).
pub struct Net {
    pub cfg: CoreConfig,
    pub sessions: BTreeMap<Sid, Session>,
    /// Sessions closed since the loop last reaped them.
    pub(super) dead: Vec<Sid>,
}

/// All server state: one part per concept, each declared (and handled) in its folder.
pub struct Core {
    /// The connections (`core.rs`).
    pub net: Net,
    /// The registered accounts, follow lists and notes (`accounts/`).
    pub accounts: Accounts,
    /// Games played, examined and adjourned, and the ratings (`games/`).
    pub games: Games,
    /// Offers and seek ads (`offers/`).
    pub offers: Offers,
    /// Guest names, colour draws and Chess960 start positions.
    pub rng: StdRng,
    /// Where finished and adjourned games are reported, when the owner asked for it.
    pub journal: Option<Journal>,
    /// The server is stopping (games that end now are adjourned by the shutdown).
    pub shutting_down: bool,
    /// The relay account, when the owner configured one (`relay/`).
    pub relay: Option<crate::relay::config::Relay>,
    /// The tournament director account, when the owner configured one (`tourney/`).
    pub director: Option<crate::tourney::config::Director>,
}

/// Convert `\n` line ends to the `\n\r` the servers send.
pub fn wire(text: &str) -> Vec<u8> {
    let mut v = Vec::with_capacity(text.len() + text.len() / 16 + 2);
    for b in text.bytes() {
        v.push(b);
        if b == b'\n' {
            v.push(b'\r');
        }
    }
    v
}

impl Core {
    pub fn new(cfg: CoreConfig, accounts: Vec<Account>) -> Core {
        let mut ratings = HashMap::new();
        for a in &accounts {
            ratings.insert(a.handle.to_ascii_lowercase(), Ratings::starting(a.rating));
        }
        let rng = StdRng::seed_from_u64(cfg.seed);
        Core {
            net: Net {
                cfg,
                sessions: BTreeMap::new(),
                dead: Vec::new(),
            },
            accounts: Accounts::new(accounts),
            games: Games::new(ratings),
            offers: Offers::new(),
            rng,
            journal: None,
            shutting_down: false,
            relay: None,
            director: None,
        }
    }

    /// The parts of the server a game's or an offer's handler reaches, borrowed.
    pub fn parts(&mut self) -> Parts<'_> {
        Parts {
            net: &mut self.net,
            games: &mut self.games,
            offers: &mut self.offers,
            accounts: &self.accounts,
            rng: &mut self.rng,
            journal: self.journal.as_ref(),
            shutting_down: self.shutting_down,
            director: self.director.as_mut(),
        }
    }

    /// The parts of the server a games handler (`games/`) works on.
    pub fn playing(&mut self) -> Play<'_> {
        Play {
            parts: self.parts(),
        }
    }

    /// The parts of the server an offers handler (`offers/`) works on.
    pub fn dealing(&mut self) -> Deal<'_> {
        Deal {
            parts: self.parts(),
        }
    }

    /// The server as the ICC renderers (`icc/`) read it.
    pub fn icc_view(&self) -> View<'_> {
        View {
            net: &self.net,
            accounts: &self.accounts,
            games: &self.games,
            offers: &self.offers,
            shutting_down: self.shutting_down,
        }
    }
}

impl Net {
    /// The prompt of this server's dialect.
    pub fn prompt(&self) -> &'static str {
        match self.cfg.dialect {
            ics::Dialect::Fics => PROMPT,
            ics::Dialect::Icc => ICC_PROMPT,
        }
    }

    /// Whether this server speaks ICC.
    pub fn icc(&self) -> bool {
        self.cfg.dialect == ics::Dialect::Icc
    }

    /// Flush what was sent and close the connection.
    pub fn close(&mut self, sid: Sid) {
        if let Some(s) = self.sessions.get_mut(&sid) {
            let _ = s.tx.try_send(Out::Close);
            if !s.closing {
                s.closing = true;
                self.dead.push(sid);
            }
        }
    }

    /// Raw bytes to one client.
    pub fn send_bytes(&mut self, sid: Sid, bytes: Vec<u8>) {
        let Some(s) = self.sessions.get_mut(&sid) else {
            return;
        };
        if s.closing {
            return;
        }
        if s.tx.try_send(Out::Data(bytes)).is_err() {
            tracing::warn!(sid, handle = %s.handle, "client not reading: dropped");
            s.closing = true;
            self.dead.push(sid);
        }
    }

    /// Text (with `\n` line ends) to one client, no prompt.
    pub fn send(&mut self, sid: Sid, text: &str) {
        if !text.is_empty() {
            self.send_bytes(sid, wire(text));
        }
    }

    /// A command's answer: the text, then the prompt.
    pub fn reply(&mut self, sid: Sid, text: &str) {
        let online = self
            .sessions
            .get(&sid)
            .is_some_and(|s| s.login == LoginState::Online);
        let prompt = self.prompt();
        let mut t = String::with_capacity(text.len() + prompt.len());
        t.push_str(text);
        if online {
            t.push_str(prompt);
        }
        self.send(sid, &t);
    }

    /// An unsolicited message: a blank line, the text, then the prompt.
    pub fn notify(&mut self, sid: Sid, text: &str) {
        let mut t = String::with_capacity(text.len() + 1);
        t.push('\n');
        t.push_str(text);
        self.reply(sid, &t);
    }

    /// The session, if it exists.
    pub fn sess(&self, sid: Sid) -> Option<&Session> {
        self.sessions.get(&sid)
    }

    /// The handle of a session ("" when gone).
    pub fn name_of(&self, sid: Sid) -> String {
        self.sessions
            .get(&sid)
            .map(|s| s.handle.clone())
            .unwrap_or_default()
    }

    /// The online session whose handle is `name` (any case), or the only one
    /// it is a prefix of.
    pub fn find_online(&self, name: &str) -> Option<Sid> {
        if name.is_empty() {
            return None;
        }
        let online = || self.sessions.values().filter(|s| s.online());
        if let Some(s) = online().find(|s| s.handle.eq_ignore_ascii_case(name)) {
            return Some(s.id);
        }
        let lower = name.to_ascii_lowercase();
        let mut hits = online().filter(|s| s.handle.to_ascii_lowercase().starts_with(&lower));
        match (hits.next(), hits.next()) {
            (Some(s), None) => Some(s.id),
            _ => None,
        }
    }

    /// Why `sid` may not start a game with `other` by a match or a seek while one of
    /// them has the tournament flag on (lasker refuses such matches; the director's
    /// pairings do not go through here); `None` when it may.
    pub fn tourney_refusal(&self, sid: Sid, other: Sid) -> Option<String> {
        let flagged = |s: Sid| self.sess(s).is_some_and(|x| x.tourney);
        if flagged(sid) {
            Some("You are playing in a tourney: only its games can be started.\n".into())
        } else if flagged(other) {
            Some(format!(
                "{} is playing in a tourney.\n",
                self.name_of(other)
            ))
        } else {
            None
        }
    }

    /// The online session whose handle is exactly `name` (any case).
    pub fn online_exact(&self, name: &str) -> Option<Sid> {
        self.sessions
            .values()
            .find(|s| s.online() && s.handle.eq_ignore_ascii_case(name))
            .map(|s| s.id)
    }

    /// Online sessions (ids), in connection order.
    pub fn online_sids(&self) -> Vec<Sid> {
        self.sessions
            .values()
            .filter(|s| s.online())
            .map(|s| s.id)
            .collect()
    }

    /// Whether `sid` asked for DG `code` (always false on the FICS dialect).
    pub fn dg_on(&self, sid: Sid, code: u16) -> bool {
        self.icc()
            && self
                .sess(sid)
                .is_some_and(|s| s.level2.on(usize::from(code)))
    }

    /// The DG's text for `sid` if it asked for it, else "".
    pub fn dg_for(&self, sid: Sid, dg: &Dg) -> String {
        if self.dg_on(sid, dg.code()) {
            dg.render()
        } else {
            String::new()
        }
    }
}

/// The parts of the server that starting, playing, ending and offering games reach,
/// borrowed from [`Core`] for one call: the connections, the games, the offers, the
/// accounts (follow lists, titles), the colour and Chess960 draws, the journal, whether
/// the server is stopping, and the tournament director (which hears of its games' ends).
/// The games' handlers work on it as a [`Play`] (`games/`), the offers' as a [`Deal`]
/// (`offers/`).
pub struct Parts<'a> {
    pub net: &'a mut Net,
    pub games: &'a mut Games,
    pub offers: &'a mut Offers,
    pub accounts: &'a Accounts,
    pub rng: &'a mut StdRng,
    pub journal: Option<&'a Journal>,
    pub shutting_down: bool,
    pub director: Option<&'a mut Director>,
}

impl Parts<'_> {
    /// The same parts, lent on for a shorter while (a games handler calling an offers
    /// handler, or the reverse).
    pub fn reborrow(&mut self) -> Parts<'_> {
        Parts {
            net: self.net,
            games: self.games,
            offers: self.offers,
            accounts: self.accounts,
            rng: self.rng,
            journal: self.journal,
            shutting_down: self.shutting_down,
            director: self.director.as_deref_mut(),
        }
    }

    /// The server as the ICC renderers read it.
    pub fn icc_view(&self) -> View<'_> {
        View {
            net: self.net,
            accounts: self.accounts,
            games: self.games,
            offers: self.offers,
            shutting_down: self.shutting_down,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_endings() {
        assert_eq!(wire("a\nb\n"), b"a\n\rb\n\r".to_vec());
        assert_eq!(wire("fics% "), b"fics% ".to_vec());
    }
}
