//! Sockets of the local server: the accept loop, one reader and one writer
//! task per client, and the input filter that strips telnet negotiation and
//! turns bytes into bounded lines. Nothing here knows chess; lines go to the
//! core as events, output comes back through a bounded channel per client.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, watch};

/// Session id: unique for the life of the server.
pub type Sid = u64;

/// Longest input line kept (longer lines are cut here).
pub const MAX_LINE: usize = 1024;
/// Output messages queued per client before it counts as stalled.
pub const OUT_QUEUE: usize = 1024;
/// A write that makes no progress for this long drops the client.
const WRITE_TIMEOUT: Duration = Duration::from_secs(20);
/// Lines accepted from one client per second before its reading is paused.
const LINES_PER_SEC: u32 = 200;

/// Output for one client.
#[derive(Debug)]
pub enum Out {
    /// Bytes to write.
    Data(Vec<u8>),
    /// Flush and close the connection.
    Close,
}

/// What the sockets tell the core.
#[derive(Debug)]
pub enum Event {
    /// A new client; its output goes to `tx`.
    Open {
        sid: Sid,
        tx: mpsc::Sender<Out>,
        peer: SocketAddr,
    },
    /// One input line (telnet removed, no line ending).
    Line { sid: Sid, line: String },
    /// The client speaks timeseal (its hello line arrived).
    Timeseal { sid: Sid },
    /// The client is gone.
    Closed { sid: Sid },
}

/// What the input filter makes of the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A text line.
    Line(String),
    /// A timeseal hello (`TIMESTAMP|user|system|`): the client encodes its lines.
    TimesealHello,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Telnet {
    Data,
    Iac,
    Option,
    Sub,
    SubIac,
}

/// Byte-to-line filter: telnet commands (IAC ...) removed, `\n`, `\r\n`,
/// `\r` and `\r\0` all end a line, control bytes dropped (backspace edits),
/// lines cut at [`MAX_LINE`] bytes, invalid UTF-8 replaced. Lines a timeseal
/// client encoded are decoded (the hello reported, ping replies dropped).
#[derive(Debug)]
pub struct LineReader {
    buf: Vec<u8>,
    /// The line's bytes as sent (telnet removed), for timeseal decoding.
    raw: Vec<u8>,
    state: Telnet,
    after_cr: bool,
}

impl Default for LineReader {
    fn default() -> Self {
        Self::new()
    }
}

impl LineReader {
    pub fn new() -> LineReader {
        LineReader {
            buf: Vec::with_capacity(128),
            raw: Vec::with_capacity(128),
            state: Telnet::Data,
            after_cr: false,
        }
    }

    /// Bytes held for an unfinished line.
    #[cfg(test)]
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// Feed bytes; complete lines are appended to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Input>) {
        for &b in bytes {
            let was_cr = std::mem::replace(&mut self.after_cr, false);
            if self.state == Telnet::Data
                && b != 255
                && b != b'\n'
                && b != b'\r'
                && self.raw.len() < 2 * MAX_LINE
            {
                self.raw.push(b);
            }
            match self.state {
                Telnet::Data => match b {
                    255 => self.state = Telnet::Iac,
                    b'\n' | 0 if was_cr => {}
                    b'\n' => self.finish(out),
                    b'\r' => {
                        self.finish(out);
                        self.after_cr = true;
                    }
                    8 | 127 => {
                        self.buf.pop();
                    }
                    b'\t' => self.push(b' '),
                    0..=31 => {}
                    _ => self.push(b),
                },
                Telnet::Iac => {
                    self.state = match b {
                        251..=254 => Telnet::Option,
                        250 => Telnet::Sub,
                        _ => Telnet::Data,
                    }
                }
                Telnet::Option => self.state = Telnet::Data,
                Telnet::Sub => {
                    if b == 255 {
                        self.state = Telnet::SubIac;
                    }
                }
                Telnet::SubIac => {
                    self.state = if b == 240 { Telnet::Data } else { Telnet::Sub };
                }
            }
        }
    }

    fn push(&mut self, b: u8) {
        if self.buf.len() < MAX_LINE {
            self.buf.push(b);
        }
    }

    fn finish(&mut self, out: &mut Vec<Input>) {
        let raw = std::mem::take(&mut self.raw);
        if let Some(cl) = ics::timeseal::decode_client_line(&raw) {
            self.buf.clear();
            if cl.hello().is_some() {
                out.push(Input::TimesealHello);
            } else if !cl.is_ping_reply() {
                let text: String = cl
                    .text
                    .chars()
                    .filter(|c| !c.is_control())
                    .take(MAX_LINE)
                    .collect();
                out.push(Input::Line(text));
            }
            return;
        }
        out.push(Input::Line(String::from_utf8_lossy(&self.buf).into_owned()));
        self.buf.clear();
    }
}

/// Accept clients until `shutdown` turns true.
pub async fn accept_loop(
    listener: TcpListener,
    events: mpsc::Sender<Event>,
    mut shutdown: watch::Receiver<bool>,
    max_connections: usize,
) {
    let next_sid = AtomicU64::new(1);
    let live = Arc::new(AtomicUsize::new(0));
    loop {
        tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, peer)) => {
                    if live.load(Ordering::SeqCst) >= max_connections {
                        tracing::warn!(%peer, "connection refused: server full");
                        tokio::spawn(refuse(stream));
                        continue;
                    }
                    let _ = stream.set_nodelay(true);
                    let sid = next_sid.fetch_add(1, Ordering::SeqCst);
                    let (tx, rx) = mpsc::channel(OUT_QUEUE);
                    if events.send(Event::Open { sid, tx, peer }).await.is_err() {
                        break;
                    }
                    tracing::info!(sid, %peer, "client connected");
                    live.fetch_add(1, Ordering::SeqCst);
                    let live2 = Arc::clone(&live);
                    let ev = events.clone();
                    let sd = shutdown.clone();
                    tokio::spawn(async move {
                        connection(sid, stream, ev, rx, sd).await;
                        live2.fetch_sub(1, Ordering::SeqCst);
                    });
                }
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            r = shutdown.changed() => {
                if r.is_err() || *shutdown.borrow() {
                    break;
                }
            }
        }
    }
}

async fn refuse(mut stream: TcpStream) {
    let msg = b"\n\rSorry, the server is full.  Try again later.\n\r";
    let _ = tokio::time::timeout(Duration::from_secs(2), stream.write_all(msg)).await;
}

async fn writer(mut wr: OwnedWriteHalf, mut rx: mpsc::Receiver<Out>) {
    while let Some(out) = rx.recv().await {
        match out {
            Out::Data(bytes) => {
                match tokio::time::timeout(WRITE_TIMEOUT, wr.write_all(&bytes)).await {
                    Ok(Ok(())) => {}
                    _ => return,
                }
            }
            Out::Close => break,
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), wr.shutdown()).await;
}

async fn connection(
    sid: Sid,
    stream: TcpStream,
    events: mpsc::Sender<Event>,
    rx: mpsc::Receiver<Out>,
    mut shutdown: watch::Receiver<bool>,
) {
    let (mut rd, wr) = stream.into_split();
    let (done_tx, mut done_rx) = oneshot::channel::<()>();
    tokio::spawn(async move {
        writer(wr, rx).await;
        let _ = done_tx.send(());
    });
    let mut reader = LineReader::new();
    let mut buf = vec![0u8; 4096];
    let mut lines = Vec::new();
    let mut window = tokio::time::Instant::now();
    let mut count = 0u32;
    'outer: loop {
        tokio::select! {
            _ = &mut done_rx => break,
            r = shutdown.changed() => {
                if r.is_err() || *shutdown.borrow() {
                    break;
                }
            }
            r = rd.read(&mut buf) => {
                let n = match r {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                reader.feed(buf.get(..n).unwrap_or(&[]), &mut lines);
                for input in lines.drain(..) {
                    let ev = match input {
                        Input::Line(line) => Event::Line { sid, line },
                        Input::TimesealHello => Event::Timeseal { sid },
                    };
                    if events.send(ev).await.is_err() {
                        break 'outer;
                    }
                    count += 1;
                    if count >= LINES_PER_SEC {
                        let until = window + Duration::from_secs(1);
                        tokio::time::sleep_until(until).await;
                        window = tokio::time::Instant::now();
                        count = 0;
                    }
                }
                if window.elapsed() >= Duration::from_secs(1) {
                    window = tokio::time::Instant::now();
                    count = 0;
                }
            }
        }
    }
    tracing::info!(sid, "client disconnected");
    let _ = events.send(Event::Closed { sid }).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(chunks: &[&[u8]]) -> Vec<String> {
        let mut r = LineReader::new();
        let mut out = Vec::new();
        for c in chunks {
            r.feed(c, &mut out);
        }
        out.into_iter()
            .map(|i| match i {
                Input::Line(l) => l,
                Input::TimesealHello => "<hello>".into(),
            })
            .collect()
    }

    #[test]
    fn endings_and_telnet() {
        assert_eq!(
            lines(&[b"a\nb\r\nc\rd\r\0e\n"]),
            vec!["a", "b", "c", "d", "e"]
        );
        assert_eq!(lines(&[b"gu", b"est\r", b"\n", b"x\n"]), vec!["guest", "x"]);
        assert_eq!(
            lines(&[b"\xff\xfd\x01pass\xff", b"\xfb", b"\x01word\n"]),
            vec!["password"]
        );
        assert_eq!(lines(&[b"a\xff\xfa\x18\x01\xff\xf0b\n"]), vec!["ab"]);
        assert_eq!(lines(&[b"ab\x08c\x07\td\n"]), vec!["ac d"]);
        assert_eq!(lines(&[b"\xc3\xa9\xfe\n"]).len(), 1);
    }

    #[test]
    fn long_lines_are_cut() {
        let long = vec![b'x'; MAX_LINE * 3];
        let mut r = LineReader::new();
        let mut out = Vec::new();
        r.feed(&long, &mut out);
        assert!(out.is_empty());
        assert_eq!(r.pending(), MAX_LINE);
        r.feed(b"\n", &mut out);
        assert!(matches!(&out[0], Input::Line(l) if l.len() == MAX_LINE));
    }

    #[test]
    fn timeseal_lines_are_decoded() {
        use ics::timeseal::{encode_line, hello};
        let mut stream = Vec::new();
        stream.extend(encode_line(hello("wily", "linux").as_bytes(), 1000));
        stream.extend(encode_line(b"guest", 1200));
        stream.extend(encode_line(b"\x029", 1300));
        stream.extend(encode_line(b"set style 12", 1400));
        stream.extend_from_slice(b"plain text\r\n");
        for split in [1, 5, 13, 4096] {
            let chunks: Vec<&[u8]> = stream.chunks(split).collect();
            assert_eq!(
                lines(&chunks),
                vec!["<hello>", "guest", "set style 12", "plain text"],
                "split {split}"
            );
        }
    }
}
