//! The running-as-a-service sections of `config.toml`: `[service]` (how a SIGTERM ends
//! the bot) and `[web]` (the read-only dashboard of `wily ics`).

use settings::settings;

settings! {
    /// `[service]`: behaviour under a service manager (systemd).
    pub struct ServiceSection in "service" {
        /// After the first SIGTERM (or Ctrl-C), wait at most this long for the game in
        /// progress to end before leaving it (adjourned) and exiting; 0 = wait for the end.
        shutdown_limit_secs: u64 = 600, range 0..=86_400;
    }
}

settings! {
    /// `[web]`: the live dashboard. Off by default; read-only; binds the loopback address.
    pub struct WebSection in "web" {
        /// Serve the dashboard.
        enabled: bool = false;
        /// Address to listen on (an IP address; keep the default unless a reverse proxy with
        /// its own access control sits in front).
        bind: String = "127.0.0.1".into();
        /// TCP port (0 = any free port, printed at start-up).
        port: u16 = 8080;
        /// How many finished games the page lists.
        recent_games: usize = 20, range 1..=1000;
        /// Serve `/metrics` (Prometheus) and `/healthz` on the same listener.
        metrics: bool = true;
        /// `/healthz` reports an account's event loop as stalled after this many seconds
        /// without a heartbeat (the loop beats at least every second).
        stall_secs: u64 = 30, range 2..=3600;
    }
}
