//! The async driver: connects (and reconnects, with backoff and jitter), feeds server
//! events, engine reports, ticks and shutdown signals into the [`Session`], and carries
//! out its actions: commands and moves to the server, searches to the engine thread,
//! records to disk, learning hooks, commentary. It also measures the reaction time from
//! a received board to the move sent.

use crate::brain::{Brain, BrainCmd};
use crate::hooks::{BookSource, LearnSink};
use crate::input::{Action, Input, MoveSource, ServerEvent};
use crate::play::record::{archive_path, GameLog};
use crate::run::health::Health;
use crate::run::metrics::{Metrics, Probe};
use crate::run::reconnect::Backoff;
use crate::run::service::Reload;
use crate::run::status::{BotStatus, ConnectionEvent, MAX_EVENTS};
use crate::session::{Session, Totals};
use crate::translate::translate;
use config::Config;
use engine::EngineOptions;
use ics::Event;
use link::{connect, ConnectConfig, Connection};
use lists::OpponentLists;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// Receives each line of running commentary.
pub type Commentary = Arc<dyn Fn(&str) + Send + Sync>;

/// Everything a run needs besides the settings.
pub struct RunOptions {
    /// How to reach and log in to the server.
    pub connect: ConnectConfig,
    pub lists: OpponentLists,
    pub book: Box<dyn BookSource>,
    pub learn: Box<dyn LearnSink>,
    /// Stop after this many finished games (0 = never).
    pub max_games: u32,
    pub commentary: Option<Commentary>,
    /// The number of shutdown requests so far (1: finish the game, 2: now).
    pub shutdown: Option<watch::Receiver<u32>>,
    /// New settings and lists to take while running (SIGHUP).
    pub reload: Option<mpsc::UnboundedReceiver<Reload>>,
    /// Where to publish the read-only status (the web dashboard reads it).
    pub status: Option<watch::Sender<BotStatus>>,
    /// The counters for `/metrics`, shared by every account of the process.
    pub metrics: Arc<Metrics>,
    /// This account's heartbeat and login state (`/healthz`, the systemd watchdog).
    pub health: Arc<Health>,
    pub tick: Duration,
}

impl RunOptions {
    pub fn new(connect: ConnectConfig) -> RunOptions {
        RunOptions {
            connect,
            lists: OpponentLists::default(),
            book: Box::new(crate::hooks::NoBook),
            learn: Box::new(crate::hooks::NoLearning),
            max_games: 0,
            commentary: None,
            shutdown: None,
            reload: None,
            status: None,
            metrics: Arc::new(Metrics::new()),
            health: Arc::new(Health::new("bot")),
            tick: Duration::from_millis(100),
        }
    }
}

/// Reaction times (received board → move handed to the connection), by move source.
#[derive(Debug, Clone, Default)]
pub struct Reactions {
    pub samples: Vec<(MoveSource, Duration)>,
}

impl Reactions {
    /// (count, median, p99, max) for one source.
    pub fn summary(&self, source: MoveSource) -> Option<(usize, Duration, Duration, Duration)> {
        let mut v: Vec<Duration> = self
            .samples
            .iter()
            .filter(|(s, _)| *s == source)
            .map(|(_, d)| *d)
            .collect();
        if v.is_empty() {
            return None;
        }
        v.sort();
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        Some((v.len(), at(0.5), at(0.99), v[v.len() - 1]))
    }

    /// One line per source: `book n=12 median 0.05 ms p99 0.20 ms max 0.31 ms`.
    pub fn report(&self) -> String {
        let mut lines = Vec::new();
        for (name, s) in [
            ("book", MoveSource::Book),
            ("ponder-hit", MoveSource::PonderHit),
            ("ponder-hit-then-search", MoveSource::PonderThenSearch),
            ("search", MoveSource::Search),
        ] {
            if let Some((n, med, p99, max)) = self.summary(s) {
                lines.push(format!(
                    "{name} n={n} median {:.3} ms p99 {:.3} ms max {:.3} ms",
                    med.as_secs_f64() * 1e3,
                    p99.as_secs_f64() * 1e3,
                    max.as_secs_f64() * 1e3
                ));
            }
        }
        lines.join("\n")
    }
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    pub totals: Totals,
    /// Games written to the archive.
    pub recorded: u32,
    /// Connections made after the first.
    pub reconnects: u32,
    pub reactions: Reactions,
    /// Finished games that wily lost on time.
    pub time_losses: u32,
    /// Reloads applied (SIGHUP).
    pub reloads: u32,
    /// The game in progress was left (adjourned) because the shutdown limit ran out.
    pub left_at_limit: bool,
    /// What the watcher (`[watch]`) did.
    pub watch: crate::watch::candidates::WatchTotals,
    /// Time the engine spent choosing and pondering wily's own moves, milliseconds.
    pub play_ms: u64,
    /// Tournaments joined, their games, byes, withdrawals (`[tourney]`).
    pub tourney: crate::tourney::TourneyStats,
}

/// Why a run ended early.
#[derive(Debug)]
pub enum BotError {
    /// The server refused the login (wrong password, bad name): retrying cannot help.
    Login(String),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Login(s) => write!(f, "login failed: {s}"),
        }
    }
}

impl std::error::Error for BotError {}

enum Outcome {
    Quit,
    Disconnected,
}

struct Driver {
    session: Session,
    brain: Brain,
    inputs: mpsc::UnboundedReceiver<Input>,
    learn: Box<dyn LearnSink>,
    game_log: Option<GameLog>,
    commentary: Option<Commentary>,
    report: RunReport,
    cfg: Config,
    reload: Option<mpsc::UnboundedReceiver<Reload>>,
    /// After a first shutdown request during a game: when to leave it anyway.
    leave_at: Option<Instant>,
    status: Option<watch::Sender<BotStatus>>,
    /// Counts for `/metrics` and beats for `/healthz` (`run/metrics.rs`, `run/health.rs`).
    probe: Probe,
}

/// How often the heartbeat is refreshed while no input comes (connecting, waiting to
/// reconnect).
const IDLE_BEAT: Duration = Duration::from_secs(1);

/// Runs the bot until it quits (operator `quit`, shutdown signal, `max_games`), or the
/// login is refused. Disconnects are followed by reconnection with backoff.
pub async fn run(cfg: Config, opts: RunOptions) -> Result<RunReport, BotError> {
    let (in_tx, inputs) = mpsc::unbounded_channel();
    let brain = Brain::start(
        EngineOptions {
            hash_mb: cfg.engine.hash_mb,
            threads: cfg.engine.threads,
            move_overhead_ms: cfg.engine.move_overhead_ms,
            draw_score: 0,
            multipv: 1,
        },
        in_tx,
    );
    let mut d = Driver {
        session: Session::new(cfg.clone(), opts.lists, opts.book),
        brain,
        inputs,
        learn: opts.learn,
        game_log: None,
        commentary: opts.commentary,
        report: RunReport::default(),
        cfg: cfg.clone(),
        reload: opts.reload,
        leave_at: None,
        status: opts.status,
        probe: Probe::new(opts.metrics, opts.health),
    };
    let eval = d.brain.eval.clone();
    d.session.set_eval(&eval);
    d.session.set_game_limit(opts.max_games);
    if let Some(tx) = &d.status {
        tx.send_modify(|st| st.started_unix = chrono::Utc::now().timestamp());
    }
    if !cfg.engine.syzygy_path.trim().is_empty() {
        d.brain
            .send(BrainCmd::Syzygy(cfg.engine.syzygy_path.clone()));
    }
    let learned = d.learn.learned_positions();
    if !learned.is_empty() {
        tracing::info!(
            "position learning: {} learned positions for the search",
            learned.len()
        );
        d.brain.send(BrainCmd::Learned(learned));
    }
    let mut shutdown = opts.shutdown;
    let mut backoff = Backoff::new(
        Duration::from_secs(cfg.server.reconnect_min_secs),
        Duration::from_secs(cfg.server.reconnect_max_secs),
    );
    let mut ticker = tokio::time::interval(opts.tick);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut connections = 0u32;
    loop {
        if d.session.finished() {
            break;
        }
        let mut connect_cfg = opts.connect.clone();
        // FICS resets interface variables at every login: the computer-account ones
        // (`iset fr 1`) go with each login's setup, less those the server refused.
        connect_cfg.ivariables = d.session.login_ivariables();
        let attempt = connect(connect_cfg);
        tokio::pin!(attempt);
        let mut beat = tokio::time::interval(IDLE_BEAT);
        let attempt = loop {
            tokio::select! {
                r = &mut attempt => break r,
                _ = beat.tick() => d.probe.idle_beat(),
            }
        };
        match attempt {
            Err(e) if e.is_final() => {
                d.probe.health.set_stopped();
                return Err(BotError::Login(e.to_string()));
            }
            Err(e) => tracing::warn!(
                "connection to {}:{} failed: {e}",
                opts.connect.host,
                opts.connect.port
            ),
            Ok((conn, events)) => {
                connections += 1;
                if connections > 1 {
                    d.report.reconnects += 1;
                }
                d.probe.connected(connections > 1);
                let since = Instant::now();
                d.connection_event("connected");
                let outcome = d.drive(&conn, events, &mut ticker, &mut shutdown).await;
                d.connection_event("disconnected");
                backoff.connection_ended(since.elapsed());
                if let Outcome::Quit = outcome {
                    conn.close();
                    conn.closed().await;
                    break;
                }
            }
        }
        if d.session.finished() {
            break;
        }
        let mut wait = backoff.next_delay(&mut rand::thread_rng());
        if d.session.take_taken_over() {
            // Someone else logged in as this account (a second bot, or a person): coming
            // straight back would throw them out, and a second bot would do the same.
            wait = wait.max(Duration::from_secs(cfg.server.reconnect_max_secs));
        }
        d.probe.disconnected(connections > 0, wait);
        tracing::info!("reconnecting in {:.1} s", wait.as_secs_f64());
        d.say(&format!(
            "connection lost; reconnecting in {:.1} s",
            wait.as_secs_f64()
        ));
        if d.wait_or_signal(wait, &mut shutdown).await {
            break;
        }
    }
    d.report.totals = d.session.totals();
    d.report.watch = d.session.watch_totals();
    d.report.play_ms = d.session.play_ms();
    d.report.tourney = d.session.tourney().stats();
    tracing::info!("reaction times:\n{}", d.report.reactions.report());
    d.probe.health.set_stopped();
    Ok(d.report)
}

impl Driver {
    /// A tick, or the order to leave now once the shutdown limit has run out.
    fn tick_input(&mut self) -> Input {
        match self.leave_at {
            Some(t) if Instant::now() >= t && self.session.playing() => {
                self.leave_at = None;
                self.report.left_at_limit = true;
                tracing::warn!("shutdown limit reached: leaving the game in progress");
                self.say("shutdown limit reached: leaving the game (adjourned)");
                Input::Shutdown { now: true }
            }
            _ => Input::Tick,
        }
    }

    /// Refreshes the published status (readers wake only when it changed).
    fn publish(&mut self) {
        if let Some(tx) = &self.status {
            let mut st = tx.borrow().clone();
            st.fill(&self.session);
            tx.send_if_modified(|cur| {
                let changed = *cur != st;
                if changed {
                    *cur = st;
                }
                changed
            });
        }
    }

    fn connection_event(&mut self, what: &str) {
        if let Some(tx) = &self.status {
            tx.send_modify(|st| {
                st.connections.push(ConnectionEvent {
                    unix: chrono::Utc::now().timestamp(),
                    what: what.to_string(),
                });
                let n = st.connections.len();
                if n > MAX_EVENTS {
                    st.connections.drain(..n - MAX_EVENTS);
                }
            });
        }
        self.publish();
    }

    fn apply_reload(&mut self, r: Reload) {
        let kept = r.apply(&mut self.session);
        self.report.reloads += 1;
        if kept.is_empty() {
            tracing::info!("reloaded the settings and opponent lists");
        } else {
            tracing::warn!(
                "reloaded the settings and opponent lists; changes to {} take effect at the next start",
                kept.join(", ")
            );
        }
        self.say("settings and opponent lists reloaded");
    }

    fn say(&self, line: &str) {
        tracing::info!(target: "wily::commentary", "{line}");
        if let Some(c) = &self.commentary {
            c(line);
        }
    }

    /// Sleeps `wait`, feeding engine reports and watching the shutdown signal. True when
    /// the session wants to quit.
    async fn wait_or_signal(
        &mut self,
        wait: Duration,
        shutdown: &mut Option<watch::Receiver<u32>>,
    ) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        let mut beat = tokio::time::interval(IDLE_BEAT);
        loop {
            tokio::select! {
                _ = tokio::time::sleep_until(deadline) => return self.session.finished(),
                _ = beat.tick() => self.probe.idle_beat(),
                Some(inp) = self.inputs.recv() => { let _ = self.session.handle(inp, Instant::now()); }
                Some(r) = next_reload(&mut self.reload) => self.apply_reload(r),
                n = signal(shutdown) => {
                    let a = self.session.handle(Input::Shutdown { now: n >= 2 }, Instant::now());
                    if a.iter().any(|x| matches!(x, Action::Quit)) { return true; }
                }
            }
        }
    }

    async fn drive(
        &mut self,
        conn: &Connection,
        mut events: mpsc::Receiver<Event>,
        ticker: &mut tokio::time::Interval,
        shutdown: &mut Option<watch::Receiver<u32>>,
    ) -> Outcome {
        loop {
            let (input, disconnected) = tokio::select! {
                ev = events.recv() => {
                    let received = Instant::now();
                    match ev {
                        Some(ev) => {
                            tracing::trace!(kind = ev.kind(), "event");
                            if let Event::Board(b) = &ev {
                                self.probe.board(b);
                            }
                            match translate(ev, received) {
                                Some(se) => {
                                    let d = matches!(se, ServerEvent::Disconnected);
                                    (Input::Server(se), d)
                                }
                                None => continue,
                            }
                        }
                        None => (Input::Server(ServerEvent::Disconnected), true),
                    }
                }
                Some(inp) = self.inputs.recv() => (inp, false),
                Some(r) = next_reload(&mut self.reload) => {
                    self.apply_reload(r);
                    continue;
                }
                _ = ticker.tick() => (self.tick_input(), false),
                n = signal(shutdown) => {
                    if n == 1 && self.session.playing() && self.cfg.service.shutdown_limit_secs > 0 {
                        let limit = Duration::from_secs(self.cfg.service.shutdown_limit_secs);
                        self.leave_at = Some(Instant::now() + limit);
                        tracing::info!("the game in progress has {} s to end", limit.as_secs());
                    }
                    (Input::Shutdown { now: n >= 2 }, false)
                }
            };
            let actions = self.session.handle(input, Instant::now());
            let quit = self.execute(conn, actions);
            self.probe.after_input(&self.session);
            self.publish();
            if quit {
                return Outcome::Quit;
            }
            if disconnected {
                return Outcome::Disconnected;
            }
        }
    }

    /// Carries out actions; true when the session asked to quit.
    fn execute(&mut self, conn: &Connection, actions: Vec<Action>) -> bool {
        let mut quit = false;
        let mut queue: std::collections::VecDeque<Action> = actions.into();
        while let Some(a) = queue.pop_front() {
            match a {
                Action::Send(cmd) => {
                    if conn.send(&cmd).is_err() {
                        tracing::debug!("not sent (connection closed): {cmd}");
                    }
                }
                Action::SendNow(cmd) => {
                    if conn.send_urgent(&cmd).is_err() {
                        tracing::debug!("not sent (connection closed): {cmd}");
                    }
                }
                Action::SendTopical {
                    text,
                    game,
                    position,
                } => {
                    let topic = crate::input::queue_topic(game, position);
                    if conn.send_topical(&text, topic).is_err() {
                        tracing::debug!("not sent (connection closed): {text}");
                    }
                }
                Action::Expire { game } => {
                    let _ = conn.expire(u64::from(game));
                }
                Action::SendMove {
                    text,
                    since,
                    source,
                } => {
                    let sent = conn.send_move(&text).is_ok();
                    let took = since.elapsed();
                    if sent {
                        self.probe.metrics.move_time(took);
                        self.report.reactions.samples.push((source, took));
                        tracing::debug!(
                            ?source,
                            "move {text} sent {:.3} ms after the board",
                            took.as_secs_f64() * 1e3
                        );
                    }
                }
                Action::StartSearch(spec) => self.brain.send(BrainCmd::Start(spec)),
                Action::StopSearch { id } => self.brain.send(BrainCmd::Stop(id)),
                Action::PonderHit { id } => self.brain.send(BrainCmd::PonderHit(id)),
                Action::Finish { id } => self.brain.send(BrainCmd::Stop(id)),
                Action::GameLogOpen { game, white, black } => {
                    if self.cfg.log.game_logs {
                        let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S").to_string();
                        let mut log =
                            GameLog::open(&self.cfg.paths.logs, &stamp, game, &white, &black);
                        log.line(&format!("eval: {}", self.brain.eval));
                        self.game_log = Some(log);
                    }
                }
                Action::GameLog(line) => {
                    if let Some(l) = &mut self.game_log {
                        l.line(&line);
                    }
                }
                Action::GameOver(f) => {
                    let path = archive_path(&self.cfg.paths.logs);
                    match f.record.append_to(&path) {
                        Ok(()) => self.report.recorded += 1,
                        Err(e) => {
                            tracing::error!("cannot append the game to {}: {e}", path.display())
                        }
                    }
                    let lost_on_time = f.kind == crate::input::EndKind::Time
                        && ((f.record.result == "1-0" && f.wily_color == cozy_chess::Color::Black)
                            || (f.record.result == "0-1"
                                && f.wily_color == cozy_chess::Color::White));
                    if lost_on_time {
                        self.report.time_losses += 1;
                        tracing::warn!("lost on time: {} vs {}", f.record.white, f.record.black);
                    }
                    self.probe.game_over(&f);
                    let stored = self.learn.store_writes();
                    self.learn.game_finished(&f);
                    let now = self.learn.store_writes();
                    self.probe.metrics.learning(
                        now.0.saturating_sub(stored.0),
                        now.1.saturating_sub(stored.1),
                    );
                    let learned = self.learn.learned_positions();
                    if !learned.is_empty() {
                        self.brain.send(BrainCmd::Learned(learned));
                    }
                    if let Some(mut l) = self.game_log.take() {
                        l.line(&format!("{} {}", f.record.result, f.record.end_text));
                    }
                }
                Action::Commentary(line) => self.say(&line),
                Action::SaveObserved(pgn) => {
                    let path = self.cfg.paths.logs.join("observed.pgn");
                    if let Err(e) = crate::play::record::append_text(&path, &pgn) {
                        tracing::error!(
                            "cannot append the observed game to {}: {e}",
                            path.display()
                        );
                    }
                }
                Action::Quit => quit = true,
            }
        }
        quit
    }
}

/// The next reload; never resolves without a source.
async fn next_reload(rx: &mut Option<mpsc::UnboundedReceiver<Reload>>) -> Option<Reload> {
    match rx {
        Some(r) => match r.recv().await {
            Some(x) => Some(x),
            None => std::future::pending().await,
        },
        None => std::future::pending().await,
    }
}

/// Waits for the next shutdown request and returns how many there were; never resolves
/// without a signal source.
async fn signal(rx: &mut Option<watch::Receiver<u32>>) -> u32 {
    match rx {
        Some(r) => {
            if r.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
            *r.borrow()
        }
        None => std::future::pending().await,
    }
}
