//! `wily soak`: the bot's fault soak, a command that prints figures. It starts the local
//! server in-process on 127.0.0.1 (a free port), and for each pair a wily bot with its
//! own account, folder, PGN archive and learning store, and a sparring partner that walks
//! into mates; every bot talks to the server through a fault-injecting proxy. Then it
//! plays the games asked for at a fast time control while injecting garbage lines, lag
//! spikes, server lines cut in two, connections dropped mid-game, adjournments by
//! agreement, and a full server restart, and prints: games completed and resumed,
//! crashes, time forfeits, games missing from the PGN archives and the learning stores
//! (checked against the server's own list), memory, the faults, the wall time.
//!
//! Why a top-level module: the soak drives the bot (`bot/`) against the local server
//! (`server/`) as a user of both, like `wily match` drives engines; it belongs to neither,
//! and neither may depend on it. Nothing in the crate imports it but `main.rs` (and the
//! test that runs a small soak in the default suite).
//!
//! Adjourned games survive the server restart in memory, in this process: the server is
//! given a [`server::Journal`], into which a stopping server hands its adjourned
//! games and from which the next one takes them.
//!
//! Inside, one way down: this file (options, the run, the command) on top of `faults.rs`
//! (the trouble maker), `world.rs` (server, pairs, supervisors), `check.rs` (the
//! cross-checks, memory), `counters.rs` (the bots' `/metrics` read back), `report.rs` (the figures), `proxy.rs` and `chooser.rs`.
//!
//! May depend on: `bot`, `server`, `config`, `link`, `ics`, `chess` (its `Cargo.toml`; the
//! crate map is `docs/modules.md`).

pub mod check;
pub mod chooser;
pub mod counters;
pub mod faults;
pub mod icc_scan;
pub mod options;
pub mod proxy;
pub mod report;
pub mod world;

pub use chooser::{suicidal, suicidal_seeded};
pub use options::{Progress, SoakOptions};
pub use proxy::{Proxy, ProxyCounts};
pub use report::SoakReport;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};
use world::World;

/// Panics anywhere in the process since the soak's hook went in.
static PANICS: AtomicU32 = AtomicU32::new(0);
static HOOK: Once = Once::new();

/// Counts panics (then lets the previous hook report them as usual).
fn count_panics() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::Relaxed);
            previous(info);
        }));
    });
}

/// A fresh folder for a soak without `dir`.
fn scratch_dir() -> Result<PathBuf, String> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let d = std::env::temp_dir().join(format!("wily-soak-{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    Ok(d)
}

/// Runs a soak on the current tokio runtime (multi-threaded) and returns its figures.
pub async fn run(opts: SoakOptions) -> Result<SoakReport, String> {
    count_panics();
    let panics_before = PANICS.load(Ordering::Relaxed);
    let started = Instant::now();
    let rss_start = check::rss_kib();
    let (dir, temporary) = match &opts.dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
            (d.clone(), false)
        }
        None => (scratch_dir()?, true),
    };
    let say = |line: &str| {
        if let Some(p) = &opts.progress {
            p(line);
        }
    };
    let world = World::start(&opts, &dir).await?;
    let mut tasks = Vec::new();
    for (i, pair) in world.pairs.iter().enumerate() {
        let seed = opts.seed.wrapping_mul(1000).wrapping_add(i as u64);
        tokio::spawn(world.clone().sparring_loop(pair.clone(), seed));
        tasks.push(tokio::spawn(
            world.clone().bot_loop(pair.clone(), opts.clone()),
        ));
    }
    let plan = faults::Plan::new(
        opts.seed,
        opts.games,
        opts.drops,
        opts.cut_drops,
        opts.adjourns,
        opts.restarts,
    );
    let injector = tokio::spawn(faults::run(world.clone(), plan, opts.seed));
    let warmup_games = (opts.games / 10).min(100).max(opts.pairs).min(opts.games);
    let mut rss_warm = 0;
    let mut next_progress = opts.progress_every;
    let deadline = tokio::time::Instant::now() + opts.time_limit;
    let mut timed_out = false;
    loop {
        let done = world.journal.finished_count() as u32;
        if rss_warm == 0 && done >= warmup_games {
            rss_warm = check::rss_kib();
        }
        if opts.progress_every > 0 && done >= next_progress {
            next_progress = done + opts.progress_every;
            let c = world.journal.counts();
            say(&format!(
                "soak: {done}/{} games, {:.0} s, resumed {}, restarts {}, RSS {:.1} MiB",
                opts.games,
                started.elapsed().as_secs_f64(),
                c.resumptions,
                world.restarts.load(Ordering::Relaxed),
                check::rss_kib() as f64 / 1024.0
            ));
        }
        if tasks.iter().all(|t| t.is_finished()) {
            break;
        }
        if tokio::time::Instant::now() >= deadline {
            timed_out = true;
            say("soak: time limit reached; stopping the bots");
            for p in &world.pairs {
                p.request_stop(2);
            }
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    world.stopping.store(true, Ordering::Relaxed);
    for t in tasks {
        if let Err(e) = tokio::time::timeout(Duration::from_secs(30), t).await {
            tracing::error!("soak: a bot did not stop: {e}");
        }
    }
    let fired = injector.await.unwrap_or_default();
    let rss_end = check::rss_kib();
    world.stop_server().await;
    for (w, b) in world.journal.adjourned_held_players() {
        tracing::warn!("soak: the adjourned game {w} vs {b} was never resumed");
    }
    let mut r = figures(&world, &opts);
    r.rss_start_kib = rss_start;
    r.rss_warm_kib = rss_warm;
    r.rss_end_kib = rss_end;
    r.warmup_games = warmup_games;
    r.planned_drops = fired.drops;
    r.planned_cut_drops = fired.cut_drops;
    r.adjourn_requests = fired.adjourn_requests;
    r.restarts = fired.restarts;
    r.unfired = fired.unfired;
    r.crashes += PANICS.load(Ordering::Relaxed) - panics_before;
    r.timed_out = timed_out;
    r.wall = started.elapsed();
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(r)
}

/// The figures from the journal, the bots' reports and the cross-checks.
fn figures(world: &World, opts: &SoakOptions) -> SoakReport {
    let finished = world.journal.finished();
    let counts = world.journal.counts();
    let mut r = SoakReport {
        games_target: opts.games,
        pairs: world.pairs.len() as u32,
        base: opts.base,
        inc: opts.inc,
        depth: opts.depth,
        seed: opts.seed,
        icc: opts.dialect == ics::Dialect::Icc,
        completed: finished.len(),
        resumptions: counts.resumptions,
        finished_after_resume: finished.iter().filter(|f| f.resumed > 0).count(),
        adjourned_agreed: counts.adjourned_agreed,
        adjourned_dropped: counts.adjourned_dropped,
        adjourned_shutdown: counts.adjourned_shutdown,
        unresumed: world.journal.adjourned_held(),
        ..SoakReport::default()
    };
    {
        let t = world.tally.lock().unwrap_or_else(|e| e.into_inner());
        r.bot_runs = t.runs;
        r.crashes = t.panics + t.failures;
        let mut reactions = bot::run::driver::Reactions::default();
        for (_, rep) in &t.reports {
            reactions
                .samples
                .extend(rep.reactions.samples.iter().copied());
            r.bot_games += rep.totals.games;
            r.wins += rep.totals.wins;
            r.draws += rep.totals.draws;
            r.losses += rep.totals.losses;
            r.reconnects += rep.reconnects;
            r.bot_time_losses += rep.time_losses;
        }
        r.reactions = reactions.report();
    }
    r.counters = counters::Counters::scrape(&world.metrics);
    for p in &world.pairs {
        let c = p.proxy.counts();
        r.proxy.garbage += c.garbage;
        r.proxy.lag_spikes += c.lag_spikes;
        r.proxy.cut_resumed += c.cut_resumed;
        r.proxy.cut_dropped += c.cut_dropped;
        r.proxy.drops += c.drops;
        r.proxy.dg_malformed += c.dg_malformed;
        r.proxy.dg_unknown += c.dg_unknown;
        r.proxy.dg_out_of_order += c.dg_out_of_order;
        let mine: Vec<_> = finished
            .iter()
            .filter(|f| {
                f.white.eq_ignore_ascii_case(&p.bot) || f.black.eq_ignore_ascii_case(&p.bot)
            })
            .collect();
        for f in &mine {
            if let Some((who, ms)) = &f.time_forfeit {
                if who.eq_ignore_ascii_case(&p.bot) {
                    r.wily_time_forfeits += 1;
                    if *ms > 0 {
                        r.positive_clock_forfeits += 1;
                    }
                }
            }
        }
        let keyed: Vec<_> = mine
            .iter()
            .filter_map(|f| check::server_key(f).map(|k| (k, *f)))
            .collect();
        let wanted: Vec<_> = keyed.iter().map(|(k, _)| k.clone()).collect();
        r.unreadable += mine.len() - wanted.len();
        let (pgn, bad) = check::pgn_keys(&p.dir.join("logs").join("games.pgn"));
        r.unreadable += bad;
        let (miss, extra) = check::missing_indices(&wanted, &pgn);
        r.missing_pgn += miss.len() + (mine.len() - wanted.len());
        r.extra_pgn += extra;
        for i in miss {
            r.missing_games
                .push(format!("{} (PGN)", describe(keyed[i].1)));
        }
        match check::store_keys(&p.dir.join("learn.db"), &p.bot) {
            Ok((store, bad)) => {
                r.unreadable += bad;
                let (miss, extra) = check::missing_indices(&wanted, &store);
                r.missing_store += miss.len() + (mine.len() - wanted.len());
                r.extra_store += extra;
                for i in miss {
                    r.missing_games
                        .push(format!("{} (store)", describe(keyed[i].1)));
                }
            }
            Err(e) => {
                tracing::error!("soak: learning store of {}: {e}", p.bot);
                r.missing_store += mine.len();
            }
        }
    }
    r
}

/// A server-scored game in a line of the report.
fn describe(f: &server::FinishedRecord) -> String {
    format!(
        "{} vs {} {} {{{}}}, {} plies, resumed {}",
        f.white, f.black, f.result, f.reason, f.plies, f.resumed
    )
}

/// `wily soak`: runs the soak on a 2-thread runtime, prints progress and the figures;
/// an error when a must-be-0 figure is not 0.
pub fn soak_cli(mut opts: SoakOptions) -> Result<(), String> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .try_init();
    if opts.progress.is_none() {
        opts.progress = Some(Arc::new(|line: &str| println!("{line}")));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let report = rt.block_on(run(opts))?;
    println!("{report}");
    let problems = report.problems();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("soak failed: {}", problems.join("; ")))
    }
}
