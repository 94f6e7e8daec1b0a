//! The local server's event loop: socket events (a new client, a line, a timeseal
//! hello, a closed connection) and clock ticks, handed one at a time to the login
//! dialogue, the command table or the games' clocks; closed sessions are reaped
//! after each event. Letting a player in and taking a session out touch every
//! concept, so they are sequenced here (`admit`, `remove_session`).

use crate::accounts::login::Admit;
use crate::accounts::session::{LoginState, Session};
use crate::accounts::store::Accounts;
use crate::conn::{Event, Out, Sid};
use crate::core::Core;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

impl Core {
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
                    Some(ev) => {
                        // Connections the shutdown closes are gone because of it.
                        self.shutting_down = *shutdown.borrow();
                        self.handle(ev);
                    }
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
        self.shutting_down = true;
        let sids: Vec<Sid> = self.net.sessions.keys().copied().collect();
        for sid in sids {
            self.net
                .send(sid, "\n**** The server is shutting down. ****\n\n");
            self.net.close(sid);
        }
        self.reap();
        if let Some(j) = &self.journal {
            j.hold_adjourned(std::mem::take(&mut self.games.stored));
        }
    }

    /// Handle one socket event.
    pub fn handle(&mut self, ev: Event) {
        match ev {
            Event::Open { sid, tx, peer } => {
                self.net.sessions.insert(sid, Session::new(sid, tx, peer));
                self.accounts.send_banner(&mut self.net, sid);
            }
            Event::Line { sid, line } => self.on_line(sid, &line),
            Event::Timeseal { sid } => {
                if let Some(s) = self.net.sessions.get_mut(&sid) {
                    s.timeseal = true;
                    tracing::debug!(sid, "timeseal client");
                }
            }
            Event::Closed { sid } => {
                if self.net.sessions.contains_key(&sid) {
                    self.remove_session(sid, false);
                }
            }
        }
    }

    fn on_line(&mut self, sid: Sid, line: &str) {
        let Some(s) = self.net.sessions.get_mut(&sid) else {
            return;
        };
        if s.closing {
            return;
        }
        s.last_input = Instant::now();
        match s.login.clone() {
            LoginState::Online => self.on_command(sid, line),
            state => {
                let admit =
                    self.accounts
                        .on_login_line(&mut self.net, &mut self.rng, sid, state, line);
                if let Some(admit) = admit {
                    self.admit(sid, &admit);
                }
            }
        }
    }

    /// The login dialogue let `sid` in: the sessions it replaces go, then it enters.
    fn admit(&mut self, sid: Sid, admit: &Admit) {
        for &old in &admit.kicked {
            Accounts::kick(&mut self.net, old, &admit.handle);
            self.remove_session(old, false);
        }
        self.accounts.enter(&mut self.net, sid, admit);
        if self.net.icc() {
            let t = self.icc_view().logged_in(sid);
            self.net.send(sid, &t);
        }
        let partners = if admit.registered {
            self.adjourned_partners_online(&admit.handle)
        } else {
            Vec::new()
        };
        self.accounts.welcome(&mut self.net, sid, admit, partners);
    }

    /// Remove a session: its game adjourns (or aborts), its seeks, offers and
    /// observations go. `quit`: it left with `quit` rather than dropping.
    pub fn remove_session(&mut self, sid: Sid, quit: bool) {
        let _ = quit;
        let (game, observing) = match self.net.sessions.get(&sid) {
            Some(s) => (s.game, s.observing.clone()),
            None => return,
        };
        if let Some(g) = game {
            let examining = self
                .games
                .games
                .get(&g)
                .and_then(|x| x.examined.as_ref())
                .is_some_and(|x| x.examiner == Some(sid));
            if examining {
                self.games.close_examined(&mut self.net, g);
            } else {
                self.playing().player_lost_connection(g, sid);
            }
        }
        for g in observing {
            if let Some(game) = self.games.games.get_mut(&g) {
                game.observers.retain(|o| *o != sid);
            }
        }
        self.dealing().remove_seeks_of(sid, false);
        self.dealing().remove_offers_involving(sid);
        if let Some(s) = self.net.sessions.remove(&sid) {
            let _ = s.tx.try_send(Out::Close);
            tracing::info!(sid, handle = %s.handle, "session closed");
        }
    }

    /// Timers: automatic flagging, login and idle time-outs.
    pub fn on_tick(&mut self, now: Instant) {
        if self.net.cfg.auto_flag {
            self.playing().check_flags(now);
        }
        if let Some(relay) = &mut self.relay {
            relay.tick(&mut self.games, &mut self.net, now);
        }
        if let Some(mut d) = self.director.take() {
            d.tick(&mut self.dealing(), now);
            self.director = Some(d);
        }
        let login_timeout = self.net.cfg.login_timeout;
        let idle = self.net.cfg.idle_timeout;
        let mut expired = Vec::new();
        for s in self.net.sessions.values() {
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
            self.net.send(sid, &msg);
            self.net.close(sid);
        }
    }

    /// Tear down every session marked dead (repeats while teardown marks more).
    pub fn reap(&mut self) {
        while let Some(sid) = self.net.dead.pop() {
            if self.net.sessions.contains_key(&sid) {
                self.remove_session(sid, false);
            }
        }
    }
}
