//! A live test against a real FICS-lineage server (the `lasker` server built from its
//! public source, outside this repository). Runs only when `WILY_LIVE_ICS=host:port`
//! names a running server, with `WILY_LIVE_HANDLE`/`WILY_LIVE_PASSWORD` (wily's account)
//! and `WILY_LIVE_OPP`/`WILY_LIVE_OPP_PASSWORD` (the opponent's); ignored by default
//! (`cargo test --test it live_lasker -- --ignored`), and failing, saying what to set,
//! when run without them. Two games: the opponent challenges wily (wily accepts), then
//! wily seeks and the opponent answers the seek. Both end with a result, both are in
//! the PGN archive and the learning store, and wily never loses on time.

use crate::bot_support;

use bot_support::*;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;
use wily::bot::run::driver::{run, RunOptions};
use wily::learn::Learner;
use wily::lists::OpponentLists;
use wily::server::{sparring_player, SparringPolicy};

struct Live {
    addr: SocketAddr,
    handle: String,
    password: String,
    opp: String,
    opp_password: String,
}

fn live() -> Option<Live> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let addr = var("WILY_LIVE_ICS")?.to_socket_addrs().ok()?.next()?;
    Some(Live {
        addr,
        handle: var("WILY_LIVE_HANDLE")?,
        password: var("WILY_LIVE_PASSWORD")?,
        opp: var("WILY_LIVE_OPP")?,
        opp_password: var("WILY_LIVE_OPP_PASSWORD")?,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running FICS-lineage server: set WILY_LIVE_ICS=host:port, WILY_LIVE_HANDLE, WILY_LIVE_PASSWORD, WILY_LIVE_OPP, WILY_LIVE_OPP_PASSWORD and run with --ignored"]
async fn plays_a_challenge_and_a_seek_on_a_real_server() {
    let Some(l) = live() else {
        panic!(
            "set WILY_LIVE_ICS=host:port, WILY_LIVE_HANDLE, WILY_LIVE_PASSWORD, \
             WILY_LIVE_OPP and WILY_LIVE_OPP_PASSWORD to play on a running server"
        );
    };
    let tmp = tmpdir("live");
    let dir = tmp.path();
    let mut cfg = bot_config(dir, 2, 0);
    cfg.server.host = l.addr.ip().to_string();
    cfg.server.port = l.addr.port();
    cfg.server.handle = l.handle.clone();
    cfg.server.timeseal = false;
    cfg.engine.learn = 7;
    cfg.seek.enabled = false;
    cfg.operators.handles.clear();
    let mut connect = connect_config(l.addr, &l.handle, &l.password);
    connect.wire_log = Some(dir.join("wire.log"));
    let opts = RunOptions {
        lists: OpponentLists::load(&cfg.paths.lists).0,
        max_games: 2,
        ..RunOptions::new(connect)
    };
    let (book, learn) = wily::bot::learning::open(&cfg);
    let (reload, reload_rx) = tokio::sync::mpsc::unbounded_channel();
    let opts = RunOptions {
        book: Box::new(book),
        learn: Box::new(learn),
        reload: Some(reload_rx),
        ..opts
    };
    let mut seek_cfg = cfg.clone();
    seek_cfg.seek.enabled = true;
    let bot = tokio::spawn(run(cfg, opts));
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Game 1: the opponent challenges.
    let challenge = SparringPolicy {
        chooser: wily::bot::run::local::engine_chooser(1),
        challenge: Some((l.handle.clone(), 2, 0)),
        think: Duration::from_millis(200),
        games: 1,
        timeout: Duration::from_secs(300),
        ..SparringPolicy::default()
    };
    let r = sparring_player(l.addr, &l.opp, Some(&l.opp_password), challenge)
        .await
        .expect("the opponent played a game");
    println!("challenge game: {r:?}");
    // Game 2: seeking turned on by a reload (as SIGHUP does); the opponent asks the
    // server for the seeks and plays wily's.
    let lists = OpponentLists::load(&seek_cfg.paths.lists).0;
    reload
        .send(wily::bot::run::service::Reload {
            cfg: seek_cfg,
            lists,
        })
        .expect("reload");
    let seeker = SparringPolicy {
        chooser: wily::bot::run::local::engine_chooser(1),
        play_seeks: true,
        think: Duration::from_millis(200),
        games: 1,
        timeout: Duration::from_secs(300),
        ..SparringPolicy::default()
    };
    let r = sparring_player(l.addr, &l.opp, Some(&l.opp_password), seeker)
        .await
        .expect("the opponent played wily's seek");
    println!("seek game: {r:?}");
    let report = tokio::time::timeout(Duration::from_secs(400), bot)
        .await
        .expect("the bot finished in time")
        .expect("bot task")
        .expect("the bot ran");
    println!("{report:?}");
    assert_eq!(report.totals.games, 2);
    assert_eq!(report.recorded, 2);
    assert_eq!(report.time_losses, 0);
    let pgn = archive(dir);
    assert_eq!(pgn.matches("[Event ").count() as u32, report.recorded);
    let learner = Learner::open(&dir.join("learn.db")).expect("store");
    assert_eq!(
        learner.store().count("games").expect("count") as u32,
        report.recorded
    );
    let wire = std::fs::read_to_string(dir.join("wire.log")).unwrap_or_default();
    if let Ok(keep) = std::env::var("WILY_LIVE_WIRE") {
        std::fs::write(&keep, &wire).expect("wire copy");
    }
    assert!(
        !wire.contains(&l.password),
        "the password is masked in the wire log"
    );
}
