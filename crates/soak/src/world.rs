//! The soak's world: the local server (in-process, 127.0.0.1, a free port) with its
//! journal, restartable; one pair per bot account (`WilyA`, `WilyB`, ...: handles are
//! letters only) with its own sparring partner (`SparA`, ...), its own fault proxy, folder (PGN archive, learning
//! store) and supervisor tasks. The sparring partner reconnects whenever its connection
//! ends (a server restart); the bot is started again when a run ends before its share of
//! games is played (after an adjournment by agreement, which ends its run).

use super::chooser::suicidal_seeded;
use super::options::SoakOptions;
use super::proxy::Proxy;
use bot::run::driver::{run, RunOptions, RunReport};
use bot::run::status::BotStatus;
use config::{Config, SeekAd, SeekColor};
use ics::{Login, Password};
use link::ConnectConfig;
use server::{self, sparring_player, Account, Journal, ServerConfig, SparringPolicy};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// Passwords of the soak's accounts (loopback only; never logged).
const BOT_PW: &str = "soak-bot-pw";
const SPAR_PW: &str = "soak-spar-pw";

/// The sparring partners walk into mates from this move on: games last a few dozen
/// moves, long enough for the faults to land in the middle of them.
const MATES_FROM_MOVE: u16 = 20;

/// A bot's settings for the soak: `handle`, seeking `base inc` unrated, searching to
/// `depth` (0: by the clock), 8 MiB hash, no book, learning on, its PGN archive and
/// learning store under `dir`, quick reconnects.
pub fn bot_config(dir: &Path, handle: &str, base: u32, inc: u32, depth: u32) -> Config {
    let mut c = Config::default();
    c.server.local = false;
    c.server.handle = handle.into();
    c.server.reconnect_min_secs = 1;
    c.server.reconnect_max_secs = 2;
    c.seek.ads = vec![SeekAd {
        base,
        increment: inc,
        rated: false,
        color: SeekColor::Any,
        min_rating: None,
        max_rating: None,
        formula: false,
        ..SeekAd::default()
    }];
    c.seek.interval_secs = 0;
    // The soak plays one partner over and over: the per-opponent limits, which apply to
    // the answers to manual seeks, would stop it after a few games.
    c.accept.max_in_row = 0;
    c.accept.max_per_hour = 0;
    c.engine.depth_limit = depth;
    c.engine.hash_mb = 8;
    c.engine.book = false;
    c.engine.move_overhead_ms = 100;
    c.talk.greeting = String::new();
    c.talk.goodbye = String::new();
    c.talk.whisper = 0;
    c.paths.lists = dir.join("lists");
    c.paths.logs = dir.join("logs");
    c.paths.book = dir.join("book");
    c.paths.learning = dir.join("learn.db");
    c.log.files = false;
    c.log.game_logs = false;
    c
}

/// How a bot reaches the server: through `addr` (its proxy) as `handle`.
pub fn connect_config(addr: SocketAddr, handle: &str, password: &str) -> ConnectConfig {
    let mut c = ConnectConfig::new(
        addr.ip().to_string(),
        addr.port(),
        Login::Registered {
            handle: handle.into(),
            password: Password::new(password),
        },
    );
    c.connect_timeout = Duration::from_secs(5);
    c
}

/// As [`connect_config`], with the loopback server's lines let out faster than a public
/// server's flood limit allows (10 a second instead of 2), so that the seek after a quick
/// game does not wait behind its moves.
fn soak_connect(addr: SocketAddr, handle: &str, password: &str) -> ConnectConfig {
    let mut c = connect_config(addr, handle, password);
    c.rate_limit.per_second = 10.0;
    c.rate_limit.burst = 20;
    c
}

/// The running bot of a pair, as the fault injector sees it.
pub struct BotControl {
    /// Shutdown requests (1: finish or adjourn the game, 2: leave now).
    pub stop: watch::Sender<u32>,
    pub status: watch::Receiver<BotStatus>,
}

/// One bot, its sparring partner, and the proxy between the bot and the server.
pub struct Pair {
    pub bot: String,
    pub spar: String,
    pub dir: PathBuf,
    pub proxy: Proxy,
    /// Finished games this pair is to play.
    pub quota: u32,
    pub control: Mutex<Option<BotControl>>,
}

impl Pair {
    /// Plies of the bot's game in progress (`None`: not playing, not connected, or not
    /// running). A bot that lost its connection still shows its game until it logs in
    /// again; planned faults wait for a connected one.
    pub fn game_plies(&self) -> Option<usize> {
        let c = self.control.lock().unwrap_or_else(|e| e.into_inner());
        let st = c.as_ref()?.status.borrow();
        if !st.connected {
            return None;
        }
        st.game.as_ref().map(|g| g.moves.len())
    }

    /// Asks the running bot to stop (`level` as [`BotControl::stop`]); false when none runs.
    pub fn request_stop(&self, level: u32) -> bool {
        let c = self.control.lock().unwrap_or_else(|e| e.into_inner());
        match c.as_ref() {
            Some(c) => c.stop.send(level).is_ok(),
            None => false,
        }
    }
}

/// What the bots' supervisors saw.
#[derive(Debug, Default)]
pub struct BotTally {
    pub runs: u32,
    /// Tasks that panicked.
    pub panics: u32,
    /// Runs that ended in an error (login refused).
    pub failures: u32,
    pub reports: Vec<(String, RunReport)>,
}

/// Everything the soak runs.
pub struct World {
    pub journal: Journal,
    server: tokio::sync::Mutex<Option<server::ServerHandle>>,
    addr: Mutex<SocketAddr>,
    accounts: Vec<Account>,
    /// FICS text or ICC datagrams, for the server, the bots and the sparring partners.
    dialect: ics::Dialect,
    pub pairs: Vec<Arc<Pair>>,
    /// Set when the soak is over: supervisors stop starting things.
    pub stopping: AtomicBool,
    pub restarts: AtomicU32,
    /// Planned faults not yet fired (the fault injector keeps it up to date).
    pub planned_left: AtomicU32,
    pub tally: Mutex<BotTally>,
    /// The counters every bot adds to, as behind `/metrics` (read back by `counters.rs`).
    pub metrics: Arc<bot::run::metrics::Metrics>,
}

impl World {
    /// Starts the server and the proxies (no players yet); each pair's folder is made
    /// under `dir`.
    pub async fn start(opts: &SoakOptions, dir: &Path) -> Result<Arc<World>, String> {
        let pairs_n = opts.pairs.clamp(1, 26);
        let letter = |i: u32| char::from(b'A' + (i - 1) as u8);
        let mut accounts = Vec::new();
        for i in 1..=pairs_n {
            accounts.push(Account::new(&format!("Wily{}", letter(i)), BOT_PW).computer());
            accounts.push(Account::new(&format!("Spar{}", letter(i)), SPAR_PW));
        }
        let journal = Journal::new();
        let srv = start_server(&accounts, &journal, opts.dialect).await?;
        let addr = srv.local_addr();
        let mut pairs = Vec::new();
        for i in 1..=pairs_n {
            let pdir = dir.join(format!("Wily{}", letter(i)));
            std::fs::create_dir_all(pdir.join("lists"))
                .map_err(|e| format!("{}: {e}", pdir.display()))?;
            let proxy = Proxy::try_start_for(addr, opts.dialect)
                .await
                .map_err(|e| format!("proxy: {e}"))?;
            // The games shared out as evenly as they go.
            let quota = opts.games / pairs_n + u32::from(i <= opts.games % pairs_n);
            pairs.push(Arc::new(Pair {
                bot: format!("Wily{}", letter(i)),
                spar: format!("Spar{}", letter(i)),
                dir: pdir,
                proxy,
                quota,
                control: Mutex::new(None),
            }));
        }
        Ok(Arc::new(World {
            journal,
            server: tokio::sync::Mutex::new(Some(srv)),
            addr: Mutex::new(addr),
            accounts,
            dialect: opts.dialect,
            pairs,
            stopping: AtomicBool::new(false),
            restarts: AtomicU32::new(0),
            planned_left: AtomicU32::new(u32::MAX),
            tally: Mutex::new(BotTally::default()),
            metrics: Arc::new(bot::run::metrics::Metrics::new()),
        }))
    }

    /// The server's address now.
    pub fn addr(&self) -> SocketAddr {
        *self.addr.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the server (every connection goes; games in progress are adjourned and held
    /// in the journal), waits `gap`, and starts a new one on a new port with the held
    /// games; the proxies forward there from then on.
    pub async fn restart_server(&self, gap: Duration) -> Result<(), String> {
        let mut slot = self.server.lock().await;
        if let Some(old) = slot.take() {
            old.shutdown().await;
        }
        tokio::time::sleep(gap).await;
        let srv = start_server(&self.accounts, &self.journal, self.dialect).await?;
        let addr = srv.local_addr();
        *self.addr.lock().unwrap_or_else(|e| e.into_inner()) = addr;
        for p in &self.pairs {
            p.proxy.set_target(addr);
        }
        *slot = Some(srv);
        self.restarts.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Stops the server for good (adjourned games stay held in the journal).
    pub async fn stop_server(&self) {
        if let Some(old) = self.server.lock().await.take() {
            old.shutdown().await;
        }
        for p in &self.pairs {
            p.proxy.close();
        }
    }

    /// The sparring partner of `pair`: plays its bot's seek ads only, accepts its
    /// challenges (resumptions) and adjournment requests, flags its bot when its clock
    /// runs out; logs in again whenever its connection ends, until the soak stops.
    pub async fn sparring_loop(self: Arc<Self>, pair: Arc<Pair>, seed: u64) {
        let policy = SparringPolicy {
            chooser: suicidal_seeded(seed, MATES_FROM_MOVE),
            play_seeks: true,
            seeks_of: Some(pair.bot.clone()),
            accept_challenges: true,
            accept_adjourns: true,
            flag_opponent: true,
            games: usize::MAX,
            timeout: Duration::from_secs(7 * 24 * 3600),
            dialect: self.dialect,
            ..SparringPolicy::default()
        };
        while !self.stopping.load(Ordering::Relaxed) {
            let r = sparring_player(self.addr(), &pair.spar, Some(SPAR_PW), policy.clone()).await;
            if let Err(e) = r {
                tracing::debug!("{}: {e}; logging in again", pair.spar);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The bot of `pair`: runs it until the server has scored its share of games, starting
    /// it again when a run ends early.
    pub async fn bot_loop(self: Arc<Self>, pair: Arc<Pair>, opts: SoakOptions) {
        let mut cfg = bot_config(&pair.dir, &pair.bot, opts.base, opts.inc, opts.depth);
        if self.dialect == ics::Dialect::Icc {
            cfg.server.dialect = ics::Dialect::Icc;
        }
        while !self.stopping.load(Ordering::Relaxed) {
            let done = self.journal.finished_by(&pair.bot) as u32;
            // Past its share, a bot plays one game at a time until the planned faults
            // have all found their games and its adjourned games have been resumed.
            let left = if done < pair.quota {
                pair.quota - done
            } else if self.planned_left.load(Ordering::Relaxed) > 0
                || self.journal.adjourned_waiting_for(&pair.bot) > 0
            {
                1
            } else {
                break;
            };
            let (stop, stop_rx) = watch::channel(0u32);
            let (status_tx, status) = watch::channel(BotStatus::default());
            *pair.control.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(BotControl { stop, status });
            let (book, learn) = bot::learning::open(&cfg);
            let run_opts = RunOptions {
                book: Box::new(book),
                learn: Box::new(learn),
                max_games: left,
                shutdown: Some(stop_rx),
                status: Some(status_tx),
                metrics: self.metrics.clone(),
                ..RunOptions::new({
                    let mut c = soak_connect(pair.proxy.addr, &pair.bot, BOT_PW);
                    c.dialect = self.dialect;
                    c
                })
            };
            let outcome = tokio::spawn(run(cfg.clone(), run_opts)).await;
            *pair.control.lock().unwrap_or_else(|e| e.into_inner()) = None;
            let (failed, refused) = {
                let mut t = self.tally.lock().unwrap_or_else(|e| e.into_inner());
                let mut refused = false;
                t.runs += 1;
                match outcome {
                    Ok(Ok(r)) => t.reports.push((pair.bot.clone(), r)),
                    Ok(Err(e)) => {
                        t.failures += 1;
                        tracing::error!("{}: {e}", pair.bot);
                        refused = true;
                    }
                    Err(e) => {
                        if e.is_panic() {
                            t.panics += 1;
                        } else {
                            t.failures += 1;
                        }
                        tracing::error!("{}: the bot task failed: {e}", pair.bot);
                    }
                }
                (t.failures + t.panics, refused)
            };
            if refused {
                // The login was refused: trying again cannot help.
                break;
            }
            if failed > 0 {
                // Do not spin on a bot that cannot run.
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

async fn start_server(
    accounts: &[Account],
    journal: &Journal,
    dialect: ics::Dialect,
) -> Result<server::ServerHandle, String> {
    let mut c = ServerConfig::local(0);
    c.dialect = dialect;
    for a in accounts {
        c = c.with_account(a.clone());
    }
    c.journal = Some(journal.clone());
    server::start(c)
        .await
        .map_err(|e| format!("local server: {e}"))
}
