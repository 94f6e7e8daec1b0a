//! The connection: TCP connect with a timeout, login, the dialect's setup, then a task that
//! reads the socket through the [`Pipeline`] and hands events to the bot over a tokio
//! channel, sends the bot's lines through the rate-limited [`OutQueue`] (timeseal-encoded
//! when on), answers telnet negotiation and timeseal pings, keeps the session from idling
//! out and notices a dead connection.
//!
//! ```no_run
//! # async fn demo() -> Result<(), wily::link::connection::ConnectError> {
//! use wily::link::connection::{connect, ConnectConfig};
//! use wily::ics::login::Login;
//! let (conn, mut events) = connect(ConnectConfig::new("127.0.0.1", 5000, Login::Guest)).await?;
//! conn.send("sought").ok();
//! while let Some(ev) = events.recv().await {
//!     println!("{ev:?}");
//! }
//! # Ok(()) }
//! ```

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use crate::ics::dialect::Dialect;
use crate::ics::events::{DisconnectReason, Event};
use crate::ics::icc;
use crate::ics::login::{Login, LoginFailure, LoginFlow, Step};
use crate::ics::outqueue::{OutLine, OutQueue, RateLimit};
use crate::ics::parse::ClockUnit;
use crate::ics::pipeline::{Output, Pipeline, PipelineOptions};
use crate::ics::timeseal;
use crate::link::helper::{self, HelperConfig, HelperError, Reader, Writer};
use crate::link::wirelog::WireLog;

/// A write that does not finish in this time means the connection is gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// A line held for a possible `\` continuation is released after this much silence.
const HOLD_FLUSH: Duration = Duration::from_millis(150);
/// Longest command line sent (servers cut longer input).
pub const MAX_COMMAND: usize = 1000;

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

enum Command {
    Line { text: String, urgent: bool },
    Close,
}

/// The bot's handle on a live connection. Cheap to clone; when every clone is dropped the
/// connection logs out.
#[derive(Clone, Debug)]
pub struct Connection {
    tx: mpsc::UnboundedSender<Command>,
    handle: Arc<str>,
    guest: bool,
    dialect: Dialect,
}

impl fmt::Debug for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Line { urgent, .. } => write!(f, "Line(urgent={urgent})"),
            Command::Close => f.write_str("Close"),
        }
    }
}

/// Makes one safe command line: line breaks become spaces (text from anywhere can never
/// start a second command), other control bytes are dropped, non-ASCII becomes `?`, and
/// the length is capped.
pub fn sanitize(cmd: &str) -> String {
    let mut s: String = cmd
        .chars()
        .filter_map(|c| match c {
            '\r' | '\n' => Some(' '),
            c if c.is_control() => None,
            c if c.is_ascii() => Some(c),
            _ => Some('?'),
        })
        .collect();
    s.truncate(MAX_COMMAND);
    s
}

impl Connection {
    /// The name the server logged us in as (`GuestXXXX` for guests).
    pub fn handle(&self) -> &str {
        &self.handle
    }

    pub fn is_guest(&self) -> bool {
        self.guest
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Queues a command (rate-limited).
    pub fn send(&self, cmd: &str) -> Result<(), Closed> {
        self.tx
            .send(Command::Line {
                text: sanitize(cmd),
                urgent: false,
            })
            .map_err(|_| Closed)
    }

    /// Sends a command ahead of everything queued, without rate limiting.
    pub fn send_urgent(&self, cmd: &str) -> Result<(), Closed> {
        self.tx
            .send(Command::Line {
                text: sanitize(cmd),
                urgent: true,
            })
            .map_err(|_| Closed)
    }

    /// Sends a move, urgent. Write it with `chess::san::to_ics_move` (`e2e4`, `o-o`,
    /// `e7e8=q`): a form every FICS-lineage server takes (lasker refuses `e7e8q`).
    pub fn send_move(&self, mv: &str) -> Result<(), Closed> {
        let mv = sanitize(mv.trim());
        self.tx
            .send(Command::Line {
                text: mv,
                urgent: true,
            })
            .map_err(|_| Closed)
    }

    /// Logs out (`quit`) and closes the socket; the event stream ends with
    /// `Disconnected { ClosedByClient }`.
    pub fn close(&self) {
        let _ = self.tx.send(Command::Close);
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Waits until the connection task has ended.
    pub async fn closed(&self) {
        self.tx.closed().await;
    }
}

/// The write side and the receive path of a connection.
struct Link {
    writer: Writer,
    pipeline: Pipeline,
    out: Output,
    timeseal: bool,
    wire: WireLog,
    last_rx: Instant,
    last_tx: Instant,
}

impl Link {
    async fn write_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match tokio::time::timeout(WRITE_TIMEOUT, self.writer.write_all(bytes)).await {
            Ok(r) => r?,
            Err(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "write timed out",
                ))
            }
        }
        self.last_tx = Instant::now();
        Ok(())
    }

    async fn write_line(&mut self, line: &OutLine) -> std::io::Result<()> {
        self.wire.sent(&line.text, line.secret);
        if !line.secret {
            tracing::trace!(line = %line.text, "ics ->");
        }
        let bytes = if self.timeseal {
            timeseal::encode_line(line.text.as_bytes(), timeseal::timestamp_now())
        } else {
            let mut b = Vec::with_capacity(line.text.len() + 1);
            b.extend_from_slice(line.text.as_bytes());
            b.push(b'\n');
            b
        };
        self.write_bytes(&bytes).await
    }

    /// Runs received bytes through the pipeline and answers what needs an answer.
    async fn receive(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.last_rx = Instant::now();
        self.wire.received(bytes);
        self.pipeline.feed(bytes, &mut self.out);
        for w in self.out.warnings.drain(..) {
            tracing::warn!("ics: {w}");
            self.wire.note(&w);
        }
        if !self.out.telnet_replies.is_empty() {
            let replies = std::mem::take(&mut self.out.telnet_replies);
            self.write_bytes(&replies).await?;
        }
        let pings = std::mem::take(&mut self.out.pings);
        if self.timeseal {
            for _ in 0..pings {
                self.wire.note("timeseal ping answered");
                let reply = timeseal::encode_line(
                    timeseal::PING_REPLY.as_bytes(),
                    timeseal::timestamp_now(),
                );
                self.write_bytes(&reply).await?;
            }
        }
        Ok(())
    }
}

async fn read_some(reader: &mut Reader, buf: &mut [u8]) -> std::io::Result<usize> {
    reader.read(buf).await
}

/// Connects, logs in and sends the setup. Must be called inside a tokio runtime: the
/// connection's task is spawned on it. Events (including those seen during login and a
/// final [`Event::LoggedIn`]) arrive on the returned receiver, which ends after
/// [`Event::Disconnected`].
pub async fn connect(
    cfg: ConnectConfig,
) -> Result<(Connection, mpsc::Receiver<Event>), ConnectError> {
    if cfg.host.trim().is_empty() {
        return Err(ConnectError::InvalidConfig(
            "the server host is empty".into(),
        ));
    }
    if cfg.timeseal && cfg.dialect == Dialect::Icc {
        return Err(ConnectError::InvalidConfig(
            "timeseal is a FICS protocol; turn it off for ICC".into(),
        ));
    }
    let secret = match &cfg.login {
        Login::Registered { password, .. } => Some(password.expose().to_string()),
        _ => None,
    };
    let mut wire = match &cfg.wire_log {
        Some(path) => WireLog::open(path, secret.as_deref()).unwrap_or_else(|e| {
            tracing::warn!(error = %e, path = %path.display(), "ics: cannot open the wire log; going on without it");
            WireLog::disabled()
        }),
        None => WireLog::disabled(),
    };
    let (mut reader, writer, child): (Reader, Writer, _) = match &cfg.helper {
        None => {
            let addr = (cfg.host.as_str(), cfg.port);
            let stream =
                match tokio::time::timeout(cfg.connect_timeout, TcpStream::connect(addr)).await {
                    Ok(Ok(s)) => s,
                    Ok(Err(e)) => return Err(ConnectError::Connect(e)),
                    Err(_) => return Err(ConnectError::ConnectTimeout),
                };
            let _ = stream.set_nodelay(true);
            wire.note(&format!("connected to {}:{}", cfg.host, cfg.port));
            tracing::info!(host = %cfg.host, port = cfg.port, "ics: connected");
            let (r, w) = stream.into_split();
            (Box::new(r), Box::new(w), None)
        }
        Some(h) => {
            let started =
                tokio::time::timeout(cfg.connect_timeout, helper::start(h, &cfg.host, cfg.port))
                    .await;
            let helper = match started {
                Ok(Ok(x)) => x,
                Ok(Err(e)) => return Err(ConnectError::Helper(e)),
                Err(_) => return Err(ConnectError::ConnectTimeout),
            };
            wire.note(&format!(
                "connected to {}:{} through the helper {}",
                cfg.host,
                cfg.port,
                h.program.display()
            ));
            (
                helper.reader,
                helper.writer,
                Some((helper.child, h.program.clone())),
            )
        }
    };
    let level2 = cfg.dialect == Dialect::Icc && cfg.icc_level2;
    let now = Instant::now();
    let mut link = Link {
        writer,
        pipeline: Pipeline::new(PipelineOptions {
            answer_telnet: !cfg.timeseal,
            clock_unit: cfg.clock_unit,
            icc_level2: level2,
            icc_moves: icc::parse::MoveFields::from_settings(&icc::login::turned_on()),
        }),
        out: Output::default(),
        timeseal: cfg.timeseal,
        wire,
        last_rx: now,
        last_tx: now,
    };
    let mut buf = vec![0u8; 16 * 1024];
    let mut early = Vec::new();
    let login = login_phase(&mut link, &mut reader, &mut buf, &cfg, &mut early);
    let (handle, guest) = match tokio::time::timeout(cfg.login_timeout, login).await {
        Ok(r) => r?,
        Err(_) => return Err(ConnectError::LoginTimeout),
    };
    tracing::info!(%handle, guest, "ics: logged in");

    let mut queue = OutQueue::new(cfg.rate_limit, Instant::now());
    if cfg.setup {
        let interface = sanitize(&cfg.interface);
        let ivars: Vec<(String, String)> = cfg
            .ivariables
            .iter()
            .map(|(k, v)| (sanitize(k), sanitize(v)))
            .filter(|(k, v)| !k.is_empty() && !v.is_empty() && !k.contains(' ') && !v.contains(' '))
            .collect();
        let setup = if level2 {
            icc::login::setup_commands(&interface)
        } else {
            cfg.dialect.setup_commands_with(&interface, &ivars)
        };
        for c in setup {
            queue.push(
                OutLine {
                    text: c,
                    secret: false,
                },
                false,
            );
        }
    }
    for c in &cfg.extra_setup {
        queue.push(
            OutLine {
                text: sanitize(c),
                secret: false,
            },
            false,
        );
    }

    let (ev_tx, ev_rx) = mpsc::channel(cfg.event_buffer.max(16));
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let conn = Connection {
        tx: cmd_tx,
        handle: Arc::from(handle.as_str()),
        guest,
        dialect: cfg.dialect,
    };
    let task = Task {
        link,
        reader,
        buf,
        queue,
        cmd_rx,
        ev_tx,
        keepalive: cfg.keepalive,
        dialect: cfg.dialect,
        helper: child,
    };
    tokio::spawn(task.run(early));
    Ok((conn, ev_rx))
}

async fn login_phase(
    link: &mut Link,
    reader: &mut Reader,
    buf: &mut [u8],
    cfg: &ConnectConfig,
    early: &mut Vec<Event>,
) -> Result<(String, bool), ConnectError> {
    if cfg.timeseal {
        let hello = timeseal::hello(
            "wily",
            &format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        );
        link.write_line(&OutLine {
            text: hello,
            secret: false,
        })
        .await
        .map_err(ConnectError::Io)?;
        link.wire.note("timeseal on");
    }
    let mut flow = if cfg.dialect == Dialect::Icc && cfg.icc_level2 {
        LoginFlow::with_preamble(cfg.login.clone(), icc::login::login_preamble())
    } else {
        LoginFlow::new(cfg.login.clone())
    };
    loop {
        let n = read_some(reader, buf).await.map_err(ConnectError::Io)?;
        if n == 0 {
            return Err(match flow.on_closed() {
                Some(f) => {
                    tracing::warn!(reason = %f, "ics: login failed");
                    ConnectError::Login(f)
                }
                None => ConnectError::ClosedDuringLogin,
            });
        }
        link.receive(&buf[..n]).await.map_err(ConnectError::Io)?;
        let events = std::mem::take(&mut link.out.events);
        let mut done = None;
        for ev in events {
            let steps = if done.is_none() {
                flow.on_event_all(&ev)
            } else {
                Vec::new()
            };
            early.push(ev);
            for step in steps {
                match step {
                    Step::Send { line, secret } => {
                        link.write_line(&OutLine {
                            text: sanitize(&line),
                            secret,
                        })
                        .await
                        .map_err(ConnectError::Io)?;
                    }
                    Step::Done { handle, guest } => {
                        early.push(Event::LoggedIn {
                            handle: handle.clone(),
                            guest,
                        });
                        done = Some((handle, guest));
                    }
                    Step::Failed(f) => {
                        tracing::warn!(reason = %f, "ics: login failed");
                        link.wire.note("login failed");
                        return Err(ConnectError::Login(f));
                    }
                }
            }
        }
        if let Some(d) = done {
            return Ok(d);
        }
    }
}

/// The connection task.
struct Task {
    link: Link,
    reader: Reader,
    buf: Vec<u8>,
    queue: OutQueue,
    cmd_rx: mpsc::UnboundedReceiver<Command>,
    ev_tx: mpsc::Sender<Event>,
    keepalive: KeepAlive,
    dialect: Dialect,
    /// The helper program and its path, when the connection runs through one.
    helper: Option<(tokio::process::Child, PathBuf)>,
}

fn log_event(ev: &Event) {
    match ev {
        Event::Unknown(line) => tracing::debug!(%line, "ics: unrecognised line"),
        Event::CommandNotFound { command } => {
            tracing::info!(%command, "ics: server says command not found")
        }
        Event::CommandFailed { command } => {
            tracing::info!(%command, "ics: server says command failed")
        }
        Event::SettingRefused { name } => tracing::info!(%name, "ics: server refused a setting"),
        Event::AutoLogout { text } => tracing::warn!(%text, "ics: auto-logout"),
        Event::IdleWarning { text } => tracing::warn!(%text, "ics: idle warning"),
        Event::SessionReplaced { text } => {
            tracing::info!(%text, "ics: the server closed an older session of this account")
        }
        Event::SessionTakenOver { text } => {
            tracing::warn!(%text, "ics: another login of this account took over this session")
        }
        _ => {}
    }
}

enum Wake {
    Data(std::io::Result<usize>),
    Cmd(Option<Command>),
    Timer,
}

impl Task {
    /// Hands events to the bot; false when the bot has gone.
    async fn forward(&mut self, events: Vec<Event>) -> bool {
        for ev in events {
            log_event(&ev);
            if self.ev_tx.send(ev).await.is_err() {
                return false;
            }
        }
        true
    }

    async fn quit(&mut self) {
        let _ = self
            .link
            .write_line(&OutLine {
                text: "quit".into(),
                secret: false,
            })
            .await;
        let _ = self.link.writer.shutdown().await;
    }

    async fn run(mut self, early: Vec<Event>) {
        let reason = self.run_inner(early).await;
        if let Some((child, program)) = &mut self.helper {
            helper::report_exit(child, program);
        }
        self.link.wire.note(&format!("disconnected: {reason:?}"));
        tracing::info!(?reason, "ics: disconnected");
        let _ = self.ev_tx.send(Event::Disconnected { reason }).await;
    }

    async fn run_inner(&mut self, early: Vec<Event>) -> DisconnectReason {
        if !self.forward(early).await {
            self.quit().await;
            return DisconnectReason::ClosedByClient;
        }
        let ka = self.keepalive;
        let mut probe: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let mut wake = now + Duration::from_secs(3600);
            if let Some(t) = self.queue.next_due(now) {
                wake = wake.min(t);
            }
            if let Some(idle) = ka.idle {
                wake = wake.min(self.link.last_tx + idle);
            }
            match probe {
                None => wake = wake.min(self.link.last_rx + ka.probe_after),
                Some(t) => wake = wake.min(t + ka.probe_timeout),
            }
            if self.link.pipeline.has_held() {
                wake = wake.min(self.link.last_rx + HOLD_FLUSH);
            }
            let woke = tokio::select! {
                r = self.reader.read(&mut self.buf) => Wake::Data(r),
                c = self.cmd_rx.recv() => Wake::Cmd(c),
                _ = tokio::time::sleep_until(tokio::time::Instant::from_std(wake)) => Wake::Timer,
            };
            match woke {
                Wake::Data(Ok(0)) => {
                    self.link.pipeline.finish(&mut self.link.out);
                    for w in self.link.out.warnings.drain(..) {
                        tracing::warn!("ics: {w}");
                    }
                    let events = std::mem::take(&mut self.link.out.events);
                    self.forward(events).await;
                    return DisconnectReason::ClosedByServer;
                }
                Wake::Data(Ok(n)) => {
                    if let Err(e) = self.link.receive(&self.buf[..n]).await {
                        return DisconnectReason::Error(e.to_string());
                    }
                    probe = None;
                    let events = std::mem::take(&mut self.link.out.events);
                    if !self.forward(events).await {
                        self.quit().await;
                        return DisconnectReason::ClosedByClient;
                    }
                }
                Wake::Data(Err(e)) => return DisconnectReason::Error(e.to_string()),
                Wake::Cmd(Some(Command::Line { text, urgent })) => {
                    if !self.queue.push(
                        OutLine {
                            text,
                            secret: false,
                        },
                        urgent,
                    ) {
                        tracing::warn!(
                            dropped = self.queue.dropped(),
                            "ics: outgoing queue full; line dropped"
                        );
                    }
                }
                Wake::Cmd(Some(Command::Close)) | Wake::Cmd(None) => {
                    self.quit().await;
                    return DisconnectReason::ClosedByClient;
                }
                Wake::Timer => {}
            }
            let now = Instant::now();
            if self.link.pipeline.has_held() && now.duration_since(self.link.last_rx) >= HOLD_FLUSH
            {
                self.link.pipeline.flush(&mut self.link.out);
                let events = std::mem::take(&mut self.link.out.events);
                if !self.forward(events).await {
                    self.quit().await;
                    return DisconnectReason::ClosedByClient;
                }
            }
            match probe {
                Some(sent) if now.duration_since(sent) >= ka.probe_timeout => {
                    tracing::warn!("ics: no answer from the server; the connection is dead");
                    return DisconnectReason::Dead;
                }
                None if now.duration_since(self.link.last_rx) >= ka.probe_after => {
                    probe = Some(now);
                    self.queue.push(
                        OutLine {
                            text: self.dialect.keepalive_command().into(),
                            secret: false,
                        },
                        true,
                    );
                }
                _ => {}
            }
            if let Some(idle) = ka.idle {
                if self.queue.is_empty() && now.duration_since(self.link.last_tx) >= idle {
                    self.queue.push(
                        OutLine {
                            text: self.dialect.keepalive_command().into(),
                            secret: false,
                        },
                        false,
                    );
                }
            }
            while let Some(line) = self.queue.pop(Instant::now()) {
                if let Err(e) = self.link.write_line(&line).await {
                    return DisconnectReason::Error(e.to_string());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_single_safe_lines() {
        assert_eq!(sanitize("tell x hi\nquit"), "tell x hi quit");
        assert_eq!(sanitize("a\r\nb\x07c"), "a  bc");
        assert_eq!(sanitize("whisper é"), "whisper ?");
        assert_eq!(sanitize(&"x".repeat(5000)).len(), MAX_COMMAND);
    }

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
                password: crate::ics::login::Password::new("pw-xyz"),
            },
        );
        assert!(!format!("{cfg:?}").contains("pw-xyz"));
    }
}
