//! The connection: TCP connect with a timeout (or through a helper program), login, the
//! dialect's setup, then a task (`task.rs`) that reads the socket through the [`Pipeline`]
//! and hands events to the bot over a tokio channel, and sends the bot's lines through the
//! rate-limited [`OutQueue`]. This file holds [`connect`] and the login exchange, and
//! [`Connection`], the bot's handle for sending; the settings and errors are in
//! [`crate::settings`] (re-exported here).
//!
//! ```no_run
//! # async fn demo() -> Result<(), wily_link::connection::ConnectError> {
//! use wily_link::connection::{connect, ConnectConfig};
//! use ics::login::Login;
//! let (conn, mut events) = connect(ConnectConfig::new("127.0.0.1", 5000, Login::Guest)).await?;
//! conn.send("sought").ok();
//! while let Some(ev) = events.recv().await {
//!     println!("{ev:?}");
//! }
//! # Ok(()) }
//! ```

use std::sync::Arc;
use std::time::Instant;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use crate::helper::{self, Reader, Writer};
pub use crate::settings::{Closed, ConnectConfig, ConnectError, KeepAlive};
use crate::task::{Command, Link, Task};
use crate::wirelog::WireLog;
use ics::dialect::Dialect;
use ics::events::Event;
use ics::icc;
use ics::login::{Login, LoginFlow, Step};
use ics::outqueue::{OutLine, OutQueue, Topic};
use ics::pipeline::{Output, Pipeline, PipelineOptions};
use ics::timeseal;

/// Longest command line sent (servers cut longer input).
pub const MAX_COMMAND: usize = 1000;

/// The bot's handle on a live connection. Cheap to clone; when every clone is dropped the
/// connection logs out.
#[derive(Clone, Debug)]
pub struct Connection {
    tx: mpsc::UnboundedSender<Command>,
    handle: Arc<str>,
    guest: bool,
    dialect: Dialect,
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

    /// Queues a command about `topic` (rate-limited): it is dropped instead of going out
    /// late once a line about the same subject in another version is queued or the subject
    /// is expired (an iteration whisper about a position that is gone).
    pub fn send_topical(&self, cmd: &str, topic: Topic) -> Result<(), Closed> {
        self.tx
            .send(Command::Topical {
                text: sanitize(cmd),
                topic,
            })
            .map_err(|_| Closed)
    }

    /// The subject moved on: its topical lines still waiting are dropped.
    pub fn expire(&self, subject: u64) -> Result<(), Closed> {
        self.tx
            .send(Command::Expire { subject })
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
}
