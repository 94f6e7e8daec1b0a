//! systemd's service notifications for `wily ics` under `Type=notify` (see
//! `contrib/wily.service`): `READY=1` once every account's first connection attempt is
//! over (logged in, or its reconnect loop began: a server that is down does not keep the
//! unit "activating"), `WATCHDOG=1` every half of `$WATCHDOG_USEC` while every account's
//! event loop beats (`run/health.rs`), so a hung loop stops the pings and systemd restarts
//! the service, and `STATUS=` with each account's status line when it changes. Without
//! `$NOTIFY_SOCKET` nothing is started. The decisions are [`Notifier::step`]'s, tested
//! without a socket; `sd-notify` sends them.

use crate::run::health::Health;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A heartbeat older than this (or half the watchdog interval, when larger) stops the
/// pings.
pub const MIN_STALL: Duration = Duration::from_secs(3);

/// What to tell systemd, decided from the accounts' health.
#[derive(Debug)]
pub struct Notifier {
    health: Vec<Arc<Health>>,
    /// `$WATCHDOG_USEC`, when systemd asked for pings.
    watchdog: Option<Duration>,
    ready: bool,
    /// The least silence that stops the pings ([`MIN_STALL`]).
    pub min_stall: Duration,
    last_ping: Option<Instant>,
    last_status: String,
}

impl Notifier {
    pub fn new(health: Vec<Arc<Health>>, watchdog: Option<Duration>) -> Notifier {
        Notifier {
            health,
            watchdog,
            ready: false,
            min_stall: MIN_STALL,
            last_ping: None,
            last_status: String::new(),
        }
    }

    /// How often [`Notifier::step`] should run: half the watchdog interval, at most a
    /// second.
    pub fn period(&self) -> Duration {
        self.watchdog
            .map_or(Duration::from_secs(1), |w| w / 2)
            .clamp(Duration::from_millis(10), Duration::from_secs(1))
    }

    /// The longest silence of an event loop that still counts as alive.
    pub fn stall_limit(&self) -> Duration {
        self.watchdog
            .map_or(self.min_stall, |w| (w / 2).max(self.min_stall))
    }

    /// The notification lines due at `now` (`READY=1`, `STATUS=...`, `WATCHDOG=1`).
    pub fn step(&mut self, now: Instant) -> Vec<String> {
        let mut out = Vec::new();
        if !self.ready && !self.health.is_empty() && self.health.iter().all(|h| h.started()) {
            self.ready = true;
            out.push("READY=1".to_string());
        }
        let status = self
            .health
            .iter()
            .map(|h| {
                if self.health.len() > 1 {
                    format!("{}: {}", h.name(), h.status())
                } else {
                    h.status()
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
        if status != self.last_status {
            out.push(format!("STATUS={status}"));
            self.last_status = status;
        }
        if let Some(w) = self.watchdog {
            let limit = self.stall_limit();
            let alive = self
                .health
                .iter()
                .all(|h| h.stopped() || h.silent_for() < limit);
            let due = self.last_ping.is_none_or(|t| now - t >= w / 2);
            if self.ready && alive && due {
                self.last_ping = Some(now);
                out.push("WATCHDOG=1".to_string());
            }
        }
        out
    }
}

/// Starts the notifier when `$NOTIFY_SOCKET` is set (inside the runtime); `None`
/// otherwise.
pub fn spawn(health: Vec<Arc<Health>>) -> Option<tokio::task::JoinHandle<()>> {
    std::env::var_os("NOTIFY_SOCKET")?;
    let watchdog = sd_notify::watchdog_enabled();
    let mut n = Notifier::new(health, watchdog);
    tracing::info!(
        "systemd notifications on; watchdog {}",
        watchdog.map_or("off".to_string(), |w| format!(
            "every {:.1} s",
            (w / 2).as_secs_f64()
        ))
    );
    Some(tokio::spawn(async move {
        let mut tick = tokio::time::interval(n.period());
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            for line in n.step(Instant::now()) {
                let state = match line.as_str() {
                    "READY=1" => sd_notify::NotifyState::Ready,
                    "WATCHDOG=1" => sd_notify::NotifyState::Watchdog,
                    s => sd_notify::NotifyState::Status(s.trim_start_matches("STATUS=")),
                };
                if let Err(e) = sd_notify::notify(&[state]) {
                    tracing::debug!("systemd notification not sent: {e}");
                }
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_once_started_then_pings_every_half_interval() {
        let h = Arc::new(Health::new("wily"));
        let w = Duration::from_millis(100);
        let mut n = Notifier::new(vec![h.clone()], Some(w));
        assert_eq!(n.period(), Duration::from_millis(50));
        let t0 = Instant::now();
        h.beat();
        assert_eq!(n.step(t0), vec!["STATUS=starting"]);
        h.set_started();
        h.set_status("logged in as wily");
        assert_eq!(
            n.step(t0),
            vec!["READY=1", "STATUS=logged in as wily", "WATCHDOG=1"]
        );
        // Not again before half the interval, nor READY twice.
        assert!(n.step(t0 + Duration::from_millis(20)).is_empty());
        assert_eq!(n.step(t0 + Duration::from_millis(60)), vec!["WATCHDOG=1"]);
    }

    #[test]
    fn a_stalled_loop_gets_no_pings() {
        let h = Arc::new(Health::new("wily"));
        h.set_started();
        h.beat();
        let mut n = Notifier::new(vec![h.clone()], Some(Duration::from_millis(20)));
        n.min_stall = Duration::from_millis(40);
        assert_eq!(n.stall_limit(), Duration::from_millis(40));
        assert!(n.step(Instant::now()).contains(&"WATCHDOG=1".to_string()));
        std::thread::sleep(Duration::from_millis(80));
        assert!(!n.step(Instant::now()).contains(&"WATCHDOG=1".to_string()));
        h.beat();
        assert!(n.step(Instant::now()).contains(&"WATCHDOG=1".to_string()));
    }

    #[test]
    fn several_accounts_all_needed() {
        let a = Arc::new(Health::new("a"));
        let b = Arc::new(Health::new("b"));
        let mut n = Notifier::new(vec![a.clone(), b.clone()], Some(Duration::from_secs(60)));
        a.set_started();
        a.set_status("playing game 7");
        assert_eq!(
            n.step(Instant::now()),
            vec!["STATUS=a: playing game 7; b: starting"]
        );
        b.set_started();
        assert_eq!(n.step(Instant::now()), vec!["READY=1", "WATCHDOG=1"]);
    }

    #[test]
    fn no_pings_without_a_watchdog() {
        let h = Arc::new(Health::new("wily"));
        h.set_started();
        let mut n = Notifier::new(vec![h], None);
        assert_eq!(n.period(), Duration::from_secs(1));
        assert_eq!(n.step(Instant::now()), vec!["READY=1", "STATUS=starting"]);
        assert!(n.step(Instant::now()).is_empty());
    }
}
