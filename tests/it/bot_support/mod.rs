//! Shared helpers of the bot's loopback tests: a local server, the bot's settings for
//! fast games, a raw telnet-style client for watching and talking, a move chooser that
//! walks into mates, and a TCP proxy that can inject garbage, lag and drops.
#![allow(dead_code, unused_imports)]

use crate::scratch;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch};
use wily::bot::run::driver::{run, RunOptions, RunReport};
use wily::bot::run::service::Reload;
use wily::config::Config;
use wily::link::ConnectConfig;
use wily::lists::OpponentLists;
use wily::server::{self, Account, MoveChooser, ServerConfig, ServerHandle};

pub const WILY_PW: &str = "wilypass";
pub const SPAR_PW: &str = "sparpass";
pub const BOSS_PW: &str = "bosspass";

/// A fresh scratch folder with an empty `lists` folder in it, removed when the returned
/// guard drops: keep it alive until the bot has finished.
pub fn tmpdir(tag: &str) -> tempfile::TempDir {
    if std::env::var("WILY_TEST_LOG").is_ok() {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(
                std::env::var("WILY_TEST_LOG").unwrap_or_default(),
            ))
            .with_test_writer()
            .try_init();
    }
    let d = scratch::dir(&format!("bot-{tag}"));
    std::fs::create_dir_all(d.path().join("lists")).expect("lists folder");
    d
}

/// A local server with the accounts wily, Sparring, Alpha, Beta and Boss.
pub async fn server(zero_base_ms: Option<u64>) -> ServerHandle {
    let mut c = ServerConfig::local(0)
        .with_account(Account::new("wily", WILY_PW).computer())
        .with_account(Account::new("Sparring", SPAR_PW))
        .with_account(Account::new("Alpha", "alphapass"))
        .with_account(Account::new("Beta", "betapass"))
        .with_account(Account::new("Boss", BOSS_PW));
    if let Some(z) = zero_base_ms {
        c.zero_base_ms = z;
    }
    server::start(c).await.expect("server starts")
}

/// wily's settings for quick loopback games: seeks `base inc` unrated, depth-limited
/// search, no greetings, records under `dir` (the soak's settings with handle `wily`,
/// depth 3, per-game logs on and `Boss` as operator).
pub fn bot_config(dir: &Path, base: u32, inc: u32) -> Config {
    let mut c = wily::soak::world::bot_config(dir, "wily", base, inc, 3);
    c.log.game_logs = true;
    c.operators.handles = vec!["Boss".into()];
    // These tests were written for automatic seeks (a seek answer starts the game at
    // once); manual seeks, the default, are tested in `account_rules.rs`.
    c.seek.manual = false;
    c
}

pub use wily::soak::world::connect_config;

/// What a test's bot run has besides its configuration and connection.
#[derive(Default)]
pub struct BotExtras {
    /// Games to play before it stops (0: until told to stop).
    pub max_games: u32,
    /// Open the book and learning store `cfg` names (else none).
    pub learning: bool,
    /// The shutdown channel (each send asks once more).
    pub stop: Option<watch::Receiver<u32>>,
    /// The reload channel (SIGHUP's stand-in).
    pub reload: Option<mpsc::UnboundedReceiver<Reload>>,
    /// The counters behind `/metrics` to count into (else the run's own).
    pub metrics: Option<std::sync::Arc<wily::bot::run::metrics::Metrics>>,
}

/// Runs the bot with `extras` until it stops by itself, within `limit`.
pub async fn run_bot_with(
    cfg: Config,
    connect: ConnectConfig,
    extras: BotExtras,
    limit: Duration,
) -> RunReport {
    let lists = OpponentLists::load(&cfg.paths.lists).0;
    let mut opts = RunOptions {
        lists,
        max_games: extras.max_games,
        shutdown: extras.stop,
        reload: extras.reload,
        ..RunOptions::new(connect)
    };
    if let Some(m) = extras.metrics {
        opts.metrics = m;
    }
    if extras.learning {
        let (book, learn) = wily::bot::learning::open(&cfg);
        opts.book = Box::new(book);
        opts.learn = Box::new(learn);
    }
    tokio::time::timeout(limit, run(cfg, opts))
        .await
        .expect("the bot finished in time")
        .expect("the bot ran")
}

/// Runs the bot until `max_games` are over (or `stop` fires), within `limit`.
pub async fn run_bot(
    cfg: Config,
    connect: ConnectConfig,
    max_games: u32,
    stop: Option<watch::Receiver<u32>>,
    limit: Duration,
) -> RunReport {
    let extras = BotExtras {
        max_games,
        stop,
        ..BotExtras::default()
    };
    run_bot_with(cfg, connect, extras, limit).await
}

/// As [`run_bot`], with the book and learning store named in `cfg`.
pub async fn run_bot_learning(
    cfg: Config,
    connect: ConnectConfig,
    max_games: u32,
    limit: Duration,
) -> RunReport {
    let extras = BotExtras {
        max_games,
        learning: true,
        ..BotExtras::default()
    };
    run_bot_with(cfg, connect, extras, limit).await
}

/// The PGN archive's text.
pub fn archive(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("logs").join("games.pgn")).unwrap_or_default()
}

/// A sparring move chooser that walks into a mate in one whenever it can, and
/// otherwise plays a pseudo-random legal move: games against it end by checkmate.
pub fn suicidal() -> MoveChooser {
    wily::soak::suicidal()
}

/// The sparring account "Sparring", in the background: plays one game against the bot,
/// taking its seek or its challenge, and walks into mate (see [`suicidal`]).
pub fn spar_one_game(
    addr: SocketAddr,
    timeout: Duration,
) -> tokio::task::JoinHandle<std::io::Result<server::SparringReport>> {
    let policy = server::SparringPolicy {
        chooser: suicidal(),
        play_seeks: true,
        accept_challenges: true,
        games: 1,
        timeout,
        ..server::SparringPolicy::default()
    };
    tokio::spawn(
        async move { server::sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await },
    )
}

/// A minimal client: logs in, sends commands, and waits for lines.
pub struct RawClient {
    stream: TcpStream,
    buf: Vec<u8>,
    pub seen: Vec<String>,
}

impl RawClient {
    /// Logs in as `name` (with `password`, or unregistered when `None`).
    pub async fn login(addr: SocketAddr, name: &str, password: Option<&str>) -> RawClient {
        RawClient::login_prompt(addr, name, password, "fics%").await
    }

    /// As [`RawClient::login`] on a server whose prompt is `prompt` (the ICC dialect's
    /// `aics%`: a text client, no datagrams).
    pub async fn login_prompt(
        addr: SocketAddr,
        name: &str,
        password: Option<&str>,
        prompt: &str,
    ) -> RawClient {
        let stream = TcpStream::connect(addr).await.expect("connect");
        let mut c = RawClient {
            stream,
            buf: Vec::new(),
            seen: Vec::new(),
        };
        c.wait_raw("login:").await;
        c.send(name).await;
        match password {
            Some(p) => {
                c.wait_raw("password:").await;
                c.send(p).await;
            }
            None => {
                c.wait_raw("Press return").await;
                c.send("").await;
            }
        }
        c.wait_raw(prompt).await;
        c.send("set style 12").await;
        c
    }

    pub async fn send(&mut self, cmd: &str) {
        self.stream
            .write_all(format!("{cmd}\n").as_bytes())
            .await
            .expect("send");
    }

    async fn fill(&mut self) -> bool {
        let mut b = [0u8; 4096];
        match self.stream.read(&mut b).await {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.buf
                    .extend(b[..n].iter().filter(|&&x| x < 0x80 && x != b'\r'));
                true
            }
        }
    }

    async fn wait_raw(&mut self, needle: &str) {
        let limit = tokio::time::Instant::now() + Duration::from_secs(10);
        while !String::from_utf8_lossy(&self.buf).contains(needle) {
            let ok = tokio::time::timeout_at(limit, self.fill())
                .await
                .expect("server answered");
            assert!(ok, "connection closed waiting for {needle:?}");
        }
        self.buf.clear();
    }

    /// Waits up to `secs` for a line containing `needle`; every line read is kept in
    /// `seen`. `None` on timeout.
    pub async fn wait_line(&mut self, needle: &str, secs: u64) -> Option<String> {
        self.wait_line_for(needle, Duration::from_secs(secs)).await
    }

    /// As [`RawClient::wait_line`] with any duration.
    pub async fn wait_line_for(&mut self, needle: &str, d: Duration) -> Option<String> {
        let limit = tokio::time::Instant::now() + d;
        loop {
            while let Some(pos) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=pos).collect();
                let s = String::from_utf8_lossy(&line).trim_end().to_string();
                let s = s.trim_start_matches("fics% ").to_string();
                self.seen.push(s.clone());
                if s.contains(needle) {
                    return Some(s);
                }
            }
            match tokio::time::timeout_at(limit, self.fill()).await {
                Ok(true) => {}
                _ => return None,
            }
        }
    }
}

impl RawClient {
    /// The account's follow list (`=follow`: the names after its header; empty when the
    /// server shows nothing, as lasker does for a list never used).
    pub async fn follow_list(&mut self) -> Vec<String> {
        self.send("=follow").await;
        let Some(header) = self.wait_line("-- follow list: ", 5).await else {
            return Vec::new();
        };
        let n: usize = header
            .split_whitespace()
            .nth(3)
            .and_then(|x| x.parse().ok())
            .unwrap_or(0);
        let mut names = Vec::new();
        while names.len() < n {
            let Some(line) = self.wait_line("", 5).await else {
                break;
            };
            names.extend(line.split_whitespace().map(str::to_string));
        }
        names
    }
}

/// Waits up to `secs` until the bot's wire log (`ConnectConfig::wire_log`) satisfies
/// `done`; false on timeout.
pub async fn wait_wire(path: &Path, secs: u64, done: impl Fn(&str) -> bool) -> bool {
    for _ in 0..secs * 10 {
        if done(&std::fs::read_to_string(path).unwrap_or_default()) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// The soak's fault-injecting proxy: forwards both ways, and on request injects a
/// garbage line toward the client, holds traffic back (a lag spike), cuts a line, or drops
/// every connection.
pub use wily::soak::Proxy;

/// An `[[accounts]]` entry: `handle` on the server at `addr`, its password in the
/// environment variable `var`.
pub fn account_at(addr: SocketAddr, handle: &str, var: &str) -> wily::config::AccountSection {
    let text = format!(
        "handle = {handle:?}\nhost = {:?}\nport = {}\npassword_env = {var:?}\n",
        addr.ip().to_string(),
        addr.port()
    );
    toml::from_str(&text).expect("account entry")
}

/// Waits up to `secs` until the published status satisfies `done`; false on timeout.
pub async fn wait_status(
    rx: &watch::Receiver<wily::bot::run::status::BotStatus>,
    secs: u64,
    done: impl Fn(&wily::bot::run::status::BotStatus) -> bool,
) -> bool {
    for _ in 0..secs * 10 {
        if done(&rx.borrow()) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// A sparring player `name` that challenges `who` to one unrated 5 0 game, playing
/// with `chooser` and pausing `think` before each move; with `resign_at`, it resigns
/// instead of its N-th move.
pub fn challenger(
    addr: SocketAddr,
    name: &str,
    password: &str,
    who: &str,
    chooser: MoveChooser,
    think: Duration,
    resign_at: Option<u32>,
) -> tokio::task::JoinHandle<Result<(), String>> {
    let policy = server::SparringPolicy {
        chooser,
        challenge: Some((who.to_string(), 5, 0)),
        accept_challenges: false,
        think,
        resign_at,
        games: 1,
        timeout: Duration::from_secs(120),
        ..server::SparringPolicy::default()
    };
    let (name, password) = (name.to_string(), password.to_string());
    tokio::spawn(async move {
        server::sparring_player(addr, &name, Some(&password), policy)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

/// Starts the bot in the background with `cfg`, its wire log at `wire`; the returned
/// sender stops it (send 2: at once).
pub fn start_bot(
    cfg: wily::config::Config,
    addr: std::net::SocketAddr,
    wire: &std::path::Path,
) -> (
    watch::Sender<u32>,
    tokio::task::JoinHandle<wily::bot::run::driver::RunReport>,
) {
    let mut connect = connect_config(addr, "wily", WILY_PW);
    connect.wire_log = Some(wire.to_path_buf());
    // Loopback: lines go out faster than a public server's flood limit allows.
    connect.rate_limit.per_second = 10.0;
    connect.rate_limit.burst = 20;
    let (stop, rx) = watch::channel(0u32);
    let bot = tokio::spawn(run_bot(cfg, connect, 0, Some(rx), Duration::from_secs(90)));
    (stop, bot)
}

/// Stops a bot of [`start_bot`]: after half a second, a request to finish the games, then
/// one to stop at once; returns its report.
pub async fn stop_bot(
    stop: watch::Sender<u32>,
    bot: tokio::task::JoinHandle<wily::bot::run::driver::RunReport>,
) -> wily::bot::run::driver::RunReport {
    // Let the bot read what the server last sent (a game's end) first.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let _ = stop.send(1);
    let _ = stop.send(2);
    bot.await.expect("the bot task")
}

/// Handles on two sparring players' tasks.
pub type SparringTask = tokio::task::JoinHandle<std::io::Result<server::SparringReport>>;

/// Alpha and Beta (accounts of the local server) playing one unrated 5 0 game in the
/// background, for others to watch: Beta accepts challenges, Alpha challenges Beta once
/// Beta has had 200 ms to log in and resigns instead of its `resign_at`-th move. Both pick
/// random moves (`seeds`: Beta's, then Alpha's), pause `think` before each, and give up
/// after 60 s. Returns Alpha's task, then Beta's.
pub async fn alpha_beta_game(
    addr: SocketAddr,
    seeds: (u64, u64),
    think: Duration,
    resign_at: u32,
) -> (SparringTask, SparringTask) {
    let beta = tokio::spawn(async move {
        server::sparring_player(
            addr,
            "Beta",
            Some("betapass"),
            server::SparringPolicy {
                chooser: MoveChooser::Random { seed: seeds.0 },
                accept_challenges: true,
                think,
                games: 1,
                timeout: Duration::from_secs(60),
                ..server::SparringPolicy::default()
            },
        )
        .await
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let alpha = tokio::spawn(async move {
        server::sparring_player(
            addr,
            "Alpha",
            Some("alphapass"),
            server::SparringPolicy {
                chooser: MoveChooser::Random { seed: seeds.1 },
                challenge: Some(("Beta".into(), 5, 0)),
                accept_challenges: false,
                think,
                resign_at: Some(resign_at),
                games: 1,
                timeout: Duration::from_secs(60),
                ..server::SparringPolicy::default()
            },
        )
        .await
    });
    (alpha, beta)
}

/// A run of `cfg`'s `[[accounts]]` in the background (the library's entry point), with
/// one published status per account.
pub struct AccountsRun {
    pub statuses: Vec<watch::Receiver<wily::bot::run::status::BotStatus>>,
    /// Shutdown requests (1: finish the games, 2: now).
    pub stop: watch::Sender<u32>,
    /// Every account's result, within `limit`.
    pub task: tokio::task::JoinHandle<Vec<wily::bot::run::app::AccountRun>>,
}

/// Starts every account of `cfg`, each stopping after `max_games`, and waits until the
/// first `logged_in` of them have logged in.
pub async fn start_accounts(
    cfg: &Config,
    max_games: u32,
    limit: Duration,
    logged_in: usize,
) -> AccountsRun {
    let (txs, statuses): (Vec<_>, Vec<_>) = cfg
        .accounts
        .iter()
        .map(|_| watch::channel(wily::bot::run::status::BotStatus::default()))
        .unzip();
    let (stop, stop_rx) = watch::channel(0u32);
    let opts = wily::bot::run::app::AccountsOptions {
        max_games,
        shutdown: Some(stop_rx),
        statuses: txs,
        ..Default::default()
    };
    let cfg = cfg.clone();
    let task = tokio::spawn(async move {
        tokio::time::timeout(limit, wily::bot::run::app::run_accounts(&cfg, opts))
            .await
            .expect("the accounts stopped in time")
    });
    for rx in &statuses[..logged_in] {
        assert!(wait_status(rx, 30, |s| s.connected).await, "logged in");
    }
    AccountsRun {
        statuses,
        stop,
        task,
    }
}

/// Paris 1858, Morphy against the Duke of Brunswick and Count Isouard (a public game).
pub const OPERA: &str = r#"[Event "Paris casual"]
[Site "Paris FRA"]
[Date "1858.11.02"]
[Round "-"]
[White "Morphy, Paul"]
[Black "Brunswick and Isouard"]
[Result "1-0"]
[ECO "C41"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;
