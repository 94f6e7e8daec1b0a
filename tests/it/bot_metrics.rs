//! Metrics and health (`docs/bot.md`, "Metrics, health and the systemd watchdog"): a game
//! against the local server's sparring client, then `/metrics` read back with an
//! independent parser of the Prometheus text format and its counters checked against the
//! archived game (one game, its result, one move-time sample per move of wily's, no
//! handle in any label); `/healthz` answers 200 while the bot is logged in and 503 with
//! `not logged in` once the server is gone. The real binary under a fake systemd: a
//! datagram socket bound by the test as `$NOTIFY_SOCKET` receives `READY=1`, `STATUS=`
//! and `WATCHDOG=1` at the `$WATCHDOG_USEC` pace. Two `[[accounts]]`: `/healthz` names
//! each and is 200 only while both are logged in.

use crate::bot_support;

use bot_support::*;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;
use wily::bot::run::driver::{run, RunOptions};
use wily::bot::run::health::Monitor;
use wily::lists::OpponentLists;
use wily::web::{self, WebOptions};

/// `GET path`: (status code, body).
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .expect("send");
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut buf))
        .await
        .expect("answer in time")
        .expect("read");
    let text = String::from_utf8_lossy(&buf).into_owned();
    let code = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
    (code, body)
}

/// Polls `GET path` until `want` holds for (code, body), within `secs`.
async fn wait_get(
    addr: SocketAddr,
    path: &str,
    secs: u64,
    want: impl Fn(u16, &str) -> bool,
) -> (u16, String) {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let (code, body) = get(addr, path).await;
        if want(code, &body) {
            return (code, body);
        }
        assert!(
            Instant::now() < until,
            "{path} never as wanted; last: {code} {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The value of every sample named `name` whose labels include `labels`, added up.
fn value(scrape: &prometheus_parse::Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == name)
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match &s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => *v,
            _ => 0.0,
        })
        .sum()
}

fn parse(text: &str) -> prometheus_parse::Scrape {
    prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).expect("parses")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_the_game_and_healthz_fails_without_the_server() {
    let tmp = tmpdir("metrics");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let spar = spar_one_game(addr, Duration::from_secs(60));
    let mut cfg = bot_config(dir, 1, 0);
    cfg.web.enabled = true;
    cfg.web.port = 0;
    // The first wait to reconnect lasts 2.5 to 5 s, longer than the 2 s after which a
    // silent event loop counts as stalled: only the heartbeat of the wait keeps it alive.
    cfg.server.reconnect_min_secs = 5;
    cfg.server.reconnect_max_secs = 5;
    cfg.web.stall_secs = 2;
    let monitor = Monitor::new(&["wily".to_string()]);
    let dash = web::start_monitored(
        WebOptions::from_config(&cfg).expect("options"),
        Vec::new(),
        Some(monitor.clone()),
    )
    .expect("dashboard starts");
    let web = dash.addr();
    // Before the bot runs: not logged in.
    let (code, body) = get(web, "/healthz").await;
    assert_eq!((code, body.as_str()), (503, "wily: not logged in\n"));
    let (stop, stop_rx) = watch::channel(0u32);
    let opts = RunOptions {
        lists: OpponentLists::load(&cfg.paths.lists).0,
        shutdown: Some(stop_rx),
        metrics: monitor.metrics.clone(),
        health: monitor.health[0].clone(),
        ..RunOptions::new(connect_config(addr, "wily", WILY_PW))
    };
    let bot = tokio::spawn(run(cfg.clone(), opts));
    let (_, body) = wait_get(web, "/healthz", 20, |c, _| c == 200).await;
    assert_eq!(body, "wily: ok\n");

    let (_, text) = wait_get(web, "/metrics", 60, |c, b| {
        c == 200 && b.contains("wily_games_total")
    })
    .await;
    let spar = spar.await.expect("sparring task").expect("sparring ran");
    assert_eq!(spar.games.len(), 1);
    let scrape = parse(&text);
    // What happened, from the archive: one game, its result from wily's side, wily's
    // moves.
    let pgn = archive(dir);
    let games: Vec<_> = wily::chess::PgnReader::new(pgn.as_bytes()).collect();
    assert_eq!(games.len(), 1, "{pgn}");
    let g = games[0].as_ref().expect("the record reads back");
    let tag = |name: &str| {
        g.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let wily_white = tag("White") == "wily";
    let result = match (tag("Result").as_str(), wily_white) {
        ("1-0", true) | ("0-1", false) => "win",
        ("1-0", false) | ("0-1", true) => "loss",
        ("1/2-1/2", _) => "draw",
        _ => "unfinished",
    };
    let wily_moves = g
        .moves
        .iter()
        .enumerate()
        .filter(|(i, _)| (i % 2 == 0) == wily_white)
        .count() as f64;
    assert_eq!(value(&scrape, "wily_games_total", &[]), 1.0, "{text}");
    assert_eq!(
        value(
            &scrape,
            "wily_games_total",
            &[
                ("result", result),
                ("class", "player"),
                ("rating", "unrated")
            ]
        ),
        1.0,
        "{text}"
    );
    assert_eq!(
        value(&scrape, "wily_move_time_seconds_count", &[]),
        wily_moves,
        "{text}"
    );
    assert!(value(&scrape, "wily_move_time_seconds_sum", &[]) > 0.0);
    assert_eq!(value(&scrape, "wily_reconnects_total", &[]), 0.0);
    assert_eq!(value(&scrape, "wily_flags_total", &[]), 0.0);
    assert_eq!(value(&scrape, "wily_forfeits_total", &[]), 0.0);
    assert_eq!(value(&scrape, "wily_learning_write_errors_total", &[]), 0.0);
    assert_eq!(value(&scrape, "wily_accounts_logged_in", &[]), 1.0);
    assert!(
        value(&scrape, "wily_resident_memory_bytes", &[]) > 1e6,
        "{text}"
    );
    for s in &scrape.samples {
        for v in s.labels.values() {
            assert!(
                !v.eq_ignore_ascii_case("sparring") && !v.eq_ignore_ascii_case("wily"),
                "a handle in a label: {s:?}"
            );
        }
    }
    assert!(!text.contains(WILY_PW) && !text.contains("Sparring"));

    // The server goes away: not logged in, 503.
    srv.shutdown().await;
    let (_, body) = wait_get(web, "/healthz", 10, |c, _| c == 503).await;
    assert_eq!(body, "wily: not logged in\n");
    // The reconnect loop keeps the heartbeat: not stalled.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (code, body) = get(web, "/healthz").await;
    assert_eq!((code, body.as_str()), (503, "wily: not logged in\n"));
    let (_, text) = wait_get(web, "/metrics", 10, |_, b| {
        value(&parse(b), "wily_disconnected_seconds_total", &[]) > 0.5
    })
    .await;
    assert_eq!(value(&parse(&text), "wily_accounts_logged_in", &[]), 0.0);
    stop.send(2).expect("stop");
    let report = tokio::time::timeout(Duration::from_secs(20), bot)
        .await
        .expect("the bot stopped")
        .expect("bot task")
        .expect("bot ran");
    assert_eq!(report.totals.games, 1);
}

#[test]
fn the_binary_tells_a_fake_systemd_ready_status_and_watchdog() {
    use std::os::unix::net::UnixDatagram;
    let tmp = tmpdir("notify");
    let dir = tmp.path();
    let sock_path = dir.join("notify.sock");
    let sock = UnixDatagram::bind(&sock_path).expect("bind the notify socket");
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    let file = dir.join("config.toml");
    std::fs::write(
        &file,
        format!(
            "[local]\nbase = 5\nincrement = 0\nsparring_depth = 1\n\
             [engine]\ndepth_limit = 2\nhash_mb = 8\nbook = false\n\
             [service]\nshutdown_limit_secs = 1\n\
             [log]\nfiles = false\ngame_logs = false\n\
             [paths]\nlists = {:?}\nlogs = {:?}\nlearning = {:?}\n",
            dir.join("lists").display().to_string(),
            dir.join("logs").display().to_string(),
            dir.join("learn.db").display().to_string(),
        ),
    )
    .expect("settings");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(["ics", "--local", "--quiet", "--config"])
        .arg(&file)
        .env("NOTIFY_SOCKET", &sock_path)
        // Pings every 0.2 s.
        .env("WATCHDOG_USEC", "400000")
        .env_remove("WATCHDOG_PID")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("wily starts");
    let mut got: Vec<String> = Vec::new();
    let until = Instant::now() + Duration::from_secs(30);
    let mut buf = [0u8; 4096];
    let done = |got: &Vec<String>| {
        got.iter().any(|m| m == "READY=1")
            && got.iter().filter(|m| *m == "WATCHDOG=1").count() >= 3
            && got.iter().any(|m| m.starts_with("STATUS="))
    };
    let mut first_ping = None;
    while Instant::now() < until && !done(&got) {
        if let Ok(n) = sock.recv(&mut buf) {
            for line in String::from_utf8_lossy(&buf[..n]).lines() {
                if line == "WATCHDOG=1" && first_ping.is_none() {
                    first_ping = Some(Instant::now());
                }
                got.push(line.to_string());
            }
        }
    }
    let pings_took = first_ping.map(|t| t.elapsed());
    // SAFETY: signalling our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let until = Instant::now() + Duration::from_secs(20);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.wait();
    assert!(done(&got), "{got:?}");
    let ready = got.iter().position(|m| m == "READY=1").expect("ready");
    let ping = got.iter().position(|m| m == "WATCHDOG=1").expect("ping");
    assert!(ready < ping, "no ping before READY=1: {got:?}");
    // Three pings at 0.2 s take about 0.4 s from the first; far less than a second each.
    assert!(
        pings_took.is_some_and(|d| d < Duration::from_secs(3)),
        "{pings_took:?}"
    );
    let status = got.iter().filter(|m| m.starts_with("STATUS=")).cloned();
    for s in status {
        assert!(!s.contains("pass"), "{s}");
    }
}

/// Two `[[accounts]]` in one process: `/healthz` is 200 only while both are logged in,
/// and names each; `wily`'s connections (through a proxy) are cut: 503 naming `wily`
/// alone, then 200 again once it has reconnected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_names_each_account_and_needs_all() {
    std::env::set_var("WILY_TEST_HEALTH_WILY", WILY_PW);
    std::env::set_var("WILY_TEST_HEALTH_ALPHA", "alphapass");
    let tmp = tmpdir("health-accounts");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let proxy = Proxy::start(addr).await;
    let mut cfg = bot_config(dir, 5, 0);
    cfg.seek.enabled = false;
    cfg.server.reconnect_min_secs = 3;
    cfg.server.reconnect_max_secs = 3;
    cfg.web.enabled = true;
    cfg.web.port = 0;
    cfg.accounts = vec![
        account_at(proxy.addr, "wily", "WILY_TEST_HEALTH_WILY"),
        account_at(addr, "Alpha", "WILY_TEST_HEALTH_ALPHA"),
    ];
    cfg.accounts[1].hash_mb = Some(4);
    let monitor = Monitor::new(&["wily".to_string(), "Alpha".to_string()]);
    let dash = web::start_monitored(
        WebOptions::from_config(&cfg).expect("options"),
        Vec::new(),
        Some(monitor.clone()),
    )
    .expect("dashboard starts");
    let web = dash.addr();
    let (stop, stop_rx) = watch::channel(0u32);
    let opts = wily::bot::run::app::AccountsOptions {
        shutdown: Some(stop_rx),
        metrics: Some(monitor.metrics.clone()),
        health: monitor.health.clone(),
        ..Default::default()
    };
    let run_cfg = cfg.clone();
    let task = tokio::spawn(async move { wily::bot::run::app::run_accounts(&run_cfg, opts).await });
    let (_, body) = wait_get(web, "/healthz", 30, |c, _| c == 200).await;
    assert_eq!(body, "wily: ok\nAlpha: ok\n");
    proxy.drop_all();
    let (_, body) = wait_get(web, "/healthz", 10, |c, _| c == 503).await;
    assert_eq!(body, "wily: not logged in\nAlpha: ok\n");
    let (_, body) = wait_get(web, "/healthz", 20, |c, _| c == 200).await;
    assert_eq!(body, "wily: ok\nAlpha: ok\n");
    let (_, text) = get(web, "/metrics").await;
    let scrape = parse(&text);
    assert_eq!(
        value(&scrape, "wily_accounts_logged_in", &[]),
        2.0,
        "{text}"
    );
    assert!(
        value(&scrape, "wily_reconnects_total", &[]) >= 1.0,
        "{text}"
    );
    stop.send(2).expect("stop");
    let runs = tokio::time::timeout(Duration::from_secs(20), task)
        .await
        .expect("the accounts stopped")
        .expect("task");
    assert!(runs.iter().all(|r| r.result.is_ok()), "{runs:?}");
    let (code, body) = get(web, "/healthz").await;
    assert_eq!(
        (code, body.as_str()),
        (503, "wily: stopped\nAlpha: stopped\n")
    );
    srv.shutdown().await;
}
