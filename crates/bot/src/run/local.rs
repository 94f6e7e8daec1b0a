//! `wily ics --local`: the whole job offline. Starts the local server in-process with two
//! registered accounts (wily and its sparring partner, passwords made up on the spot and
//! never shown), and a sparring partner that is wily's own engine at a low fixed depth
//! (through the server's scripted sparring client), which answers wily's seeks. With
//! `server.dialect = "icc"` the server, the sparring partner and wily all speak ICC's
//! level-2 datagrams.

use config::{Config, SeekAd, SeekColor};
use engine::{Engine, EngineOptions, Limits, SearchRequest};
use ics::{Dialect, Login, Password};
use link::ConnectConfig;
use rand::distributions::Alphanumeric;
use rand::Rng;
use server::{
    self, sparring_player, Account, MoveChooser, ServerConfig, ServerHandle, SparringPolicy,
    SparringReport,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

/// The running offline world: the server, the sparring partner, and how wily connects.
pub struct LocalWorld {
    pub server: ServerHandle,
    pub sparring: JoinHandle<std::io::Result<SparringReport>>,
    pub connect: ConnectConfig,
    /// wily's settings adjusted for the local server (handle, seek ads).
    pub config: Config,
}

fn secret() -> String {
    rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(16)
        .map(char::from)
        .collect()
}

/// A move chooser that searches `depth` plies with its own small engine.
pub fn engine_chooser(depth: u32) -> MoveChooser {
    let engine = Arc::new(Mutex::new(Engine::new(EngineOptions {
        hash_mb: 8,
        threads: 1,
        move_overhead_ms: 0,
        draw_score: 0,
        multipv: 1,
    })));
    MoveChooser::Callback(Arc::new(move |board| {
        let mut e = engine.lock().ok()?;
        let r = e.search(
            SearchRequest::new(board.clone(), Limits::depth(depth.max(1))),
            Box::new(|_| {}),
        );
        r.best
    }))
}

/// wily's settings adjusted for the local server: its handle there, one seek ad at the
/// local time control, quick reconnection.
pub fn local_settings(cfg: &Config) -> Config {
    let l = &cfg.local;
    let mut config = cfg.clone();
    config.server.handle = l.handle.clone();
    // The local server names Chess960 as lasker 2.2 does, or, speaking ICC, wild 22.
    config.server.chess960 = match cfg.server.dialect {
        Dialect::Fics => "fr".into(),
        Dialect::Icc => "w22".into(),
    };
    config.seek.enabled = true;
    config.seek.reseek_after_game = true;
    config.seek.ads = vec![SeekAd {
        base: l.base,
        increment: l.increment,
        rated: false,
        color: SeekColor::Any,
        min_rating: None,
        max_rating: None,
        formula: false,
        variant: l.variant.clone(),
    }];
    config.server.reconnect_min_secs = 1;
    config.server.reconnect_max_secs = config.server.reconnect_max_secs.min(10);
    config
}

/// Starts the server and the sparring partner; wily connects with the returned
/// [`LocalWorld::connect`].
pub async fn start(cfg: &Config) -> Result<LocalWorld, String> {
    let l = &cfg.local;
    let wily_pw = secret();
    let spar_pw = secret();
    let dialect = cfg.server.dialect;
    let mut server_cfg = ServerConfig::local(l.port)
        .with_account(Account::new(&l.handle, &wily_pw).computer())
        .with_account(Account::new(&l.sparring_handle, &spar_pw).computer());
    server_cfg.dialect = dialect;
    let server = server::start(server_cfg)
        .await
        .map_err(|e| format!("cannot start the local server: {e}"))?;
    let addr = server.local_addr();
    let policy = SparringPolicy {
        chooser: engine_chooser(l.sparring_depth),
        accept_challenges: true,
        play_seeks: true,
        think: Duration::from_millis(200),
        games: if l.games == 0 {
            usize::MAX
        } else {
            l.games as usize
        },
        timeout: Duration::from_secs(365 * 24 * 3600),
        dialect,
        ..SparringPolicy::default()
    };
    let name = l.sparring_handle.clone();
    let sparring =
        tokio::spawn(async move { sparring_player(addr, &name, Some(&spar_pw), policy).await });
    let config = local_settings(cfg);
    let mut connect = ConnectConfig::new(
        addr.ip().to_string(),
        addr.port(),
        Login::Registered {
            handle: l.handle.clone(),
            password: Password::new(wily_pw),
        },
    );
    connect.dialect = dialect;
    connect.icc_level2 = cfg.server.icc_level2;
    connect.timeseal = false;
    connect.connect_timeout = Duration::from_secs(10);
    Ok(LocalWorld {
        server,
        sparring,
        connect,
        config,
    })
}
