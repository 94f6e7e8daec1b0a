//! `wily ics`: reads the settings, sets up logging and signals, and runs the bot against
//! the configured server, offline against the in-process local server, or as several
//! `[[accounts]]` in one process ([`run_accounts`]).

use crate::hooks::{BookSource, LearnSink};
use crate::run::driver::{run, Commentary, RunOptions, RunReport};
use crate::run::health::{Health, Monitor};
use crate::run::local;
use crate::run::logging;
use crate::run::metrics::Metrics;
use crate::run::service::{self, Reload};
use crate::run::status::BotStatus;
use config::{Config, ConfigError};
use ics::{Dialect, Login, Password};
use link::{ConnectConfig, KeepAlive};
use lists::OpponentLists;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tracing::Instrument;

/// Starts a reader of the bot's published status (the web dashboard, wired in by
/// `main.rs` so that the bot never depends on it) when `[web] enabled`; inside the
/// runtime. It gets one status per account (one for a single account, in the order of
/// `[[accounts]]` otherwise) and the counters and health behind `/metrics` and
/// `/healthz`. What it returns is kept alive until the bot stops.
pub type Dashboard = Arc<
    dyn Fn(&Config, Vec<watch::Receiver<BotStatus>>, Monitor) -> Result<Box<dyn Send>, String>
        + Send
        + Sync,
>;

/// The `wily ics` command line.
#[derive(Clone, Default)]
pub struct IcsArgs {
    /// Settings file (default `config.toml` when it exists, else built-in defaults).
    pub config: Option<PathBuf>,
    /// Play offline on the local server whatever `server.local` says.
    pub local: bool,
    /// Stop after this many games.
    pub games: Option<u32>,
    /// Log every line sent and received (passwords masked).
    pub wire_debug: bool,
    /// No running commentary on stdout.
    pub quiet: bool,
    /// The dashboard to start when `[web] enabled = true`.
    pub dashboard: Option<Dashboard>,
}

/// Loads the settings the way `wily ics` does.
pub fn load_config(path: Option<&Path>) -> Result<Config, ConfigError> {
    match path {
        Some(p) => Config::load(p),
        None => {
            let p = Path::new("config.toml");
            if p.exists() {
                Config::load(p)
            } else {
                Ok(Config::default())
            }
        }
    }
}

/// How to connect to the configured (remote) server.
pub fn remote_connect(cfg: &Config) -> Result<ConnectConfig, String> {
    let login = if cfg.is_guest() {
        Login::Guest
    } else {
        match cfg.password().map_err(|e| e.to_string())? {
            Some(p) => Login::Registered {
                handle: cfg.server.handle.clone(),
                password: Password::new(p.expose().to_string()),
            },
            None => Login::Unregistered {
                name: cfg.server.handle.clone(),
            },
        }
    };
    let mut c = ConnectConfig::new(cfg.server.host.clone(), cfg.server.port, login);
    c.dialect = cfg.server.dialect;
    c.timeseal = cfg.server.timeseal && c.dialect == Dialect::Fics;
    c.icc_level2 = cfg.server.icc_level2;
    c.helper = cfg.server.helper.as_ref().map(|p| {
        let mut h = link::HelperConfig::new(p.clone());
        h.local_port = cfg.server.helper_port;
        h
    });
    if c.helper.is_some() {
        // The helper does the server's lag scheme itself (timestamp on ICC, timeseal on
        // FICS); wily's own timeseal encoding would come on top of it.
        c.timeseal = false;
    }
    // Which clock the move overhead has to cover, said once so the operator can set it.
    let overhead = cfg.engine.move_overhead_ms;
    match (c.dialect, c.helper.is_some(), c.timeseal) {
        (_, true, _) => tracing::info!(
            overhead_ms = overhead,
            "ics: clocks are the server's with the helper's lag compensation: the server does not charge network lag, so engine.move_overhead_ms only has to cover wily's own delay"
        ),
        (Dialect::Icc, false, _) => tracing::warn!(
            overhead_ms = overhead,
            "ics: ICC without timestamp (server.helper): the server charges the network lag of every move to our clock; engine.move_overhead_ms must cover a round trip"
        ),
        (Dialect::Fics, false, true) => tracing::info!(
            overhead_ms = overhead,
            "ics: timeseal on: the server does not charge network lag; engine.move_overhead_ms covers wily's own delay"
        ),
        (Dialect::Fics, false, false) => tracing::warn!(
            overhead_ms = overhead,
            "ics: no timeseal: the server charges the network lag of every move to our clock; engine.move_overhead_ms must cover a round trip"
        ),
    }
    c.connect_timeout = Duration::from_secs(cfg.server.connect_timeout_secs);
    c.keepalive = KeepAlive {
        idle: (cfg.server.keepalive_secs > 0)
            .then(|| Duration::from_secs(cfg.server.keepalive_secs)),
        ..KeepAlive::default()
    };
    Ok(c)
}

fn wire_log(cfg: &Config) -> Option<PathBuf> {
    cfg.log.wire_debug.then(|| cfg.paths.logs.join("wire.log"))
}

/// The book and learning hooks for a run.
fn hooks(cfg: &Config) -> (Box<dyn BookSource>, Box<dyn LearnSink>) {
    let (book, learn) = crate::learning::open(cfg);
    (Box::new(book), Box::new(learn))
}

fn summary(r: &RunReport) -> String {
    let t = r.totals;
    let mut s = format!(
        "games {} (+{} ={} -{}), recorded {}, declined {}, reconnects {}, lost on time {}",
        t.games, t.wins, t.draws, t.losses, r.recorded, t.declined, r.reconnects, r.time_losses
    );
    let reactions = r.reactions.report();
    if !reactions.is_empty() {
        s.push_str("\nreaction time (board received -> move sent):\n");
        s.push_str(&reactions);
    }
    s
}

/// Runs `wily ics`.
pub fn ics_cli(args: IcsArgs) -> Result<(), String> {
    let mut cfg = load_config(args.config.as_deref()).map_err(|e| e.to_string())?;
    if args.wire_debug {
        cfg.log.wire_debug = true;
    }
    let local = args.local || cfg.server.local;
    if let Some(g) = args.games {
        cfg.local.games = g;
    }
    let commentary_on = local && cfg.local.commentary && !args.quiet;
    let stderr_level = if commentary_on {
        "warn".to_string()
    } else {
        cfg.log.level.clone()
    };
    let _guard = logging::init(&cfg, &stderr_level);
    let (lists, warnings) = OpponentLists::load(&cfg.paths.lists);
    for w in &warnings {
        tracing::warn!("{w}");
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let config_path = args.config.clone();
    let reload_local = local;
    let accounts = !local && !cfg.accounts.is_empty();
    rt.block_on(async move {
        let sig = service::signals();
        let shutdown = sig.shutdown;
        let load = move || load_config(config_path.as_deref()).map_err(|e| e.to_string());
        let names: Vec<String> = if accounts {
            cfg.accounts.iter().map(|a| a.handle.clone()).collect()
        } else if local {
            vec![cfg.local.handle.clone()]
        } else {
            vec![cfg.server.handle.clone()]
        };
        let monitor = Monitor::new(&names);
        let _notifier = crate::run::watchdog::spawn(monitor.health.clone());
        let (mut status_txs, _dashboard) = dashboard(&args, &cfg, names.len(), &monitor)?;
        if accounts {
            let opts = AccountsOptions {
                max_games: args.games.unwrap_or(0),
                shutdown: Some(shutdown),
                reloads: service::accounts_reloads(sig.hangup, load, cfg.accounts.clone()),
                statuses: status_txs,
                metrics: Some(monitor.metrics.clone()),
                health: monitor.health.clone(),
            };
            let runs = run_accounts(&cfg, opts).await;
            for r in &runs {
                match &r.result {
                    Ok(report) => eprintln!("{}: {}", r.handle, summary(report)),
                    Err(e) => eprintln!("{}: {e}", r.handle),
                }
            }
            return if runs.iter().all(|r| r.result.is_err()) {
                Err("no account could run".into())
            } else {
                Ok(())
            };
        }
        let reload = service::reloads(sig.hangup, move || {
            let c = load()?;
            Ok(if reload_local { local::local_settings(&c) } else { c })
        });
        let status_tx = status_txs.pop();
        let (book, learn) = hooks(&cfg);
        let commentary: Option<Commentary> = commentary_on.then(|| {
            Arc::new(|line: &str| println!("{line}")) as Commentary
        });
        if local {
            let world = local::start(&cfg).await?;
            if let Some(c) = &commentary {
                c(&format!(
                    "wily local server on {} - {} plays {} (wily at depth {}), {}+{}; Ctrl-C to stop",
                    world.server.local_addr(),
                    cfg.local.handle,
                    cfg.local.sparring_handle,
                    cfg.local.sparring_depth,
                    cfg.local.base,
                    cfg.local.increment
                ));
            }
            let mut connect = world.connect.clone();
            connect.wire_log = wire_log(&cfg);
            let opts = RunOptions {
                lists,
                book,
                learn,
                max_games: cfg.local.games,
                commentary: commentary.clone(),
                shutdown: Some(shutdown),
                reload: Some(reload),
                status: status_tx,
                metrics: monitor.metrics.clone(),
                health: monitor.health[0].clone(),
                ..RunOptions::new(connect)
            };
            let report = run(world.config.clone(), opts).await.map_err(|e| e.to_string())?;
            world.sparring.abort();
            world.server.shutdown().await;
            println!("{}", summary(&report));
            Ok(())
        } else {
            let mut connect = remote_connect(&cfg)?;
            connect.wire_log = wire_log(&cfg);
            let opts = RunOptions {
                lists,
                book,
                learn,
                max_games: args.games.unwrap_or(0),
                commentary,
                shutdown: Some(shutdown),
                reload: Some(reload),
                status: status_tx,
                metrics: monitor.metrics.clone(),
                health: monitor.health[0].clone(),
                ..RunOptions::new(connect)
            };
            let report = run(cfg, opts).await.map_err(|e| e.to_string())?;
            eprintln!("{}", summary(&report));
            Ok(())
        }
    })
}

/// `n` status channels and the dashboard reading them when `[web] enabled` (no channels
/// when it is off: nobody would read them).
#[allow(clippy::type_complexity)]
fn dashboard(
    args: &IcsArgs,
    cfg: &Config,
    n: usize,
    monitor: &Monitor,
) -> Result<(Vec<watch::Sender<BotStatus>>, Option<Box<dyn Send>>), String> {
    match (&args.dashboard, cfg.web.enabled) {
        (Some(start), true) => {
            let (txs, rxs) = (0..n).map(|_| watch::channel(BotStatus::default())).unzip();
            Ok((txs, Some(start(cfg, rxs, monitor.clone())?)))
        }
        (None, true) => {
            tracing::warn!("[web] enabled, but this build has no dashboard");
            Ok((Vec::new(), None))
        }
        _ => Ok((Vec::new(), None)),
    }
}

/// `[[accounts]]`: each account is its own bot in its own task (its connection, engine
/// with the account's threads and hash, lists, reconnects, status, reloads), all writing
/// to the one PGN archive (one appending write per game) and the one learning store
/// (SQLite in WAL mode with a busy timeout: one writer at a time, no lost game). An
/// account that cannot log in, loses its connection or fails in any way touches no
/// other. What a run of all accounts needs besides the settings:
#[derive(Default)]
pub struct AccountsOptions {
    /// Stop each account after this many finished games (0 = never).
    pub max_games: u32,
    /// The number of shutdown requests so far (1: finish the games, 2: now); every
    /// account hears it.
    pub shutdown: Option<watch::Receiver<u32>>,
    /// One reload channel per account, in the order of `[[accounts]]`
    /// (`service::accounts_reloads`); empty: no reloads.
    pub reloads: Vec<mpsc::UnboundedReceiver<Reload>>,
    /// Where each account publishes its status, in the order of `[[accounts]]`; empty:
    /// nowhere.
    pub statuses: Vec<watch::Sender<BotStatus>>,
    /// The counters every account adds to (`/metrics`); `None`: counted nowhere.
    pub metrics: Option<Arc<Metrics>>,
    /// Each account's heartbeat and login state, in the order of `[[accounts]]`
    /// (`/healthz`, the systemd watchdog); empty: a fresh one each.
    pub health: Vec<Arc<Health>>,
}

/// How one account's run ended.
#[derive(Debug)]
pub struct AccountRun {
    pub handle: String,
    /// Its report, or why it could not run (no password, login refused, a crash).
    pub result: Result<RunReport, String>,
}

/// Runs every `[[accounts]]` entry of `cfg` until each has stopped (its games done, the
/// shutdown, its login refused); one result per entry, in their order.
pub async fn run_accounts(cfg: &Config, opts: AccountsOptions) -> Vec<AccountRun> {
    let mut reloads = opts.reloads.into_iter();
    let mut statuses = opts.statuses.into_iter();
    let mut health = opts.health.into_iter();
    let metrics = opts.metrics.unwrap_or_default();
    let mut tasks = Vec::new();
    for a in &cfg.accounts {
        let (reload, status) = (reloads.next(), statuses.next());
        let health = health
            .next()
            .unwrap_or_else(|| Arc::new(Health::new(&a.handle)));
        let acfg = a.apply(cfg);
        let mut connect = match remote_connect(&acfg) {
            Ok(c) => c,
            Err(e) => {
                tracing::error!("account {}: {e}", a.handle);
                health.set_stopped();
                tasks.push((a.handle.clone(), Err(e)));
                continue;
            }
        };
        connect.wire_log = acfg
            .log
            .wire_debug
            .then(|| acfg.paths.logs.join(format!("wire-{}.log", a.handle)));
        let (book, learn) = hooks(&acfg);
        let (lists, warnings) = OpponentLists::load(&acfg.paths.lists);
        for w in &warnings {
            tracing::warn!("account {}: {w}", a.handle);
        }
        let opts = RunOptions {
            lists,
            book,
            learn,
            max_games: opts.max_games,
            shutdown: opts.shutdown.clone(),
            reload,
            status,
            metrics: metrics.clone(),
            health,
            ..RunOptions::new(connect)
        };
        tracing::info!(
            "account {} on {}:{} ({} threads, {} MiB hash)",
            a.handle,
            acfg.server.host,
            acfg.server.port,
            acfg.engine.threads,
            acfg.engine.hash_mb
        );
        let span = tracing::info_span!("account", handle = %a.handle);
        let task = tokio::spawn(run(acfg, opts).instrument(span));
        tasks.push((a.handle.clone(), Ok(task)));
    }
    let mut out = Vec::new();
    for (handle, t) in tasks {
        let result = match t {
            Err(e) => Err(e),
            Ok(t) => match t.await {
                Ok(Ok(r)) => Ok(r),
                Ok(Err(e)) => Err(e.to_string()),
                Err(e) => Err(format!("stopped: {e}")),
            },
        };
        out.push(AccountRun { handle, result });
    }
    out
}
