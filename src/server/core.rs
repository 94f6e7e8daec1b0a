//! The heart of the local server: one task owns every session, game, seek and
//! offer, and handles socket events one at a time, so no locks are needed and
//! no client can block another (output goes through bounded per-client queues;
//! a client whose queue is full is dropped).

use super::accounts::Account;
use super::conn::{Event, Out, Sid};
use super::game::Game;
use super::offer::Offer;
use super::ratings::Ratings;
use super::seek::Seek;
use super::session::{LoginState, Session};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// The prompt the lasker server prints (no newline).
pub const PROMPT: &str = "fics% ";

/// Settings the core needs at run time.
#[derive(Debug, Clone)]
pub struct CoreConfig {
    pub auto_flag: bool,
    pub idle_timeout: Option<Duration>,
    pub login_timeout: Duration,
    pub server_name: String,
    pub seed: u64,
    pub zero_base_ms: i64,
}

/// All server state.
pub struct Core {
    pub cfg: CoreConfig,
    pub accounts: Vec<Account>,
    pub sessions: BTreeMap<Sid, Session>,
    pub games: BTreeMap<u32, Game>,
    /// Adjourned games, resumable with `match`/`resume`.
    pub stored: Vec<Game>,
    pub seeks: BTreeMap<u32, Seek>,
    pub offers: Vec<Offer>,
    pub next_offer: u32,
    /// Ratings by lower-case handle (registered players only).
    pub ratings: HashMap<String, Ratings>,
    /// Follow lists by lower-case handle; kept when the player logs out (lasker keeps
    /// them in the account).
    pub follow_lists: HashMap<String, Vec<String>>,
    pub rng: StdRng,
    dead: Vec<Sid>,
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
            cfg,
            accounts,
            sessions: BTreeMap::new(),
            games: BTreeMap::new(),
            stored: Vec::new(),
            seeks: BTreeMap::new(),
            offers: Vec::new(),
            next_offer: 1,
            ratings,
            follow_lists: HashMap::new(),
            rng,
            dead: Vec::new(),
        }
    }

    /// Run until the event channel closes or `shutdown` turns true.
    pub async fn run(
        mut self,
        mut events: mpsc::Receiver<Event>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Some(ev) => self.handle(ev),
                    None => break,
                },
                _ = tick.tick() => self.on_tick(Instant::now()),
                r = shutdown.changed() => {
                    if r.is_err() || *shutdown.borrow() {
                        break;
                    }
                }
            }
            self.reap();
        }
        let sids: Vec<Sid> = self.sessions.keys().copied().collect();
        for sid in sids {
            self.send(sid, "\n**** The server is shutting down. ****\n\n");
            self.close(sid);
        }
        self.reap();
    }

    /// Handle one socket event.
    pub fn handle(&mut self, ev: Event) {
        match ev {
            Event::Open { sid, tx, peer } => {
                self.sessions.insert(sid, Session::new(sid, tx, peer));
                self.send_banner(sid);
            }
            Event::Line { sid, line } => self.on_line(sid, &line),
            Event::Timeseal { sid } => {
                if let Some(s) = self.sessions.get_mut(&sid) {
                    s.timeseal = true;
                    tracing::debug!(sid, "timeseal client");
                }
            }
            Event::Closed { sid } => {
                if self.sessions.contains_key(&sid) {
                    self.remove_session(sid, false);
                }
            }
        }
    }

    fn on_line(&mut self, sid: Sid, line: &str) {
        let Some(s) = self.sessions.get_mut(&sid) else {
            return;
        };
        if s.closing {
            return;
        }
        s.last_input = Instant::now();
        match s.login.clone() {
            LoginState::Online => self.on_command(sid, line),
            state => self.on_login_line(sid, state, line),
        }
    }

    /// Timers: automatic flagging, login and idle time-outs.
    pub fn on_tick(&mut self, now: Instant) {
        if self.cfg.auto_flag {
            self.check_flags(now);
        }
        let login_timeout = self.cfg.login_timeout;
        let idle = self.cfg.idle_timeout;
        let mut expired = Vec::new();
        for s in self.sessions.values() {
            if s.closing {
                continue;
            }
            if s.login != LoginState::Online {
                if now.saturating_duration_since(s.connected) > login_timeout {
                    expired.push((s.id, "\n**** LOGIN TIMEOUT ****\n\n".to_string()));
                }
            } else if let Some(idle) = idle {
                if s.game.is_none() && now.saturating_duration_since(s.last_input) > idle {
                    let mins = idle.as_secs() / 60;
                    expired.push((
                        s.id,
                        format!("\n**** Auto-logout because you were idle more than {mins} minutes. ****\n\n"),
                    ));
                }
            }
        }
        for (sid, msg) in expired {
            self.send(sid, &msg);
            self.close(sid);
        }
    }

    /// Tear down every session marked dead (repeats while teardown marks more).
    pub fn reap(&mut self) {
        while let Some(sid) = self.dead.pop() {
            if self.sessions.contains_key(&sid) {
                self.remove_session(sid, false);
            }
        }
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

    /// Remove a session: its game adjourns (or aborts), its seeks, offers and
    /// observations go. `quit`: it left with `quit` rather than dropping.
    pub fn remove_session(&mut self, sid: Sid, quit: bool) {
        let _ = quit;
        let (game, observing) = match self.sessions.get(&sid) {
            Some(s) => (s.game, s.observing.clone()),
            None => return,
        };
        if let Some(g) = game {
            self.player_lost_connection(g, sid);
        }
        for g in observing {
            if let Some(game) = self.games.get_mut(&g) {
                game.observers.retain(|o| *o != sid);
            }
        }
        self.remove_seeks_of(sid, false);
        self.remove_offers_involving(sid);
        if let Some(s) = self.sessions.remove(&sid) {
            let _ = s.tx.try_send(Out::Close);
            tracing::info!(sid, handle = %s.handle, "session closed");
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
        let mut t = String::with_capacity(text.len() + PROMPT.len());
        t.push_str(text);
        if online {
            t.push_str(PROMPT);
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

    /// The registered account with this handle (any case).
    pub fn account(&self, name: &str) -> Option<&Account> {
        self.accounts
            .iter()
            .find(|a| a.handle.eq_ignore_ascii_case(name))
    }

    /// Online sessions (ids), in connection order.
    pub fn online_sids(&self) -> Vec<Sid> {
        self.sessions
            .values()
            .filter(|s| s.online())
            .map(|s| s.id)
            .collect()
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
