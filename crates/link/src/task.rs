//! The connection task that runs once login is done: it reads the socket through the
//! [`Pipeline`] and hands the events to the bot, sends the bot's lines through the
//! rate-limited [`OutQueue`] (timeseal-encoded when on), answers telnet negotiation and
//! timeseal pings, keeps the session from idling out and notices a dead connection. The
//! write side and receive path ([`Link`]) are shared with the login exchange.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::helper::{self, Reader, Writer};
use crate::settings::KeepAlive;
use crate::wirelog::WireLog;
use ics::dialect::Dialect;
use ics::events::{DisconnectReason, Event};
use ics::outqueue::{OutLine, OutQueue, Topic};

/// At logout at most this many waiting lines are still sent before `quit`.
const QUIT_FLUSH: usize = 32;
/// After `quit`, the server's answers are read (and logged) for at most this long, until
/// it closes the connection.
const QUIT_LINGER: Duration = Duration::from_secs(2);
use ics::pipeline::{Output, Pipeline};
use ics::timeseal;

/// A write that does not finish in this time means the connection is gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// A line held for a possible `\` continuation is released after this much silence.
const HOLD_FLUSH: Duration = Duration::from_millis(150);

/// What a [`Connection`](crate::Connection) asks of its task.
pub(super) enum Command {
    Line {
        text: String,
        urgent: bool,
    },
    /// An ordinary line about a topic: dropped if the topic moves on before it goes out.
    Topical {
        text: String,
        topic: Topic,
    },
    /// The subject moved on: its waiting topical lines are stale.
    Expire {
        subject: u64,
    },
    Close,
}

impl fmt::Debug for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Line { urgent, .. } => write!(f, "Line(urgent={urgent})"),
            Command::Topical { topic, .. } => write!(f, "Topical({topic:?})"),
            Command::Expire { subject } => write!(f, "Expire({subject})"),
            Command::Close => f.write_str("Close"),
        }
    }
}

/// The write side and the receive path of a connection.
pub(super) struct Link {
    pub(super) writer: Writer,
    pub(super) pipeline: Pipeline,
    pub(super) out: Output,
    pub(super) timeseal: bool,
    pub(super) wire: WireLog,
    pub(super) last_rx: Instant,
    pub(super) last_tx: Instant,
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

    pub(super) async fn write_line(&mut self, line: &OutLine) -> std::io::Result<()> {
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
    pub(super) async fn receive(&mut self, bytes: &[u8]) -> std::io::Result<()> {
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
/// The connection task.
pub(super) struct Task {
    pub(super) link: Link,
    pub(super) reader: Reader,
    pub(super) buf: Vec<u8>,
    pub(super) queue: OutQueue,
    pub(super) cmd_rx: mpsc::UnboundedReceiver<Command>,
    pub(super) ev_tx: mpsc::Sender<Event>,
    pub(super) keepalive: KeepAlive,
    pub(super) dialect: Dialect,
    /// The helper program and its path, when the connection runs through one.
    pub(super) helper: Option<(tokio::process::Child, PathBuf)>,
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

    /// Logs out: the lines still waiting in the queue go first (at most
    /// [`QUIT_FLUSH`] of them, past the rate limit: the session ends anyway), then `quit`.
    /// Then the socket stays open for reading until the server closes it (at most
    /// [`QUIT_LINGER`]): a socket closed while the server's answers to those lines are on
    /// their way is reset, and a server that meets the reset before it has read every
    /// line loses the rest (a tournament withdrawal sent at shutdown was lost so).
    async fn quit(&mut self) {
        for line in self.queue.drain().into_iter().take(QUIT_FLUSH) {
            if self.link.write_line(&line).await.is_err() {
                return;
            }
        }
        let _ = self
            .link
            .write_line(&OutLine {
                text: "quit".into(),
                secret: false,
            })
            .await;
        let _ = self.link.writer.shutdown().await;
        let linger = async {
            loop {
                match self.reader.read(&mut self.buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => self.link.wire.received(&self.buf[..n]),
                }
            }
        };
        let _ = tokio::time::timeout(QUIT_LINGER, linger).await;
    }

    pub(super) async fn run(mut self, early: Vec<Event>) {
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
                Wake::Cmd(Some(Command::Topical { text, topic })) => {
                    let line = OutLine {
                        text,
                        secret: false,
                    };
                    if !self.queue.push_topical(line, topic) {
                        tracing::warn!(
                            dropped = self.queue.dropped(),
                            "ics: outgoing queue full; line dropped"
                        );
                    }
                }
                Wake::Cmd(Some(Command::Expire { subject })) => self.queue.expire(subject),
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
