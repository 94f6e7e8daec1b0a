//! The state shared by all search threads of one search: the stop and ponder flags, the
//! clock, the node counters and each thread's last finished iteration. The search reads
//! and publishes through it; `threads.rs` creates it and collects the results.

use super::time::TimeManager;
use cozy_chess::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Locks a mutex, recovering the data if another thread panicked while holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What one thread finished last.
#[derive(Clone, Debug, Default)]
pub struct ThreadResult {
    pub depth: u32,
    pub score: i32,
    pub mv: Option<Move>,
    pub pv: Vec<Move>,
}

/// State shared by the threads of one search.
pub struct Shared {
    pub stop: AtomicBool,
    /// True while pondering: no clock limits until `ponderhit`.
    pub pondering: AtomicBool,
    pub tm: TimeManager,
    pub node_limit: Option<u64>,
    nodes: Vec<AtomicU64>,
    tbhits: Vec<AtomicU64>,
    results: Vec<Mutex<ThreadResult>>,
    done: Mutex<bool>,
    done_cv: Condvar,
}

impl Shared {
    pub fn new(threads: usize, tm: TimeManager, node_limit: Option<u64>, ponder: bool) -> Shared {
        let n = threads.max(1);
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            tm,
            node_limit,
            nodes: (0..n).map(|_| AtomicU64::new(0)).collect(),
            tbhits: (0..n).map(|_| AtomicU64::new(0)).collect(),
            results: (0..n)
                .map(|_| Mutex::new(ThreadResult::default()))
                .collect(),
            done: Mutex::new(false),
            done_cv: Condvar::new(),
        }
    }

    #[inline]
    pub fn publish_nodes(&self, id: usize, nodes: u64) {
        if let Some(slot) = self.nodes.get(id) {
            slot.store(nodes, Ordering::Relaxed);
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Thread `id`'s tablebase hits so far (published with its iteration reports).
    pub fn publish_tbhits(&self, id: usize, hits: u64) {
        if let Some(slot) = self.tbhits.get(id) {
            slot.store(hits, Ordering::Relaxed);
        }
    }

    pub fn total_tbhits(&self) -> u64 {
        self.tbhits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Main thread, every 1024 nodes: hard clock limit and (multi-thread) node limit.
    pub fn check_limits(&self) {
        if !self.pondering.load(Ordering::Relaxed) && self.tm.hard_expired() {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Some(limit) = self.node_limit {
            if self.total_nodes() >= limit {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    pub fn publish_result(&self, id: usize, depth: u32, score: i32, mv: Move, pv: &[Move]) {
        if let Some(slot) = self.results.get(id) {
            let mut r = lock(slot);
            r.depth = depth;
            r.score = score;
            r.mv = Some(mv);
            r.pv.clear();
            r.pv.extend_from_slice(pv);
        }
    }

    pub(crate) fn result(&self, id: usize) -> ThreadResult {
        self.results
            .get(id)
            .map(|m| lock(m).clone())
            .unwrap_or_default()
    }

    pub fn mark_done(&self) {
        *lock(&self.done) = true;
        self.done_cv.notify_all();
    }

    /// Blocks until the search using this state has returned its workers.
    pub fn wait_done(&self) {
        let mut d = lock(&self.done);
        while !*d {
            d = self.done_cv.wait(d).unwrap_or_else(|e| e.into_inner());
        }
    }

    pub fn is_done(&self) -> bool {
        *lock(&self.done)
    }
}
