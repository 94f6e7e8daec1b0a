//! Liveness of each account's driver ([`Health`]): a heartbeat the driver refreshes after
//! every input (its loop ticks at least every 100 ms while connected) and every second
//! while it connects or waits to reconnect, whether the account is logged in, whether its
//! first connection attempt is over, and a short status line (`logged in as X`,
//! `playing game 12`, `reconnecting in 30 s`). The dashboard's `/healthz`
//! ([`Monitor::check`]) and the systemd watchdog (`run/watchdog.rs`) read it; neither
//! reaches the bot. [`Monitor`] bundles every account's health with the shared
//! [`Metrics`].

use crate::run::metrics::Metrics;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One account's liveness.
#[derive(Debug)]
pub struct Health {
    /// The account as `/healthz` names it (its configured handle).
    name: String,
    epoch: Instant,
    /// Milliseconds after `epoch` of the last heartbeat.
    beat_ms: AtomicU64,
    logged_in: AtomicBool,
    started: AtomicBool,
    /// The account's run ended (its games done, its login refused, it could not start).
    stopped: AtomicBool,
    status: Mutex<String>,
}

impl Health {
    /// A fresh heartbeat, not logged in, not started.
    pub fn new(name: &str) -> Health {
        Health {
            name: name.to_string(),
            epoch: Instant::now(),
            beat_ms: AtomicU64::new(0),
            logged_in: AtomicBool::new(false),
            started: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            status: Mutex::new("starting".into()),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The event loop is alive now.
    pub fn beat(&self) {
        let ms = self.epoch.elapsed().as_millis() as u64;
        self.beat_ms.fetch_max(ms, Ordering::Relaxed);
    }

    /// Time since the last heartbeat.
    pub fn silent_for(&self) -> Duration {
        let last = Duration::from_millis(self.beat_ms.load(Ordering::Relaxed));
        self.epoch.elapsed().saturating_sub(last)
    }

    pub fn logged_in(&self) -> bool {
        self.logged_in.load(Ordering::Relaxed)
    }

    pub fn set_logged_in(&self, on: bool) {
        self.logged_in.store(on, Ordering::Relaxed);
    }

    /// The first connection attempt is over (logged in, or the reconnect loop began).
    pub fn started(&self) -> bool {
        self.started.load(Ordering::Relaxed)
    }

    pub fn set_started(&self) {
        self.started.store(true, Ordering::Relaxed);
    }

    /// The run ended: no more heartbeats will come, and none are missed (the watchdog
    /// leaves it out); `/healthz` says `stopped`.
    pub fn set_stopped(&self) {
        self.started.store(true, Ordering::Relaxed);
        self.stopped.store(true, Ordering::Relaxed);
        self.logged_in.store(false, Ordering::Relaxed);
        self.set_status("stopped");
    }

    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// The status line (no secrets: the handle, a game number, a wait).
    pub fn status(&self) -> String {
        self.status.lock().map(|s| s.clone()).unwrap_or_default()
    }

    pub fn set_status(&self, line: &str) {
        if let Ok(mut s) = self.status.lock() {
            if *s != line {
                *s = line.to_string();
            }
        }
    }

    /// `None` when healthy, else why not: `stopped`, `not logged in`, `event loop
    /// stalled for N s` (no heartbeat for `stall` or longer).
    pub fn problem(&self, stall: Duration) -> Option<String> {
        let silent = self.silent_for();
        if self.stopped() {
            Some("stopped".into())
        } else if silent >= stall {
            Some(format!("event loop stalled for {} s", silent.as_secs()))
        } else if !self.logged_in() {
            Some("not logged in".into())
        } else {
            None
        }
    }
}

/// What the dashboard serves `/metrics` and `/healthz` from.
#[derive(Debug, Clone)]
pub struct Monitor {
    pub metrics: Arc<Metrics>,
    /// One per account, in the order of `[[accounts]]`.
    pub health: Vec<Arc<Health>>,
}

impl Monitor {
    /// Fresh metrics and one health per account name.
    pub fn new(names: &[String]) -> Monitor {
        Monitor {
            metrics: Arc::new(Metrics::new()),
            health: names.iter().map(|n| Arc::new(Health::new(n))).collect(),
        }
    }

    /// `/metrics`.
    pub fn render(&self) -> String {
        self.metrics.render(&self.health)
    }

    /// `/healthz`: healthy only when every account is (logged in, heartbeat younger than
    /// `stall`); the body has one line per account, `NAME: ok` or `NAME: REASON`.
    pub fn check(&self, stall: Duration) -> (bool, String) {
        let mut ok = !self.health.is_empty();
        let mut body = String::new();
        for h in &self.health {
            let line = match h.problem(stall) {
                None => "ok".to_string(),
                Some(p) => {
                    ok = false;
                    p
                }
            };
            body.push_str(&format!("{}: {line}\n", h.name()));
        }
        if self.health.is_empty() {
            body.push_str("no accounts\n");
        }
        (ok, body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn healthy_only_when_logged_in_and_beating() {
        let m = Monitor::new(&["one".into(), "two".into()]);
        let stall = Duration::from_millis(200);
        for h in &m.health {
            h.beat();
        }
        let (ok, body) = m.check(stall);
        assert!(!ok);
        assert_eq!(body, "one: not logged in\ntwo: not logged in\n");
        m.health[0].set_logged_in(true);
        m.health[1].set_logged_in(true);
        assert_eq!(m.check(stall), (true, "one: ok\ntwo: ok\n".into()));
        std::thread::sleep(Duration::from_millis(250));
        m.health[0].beat();
        let (ok, body) = m.check(stall);
        assert!(!ok);
        assert_eq!(body, "one: ok\ntwo: event loop stalled for 0 s\n");
    }
}
