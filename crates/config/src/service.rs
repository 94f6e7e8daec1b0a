//! The running-as-a-service sections of `config.toml`: `[service]` (how a SIGTERM ends
//! the bot) and `[web]` (the read-only dashboard of `wily ics`).

use serde::Deserialize;

/// `[service]`: behaviour under a service manager (systemd).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ServiceSection {
    /// After the first SIGTERM (or Ctrl-C), wait at most this long for the game in
    /// progress to end before leaving it (adjourned) and exiting; 0 = wait for the end.
    pub shutdown_limit_secs: u64,
}

impl Default for ServiceSection {
    fn default() -> Self {
        ServiceSection {
            shutdown_limit_secs: 600,
        }
    }
}

/// `[web]`: the live dashboard. Off by default; read-only; binds the loopback address.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct WebSection {
    pub enabled: bool,
    /// Address to listen on (an IP address; keep the default unless a reverse proxy with
    /// its own access control sits in front).
    pub bind: String,
    /// TCP port (0 = any free port, printed at start-up).
    pub port: u16,
    /// How many finished games the page lists.
    pub recent_games: usize,
    /// Serve `/metrics` (Prometheus) and `/healthz` on the same listener.
    pub metrics: bool,
    /// `/healthz` reports an account's event loop as stalled after this many seconds
    /// without a heartbeat (the loop beats at least every second).
    pub stall_secs: u64,
}

impl Default for WebSection {
    fn default() -> Self {
        WebSection {
            enabled: false,
            bind: "127.0.0.1".into(),
            port: 8080,
            recent_games: 20,
            metrics: true,
            stall_secs: 30,
        }
    }
}
