//! The web dashboard in a real browser: a local-server game with the dashboard on, the
//! page loaded in headless Chromium (driven over the DevTools protocol), and the board
//! and the move list drawn by the page's own script checked to change as moves are
//! played. With two `[[accounts]]` in one process the one page shows both accounts' games
//! in progress, each labelled with its handle, then the last games with the account that
//! played each, a ratings entry and a connection history per account. Also: every served
//! resource is free of the configured password, and only GET is answered. Skips, saying why, where no Chromium is installed (`WILY_CHROMIUM` names
//! another binary). `WILY_DASHBOARD_SHOT=path.png` saves a screenshot of the page.

use crate::bot_support;
use crate::need;

use bot_support::*;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use wily::bot::run::driver::{run, RunOptions};
use wily::bot::run::status::BotStatus;
use wily::config::Secret;
use wily::lists::OpponentLists;
use wily::server::{sparring_player, SparringPolicy};
use wily::web::{self, WebOptions};

const PASSWORD: &str = "Pa55-in-config-7f3q";

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("WILY_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// A plain HTTP/1.1 request with `Connection: close`; the whole answer (head and body).
async fn http(addr: SocketAddr, method: &str, path: &str, limit: Duration) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    s.write_all(
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .expect("send");
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let until = tokio::time::Instant::now() + limit;
    while let Ok(Ok(n)) = tokio::time::timeout_at(until, s.read(&mut chunk)).await {
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// Headless Chromium on `url` with a DevTools port; killed on drop.
struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    port: u16,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn start(bin: &PathBuf, url: &str) -> Browser {
        let profile = tempfile::tempdir().expect("profile dir");
        let child = Command::new(bin)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1100,900",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(url)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        // Chromium writes its DevTools port into the profile folder.
        let file = profile.path().join("DevToolsActivePort");
        let until = Instant::now() + Duration::from_secs(30);
        let port = loop {
            if let Some(p) = std::fs::read_to_string(&file)
                .ok()
                .and_then(|t| t.lines().next().and_then(|l| l.trim().parse().ok()))
            {
                break p;
            }
            assert!(Instant::now() < until, "chromium gave no DevTools port");
            std::thread::sleep(Duration::from_millis(100));
        };
        Browser {
            child,
            _profile: profile,
            port,
        }
    }

    /// The page's DevTools websocket.
    async fn page_socket(&self) -> String {
        let addr: SocketAddr = format!("127.0.0.1:{}", self.port).parse().expect("addr");
        for _ in 0..50 {
            let list = http(addr, "GET", "/json/list", Duration::from_secs(3)).await;
            if let Some(body) = list.split("\r\n\r\n").nth(1) {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(body) {
                    let page = v.as_array().and_then(|a| {
                        a.iter()
                            .find(|t| t["type"] == "page")
                            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
                            .map(str::to_string)
                    });
                    if let Some(p) = page {
                        return p;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("no page target in chromium");
    }
}

type Page =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One DevTools call on a page socket; the `result` object.
async fn cdp(ws: &mut Page, id: u64, method: &str, params: serde_json::Value) -> serde_json::Value {
    let msg = serde_json::json!({ "id": id, "method": method, "params": params });
    ws.send(Message::Text(msg.to_string()))
        .await
        .expect("cdp send");
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("cdp answer in time")
            .expect("cdp open")
            .expect("cdp message");
        if let Message::Text(t) = m {
            let v: serde_json::Value = serde_json::from_str(&t).expect("cdp json");
            if v["id"] == id {
                return v["result"].clone();
            }
        }
    }
}

/// The value of a JavaScript expression that returns a JSON string, in the page.
async fn eval_json(ws: &mut Page, id: u64, expr: &str) -> serde_json::Value {
    let r = cdp(
        ws,
        id,
        "Runtime.evaluate",
        serde_json::json!({ "expression": expr, "returnByValue": true }),
    )
    .await;
    serde_json::from_str(r["result"]["value"].as_str().unwrap_or("{}")).expect("view json")
}

/// What the page shows in `account`'s card: (squares drawn, pieces drawn, FEN on the
/// board, plies in the move list, list items).
async fn page_view(ws: &mut Page, id: u64, account: &str) -> (u64, u64, String, u64, u64) {
    let expr = format!(
        "(() => {{ const c = document.querySelector('#accounts .account[data-account=\"{account}\"]'); \
         if (!c) return '{{}}'; const b = c.querySelector('.board'), m = c.querySelector('.moves'); \
         return JSON.stringify({{sq: b.querySelectorAll('.sq').length, \
         pc: b.querySelectorAll('[data-piece]').length, fen: b.dataset.fen || '', \
         plies: Number(m.dataset.plies || 0), li: m.querySelectorAll('li').length}}); }})()"
    );
    let v = eval_json(ws, id, &expr).await;
    (
        v["sq"].as_u64().unwrap_or(0),
        v["pc"].as_u64().unwrap_or(0),
        v["fen"].as_str().unwrap_or("").to_string(),
        v["plies"].as_u64().unwrap_or(0),
        v["li"].as_u64().unwrap_or(0),
    )
}

async fn wait_plies(rx: &watch::Receiver<BotStatus>, at_least: usize, secs: u64) -> usize {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let n = rx.borrow().game.as_ref().map_or(0, |g| g.moves.len());
        if n >= at_least {
            return n;
        }
        assert!(
            Instant::now() < until,
            "the game did not reach ply {at_least}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_follows_a_live_game_in_chromium() {
    let Some(bin) = chromium() else {
        need::missing(
            "Chromium",
            "install Debian's chromium (.ci/install-test-tools) or set WILY_CHROMIUM",
        );
        return;
    };
    let tmp = tmpdir("web");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let policy = SparringPolicy {
        chooser: wily::bot::run::local::engine_chooser(2),
        play_seeks: true,
        think: Duration::from_millis(700),
        games: 1,
        timeout: Duration::from_secs(120),
        ..SparringPolicy::default()
    };
    let spar = tokio::spawn(async move {
        let _ = sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await;
    });
    let mut cfg = bot_config(dir, 5, 0);
    cfg.server.password = Some(Secret::new(PASSWORD.into()));
    cfg.web.enabled = true;
    cfg.web.port = 0;
    let (tx, rx) = watch::channel(BotStatus::default());
    let dash = web::start(
        WebOptions::from_config(&cfg).expect("options"),
        vec![rx.clone()],
    )
    .expect("dashboard starts");
    let web_addr = dash.addr();
    assert!(web_addr.ip().is_loopback(), "binds the loopback by default");
    let (stop, stop_rx) = watch::channel(0u32);
    let opts = RunOptions {
        lists: OpponentLists::load(&cfg.paths.lists).0,
        shutdown: Some(stop_rx),
        status: Some(tx),
        ..RunOptions::new(connect_config(addr, "wily", WILY_PW))
    };
    let bot = tokio::spawn(run(cfg, opts));

    let first = wait_plies(&rx, 2, 60).await;
    let browser = Browser::start(&bin, &format!("http://{web_addr}/"));
    let (mut ws, _) = tokio_tungstenite::connect_async(browser.page_socket().await)
        .await
        .expect("devtools websocket");
    // The page draws what the events bring, in the card of the account wily: wait until it shows at least `first` plies.
    let mut id = 1;
    let mut before = (0, 0, String::new(), 0, 0);
    for _ in 0..100 {
        id += 1;
        before = page_view(&mut ws, id, "wily").await;
        if before.3 as usize >= first {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(before.0, 64, "the board has 64 squares: {before:?}");
    assert!(before.1 >= 20, "pieces are drawn: {before:?}");
    assert!(before.3 as usize >= first && before.4 >= 1, "{before:?}");
    // Moves are played; the open page follows without a reload.
    wait_plies(&rx, before.3 as usize + 2, 60).await;
    let mut after = before.clone();
    for _ in 0..100 {
        id += 1;
        after = page_view(&mut ws, id, "wily").await;
        if after.3 >= before.3 + 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        after.3 >= before.3 + 2,
        "the move list grew: {before:?} -> {after:?}"
    );
    assert_ne!(
        after.2, before.2,
        "the board changed: {before:?} -> {after:?}"
    );
    assert!(after.4 >= before.4, "{before:?} -> {after:?}");
    id += 1;
    screenshot(&mut ws, id, "").await;
    drop(ws);
    drop(browser);

    // No resource carries the password; nothing but GET is answered.
    let mut seen = String::new();
    for path in [
        "/",
        "/app.js",
        "/style.css",
        "/api/status",
        "/api/games",
        "/api/learning",
        "/games/0.pgn",
    ] {
        let r = http(web_addr, "GET", path, Duration::from_secs(5)).await;
        assert!(
            r.starts_with("HTTP/1.1 200") || r.contains(" 404 "),
            "{path}: {r}"
        );
        seen.push_str(&r);
    }
    let events = http(web_addr, "GET", "/api/events", Duration::from_secs(2)).await;
    assert!(events.contains("data: {"), "{events}");
    seen.push_str(&events);
    assert!(seen.contains("\"moves\""), "the status was served");
    assert!(!seen.contains(PASSWORD), "the password leaked");
    assert!(!seen.contains(WILY_PW), "the login password leaked");
    assert!(!seen.contains("Boss"), "operator handles are not shown");
    for method in ["POST", "PUT", "DELETE"] {
        let r = http(web_addr, method, "/api/status", Duration::from_secs(5)).await;
        assert!(r.starts_with("HTTP/1.1 405"), "{method}: {r}");
    }
    stop.send(2).expect("stop");
    let _ = tokio::time::timeout(Duration::from_secs(30), bot).await;
    spar.abort();
    srv.shutdown().await;
}

/// With `WILY_DASHBOARD_SHOT=path.png`, saves the page's screenshot there (`tag` goes
/// before the extension).
async fn screenshot(ws: &mut Page, id: u64, tag: &str) {
    let Ok(path) = std::env::var("WILY_DASHBOARD_SHOT") else {
        return;
    };
    let path = match path.strip_suffix(".png") {
        Some(stem) if !tag.is_empty() => format!("{stem}-{tag}.png"),
        _ => path,
    };
    let r = cdp(
        ws,
        id,
        "Page.captureScreenshot",
        serde_json::json!({ "format": "png" }),
    )
    .await;
    use base64_decode::decode;
    std::fs::write(&path, decode(r["data"].as_str().unwrap_or(""))).expect("screenshot");
    println!("screenshot saved to {path}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_page_shows_every_account_in_chromium() {
    let Some(bin) = chromium() else {
        need::missing(
            "Chromium",
            "install Debian's chromium (.ci/install-test-tools) or set WILY_CHROMIUM",
        );
        return;
    };
    std::env::set_var("WILY_TEST_WEB_WILY", WILY_PW);
    std::env::set_var("WILY_TEST_WEB_ALPHA", "alphapass");
    let tmp = tmpdir("web-accounts");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let mut cfg = bot_config(dir, 5, 0);
    cfg.seek.enabled = false;
    cfg.web.enabled = true;
    cfg.web.port = 0;
    cfg.accounts = vec![
        account_at(addr, "wily", "WILY_TEST_WEB_WILY"),
        account_at(addr, "Alpha", "WILY_TEST_WEB_ALPHA"),
    ];
    let run = start_accounts(&cfg, 1, Duration::from_secs(120), 2).await;
    let (rxs, stop, bots) = (run.statuses, run.stop, run.task);
    let dash = web::start(WebOptions::from_config(&cfg).expect("options"), rxs.clone())
        .expect("dashboard starts");
    let web_addr = dash.addr();
    let think = Duration::from_millis(400);
    let chooser = || wily::bot::run::local::engine_chooser(2);
    let spar = challenger(
        addr,
        "Sparring",
        SPAR_PW,
        "wily",
        chooser(),
        think,
        Some(40),
    );
    let beta = challenger(
        addr,
        "Beta",
        "betapass",
        "Alpha",
        chooser(),
        think,
        Some(41),
    );
    for rx in &rxs {
        assert!(
            wait_status(rx, 60, |s| s
                .game
                .as_ref()
                .is_some_and(|g| g.moves.len() >= 2))
            .await,
            "both games under way"
        );
    }

    let browser = Browser::start(&bin, &format!("http://{web_addr}/"));
    let (mut ws, _) = tokio_tungstenite::connect_async(browser.page_socket().await)
        .await
        .expect("devtools websocket");
    let mut id = 1;
    for account in ["wily", "Alpha"] {
        let mut view = (0, 0, String::new(), 0, 0);
        for _ in 0..100 {
            id += 1;
            view = page_view(&mut ws, id, account).await;
            if view.0 == 64 && view.3 >= 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(view.0, 64, "{account}'s board: {view:?}");
        assert!(view.1 >= 20 && view.3 >= 2, "{account}: {view:?}");
    }
    id += 1;
    let labels = eval_json(
        &mut ws,
        id,
        "JSON.stringify([...document.querySelectorAll('#accounts .account')].map((c) => \
         [c.dataset.account, c.querySelector('.handle').textContent, \
          c.querySelector('.game').hidden, c.querySelector('.gameinfo').textContent]))",
    )
    .await;
    let labels = labels.as_array().cloned().unwrap_or_default();
    assert_eq!(labels.len(), 2, "{labels:?}");
    for (l, (account, opponent)) in labels.iter().zip([("wily", "Sparring"), ("Alpha", "Beta")]) {
        assert_eq!(l[0], account, "{labels:?}");
        assert_eq!(
            l[1], account,
            "each card is labelled with its handle: {labels:?}"
        );
        assert_eq!(l[2], false, "{labels:?}");
        let info = l[3].as_str().unwrap_or("");
        assert!(info.contains(&format!("opponent {opponent}")), "{info}");
    }
    id += 1;
    screenshot(&mut ws, id, "accounts-live").await;

    // Both games end: the last games, ratings and connection history per account.
    spar.await.expect("task").expect("sparring");
    beta.await.expect("task").expect("beta");
    let runs = tokio::time::timeout(Duration::from_secs(60), bots)
        .await
        .expect("both accounts stopped after their game")
        .expect("task");
    assert!(runs.iter().all(|r| r.result.is_ok()), "{runs:?}");
    let expr = "JSON.stringify({recent: [...document.querySelectorAll('#recent tbody tr')].map((r) => \
                r.children[1].textContent), \
                ratings: [...document.querySelectorAll('#ratings .account-rating')].map((d) => d.dataset.account), \
                history: [...document.querySelectorAll('#history .account-history')].map((d) => \
                [d.dataset.account, d.querySelectorAll('li').length]), \
                nogame: [...document.querySelectorAll('#accounts .nogame')].map((d) => d.hidden)})";
    let mut after = serde_json::Value::Null;
    for _ in 0..100 {
        id += 1;
        after = eval_json(&mut ws, id, expr).await;
        let recent = after["recent"].as_array().map_or(0, |a| a.len());
        if recent >= 2 && after["nogame"] == serde_json::json!([false, false]) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut recent: Vec<String> = after["recent"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    recent.sort();
    assert_eq!(
        recent,
        vec!["Alpha", "wily"],
        "each game with its account: {after}"
    );
    assert_eq!(
        after["ratings"],
        serde_json::json!(["wily", "Alpha"]),
        "{after}"
    );
    assert_eq!(
        after["nogame"],
        serde_json::json!([false, false]),
        "{after}"
    );
    let history = after["history"].as_array().cloned().unwrap_or_default();
    assert_eq!(history.len(), 2, "{after}");
    for (h, account) in history.iter().zip(["wily", "Alpha"]) {
        assert_eq!(h[0], account, "{after}");
        assert!(
            h[1].as_u64().unwrap_or(0) >= 1,
            "{account}'s connections: {after}"
        );
    }
    id += 1;
    screenshot(&mut ws, id, "accounts-done").await;
    drop(ws);
    drop(browser);
    let status = http(web_addr, "GET", "/api/status", Duration::from_secs(5)).await;
    assert!(status.contains("\"accounts\":[{"), "{status}");
    assert!(!status.contains(WILY_PW) && !status.contains("alphapass"));
    drop(stop);
    srv.shutdown().await;
}

/// Standard base64 decoding (the screenshot), small enough not to need a crate.
mod base64_decode {
    pub fn decode(s: &str) -> Vec<u8> {
        let val = |c: u8| -> Option<u32> {
            Some(match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                _ => return None,
            } as u32)
        };
        let mut out = Vec::new();
        let (mut acc, mut bits) = (0u32, 0);
        for v in s.bytes().filter_map(val) {
            acc = (acc << 6) | v;
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        }
        out
    }
}
