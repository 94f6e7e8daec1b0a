//! What [`connect`](crate::connection::connect) takes and how it fails: the
//! connection settings ([`ConnectConfig`], with the keep-alive timings of [`KeepAlive`]),
//! the errors of connecting and logging in ([`ConnectError`]), and [`Closed`], the error of
//! sending on a connection that has ended.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::helper::{HelperConfig, HelperError};
use ics::dialect::Dialect;
use ics::login::{Login, LoginFailure};
use ics::outqueue::RateLimit;
use ics::parse::ClockUnit;

/// Keep-alive and dead-connection settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeepAlive {
    /// Send the dialect's harmless command after this long without sending anything, so
    /// the server does not log us out for idling (`None`: never).
    pub idle: Option<Duration>,
    /// After this long without a byte from the server, send a probe command.
    pub probe_after: Duration,
    /// No byte within this time after a probe: the connection is dead.
    pub probe_timeout: Duration,
}

impl Default for KeepAlive {
    fn default() -> Self {
        KeepAlive {
            idle: Some(Duration::from_secs(20 * 60)),
            probe_after: Duration::from_secs(120),
            probe_timeout: Duration::from_secs(60),
        }
    }
}

/// Everything `connect` needs.
#[derive(Debug, Clone)]
pub struct ConnectConfig {
    pub host: String,
    pub port: u16,
    pub dialect: Dialect,
    /// Timeseal v1 (FICS only; the server must support it).
    pub timeseal: bool,
    pub login: Login,
    pub connect_timeout: Duration,
    /// From the TCP connection to the end of login.
    pub login_timeout: Duration,
    pub rate_limit: RateLimit,
    pub keepalive: KeepAlive,
    /// Append a wire-level transcript here (password masked).
    pub wire_log: Option<PathBuf>,
    /// `set interface` value.
    pub interface: String,
    /// Send the dialect's setup commands after login.
    pub setup: bool,
    /// More commands to send after the setup.
    pub extra_setup: Vec<String>,
    /// Interface variables sent with the setup, before `iset lock 1` (FICS only): the
    /// bot's `iset fr 1` when it accepts Chess960.
    pub ivariables: Vec<(String, String)>,
    pub clock_unit: ClockUnit,
    /// Capacity of the event channel.
    pub event_buffer: usize,
    /// ICC only: turn on level-2 datagrams at login (`server.icc_level2`); off reads the
    /// style-12 text as on FICS.
    pub icc_level2: bool,
    /// Talk to the server through this helper program (`server.helper`, ICC's
    /// `timestamp`) instead of a direct TCP connection.
    pub helper: Option<HelperConfig>,
}

impl ConnectConfig {
    /// Defaults: FICS dialect, timeseal off (turn it on for servers that decode it), 30 s
    /// connect and 60 s login timeouts, 2 lines/s with bursts of 8, keep-alive every 20
    /// minutes of silence, probe after 2 minutes without data.
    pub fn new(host: impl Into<String>, port: u16, login: Login) -> ConnectConfig {
        ConnectConfig {
            host: host.into(),
            port,
            dialect: Dialect::Fics,
            timeseal: false,
            login,
            connect_timeout: Duration::from_secs(30),
            login_timeout: Duration::from_secs(60),
            rate_limit: RateLimit::default(),
            keepalive: KeepAlive::default(),
            wire_log: None,
            interface: format!("wily {}", env!("CARGO_PKG_VERSION")),
            setup: true,
            extra_setup: Vec::new(),
            ivariables: Vec::new(),
            clock_unit: ClockUnit::Auto,
            event_buffer: 1024,
            icc_level2: true,
            helper: None,
        }
    }
}

/// Why `connect` failed.
#[derive(Debug)]
pub enum ConnectError {
    InvalidConfig(String),
    /// The TCP connection failed.
    Connect(std::io::Error),
    ConnectTimeout,
    /// The helper program (`server.helper`) is missing or would not start.
    Helper(HelperError),
    LoginTimeout,
    /// The server refused the login; final for these credentials (do not retry at once).
    Login(LoginFailure),
    /// The server closed the connection during login.
    ClosedDuringLogin,
    Io(std::io::Error),
}

impl ConnectError {
    /// True when retrying with the same settings cannot help (wrong password, refused
    /// name, bad settings): the caller must not reconnect in a loop.
    pub fn is_final(&self) -> bool {
        match self {
            ConnectError::Login(_) | ConnectError::InvalidConfig(_) => true,
            ConnectError::Helper(h) => h.is_final(),
            _ => false,
        }
    }
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectError::InvalidConfig(s) => write!(f, "invalid connection settings: {s}"),
            ConnectError::Connect(e) => write!(f, "cannot connect: {e}"),
            ConnectError::ConnectTimeout => f.write_str("connecting timed out"),
            ConnectError::Helper(h) => write!(f, "{h}"),
            ConnectError::LoginTimeout => f.write_str("logging in timed out"),
            ConnectError::Login(l) => write!(f, "{l}"),
            ConnectError::ClosedDuringLogin => {
                f.write_str("the server closed the connection during login")
            }
            ConnectError::Io(e) => write!(f, "connection error: {e}"),
        }
    }
}

impl std::error::Error for ConnectError {}

/// The connection is closed; nothing more can be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the server connection is closed")
    }
}

impl std::error::Error for Closed {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_whether_to_retry() {
        assert!(ConnectError::Login(LoginFailure::BadPassword { handle: "a".into() }).is_final());
        assert!(!ConnectError::ConnectTimeout.is_final());
        assert!(!ConnectError::ClosedDuringLogin.is_final());
        let s = ConnectError::Login(LoginFailure::BadPassword {
            handle: "wily".into(),
        })
        .to_string();
        assert!(s.contains("password") && s.contains("wily"));
    }

    #[test]
    fn config_debug_hides_the_password() {
        let cfg = ConnectConfig::new(
            "h",
            1,
            Login::Registered {
                handle: "wily".into(),
                password: ics::login::Password::new("pw-xyz"),
            },
        );
        assert!(!format!("{cfg:?}").contains("pw-xyz"));
    }
}
