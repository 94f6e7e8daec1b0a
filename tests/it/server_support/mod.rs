//! Shared helpers of the `server_*` tests: a raw TCP client that keeps every
//! byte the local server sends, waits for exact byte strings with a time
//! limit, and logs in the way the recorded clients did.

#![allow(dead_code)]

pub(crate) use crate::shared_data;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use wily::server::{start, Account, ServerConfig, ServerHandle};

/// How long any single wait may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(10);

/// Start a server on a free loopback port with AlphaBot, BetaBot (a
/// computer), GammaBot and DeltaBot registered.
pub async fn server() -> ServerHandle {
    server_with(|c| c).await
}

pub async fn server_with(f: impl FnOnce(ServerConfig) -> ServerConfig) -> ServerHandle {
    let cfg = ServerConfig::local(0)
        .with_account(Account::new("AlphaBot", "alpha"))
        .with_account(Account::new("BetaBot", "beta"))
        .with_account(Account::new("GammaBot", "gamma"))
        .with_account(Account::new("DeltaBot", "delta").computer());
    start(f(cfg)).await.expect("server starts")
}

/// The recordings folder, or `None` (the caller prints a skip message).
pub fn recordings() -> Option<PathBuf> {
    let base = shared_data::root();
    let p = base.join("data/ics/lasker");
    if p.is_dir() {
        Some(p)
    } else {
        shared_data::need::missing(
            &format!("recorded server traffic {}", p.display()),
            shared_data::need::SHARED_HOW,
        );
        None
    }
}

/// Bytes of one recording.
pub fn recording(name: &str) -> Option<Vec<u8>> {
    std::fs::read(recordings()?.join(name)).ok()
}

/// Whether `hay` contains `needle`.
pub fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A raw client.
pub struct Client {
    stream: TcpStream,
    /// Every byte received.
    pub all: Vec<u8>,
    /// How much of `all` the waits have consumed.
    pub pos: usize,
    pub name: String,
    closed: bool,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).await.expect("connect");
        Client {
            stream,
            all: Vec::new(),
            pos: 0,
            name: String::new(),
            closed: false,
        }
    }

    /// Log in: `guest`, a registered name with its password, or an
    /// unregistered name (password `None`). Waits for the first prompt.
    pub async fn login(addr: SocketAddr, name: &str, password: Option<&str>) -> Client {
        let mut c = Client::connect(addr).await;
        c.expect("login: ").await;
        c.send(name).await;
        match password {
            Some(p) => {
                c.expect("password: ").await;
                c.send(p).await;
            }
            None => {
                c.expect("Press return to enter the server as \"").await;
                let rest = c.expect("\":").await;
                c.name = rest.trim_end_matches("\":").to_string();
                c.send("").await;
            }
        }
        let start = c.expect("**** Starting FICS session as ").await;
        let _ = start;
        let line = c.expect(" ****").await;
        c.name = line
            .trim_end_matches(" ****")
            .trim_end_matches("(U)")
            .to_string();
        c.expect("fics% ").await;
        c
    }

    /// Send a line. Line ends and prompts left over from earlier blocks are
    /// skipped first, so the next wait sees only what answers this line.
    pub async fn send(&mut self, line: &str) {
        loop {
            let rest = &self.all[self.pos..];
            if rest.starts_with(b"fics% ") {
                self.pos += 6;
            } else if rest.starts_with(b"\n\r") {
                self.pos += 2;
            } else {
                break;
            }
        }
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("send");
    }

    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes).await;
    }

    /// Read once (with a deadline); false when the connection closed.
    async fn fill(&mut self, deadline: tokio::time::Instant) -> bool {
        let mut buf = [0u8; 8192];
        match tokio::time::timeout_at(deadline, self.stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                self.closed = true;
                false
            }
            Ok(Ok(n)) => {
                self.all.extend_from_slice(&buf[..n]);
                true
            }
            Err(_) => true,
        }
    }

    fn unread(&self) -> String {
        String::from_utf8_lossy(&self.all[self.pos..]).replace('\r', "^M")
    }

    /// Wait for exact bytes; returns the text from the read position to the
    /// end of the match (`\r` removed) and moves the position past it.
    pub async fn expect(&mut self, needle: &str) -> String {
        self.expect_any(&[needle]).await
    }

    /// Wait for whichever of `needles` comes first; like [`Client::expect`].
    pub async fn expect_any(&mut self, needles: &[&str]) -> String {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let first = needles
                .iter()
                .filter_map(|n| find(&self.all[self.pos..], n.as_bytes()).map(|i| (i, n.len())))
                .min();
            if let Some((i, len)) = first {
                let end = self.pos + i + len;
                let text = String::from_utf8_lossy(&self.all[self.pos..end]).replace('\r', "");
                self.pos = end;
                return text;
            }
            if tokio::time::Instant::now() >= deadline || self.closed {
                panic!(
                    "{}: waited for one of {:?}; unread: {:?}",
                    self.name,
                    needles,
                    self.unread()
                );
            }
            self.fill(deadline).await;
        }
    }

    /// Wait for a line that starts with `prefix`; returns the whole line.
    pub async fn line_starting(&mut self, prefix: &str) -> String {
        self.expect(prefix).await;
        let rest = self.expect("\n\r").await;
        format!("{prefix}{}", rest.trim_end_matches('\n'))
    }

    /// The next style 12 line.
    pub async fn board(&mut self) -> String {
        self.line_starting("<12> ").await
    }

    /// Send and wait for the reply ending at the next prompt.
    pub async fn cmd(&mut self, line: &str) -> String {
        self.send(line).await;
        self.expect("fics% ").await
    }

    /// Read whatever arrives during `d` (not consumed).
    pub async fn settle(&mut self, d: Duration) {
        let deadline = tokio::time::Instant::now() + d;
        while tokio::time::Instant::now() < deadline && !self.closed {
            self.fill(deadline).await;
        }
    }

    /// Wait until the server closes the connection.
    pub async fn expect_closed(&mut self) {
        let deadline = tokio::time::Instant::now() + WAIT;
        while !self.closed {
            if tokio::time::Instant::now() >= deadline {
                panic!(
                    "{}: connection still open; unread: {:?}",
                    self.name,
                    self.unread()
                );
            }
            self.fill(deadline).await;
        }
    }

    /// Drop the connection without `quit`.
    pub async fn drop_connection(self) {
        drop(self.stream);
    }
}

/// Run a test body with an overall time limit.
pub async fn bounded<F: std::future::Future<Output = ()>>(secs: u64, f: F) {
    tokio::time::timeout(Duration::from_secs(secs), f)
        .await
        .expect("test took too long");
}

/// Fields of a style 12 line.
pub fn fields(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// Start a game: `white` challenges `black` for `white`, `black` accepts.
/// Returns after both have the first board.
pub async fn start_match(white: &mut Client, black: &mut Client, terms: &str) -> (String, String) {
    white
        .send(&format!("match {} {terms} white", black.name))
        .await;
    white.expect("Issuing: ").await;
    black.expect("Challenge: ").await;
    black.expect("fics% ").await;
    black.send("accept").await;
    let wb = white.board().await;
    let bb = black.board().await;
    white.expect("fics% ").await;
    black.expect("fics% ").await;
    (wb, bb)
}
