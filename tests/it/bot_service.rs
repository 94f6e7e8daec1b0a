//! The bot as a service: the first shutdown request lets the game in progress finish (no
//! new seek) and the learning store keeps it; the `[service] shutdown_limit_secs` limit
//! leaves a game that runs too long; a reload takes new settings while the connection
//! stays up; and the real binary answers SIGHUP (good and bad files) and SIGTERM, with
//! one account or with two `[[accounts]]` (each reloaded with its own entry, neither
//! connection dropped).

use crate::bot_support;

use bot_support::*;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};
use wily::bot::run::driver::RunReport;
use wily::bot::run::service::Reload;
use wily::config::Config;
use wily::learn::Learner;
use wily::lists::OpponentLists;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

/// Tells `who` `text`; its answer.
async fn tell_to(client: &mut RawClient, who: &str, text: &str) -> Option<String> {
    client.send(&format!("tell {who} {text}")).await;
    let until = tokio::time::Instant::now() + Duration::from_secs(3);
    while let Some(l) = client
        .wait_line_for("tells you:", until - tokio::time::Instant::now())
        .await
    {
        if l.starts_with(&format!("{who}(")) || l.starts_with(&format!("{who} ")) {
            return Some(l);
        }
    }
    None
}

/// Asks for `status` until it contains `needle`.
async fn status_until(boss: &mut RawClient, needle: &str) -> String {
    status_of_until(boss, "wily", needle).await
}

/// Asks `who` for `status` until it contains `needle`.
async fn status_of_until(boss: &mut RawClient, who: &str, needle: &str) -> String {
    let mut last = String::new();
    for _ in 0..100 {
        if let Some(s) = tell_to(boss, who, "status").await {
            if s.contains(needle) {
                return s;
            }
            last = s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{who}'s status never showed {needle:?}; last {last:?}");
}

/// Observes wily's game until a board arrives (the server shows it at once, while tells
/// from a bot in a game may wait behind its moves).
async fn wait_playing(boss: &mut RawClient) {
    for _ in 0..100 {
        boss.send("observe wily").await;
        if boss.wait_line("<12> ", 1).await.is_some() {
            return;
        }
    }
    panic!("wily never played: {:?}", boss.seen);
}

fn spawn_bot(
    cfg: Config,
    addr: std::net::SocketAddr,
    stop: watch::Receiver<u32>,
    reload: Option<mpsc::UnboundedReceiver<Reload>>,
) -> tokio::task::JoinHandle<RunReport> {
    let extras = BotExtras {
        learning: true,
        stop: Some(stop),
        reload,
        ..BotExtras::default()
    };
    let connect = connect_config(addr, "wily", WILY_PW);
    tokio::spawn(run_bot_with(cfg, connect, extras, Duration::from_secs(120)))
}

fn sparring(addr: std::net::SocketAddr, chooser: MoveChooser) -> tokio::task::JoinHandle<()> {
    let policy = SparringPolicy {
        chooser,
        play_seeks: true,
        think: Duration::from_millis(300),
        games: 3,
        timeout: Duration::from_secs(120),
        ..SparringPolicy::default()
    };
    tokio::spawn(async move {
        let _ = sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await;
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_shutdown_request_finishes_the_game_and_keeps_its_learning() {
    let tmp = tmpdir("svc-finish");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let spar = sparring(addr, suicidal());
    let mut cfg = bot_config(dir, 1, 0);
    cfg.engine.learn = 7;
    cfg.service.shutdown_limit_secs = 60;
    let (stop, stop_rx) = watch::channel(0u32);
    let bot = spawn_bot(cfg, addr, stop_rx, None);
    let mut boss = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    wait_playing(&mut boss).await;
    stop.send(1).expect("stop");
    let report = bot.await.expect("bot task");
    spar.abort();
    assert_eq!(report.totals.games, 1, "the game was finished, no new one");
    assert!(!report.left_at_limit);
    assert_eq!(report.recorded, 1);
    assert_eq!(archive(dir).matches("[Event ").count(), 1);
    let learner = Learner::open(&dir.join("learn.db")).expect("store opens");
    assert_eq!(learner.store().count("games").expect("count"), 1);
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_limit_leaves_a_long_game() {
    let tmp = tmpdir("svc-limit");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let spar = sparring(addr, wily::bot::run::local::engine_chooser(2));
    let mut cfg = bot_config(dir, 10, 0);
    cfg.service.shutdown_limit_secs = 1;
    let (stop, stop_rx) = watch::channel(0u32);
    let bot = spawn_bot(cfg, addr, stop_rx, None);
    let mut boss = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    wait_playing(&mut boss).await;
    let asked = Instant::now();
    stop.send(1).expect("stop");
    let report = bot.await.expect("bot task");
    let took = asked.elapsed();
    spar.abort();
    assert!(report.left_at_limit, "the limit ended the game: {report:?}");
    assert_eq!(report.totals.games, 0);
    assert!(took < Duration::from_secs(20), "left after {took:?}");
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reload_takes_new_settings_and_lists_on_the_same_connection() {
    let tmp = tmpdir("svc-reload");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let mut cfg = bot_config(dir, 1, 0);
    cfg.seek.enabled = false;
    let (stop, stop_rx) = watch::channel(0u32);
    let (reload, reload_rx) = mpsc::unbounded_channel();
    let bot = spawn_bot(cfg.clone(), addr, stop_rx, Some(reload_rx));
    let mut boss = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    let before = status_until(&mut boss, "idle").await;
    assert!(before.contains("whisper 0"), "{before}");
    assert!(before.contains("seek off"), "{before}");
    // New settings: whisper 3, seeking on; a change of [server] waits for a restart.
    let mut new = cfg.clone();
    new.talk.whisper = 3;
    new.seek.enabled = true;
    new.server.reconnect_max_secs = 99;
    std::fs::write(dir.join("lists").join("GM"), "Sparring\n").expect("list");
    let lists = OpponentLists::load(&cfg.paths.lists).0;
    reload.send(Reload { cfg: new, lists }).expect("reload");
    let after = status_until(&mut boss, "whisper 3").await;
    assert!(after.contains("seek on"), "{after}");
    // The new GM list is in force: a game against Sparring gets the GM threshold.
    let spar = sparring(addr, MoveChooser::Random { seed: 8 });
    let playing = status_until(&mut boss, "playing game").await;
    assert!(
        playing.contains("GM") && playing.contains("resign at -3"),
        "{playing}"
    );
    stop.send(2).expect("stop");
    let report = bot.await.expect("bot task");
    spar.abort();
    assert_eq!(report.reloads, 1);
    assert_eq!(report.reconnects, 0, "the connection stayed up");
    srv.shutdown().await;
}

/// Collects a child's output lines.
fn collect(r: impl std::io::Read + Send + 'static) -> Arc<Mutex<String>> {
    let buf = Arc::new(Mutex::new(String::new()));
    let b = buf.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines().map_while(Result::ok) {
            let mut g = b.lock().expect("lock");
            g.push_str(&line);
            g.push('\n');
        }
    });
    buf
}

fn wait_for(buf: &Arc<Mutex<String>>, needle: &str, secs: u64) -> bool {
    let until = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < until {
        if buf.lock().expect("lock").contains(needle) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

fn settings(dir: &Path, whisper: u8) -> String {
    format!(
        "[local]\nbase = 5\nincrement = 0\nsparring_depth = 1\n\
         [engine]\ndepth_limit = 2\nhash_mb = 8\nbook = false\n\
         [talk]\nwhisper = {whisper}\n\
         [service]\nshutdown_limit_secs = 2\n\
         [log]\nfiles = false\ngame_logs = false\n\
         [paths]\nlists = {:?}\nlogs = {:?}\nlearning = {:?}\n",
        dir.join("lists").display().to_string(),
        dir.join("logs").display().to_string(),
        dir.join("learn.db").display().to_string(),
    )
}

#[test]
fn the_binary_reloads_on_sighup_and_leaves_cleanly_on_sigterm() {
    let tmp = tmpdir("svc-binary");
    let dir = tmp.path();
    let file = dir.join("config.toml");
    std::fs::write(&file, settings(dir, 0)).expect("settings");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(["ics", "--local", "--config"])
        .arg(&file)
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("wily starts");
    let out = collect(child.stdout.take().expect("stdout"));
    let err = collect(child.stderr.take().expect("stderr"));
    let pid = child.id() as libc::pid_t;
    let signal = |s: libc::c_int| {
        // SAFETY: sending a signal to our own child process.
        assert_eq!(unsafe { libc::kill(pid, s) }, 0);
    };
    assert!(
        wait_for(&out, "starts:", 60),
        "no game: {}",
        out.lock().expect("lock")
    );
    std::fs::write(&file, settings(dir, 2)).expect("settings");
    signal(libc::SIGHUP);
    assert!(
        wait_for(&out, "settings and opponent lists reloaded", 10),
        "{}",
        out.lock().expect("lock")
    );
    std::fs::write(&file, "[talk]\nwhisper = 99\n").expect("bad settings");
    signal(libc::SIGHUP);
    assert!(
        wait_for(&err, "reload rejected", 10),
        "{}",
        err.lock().expect("lock")
    );
    signal(libc::SIGTERM);
    let until = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!(
                "wily did not exit after SIGTERM: {}",
                out.lock().expect("lock")
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "exit status {status}");
    std::thread::sleep(Duration::from_millis(200));
    let o = out.lock().expect("lock").clone();
    assert_eq!(
        o.matches("settings and opponent lists reloaded").count(),
        1,
        "{o}"
    );
    assert!(o.contains("games "), "the summary is printed: {o}");
}

/// Settings of two accounts, `wily` and `Alpha`, on the server at `addr` (passwords in
/// the environment); Alpha reads its own lists folder.
fn accounts_settings(dir: &Path, addr: std::net::SocketAddr, whisper: u8) -> String {
    format!(
        "[server]\nlocal = false\nhost = {:?}\nport = {}\ntimeseal = false\nhandle = \"wily\"\n\
         [seek]\nenabled = false\n\
         [engine]\ndepth_limit = 2\nhash_mb = 8\nbook = false\n\
         [talk]\nwhisper = {whisper}\ngreeting = \"\"\ngoodbye = \"\"\n\
         [operators]\nhandles = [\"Boss\"]\n\
         [service]\nshutdown_limit_secs = 2\n\
         [log]\nfiles = false\ngame_logs = false\n\
         [paths]\nlists = {:?}\nlogs = {:?}\nlearning = {:?}\n\
         [[accounts]]\nhandle = \"wily\"\npassword_env = \"WILY_TEST_SVC_WILY\"\n\
         [[accounts]]\nhandle = \"Alpha\"\npassword_env = \"WILY_TEST_SVC_ALPHA\"\nhash_mb = 4\nlists = {:?}\n",
        addr.ip().to_string(),
        addr.port(),
        dir.join("lists").display().to_string(),
        dir.join("logs").display().to_string(),
        dir.join("learn.db").display().to_string(),
        dir.join("alpha-lists").display().to_string(),
    )
}

async fn wait_async(buf: &Arc<Mutex<String>>, needle: &str, secs: u64) -> bool {
    for _ in 0..secs * 10 {
        if buf.lock().expect("lock").contains(needle) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_reloads_every_account_on_sighup() {
    let tmp = tmpdir("svc-accounts");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("alpha-lists")).expect("lists");
    let srv = server(None).await;
    let addr = srv.local_addr();
    let file = dir.join("config.toml");
    std::fs::write(&file, accounts_settings(dir, addr, 0)).expect("settings");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(["ics", "--config"])
        .arg(&file)
        .env("RUST_LOG", "info")
        .env("WILY_TEST_SVC_WILY", WILY_PW)
        .env("WILY_TEST_SVC_ALPHA", "alphapass")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("wily starts");
    let err = collect(child.stderr.take().expect("stderr"));
    let pid = child.id() as libc::pid_t;
    let signal = |s: libc::c_int| {
        // SAFETY: sending a signal to our own child process.
        assert_eq!(unsafe { libc::kill(pid, s) }, 0);
    };
    let mut boss = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    for who in ["wily", "Alpha"] {
        let s = status_of_until(&mut boss, who, "idle").await;
        assert!(s.contains("whisper 0"), "{who}: {s}");
        let lists = tell_to(&mut boss, who, "list").await.unwrap_or_default();
        assert!(lists.contains("GM 0"), "{who}: {lists}");
    }
    // New settings for all; a new GM list in Alpha's own folder only.
    std::fs::write(&file, accounts_settings(dir, addr, 2)).expect("settings");
    std::fs::write(dir.join("alpha-lists").join("GM"), "Sparring\n").expect("list");
    signal(libc::SIGHUP);
    for who in ["wily", "Alpha"] {
        status_of_until(&mut boss, who, "whisper 2").await;
    }
    let alpha = tell_to(&mut boss, "Alpha", "list")
        .await
        .unwrap_or_default();
    assert!(
        alpha.contains("GM 1"),
        "Alpha read its own lists again: {alpha}"
    );
    let wily = tell_to(&mut boss, "wily", "list").await.unwrap_or_default();
    assert!(
        wily.contains("GM 0"),
        "wily's lists are the global ones: {wily}"
    );
    // A bad file reaches no account.
    std::fs::write(&file, "[talk]\nwhisper = 99\n").expect("bad settings");
    signal(libc::SIGHUP);
    assert!(
        wait_async(&err, "reload rejected", 10).await,
        "{}",
        err.lock().expect("lock")
    );
    for who in ["wily", "Alpha"] {
        status_of_until(&mut boss, who, "whisper 2").await;
    }
    signal(libc::SIGTERM);
    let mut status = None;
    for _ in 0..300 {
        if let Some(s) = child.try_wait().expect("wait") {
            status = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let Some(status) = status else {
        let _ = child.kill();
        panic!(
            "wily did not exit after SIGTERM: {}",
            err.lock().expect("lock")
        );
    };
    assert!(status.success(), "exit status {status}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let e = err.lock().expect("lock").clone();
    assert_eq!(e.matches("reload rejected").count(), 1, "{e}");
    for who in ["wily", "Alpha"] {
        let line = e
            .lines()
            .find(|l| l.starts_with(&format!("{who}: games ")))
            .unwrap_or_else(|| panic!("no summary of {who}: {e}"));
        assert!(line.contains("reconnects 0"), "{line}");
    }
    srv.shutdown().await;
}
