//! The engine facade every front end uses (console, xboard, UCI, the server bot): owns the
//! transposition table, the per-thread data, the tablebases and the options; starts
//! searches in the background (`start`, returning a [`SearchHandle`]) or runs them to the
//! end (`search`).

use super::eval::{
    pawn_hash_entries, EvalParams, Evaluator, PAWN_HASH_DEFAULT_BYTES, PAWN_HASH_MAX_BYTES,
    PAWN_HASH_MIN_BYTES,
};
use super::history::History;
use super::learned::{LearnedPosition, LearnedTable};
use super::limits::{EngineOptions, SearchRequest};
use super::nnue::Network;
use super::shared::{lock, Shared};
use super::skill::{self, Lines, SkillParams};
use super::tablebase::{self, Tablebases, TbConfig};
use super::threads::{run_search, SearchSetup, Worker};
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::tunables::SearchParams;
use super::types::{InfoCallback, SearchResult};
use super::watch::Watchers;
use cozy_chess::Move;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The chess engine: search threads, transposition table and settings.
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    /// Position learning's entries; kept across `new_game` and `clear_hash`.
    learned: Arc<LearnedTable>,
    params: EvalParams,
    params_dirty: bool,
    /// Pawn hash size per search thread (`hashp`), bytes as asked.
    pawn_hash_bytes: usize,
    pool: Arc<Mutex<Vec<Worker>>>,
    /// The search's tunable constants (copied on write while a search holds them).
    sp: Arc<SearchParams>,
    current: Option<Arc<Shared>>,
    /// The last search started (for its counters once it is over).
    last: Option<Arc<Shared>>,
    /// Syzygy tablebases and their probe settings.
    tb: TbConfig,
    /// Strength limiting (`None`: full strength).
    skill: Option<SkillParams>,
    /// Seed of a limited strength's move draws.
    skill_seed: u64,
    /// Games started (`new_game`), so a skill level's draws differ from game to game.
    games: u64,
    /// The network loaded by `set_eval_file` and whether it evaluates (`Eval=nnue`).
    network: Option<Arc<Network>>,
    use_network: bool,
    network_dirty: bool,
}

/// Stops or releases a running search from anywhere (cheap to clone, `Send`).
#[derive(Clone)]
pub struct SearchControl {
    shared: Arc<Shared>,
}

impl SearchControl {
    /// Ends the search as soon as possible; it still returns a legal move.
    pub fn stop(&self) {
        self.shared.pondering.store(false, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the clock now runs for this search.
    pub fn ponderhit(&self) {
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// True while the search is pondering (before `ponderhit`).
    pub fn is_pondering(&self) -> bool {
        self.shared.pondering.load(Ordering::Relaxed)
    }
}

/// A search running in the background.
pub struct SearchHandle {
    control: SearchControl,
    join: Option<JoinHandle<SearchResult>>,
    ready: Option<SearchResult>,
}

impl SearchHandle {
    pub fn stop(&self) {
        self.control.stop();
    }

    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// True once the search has produced its result (`wait` will not block).
    pub fn is_finished(&self) -> bool {
        match &self.join {
            Some(j) => j.is_finished(),
            None => true,
        }
    }

    /// A cloneable handle for stopping the search from another thread.
    pub fn control(&self) -> SearchControl {
        self.control.clone()
    }

    /// Blocks until the search ends and returns its result.
    pub fn wait(mut self) -> SearchResult {
        if let Some(r) = self.ready.take() {
            return r;
        }
        match self.join.take() {
            Some(j) => j.join().unwrap_or_default(),
            None => SearchResult::default(),
        }
    }
}

fn new_worker(params: &EvalParams, pawn_hash_bytes: usize) -> Worker {
    let mut eval = Evaluator::new(params.clone());
    eval.set_pawn_hash_bytes(pawn_hash_bytes);
    Worker {
        hist: History::new(),
        eval,
    }
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let mut options = options;
        options.threads = options.threads.clamp(1, 512);
        options.multipv = options.multipv.clamp(1, 256);
        super::keyahead::init();
        let params = EvalParams::default();
        let pawn_hash_bytes = PAWN_HASH_DEFAULT_BYTES;
        let workers = (0..options.threads)
            .map(|_| new_worker(&params, pawn_hash_bytes))
            .collect();
        let embedded = super::nnue::embedded();
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            learned: Arc::new(LearnedTable::default()),
            options,
            params,
            params_dirty: false,
            pawn_hash_bytes,
            pool: Arc::new(Mutex::new(workers)),
            sp: Arc::new(SearchParams::new()),
            current: None,
            last: None,
            tb: TbConfig::default(),
            skill: None,
            skill_seed: 0,
            games: 0,
            // The embedded network, when the build has one, evaluates from the start.
            use_network: embedded.is_some(),
            network_dirty: embedded.is_some(),
            network: embedded,
        }
    }

    /// Limits the strength to about `elo` (clamped to [`skill::ELO_MIN`]..=
    /// [`skill::ELO_MAX`]), or plays at full strength with `None`.
    pub fn set_strength(&mut self, elo: Option<u32>) {
        self.skill = elo.map(SkillParams::for_elo);
    }

    /// The limited strength's level, if any.
    pub fn strength(&self) -> Option<u32> {
        self.skill.map(|s| s.elo)
    }

    /// Seed of a limited strength's move draws: the same seed, game number (games started
    /// by [`Engine::new_game`]) and position give the same move.
    pub fn set_strength_seed(&mut self, seed: u64) {
        self.skill_seed = seed;
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Stops the running search (if any) and waits until its threads are done.
    pub fn stop(&mut self) {
        if let Some(cur) = self.current.take() {
            cur.pondering.store(false, Ordering::Relaxed);
            cur.stop.store(true, Ordering::Relaxed);
            cur.wait_done();
        }
    }

    /// True while a background search is running.
    pub fn is_searching(&self) -> bool {
        self.current.as_ref().is_some_and(|c| !c.is_done())
    }

    pub fn set_hash_mb(&mut self, mb: usize) {
        self.stop();
        let mb = mb.clamp(1, 1 << 20);
        if mb != self.options.hash_mb {
            self.options.hash_mb = mb;
            self.tt = Arc::new(TranspositionTable::new(mb));
        }
    }

    /// Resizes every search thread's pawn hash table to the largest power-of-two number
    /// of entries that fits in `bytes` (see [`pawn_hash_entries`] for the limits) and
    /// returns that number of entries.
    pub fn set_pawn_hash_bytes(&mut self, bytes: usize) -> usize {
        self.stop();
        self.pawn_hash_bytes = bytes.clamp(PAWN_HASH_MIN_BYTES, PAWN_HASH_MAX_BYTES);
        let mut entries = 0;
        for w in lock(&self.pool).iter_mut() {
            entries = w.eval.set_pawn_hash_bytes(self.pawn_hash_bytes);
        }
        entries
    }

    /// Entries of each search thread's pawn hash table.
    pub fn pawn_hash_entries(&self) -> usize {
        pawn_hash_entries(self.pawn_hash_bytes).unwrap_or(0)
    }

    pub fn set_threads(&mut self, n: usize) {
        self.stop();
        self.options.threads = n.clamp(1, 512);
    }

    pub fn set_draw_score(&mut self, cp: i32) {
        self.options.draw_score = cp.clamp(-1000, 1000);
    }

    /// Sets one of the search's tunable constants (see `tunables.rs`); the value used
    /// (clamped to its range), or an error for an unknown name. Takes effect at the next
    /// search.
    pub fn set_search_param(&mut self, name: &str, value: i32) -> Result<i32, String> {
        Arc::make_mut(&mut self.sp).set(name, value)
    }

    /// The value of one of the search's tunable constants by name (ASCII case ignored).
    pub fn search_param(&self, name: &str) -> Option<i32> {
        self.sp.get(&name.to_ascii_lowercase())
    }

    pub fn set_move_overhead(&mut self, ms: u64) {
        self.options.move_overhead_ms = ms.min(60_000);
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.clamp(1, 256);
    }

    /// Loads the Syzygy tables of the `:`-separated folder list `path` (an empty path or
    /// `<empty>` turns tablebases off) and returns a summary with one line per file left
    /// out. On an error the engine goes on without tablebases.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<String, String> {
        self.stop();
        // Let go of the old tables first, so another folder can be loaded.
        self.tb.tables = None;
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            return Ok("Syzygy tablebases off".to_string());
        }
        let tb = tablebase::open(path)?;
        let mut text = tb.summary();
        for p in tb.problems() {
            text.push_str("\n  left out: ");
            text.push_str(p);
        }
        self.tb.tables = Some(tb);
        Ok(text)
    }

    /// The loaded tablebases, if any.
    pub fn syzygy(&self) -> Option<&Tablebases> {
        self.tb.tables.as_deref()
    }

    /// Least remaining depth at which the search probes the tables (`SyzygyProbeDepth`).
    pub fn set_syzygy_probe_depth(&mut self, depth: i32) {
        self.tb.probe_depth = depth.clamp(1, 100);
    }

    pub fn syzygy_probe_depth(&self) -> i32 {
        self.tb.probe_depth
    }

    /// Whether cursed wins and blessed losses count as draws (`Syzygy50MoveRule`).
    pub fn set_syzygy_50_move_rule(&mut self, on: bool) {
        self.tb.rule50 = on;
    }

    pub fn syzygy_50_move_rule(&self) -> bool {
        self.tb.rule50
    }

    /// Swindle mode for roots the tables call drawn (see `tablebase/swindle.rs`): on,
    /// the drawing move with the most chances; off, a drawing move at once.
    pub fn set_swindle(&mut self, on: bool) {
        self.tb.swindle = on;
    }

    /// Whether swindle mode is on.
    pub fn swindle(&self) -> bool {
        self.tb.swindle
    }

    /// Tablebase hits of the last search (all threads; so far, while it runs).
    pub fn last_tbhits(&self) -> u64 {
        self.last.as_ref().map_or(0, |s| s.total_tbhits())
    }

    pub fn eval_params(&self) -> &EvalParams {
        &self.params
    }

    /// Evaluation weights; changes take effect at the next search.
    pub fn eval_params_mut(&mut self) -> &mut EvalParams {
        self.params_dirty = true;
        &mut self.params
    }

    /// Loads the network file `path` (`EvalFile`); it evaluates once `Eval` is `nnue`.
    /// On an error the network in use, if any, stays.
    /// An empty path or `<embedded>` goes back to the network built into the engine.
    pub fn set_eval_file(&mut self, path: &str) -> Result<String, String> {
        let path = path.trim();
        let net = if path.is_empty() || path == "<embedded>" {
            super::nnue::embedded().ok_or("this build has no embedded network")?
        } else {
            Arc::new(Network::load(std::path::Path::new(path))?)
        };
        let checksum = net.file_checksum();
        self.network = Some(net);
        self.network_dirty = true;
        if self.use_network {
            // Hash entries keep the old network's static evaluations.
            self.tt.clear();
        }
        Ok(format!(
            "loaded network {} (checksum {checksum:016x})",
            if path.is_empty() { "<embedded>" } else { path }
        ))
    }

    /// Evaluates with the network (`true`, `Eval=nnue`) or by hand (`Eval=hce`, the
    /// default). Asking for the network before a file is loaded is an error, and the
    /// hand-written evaluation stays.
    pub fn set_eval_nnue(&mut self, on: bool) -> Result<(), String> {
        if on && self.network.is_none() {
            self.use_network = false;
            return Err("Eval=nnue needs a network: set EvalFile first".into());
        }
        if on != self.use_network {
            self.use_network = on;
            self.network_dirty = true;
            // Hash entries keep the other evaluation's static evaluations.
            self.tt.clear();
        }
        Ok(())
    }

    /// True when the network evaluates.
    pub fn eval_nnue(&self) -> bool {
        self.use_network
    }

    /// What evaluates: `hce`, or `nnue` with the network's shape and checksum (the
    /// front ends print it; the tests compare the checksum with the embedded one's).
    pub fn eval_description(&self) -> String {
        match (&self.network, self.use_network) {
            (Some(n), true) => format!("nnue {} checksum {:016x}", n.arch, n.file_checksum()),
            _ => "hce".to_string(),
        }
    }

    /// The network in use when `Eval=nnue`.
    fn active_network(&self) -> Option<Arc<Network>> {
        if self.use_network {
            self.network.clone()
        } else {
            None
        }
    }

    /// Forgets everything learnt during the last game (hash table, histories).
    pub fn new_game(&mut self) {
        self.stop();
        self.games = self.games.wrapping_add(1);
        self.tt.clear();
        for w in lock(&self.pool).iter_mut() {
            w.hist.clear();
        }
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.tt.clear();
    }

    /// Position learning: replaces the learned positions every later search consults
    /// (an empty slice forgets them). Unlike hash entries they are honoured at any node,
    /// principal variation included, whenever their depth covers the depth left there,
    /// are never overwritten by the search, and survive [`Engine::new_game`] and
    /// [`Engine::clear_hash`].
    /// A search already running keeps the table it started with.
    pub fn set_learned(&mut self, positions: &[LearnedPosition]) {
        self.learned = Arc::new(LearnedTable::new(positions));
    }

    /// Number of learned positions the search consults.
    pub fn learned_count(&self) -> usize {
        self.learned.len()
    }

    /// Starts a search in the background and returns at once.
    pub fn start(&mut self, request: SearchRequest, on_info: InfoCallback) -> SearchHandle {
        self.start_watched(request, on_info, Watchers::default())
    }

    /// [`Engine::start`] with observers of the search besides its progress lines (the
    /// root move being searched); they never change what the search finds.
    pub fn start_watched(
        &mut self,
        request: SearchRequest,
        on_info: InfoCallback,
        watchers: Watchers,
    ) -> SearchHandle {
        let start = Instant::now();
        self.stop();
        let mut request = request;
        let mut on_info = on_info;
        let mut options = self.options.clone();
        // Strength limiting: tighter limits, more lines, a draw among them at the end.
        let mut skill = None;
        if let Some(p) = self.skill {
            p.restrict(&mut request.limits);
            options.multipv = options.multipv.max(p.lines);
            let roots = if request.searchmoves.is_empty() {
                legal_count(&request.board)
            } else {
                request.searchmoves.len()
            };
            let lines = Arc::new(Mutex::new(Lines::new(options.multipv.min(roots))));
            let seen = Arc::clone(&lines);
            let mut inner = on_info;
            on_info = Box::new(move |info| {
                lock(&seen).observe(info);
                inner(info);
            });
            let rng = skill::rng_for(self.skill_seed, &request.board, self.games);
            skill = Some((p.temperature, lines, rng));
        }
        let tm = if request.limits.infinite {
            TimeManager::unlimited(start)
        } else {
            TimeManager::new(
                &request.limits,
                request.board.side_to_move(),
                Duration::from_millis(self.options.move_overhead_ms),
                start,
            )
        };
        let threads = self.options.threads.max(1);
        let node_limit = request.limits.nodes;
        let shared = Arc::new(Shared::new(threads, tm, node_limit, request.limits.ponder));
        {
            let mut pool = lock(&self.pool);
            if pool.len() > threads {
                pool.truncate(threads);
            }
            while pool.len() < threads {
                let mut w = new_worker(&self.params, self.pawn_hash_bytes);
                w.eval.set_network(self.active_network());
                pool.push(w);
            }
            if self.network_dirty {
                for w in pool.iter_mut() {
                    w.eval.set_network(self.active_network());
                }
                self.network_dirty = false;
            }
            if self.params_dirty {
                for w in pool.iter_mut() {
                    w.eval.set_params(self.params.clone());
                }
                self.params_dirty = false;
            }
        }
        let pool = Arc::clone(&self.pool);
        let tt = Arc::clone(&self.tt);
        let learned = Arc::clone(&self.learned);
        let sp = Arc::clone(&self.sp);
        let tb = self.tb.clone();
        let sh = Arc::clone(&shared);
        let job = move || {
            let result = {
                let mut workers = lock(&pool);
                let setup = SearchSetup {
                    tt: &tt,
                    learned: &learned,
                    shared: &sh,
                    sp: &sp,
                    request: &request,
                    options: &options,
                    tb: &tb,
                };
                run_search(&mut workers[..], &setup, on_info, watchers)
            };
            let result = match skill {
                Some((temperature, lines, mut rng)) => {
                    skill::choose(result, &lock(&lines), &request.board, temperature, &mut rng)
                }
                None => result,
            };
            sh.mark_done();
            result
        };
        self.current = Some(Arc::clone(&shared));
        self.last = Some(Arc::clone(&shared));
        let control = SearchControl { shared };
        let spawned = std::thread::Builder::new()
            .name("wily-search-main".to_string())
            .stack_size(64 * 1024 * 1024)
            .spawn(job);
        match spawned {
            Ok(j) => SearchHandle {
                control,
                join: Some(j),
                ready: None,
            },
            Err(e) => {
                tracing::warn!("could not start a search thread: {e}");
                control.shared.mark_done();
                SearchHandle {
                    control,
                    join: None,
                    ready: Some(SearchResult::default()),
                }
            }
        }
    }

    /// Runs a search to its end (blocking) and returns the result.
    pub fn search(&mut self, request: SearchRequest, on_info: InfoCallback) -> SearchResult {
        let handle = self.start(request, on_info);
        let r = handle.wait();
        if let Some(cur) = self.current.take() {
            cur.wait_done();
        }
        r
    }

    /// A short search of `board` (no game history) restricted to `moves`, for the book's
    /// `book random 0`: the best of them, or `None` when the search found none.
    pub fn best_of(
        &mut self,
        board: &cozy_chess::Board,
        moves: &[Move],
        time: Duration,
    ) -> Option<Move> {
        let req = SearchRequest {
            board: board.clone(),
            history: Vec::new(),
            limits: super::Limits::movetime(time),
            searchmoves: moves.to_vec(),
        };
        self.search(req, Box::new(|_| {})).best
    }
}

/// Number of legal moves of `board`.
fn legal_count(board: &cozy_chess::Board) -> usize {
    let mut n = 0;
    board.generate_moves(|moves| {
        n += moves.len();
        false
    });
    n
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(cur) = self.current.take() {
            cur.pondering.store(false, Ordering::Relaxed);
            cur.stop.store(true, Ordering::Relaxed);
        }
    }
}
