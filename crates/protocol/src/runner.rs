//! The event loop's view of the engine: one channel carries both input lines (from the
//! stdin thread) and search progress (from the engine's `on_info` callback, and the root
//! moves as they are searched and the traced tree when asked for), and [`Runner::next`] also reports when the
//! running search has finished.
//!
//! Progress of a search that was abandoned (a ponder miss, an interrupted analysis) is
//! told apart by a search number and dropped, so nothing stale is ever printed.

use crate::input::InputEvent;
use engine::{
    Engine, RootMoveInfo, SearchHandle, SearchInfo, SearchRequest, SearchResult, TraceNode,
    Watchers,
};
use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// What arrives on the shared channel.
pub enum Event {
    Input(InputEvent),
    Info(u64, Box<SearchInfo>),
    RootMove(u64, RootMoveInfo),
    Trace(u64, Option<TraceNode>),
}

/// The most traced nodes one search sends (`trace n` can swamp any terminal).
pub const TRACE_LIMIT: u32 = 10_000;

impl From<InputEvent> for Event {
    fn from(e: InputEvent) -> Self {
        Event::Input(e)
    }
}

/// What the front end gets from [`Runner::next`].
pub enum Ev {
    Input(InputEvent),
    /// Progress of the running search.
    Info(Box<SearchInfo>),
    /// The root move the running search starts on (only when asked: [`Reports`]).
    RootMove(RootMoveInfo),
    /// A node of the traced tree (only when asked: [`Reports`]); `None` once, when the
    /// search has sent [`TRACE_LIMIT`] nodes and sends no more.
    Trace(Option<TraceNode>),
    /// The running search has ended.
    Finished(SearchResult),
}

/// What a search started by [`Runner::start_with`] reports besides its lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reports {
    /// Each root move as the search reaches it ([`Ev::RootMove`]).
    pub root_moves: bool,
    /// The tree to this ply ([`Ev::Trace`]; 0: none).
    pub trace: usize,
}

struct Running {
    id: u64,
    handle: SearchHandle,
    started: Instant,
}

/// The engine plus the event channel.
pub struct Runner {
    pub engine: Engine,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    running: Option<Running>,
    next_id: u64,
    queued: VecDeque<Ev>,
}

/// The input lines still to come, as a byte stream (for handing stdin over to another
/// protocol after the engine is given up).
pub struct InputStream {
    rx: Receiver<Event>,
    buf: Vec<u8>,
    pos: usize,
}

impl std::io::Read for InputStream {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(Event::Input(InputEvent::Line(l))) => {
                    self.buf = format!("{l}\n").into_bytes();
                    self.pos = 0;
                }
                Ok(Event::Input(InputEvent::Eof)) | Err(_) => return Ok(0),
                Ok(_) => {}
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// How often a running search is checked for completion while no event arrives.
const POLL: Duration = Duration::from_millis(5);

impl Runner {
    pub fn new(engine: Engine) -> Self {
        let (tx, rx) = mpsc::channel();
        Runner {
            engine,
            tx,
            rx,
            running: None,
            next_id: 1,
            queued: VecDeque::new(),
        }
    }

    /// Stops any search, drops the engine and returns the remaining input lines.
    pub fn into_input(mut self) -> InputStream {
        self.abandon();
        let mut buf = Vec::new();
        for e in self.queued.drain(..) {
            if let Ev::Input(InputEvent::Line(l)) = e {
                buf.extend_from_slice(l.as_bytes());
                buf.push(b'\n');
            }
        }
        // Drop our own sender so the stream ends with the input thread's end of input.
        let (dead, _) = mpsc::channel();
        self.tx = dead;
        let rx = std::mem::replace(&mut self.rx, mpsc::channel().1);
        InputStream { rx, buf, pos: 0 }
    }

    /// A sender for the input thread (see `input::spawn_into`).
    pub fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Time since the running search started.
    pub fn elapsed(&self) -> Option<Duration> {
        self.running.as_ref().map(|r| r.started.elapsed())
    }

    /// Starts a search (stopping and discarding any running one first).
    pub fn start(&mut self, req: SearchRequest) {
        self.start_with(req, Reports::default());
    }

    /// Starts a search that also sends what `reports` asks for.
    pub fn start_with(&mut self, req: SearchRequest, reports: Reports) {
        self.abandon();
        let id = self.next_id;
        self.next_id += 1;
        let tx = self.tx.clone();
        let on_info = Box::new(move |info: &SearchInfo| {
            let _ = tx.send(Event::Info(id, Box::new(info.clone())));
        });
        let mut watchers = Watchers::default();
        if reports.root_moves {
            let tx = self.tx.clone();
            watchers.root_move = Some(Box::new(move |rm: &RootMoveInfo| {
                let _ = tx.send(Event::RootMove(id, *rm));
            }));
        }
        if reports.trace > 0 {
            let tx = self.tx.clone();
            let mut sent = 0u32;
            watchers.trace = Some((
                reports.trace,
                Box::new(move |t: &TraceNode| {
                    sent = sent.saturating_add(1);
                    if sent <= TRACE_LIMIT {
                        let _ = tx.send(Event::Trace(id, Some(*t)));
                    } else if sent == TRACE_LIMIT + 1 {
                        let _ = tx.send(Event::Trace(id, None));
                    }
                }),
            ));
        }
        let handle = self.engine.start_watched(req, on_info, watchers);
        self.running = Some(Running {
            id,
            handle,
            started: Instant::now(),
        });
    }

    /// Asks the running search to stop; its result still arrives as [`Ev::Finished`].
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.handle.stop();
        }
    }

    /// Tells a pondering search that the expected move was played.
    pub fn ponderhit(&mut self) {
        if let Some(r) = &self.running {
            r.handle.ponderhit();
        }
    }

    /// Stops the running search and waits for it, returning its result.
    pub fn stop_and_wait(&mut self) -> Option<SearchResult> {
        let r = self.running.take()?;
        r.handle.stop();
        let result = r.handle.wait();
        self.drain(r.id);
        Some(result)
    }

    /// Stops and forgets the running search.
    pub fn abandon(&mut self) {
        let _ = self.stop_and_wait();
    }

    /// Moves everything waiting in the channel into the queue, keeping input and the
    /// progress of search `id`.
    fn drain(&mut self, id: u64) {
        while let Ok(e) = self.rx.try_recv() {
            match e {
                Event::Input(i) => self.queued.push_back(Ev::Input(i)),
                Event::Info(n, info) if n == id => self.queued.push_back(Ev::Info(info)),
                Event::RootMove(n, rm) if n == id => self.queued.push_back(Ev::RootMove(rm)),
                Event::Trace(n, t) if n == id => self.queued.push_back(Ev::Trace(t)),
                Event::Info(..) | Event::RootMove(..) | Event::Trace(..) => {}
            }
        }
    }

    fn current_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }

    /// Waits for the next event; `None` only when `timeout` passes first.
    pub fn next(&mut self, timeout: Option<Duration>) -> Option<Ev> {
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            if let Some(e) = self.queued.pop_front() {
                return Some(e);
            }
            let wait = match (self.running.is_some(), deadline) {
                (true, Some(d)) => POLL.min(d.saturating_duration_since(Instant::now())),
                (true, None) => POLL,
                (false, Some(d)) => d.saturating_duration_since(Instant::now()),
                (false, None) => Duration::from_secs(3600),
            };
            match self.rx.recv_timeout(wait) {
                Ok(Event::Input(i)) => return Some(Ev::Input(i)),
                Ok(Event::Info(n, info)) => {
                    if Some(n) == self.current_id() {
                        return Some(Ev::Info(info));
                    }
                }
                Ok(Event::RootMove(n, rm)) => {
                    if Some(n) == self.current_id() {
                        return Some(Ev::RootMove(rm));
                    }
                }
                Ok(Event::Trace(n, t)) => {
                    if Some(n) == self.current_id() {
                        return Some(Ev::Trace(t));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                // The runner holds a sender itself, so the channel cannot disconnect.
                Err(RecvTimeoutError::Disconnected) => return Some(Ev::Input(InputEvent::Eof)),
            }
            if self
                .running
                .as_ref()
                .is_some_and(|r| r.handle.is_finished())
            {
                if let Some(r) = self.running.take() {
                    let result = r.handle.wait();
                    self.drain(r.id);
                    self.queued.push_back(Ev::Finished(result));
                }
                continue;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
        }
    }
}
