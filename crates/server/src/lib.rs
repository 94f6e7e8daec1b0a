//! `wily serve`: a small chess server on 127.0.0.1 that speaks the FICS
//! dialect of the lasker server recorded in `../shared/data/ics/lasker/`
//! (login, seeks, matches, style 12, clocks, offers, observing, talk), so the
//! bot can be run and tested offline. Start it in-process with [`start`]
//! (port 0 for tests; [`ServerHandle::local_addr`] tells the port) or from
//! the command line with [`run_blocking`]. [`sparring_player`] is a scripted
//! client that plays against whoever challenges it.
//!
//! Inside, one way down: `events.rs` (the event loop) hands lines to
//! `accounts/login.rs` and the command table (`commands.rs`), whose handlers sit in one
//! folder per concept (`accounts/`, `games/`, `offers/`, with `info.rs` and `talk.rs`),
//! each folder declaring its part of the state and holding its handlers as that part's
//! methods; `core.rs` holds the parts together and the connections (`Net`, the output
//! helpers). `tourney/` is a mamer-like tournament director account, `relay/` a relay
//! account; neither has a connection. `sparring/` is a scripted client, `icc/` the ICC
//! dialect (renderers over a read-only view of the parts). `journal.rs` is what an
//! in-process owner (the fault soak) is told of finished and adjourned games, and where
//! adjourned games wait across a restart.
//!
//! May depend on: `chess`, `ics`, `link`; never the bot. Its `Cargo.toml` lists them and
//! the compiler keeps the wall; the crate map is `docs/modules.md`.

mod accounts;
mod commands;
mod conn;
mod core;
mod events;
mod games;
mod icc;
mod info;
mod journal;
mod offers;
mod relay;
mod sparring;
mod talk;
mod tourney;

pub use accounts::store::{load_accounts, parse_accounts, valid_handle, Account, AccountLineError};
pub use journal::{FinishedRecord, Journal, JournalCounts};
pub use relay::config::{relay_name, RelayConfig};
pub use sparring::input::{parse_result, parse_style12, Board12};
pub use sparring::player::{
    sparring_player, MoveChooser, SparringGame, SparringPolicy, SparringReport,
};
pub use tourney::config::{DirectorConfig, PairingStyle};

pub use ics::Dialect;

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// Default port of `wily serve`.
pub const DEFAULT_PORT: u16 = 5000;

/// Errors starting the server.
#[derive(Debug)]
pub enum ServerError {
    /// Binding or accepting failed.
    Io(std::io::Error),
    /// The accounts file could not be read.
    Accounts(String),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Io(e) => write!(f, "server socket: {e}"),
            ServerError::Accounts(e) => write!(f, "accounts file: {e}"),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<std::io::Error> for ServerError {
    fn from(e: std::io::Error) -> Self {
        ServerError::Io(e)
    }
}

/// Result of this module.
pub type Result<T> = std::result::Result<T, ServerError>;

/// How to run the server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Address to listen on (default 127.0.0.1).
    pub bind: IpAddr,
    /// Port (default 5000; 0 picks a free one).
    pub port: u16,
    /// Registered accounts.
    pub accounts: Vec<Account>,
    /// End a game by itself when the side to move runs out of time (real
    /// FICS waits for the opponent's `flag`; default off).
    pub auto_flag: bool,
    /// Log out players idle this long while not playing (default: never).
    pub idle_timeout: Option<Duration>,
    /// Close connections that have not logged in after this long.
    pub login_timeout: Duration,
    /// Most clients at once.
    pub max_connections: usize,
    /// Name shown in the banner.
    pub server_name: String,
    /// Seed for guest names and colour draws (fixed for reproducible tests).
    pub seed: u64,
    /// Starting clock of `0 N` games in milliseconds (FICS: 10 seconds; tests
    /// lower it to reach a time forfeit quickly).
    pub zero_base_ms: u64,
    /// Report finished and adjourned games here, and keep adjourned games in it across a
    /// restart (in memory; see [`Journal`]). Default: none.
    pub journal: Option<Journal>,
    /// What the server speaks: the FICS text dialect (default) or ICC's, whose clients
    /// ask for level-2 datagrams at the login prompt (`docs/icc-local-server.md`).
    pub dialect: Dialect,
    /// A relay account that replays PGN games as examined games (see `relay/config.rs`).
    /// Default: none.
    pub relay: Option<RelayConfig>,
    /// A tournament director account in the manner of mamer (see `tourney/director.rs`).
    /// Default: none.
    pub director: Option<DirectorConfig>,
    /// FICS's rule that `abort` before each player has made a move aborts the game at
    /// once (default off: lasker asks the opponent, as the recordings show).
    pub abort_before_moves: bool,
    /// Know FICS's computer-account interface variables `fr` and `wildcastle` (default
    /// on; off answers `No such ivariable`, as lasker does).
    pub computer_ivars: bool,
    /// Manual seeks (`seek ... m`): an answer becomes a match request to the seeker
    /// (default on; off refuses the `m` as lasker does, reading it as a variant name).
    pub manual_seeks: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: DEFAULT_PORT,
            accounts: Vec::new(),
            auto_flag: false,
            idle_timeout: None,
            login_timeout: Duration::from_secs(120),
            max_connections: 256,
            server_name: "wily-local".to_string(),
            seed: 0x5eed_c0de,
            zero_base_ms: 10_000,
            journal: None,
            dialect: Dialect::Fics,
            relay: None,
            director: None,
            abort_before_moves: false,
            computer_ivars: true,
            manual_seeks: true,
        }
    }
}

impl ServerConfig {
    /// Loopback on `port` (0: any free port), no accounts.
    pub fn local(port: u16) -> ServerConfig {
        ServerConfig {
            port,
            ..ServerConfig::default()
        }
    }

    /// Add a registered account.
    pub fn with_account(mut self, account: Account) -> ServerConfig {
        self.accounts
            .retain(|a| !a.handle.eq_ignore_ascii_case(&account.handle));
        self.accounts.push(account);
        self
    }

    /// Load accounts from a file (`handle password [flags]` a line); bad
    /// lines are logged (without passwords) and skipped. Returns how many
    /// accounts were added.
    pub fn load_accounts_file(&mut self, path: &Path) -> Result<usize> {
        let (accounts, errors) = load_accounts(path)
            .map_err(|e| ServerError::Accounts(format!("{}: {e}", path.display())))?;
        for e in errors {
            tracing::warn!("{}: {e}", path.display());
        }
        let n = accounts.len();
        for a in accounts {
            *self = std::mem::take(self).with_account(a);
        }
        Ok(n)
    }
}

/// A running server.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    core: Option<JoinHandle<()>>,
}

impl ServerHandle {
    /// The address the server listens on (with the real port).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stop accepting, close every connection and wait for the server task.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(core) = self.core.take() {
            let _ = core.await;
        }
    }

    /// Wait until the server stops (after [`ServerHandle::shutdown`] from
    /// elsewhere, or never).
    pub async fn wait(mut self) {
        if let Some(core) = self.core.take() {
            let _ = core.await;
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// Bind and start the server on the current tokio runtime.
pub async fn start(config: ServerConfig) -> Result<ServerHandle> {
    let listener = TcpListener::bind(SocketAddr::new(config.bind, config.port)).await?;
    let addr = listener.local_addr()?;
    let (stop, stop_rx) = watch::channel(false);
    let (ev_tx, ev_rx) = mpsc::channel(4096);
    let core_cfg = core::CoreConfig {
        auto_flag: config.auto_flag,
        idle_timeout: config.idle_timeout,
        login_timeout: config.login_timeout,
        server_name: config.server_name.clone(),
        seed: config.seed,
        zero_base_ms: i64::try_from(config.zero_base_ms).unwrap_or(10_000),
        dialect: config.dialect,
        abort_before_moves: config.abort_before_moves,
        computer_ivars: config.computer_ivars,
        manual_seeks: config.manual_seeks,
    };
    let mut core = core::Core::new(core_cfg, config.accounts.clone());
    core.relay = config.relay.clone().map(relay::config::Relay::new);
    // The first tournament is open from the start: a player may join it at once.
    core.director = config.director.clone().map(|c| {
        let mut d = tourney::config::Director::new(c);
        d.open(std::time::Instant::now());
        d
    });
    if let Some(j) = &config.journal {
        core.games.stored = j.take_adjourned();
        core.journal = Some(j.clone());
    }
    tokio::spawn(conn::accept_loop(
        listener,
        ev_tx,
        stop_rx.clone(),
        config.max_connections,
    ));
    let core = tokio::spawn(core.run(ev_rx, stop_rx));
    tracing::info!(%addr, accounts = config.accounts.len(), dialect = ?config.dialect, "local chess server listening");
    Ok(ServerHandle {
        addr,
        stop,
        core: Some(core),
    })
}

/// Run the server until Ctrl-C (the `wily serve` command).
pub fn run_blocking(config: ServerConfig) -> Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let config_dialect = config.dialect;
    rt.block_on(async move {
        let handle = start(config).await?;
        eprintln!(
            "wily serve: listening on {} ({} dialect; Ctrl-C to stop)",
            handle.local_addr(),
            match config_dialect {
                Dialect::Fics => "FICS",
                Dialect::Icc => "ICC",
            }
        );
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("wily serve: shutting down");
        handle.shutdown().await;
        Ok(())
    })
}

/// `wily serve`: log to stderr (`RUST_LOG` filters), load the accounts file,
/// and run until Ctrl-C.
pub fn serve_cli(
    port: u16,
    accounts: Option<&Path>,
    bind: IpAddr,
    auto_flag: bool,
    idle_minutes: Option<u64>,
    dialect: Dialect,
    director: Option<DirectorConfig>,
) -> Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(filter)
        .try_init();
    let mut config = ServerConfig {
        bind,
        port,
        auto_flag,
        idle_timeout: idle_minutes.map(|m| Duration::from_secs(m.saturating_mul(60))),
        dialect,
        director,
        ..ServerConfig::default()
    };
    if let Some(path) = accounts {
        let n = config.load_accounts_file(path)?;
        eprintln!("wily serve: {n} accounts from {}", path.display());
    }
    run_blocking(config)
}
