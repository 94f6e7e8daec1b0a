//! `wily ics`: reads the settings, sets up logging and signals, and runs the bot against
//! the configured server or, offline, against the in-process local server.

use super::driver::{run, Commentary, RunOptions, RunReport};
use super::hooks::{BookSource, LearnSink};
use super::local;
use super::logging;
use super::service;
use super::status::BotStatus;
use crate::config::{Config, ConfigError};
use crate::ics::{Dialect, Login, Password};
use crate::link::{ConnectConfig, KeepAlive};
use crate::lists::OpponentLists;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Starts a reader of the bot's published status (the web dashboard, wired in by
/// `main.rs` so that the bot never depends on it) when `[web] enabled`; inside the
/// runtime. What it returns is kept alive until the bot stops.
pub type Dashboard =
    Arc<dyn Fn(&Config, watch::Receiver<BotStatus>) -> Result<Box<dyn Send>, String> + Send + Sync>;

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
    c.dialect = match cfg.server.dialect {
        crate::config::Dialect::Fics => Dialect::Fics,
        crate::config::Dialect::Icc => Dialect::Icc,
    };
    c.timeseal = cfg.server.timeseal && c.dialect == Dialect::Fics;
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
    let (book, learn) = super::learning::open(cfg);
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
    rt.block_on(async move {
        let sig = service::signals();
        let shutdown = sig.shutdown;
        let reload = service::reloads(sig.hangup, move || {
            let c = load_config(config_path.as_deref()).map_err(|e| e.to_string())?;
            Ok(if reload_local { local::local_settings(&c) } else { c })
        });
        let (book, learn) = hooks(&cfg);
        let (status_tx, _dashboard) = match (&args.dashboard, cfg.web.enabled) {
            (Some(start), true) => {
                let (tx, rx) = watch::channel(BotStatus::default());
                (Some(tx), Some(start(&cfg, rx)?))
            }
            (None, true) => {
                tracing::warn!("[web] enabled, but this build has no dashboard");
                (None, None)
            }
            _ => (None, None),
        };
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
                status: status_tx.clone(),
                ..RunOptions::new(connect)
            };
            let report = run(world.config.clone(), opts).await.map_err(|e| e.to_string())?;
            world.sparring.abort();
            world.server.shutdown().await;
            println!("{}", summary(&report));
            Ok(())
        } else if !cfg.accounts.is_empty() {
            drop((book, learn, lists, reload));
            run_accounts(&cfg, args.games.unwrap_or(0), shutdown).await
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
                status: status_tx.clone(),
                ..RunOptions::new(connect)
            };
            let report = run(cfg, opts).await.map_err(|e| e.to_string())?;
            eprintln!("{}", summary(&report));
            Ok(())
        }
    })
}

/// `[[accounts]]`: one bot per account, each in its own task with its own connection,
/// engine (the account's threads and hash) and lists, all writing to the one learning
/// store (SQLite in WAL mode with a busy timeout: one writer at a time, no lost game).
/// An account that cannot log in or loses its connection touches no other.
async fn run_accounts(
    cfg: &Config,
    max_games: u32,
    shutdown: watch::Receiver<u32>,
) -> Result<(), String> {
    let mut tasks = Vec::new();
    for a in &cfg.accounts {
        let acfg = a.apply(cfg);
        let mut connect = match remote_connect(&acfg) {
            Ok(c) => c,
            Err(e) => {
                tracing::error!("account {}: {e}", a.handle);
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
            max_games,
            shutdown: Some(shutdown.clone()),
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
        tasks.push((a.handle.clone(), tokio::spawn(run(acfg, opts))));
    }
    let mut failed = 0;
    for (handle, t) in tasks {
        match t.await {
            Ok(Ok(r)) => eprintln!("{handle}: {}", summary(&r)),
            Ok(Err(e)) => {
                failed += 1;
                eprintln!("{handle}: {e}");
            }
            Err(e) => {
                failed += 1;
                eprintln!("{handle}: stopped: {e}");
            }
        }
    }
    if failed == cfg.accounts.len() {
        Err("no account could run".into())
    } else {
        Ok(())
    }
}
