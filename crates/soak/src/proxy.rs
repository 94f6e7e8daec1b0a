//! The fault-injecting TCP proxy between a bot and the server: it forwards both ways and,
//! on request, puts a garbage line into the server's stream (at a line boundary, so that
//! no real line is broken by it), cuts a real server line in two (the rest follows after a
//! pause, or never: the connection drops after the first half), holds the server's data
//! back for a while (a lag spike), or drops every connection through it. The server it
//! forwards to can change (a restarted server on a new port). Each fault is counted when
//! it is actually applied to a stream.
//!
//! Speaking ICC's level 2 (`Proxy::try_start_for` with `Dialect::Icc`) the faults are
//! ICC's: the garbage is datagrams (malformed ones, unknown numbers, and datagrams of a
//! game that was never started, out of order), put between datagrams and text lines,
//! never inside one; and a cut falls inside a datagram (`icc_scan.rs` finds the places).

use super::icc_scan::{IccFault, IccScan, ICC_GARBAGE};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// Garbage lines: malformed boards, broken game lines, binary junk, a challenge line with
/// nonsense in it, and a well-formed board of a game nobody plays.
const GARBAGE: &[&str] = &[
    "<12> this is not a board at all",
    "{Game 99 (Nobody vs. Noone) garbled",
    "\u{1}\u{2}\u{7f} binary junk \u{ff}",
    "Challenge: (----) [white] rated blitz x y.",
    "Illegal move.",
    "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 77 Ghost Phantom 0 1 0 39 39 60000 60000 1 none (0:00.000) none 0 0 0",
    "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 77 Ghost",
    "\u{1b}[2J\u{1b}[H%%%% <sn> {Game",
];

/// A line cut: none pending, the rest after a pause, or the connection dropped.
const CUT_NONE: u8 = 0;
const CUT_RESUME: u8 = 1;
const CUT_DROP: u8 = 2;

/// Faults applied so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProxyCounts {
    pub garbage: u64,
    pub lag_spikes: u64,
    /// Lines cut, the rest sent after a pause.
    pub cut_resumed: u64,
    /// Lines cut, the connection dropped after the first half.
    pub cut_dropped: u64,
    /// `drop_all` calls that closed at least one connection.
    pub drops: u64,
    /// ICC: malformed datagrams, datagrams of unknown numbers, datagrams of a game never
    /// started (out of order) put into the stream (`garbage` counts them too).
    pub dg_malformed: u64,
    pub dg_unknown: u64,
    pub dg_out_of_order: u64,
}

struct Shared {
    target: Mutex<SocketAddr>,
    /// The stream is ICC's level 2: datagram faults.
    icc: bool,
    garbage: AtomicU64,
    lag_ms: AtomicU64,
    cut: AtomicU8,
    live: AtomicUsize,
    applied: Mutex<ProxyCounts>,
}

impl Shared {
    fn count(&self, f: impl FnOnce(&mut ProxyCounts)) {
        f(&mut self.applied.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

/// A running proxy; clones share it. It stops accepting when [`Proxy::close`] is called.
#[derive(Clone)]
pub struct Proxy {
    /// Where clients connect.
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    drop_now: watch::Sender<u64>,
    closed: watch::Sender<bool>,
}

impl Proxy {
    /// Listens on 127.0.0.1 (a free port) and forwards to `target`.
    pub async fn start(target: SocketAddr) -> Proxy {
        Proxy::try_start(target)
            .await
            .expect("a proxy can listen on 127.0.0.1")
    }

    /// As [`Proxy::start`], with the bind error returned.
    pub async fn try_start(target: SocketAddr) -> std::io::Result<Proxy> {
        Proxy::try_start_for(target, ics::Dialect::Fics).await
    }

    /// As [`Proxy::try_start`], with the faults of `dialect` (ICC: datagram faults).
    pub async fn try_start_for(
        target: SocketAddr,
        dialect: ics::Dialect,
    ) -> std::io::Result<Proxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (drop_now, drop_rx) = watch::channel(0u64);
        let (closed, mut closed_rx) = watch::channel(false);
        let p = Proxy {
            addr,
            shared: Arc::new(Shared {
                target: Mutex::new(target),
                icc: dialect == ics::Dialect::Icc,
                garbage: AtomicU64::new(0),
                lag_ms: AtomicU64::new(0),
                cut: AtomicU8::new(CUT_NONE),
                live: AtomicUsize::new(0),
                applied: Mutex::new(ProxyCounts::default()),
            }),
            drop_now,
            closed,
        };
        let shared = p.shared.clone();
        tokio::spawn(async move {
            loop {
                let client = tokio::select! {
                    r = listener.accept() => match r {
                        Ok((c, _)) => c,
                        Err(_) => continue,
                    },
                    _ = closed_rx.changed() => break,
                };
                let target = *shared.target.lock().unwrap_or_else(|e| e.into_inner());
                // The server is away (restarting): the client sees its connection close.
                let Ok(upstream) = TcpStream::connect(target).await else {
                    continue;
                };
                let _ = client.set_nodelay(true);
                let _ = upstream.set_nodelay(true);
                tokio::spawn(pump(client, upstream, shared.clone(), drop_rx.clone()));
            }
        });
        Ok(p)
    }

    /// Forward new connections to `target` from now on.
    pub fn set_target(&self, target: SocketAddr) {
        *self.shared.target.lock().unwrap_or_else(|e| e.into_inner()) = target;
    }

    /// Connections open through the proxy now.
    pub fn connections(&self) -> usize {
        self.shared.live.load(Ordering::Relaxed)
    }

    /// Closes every connection going through the proxy now.
    pub fn drop_all(&self) {
        if self.connections() > 0 {
            self.shared.count(|c| c.drops += 1);
        }
        self.drop_now.send_modify(|n| *n += 1);
    }

    /// Sends one garbage line toward the client at the next line boundary.
    pub fn inject_garbage(&self) {
        self.shared.garbage.fetch_add(1, Ordering::Relaxed);
    }

    /// Holds the next server data back this long (a lag spike).
    pub fn lag(&self, ms: u64) {
        self.shared.lag_ms.store(ms, Ordering::Relaxed);
    }

    /// Cuts the next server line in two; the rest follows after a pause (`then_drop`
    /// false) or never, the connection closing after the first half.
    /// A cut with a drop replaces a pending one without; never the other way round.
    pub fn cut_line(&self, then_drop: bool) {
        if then_drop {
            self.shared.cut.store(CUT_DROP, Ordering::Relaxed);
        } else {
            let _ = self.shared.cut.compare_exchange(
                CUT_NONE,
                CUT_RESUME,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }

    /// A line cut with a drop is asked for and has not happened yet (no server line has
    /// come through since).
    pub fn cut_drop_pending(&self) -> bool {
        self.shared.cut.load(Ordering::Relaxed) == CUT_DROP
    }

    /// Faults applied so far.
    pub fn counts(&self) -> ProxyCounts {
        *self
            .shared
            .applied
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Stops accepting connections (open ones go on until dropped).
    pub fn close(&self) {
        let _ = self.closed.send(true);
    }
}

/// Where a garbage line may go in `chunk`: after its first line end (past the `\r` of a
/// `\n\r` pair), or at its start when the stream is at a line start already.
fn boundary(chunk: &[u8], at_line_start: bool) -> Option<usize> {
    if at_line_start {
        return Some(0);
    }
    let nl = chunk.iter().position(|&b| b == b'\n')?;
    Some(if chunk.get(nl + 1) == Some(&b'\r') {
        nl + 2
    } else {
        nl + 1
    })
}

/// Where to cut a line of `chunk` in two: the middle of its first line that has at least
/// eight characters, or of the chunk.
fn cut_point(chunk: &[u8]) -> usize {
    let mut start = 0;
    for (i, &b) in chunk.iter().enumerate() {
        if b == b'\n' {
            if i - start >= 8 {
                return start + (i - start) / 2;
            }
            start = i + 1;
        }
    }
    chunk.len() / 2
}

async fn write(w: &mut OwnedWriteHalf, bytes: &[u8]) -> bool {
    w.write_all(bytes).await.is_ok()
}

async fn pump(
    client: TcpStream,
    upstream: TcpStream,
    shared: Arc<Shared>,
    mut drop_rx: watch::Receiver<u64>,
) {
    shared.live.fetch_add(1, Ordering::Relaxed);
    let (mut cr, mut cw) = client.into_split();
    let (mut ur, mut uw) = upstream.into_split();
    drop_rx.borrow_and_update();
    let up = async {
        let mut b = [0u8; 4096];
        loop {
            match cr.read(&mut b).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if uw.write_all(&b[..n]).await.is_err() {
                        break;
                    }
                }
            }
        }
    };
    let down = async {
        let mut b = [0u8; 4096];
        let mut k = 0usize;
        let mut at_line_start = true;
        let mut scan = IccScan::default();
        loop {
            let n = match ur.read(&mut b).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let chunk = &b[..n];
            let lag = shared.lag_ms.swap(0, Ordering::Relaxed);
            if lag > 0 {
                shared.count(|c| c.lag_spikes += 1);
                tokio::time::sleep(Duration::from_millis(lag)).await;
            }
            let mut data = chunk.to_vec();
            // ICC: the clean places and the first whole datagram of the chunk, read before
            // anything is put in (the scan's state carries over to the next chunk).
            let icc = shared.icc.then(|| scan.feed(chunk));
            if shared.garbage.load(Ordering::Relaxed) > 0 {
                let at = match &icc {
                    Some(found) => found.clean,
                    None => boundary(chunk, at_line_start),
                };
                if let Some(at) = at {
                    shared.garbage.fetch_sub(1, Ordering::Relaxed);
                    let g: Vec<u8> = if shared.icc {
                        let (kind, bytes) = ICC_GARBAGE[k % ICC_GARBAGE.len()];
                        shared.count(|c| {
                            c.garbage += 1;
                            match kind {
                                IccFault::Malformed => c.dg_malformed += 1,
                                IccFault::Unknown => c.dg_unknown += 1,
                                IccFault::OutOfOrder => c.dg_out_of_order += 1,
                            }
                        });
                        bytes.to_vec()
                    } else {
                        shared.count(|c| c.garbage += 1);
                        format!("{}\n\r", GARBAGE[k % GARBAGE.len()]).into_bytes()
                    };
                    k += 1;
                    data.splice(at..at, g);
                }
            }
            at_line_start = matches!(chunk.last(), Some(b'\n' | b'\r'));
            // ICC: a cut waits for a chunk with a whole datagram in it, and falls in its
            // middle (the garbage went in before it, so the datagram moved by its length).
            let icc_cut = icc.as_ref().map(|found| {
                found.datagram.map(|(from, to)| {
                    let shift = match found.clean {
                        Some(at) if data.len() > chunk.len() && at <= from => {
                            data.len() - chunk.len()
                        }
                        _ => 0,
                    };
                    shift + from + (to - from) / 2
                })
            });
            let cut = match icc_cut {
                Some(None) => CUT_NONE,
                _ if data.len() >= 2 => shared.cut.swap(CUT_NONE, Ordering::Relaxed),
                _ => CUT_NONE,
            };
            if cut != CUT_NONE {
                let at = match icc_cut {
                    Some(Some(at)) => at,
                    _ => cut_point(&data),
                };
                if !write(&mut cw, &data[..at]).await {
                    break;
                }
                let _ = cw.flush().await;
                if cut == CUT_DROP {
                    shared.count(|c| c.cut_dropped += 1);
                    break;
                }
                shared.count(|c| c.cut_resumed += 1);
                tokio::time::sleep(Duration::from_millis(150)).await;
                if !write(&mut cw, &data[at..]).await {
                    break;
                }
                continue;
            }
            if !write(&mut cw, &data).await {
                break;
            }
        }
    };
    tokio::select! {
        _ = up => {}
        _ = down => {}
        _ = drop_rx.changed() => {}
    }
    shared.live.fetch_sub(1, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_goes_at_line_boundaries() {
        assert_eq!(boundary(b"abc", true), Some(0));
        assert_eq!(boundary(b"abc", false), None);
        assert_eq!(boundary(b"ab\n\rcd", false), Some(4));
        assert_eq!(boundary(b"ab\ncd", false), Some(3));
    }

    #[test]
    fn cuts_fall_inside_a_real_line() {
        let chunk = b"\n\r<12> rnbqkbnr pppppppp\n\rfics% ";
        let at = cut_point(chunk);
        assert!(at > 3 && at < 26, "{at}");
        assert_eq!(cut_point(b"abcd"), 2);
    }
}
