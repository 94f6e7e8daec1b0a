//! The live web dashboard of `wily ics` (`[web]`, off by default): a small read-only HTTP
//! server on 127.0.0.1 that serves one page (HTML/JS/CSS compiled into the binary), the
//! published [`BotStatus`] of every account the process runs (one, or each of
//! `[[accounts]]`) as JSON and as Server-Sent Events, the last games from the shared PGN
//! archive (each with its account and its PGN), every account's rating history from the
//! archive, and a summary of the learning store. Only GET
//! routes exist: no operator commands, and nothing from the settings (no password, no
//! operator handles) is ever served. The bot does not know this crate; it publishes its
//! status on a watch channel that this server reads. With `[web] metrics` (on by default)
//! and the bot's [`Monitor`], the same listener serves `/metrics` (the bot's counters in
//! the Prometheus text format, rendered by the bot) and `/healthz` (200 while every
//! account is logged in and its event loop beats, 503 with the reasons otherwise).
//!
//! May depend on: `bot`, `config`, `learn`. Its `Cargo.toml` lists them and the compiler
//! keeps the wall; the crate map is `docs/modules.md`.

mod archive;

use axum::extract::{Path as UrlPath, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use bot::run::health::Monitor;
use bot::run::status::BotStatus;
use config::Config;
use serde::Serialize;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio_stream::wrappers::WatchStream;
use tokio_stream::{Stream, StreamExt, StreamMap};

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// Where the dashboard listens and what it reads.
#[derive(Debug, Clone)]
pub struct WebOptions {
    pub bind: IpAddr,
    pub port: u16,
    pub recent_games: usize,
    /// The PGN archive (`logs/games.pgn`).
    pub archive: PathBuf,
    /// The learning store.
    pub learning: PathBuf,
    /// Serve `/metrics` and `/healthz` (when a [`Monitor`] is given).
    pub metrics: bool,
    /// `/healthz`: an event loop silent this long counts as stalled.
    pub stall: Duration,
}

impl WebOptions {
    /// From the settings' `[web]` and `[paths]`.
    pub fn from_config(cfg: &Config) -> Result<WebOptions, String> {
        Ok(WebOptions {
            bind: cfg
                .web
                .bind
                .parse()
                .map_err(|_| format!("web.bind: {:?} is not an IP address", cfg.web.bind))?,
            port: cfg.web.port,
            recent_games: cfg.web.recent_games,
            archive: cfg.paths.logs.join("games.pgn"),
            learning: cfg.paths.learning.clone(),
            metrics: cfg.web.metrics,
            stall: Duration::from_secs(cfg.web.stall_secs),
        })
    }
}

/// The running dashboard; it stops when this is dropped.
pub struct WebServer {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl WebServer {
    /// The address it listens on (the port is the real one when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[derive(Clone)]
struct AppState {
    /// One per account, in the order of `[[accounts]]`.
    status: Arc<Vec<watch::Receiver<BotStatus>>>,
    opts: Arc<WebOptions>,
    monitor: Option<Monitor>,
}

/// What `/api/status` and each event carry: every account's status.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    pub accounts: Vec<BotStatus>,
}

impl AppState {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            accounts: self.status.iter().map(|rx| rx.borrow().clone()).collect(),
        }
    }

    /// The accounts' handles as the server knows them (those logged in at least once).
    fn handles(&self) -> Vec<String> {
        self.status
            .iter()
            .map(|rx| rx.borrow().handle.clone())
            .filter(|h| !h.is_empty())
            .collect()
    }
}

/// Binds and serves in the background; call it inside a tokio runtime. `status` holds
/// one receiver per account the process runs. No `/metrics` or `/healthz`: see
/// [`start_monitored`].
pub fn start(
    opts: WebOptions,
    status: Vec<watch::Receiver<BotStatus>>,
) -> Result<WebServer, String> {
    start_monitored(opts, status, None)
}

/// As [`start`], and with `monitor` (and `opts.metrics`) also `/metrics` and `/healthz`.
pub fn start_monitored(
    opts: WebOptions,
    status: Vec<watch::Receiver<BotStatus>>,
    monitor: Option<Monitor>,
) -> Result<WebServer, String> {
    let fail = |e: std::io::Error| {
        format!(
            "web dashboard: cannot listen on {}:{}: {e}",
            opts.bind, opts.port
        )
    };
    let std_listener = std::net::TcpListener::bind((opts.bind, opts.port)).map_err(fail)?;
    std_listener.set_nonblocking(true).map_err(fail)?;
    let addr = std_listener.local_addr().map_err(fail)?;
    let listener = tokio::net::TcpListener::from_std(std_listener).map_err(fail)?;
    let monitor = monitor.filter(|_| opts.metrics);
    let state = AppState {
        status: Arc::new(status),
        opts: Arc::new(opts),
        monitor,
    };
    let app = Router::new()
        .route(
            "/",
            get(|| async { page(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/api/status", get(status_json))
        .route("/api/events", get(events))
        .route("/api/games", get(recent_games))
        .route("/api/learning", get(learning))
        .route("/api/ratings", get(ratings))
        .route("/games/:file", get(game_pgn))
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .with_state(state);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!("web dashboard stopped: {e}");
        }
    });
    tracing::info!("web dashboard on http://{addr}/");
    Ok(WebServer { addr, task })
}

fn page(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The bot's counters; 404 without a monitor.
async fn metrics(State(s): State<AppState>) -> Response {
    match &s.monitor {
        Some(m) => (
            [
                (header::CONTENT_TYPE, bot::run::metrics::CONTENT_TYPE),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            m.render(),
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// 200 `NAME: ok` per account while all are healthy, else 503 with each one's reason.
async fn healthz(State(s): State<AppState>) -> Response {
    let Some(m) = &s.monitor else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (ok, body) = m.check(s.opts.stall);
    let code = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        code,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn status_json(State(s): State<AppState>) -> Json<Snapshot> {
    Json(s.snapshot())
}

/// One event with every account's status whenever any of them changes.
async fn events(State(s): State<AppState>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mut changes = StreamMap::new();
    for (i, rx) in s.status.iter().enumerate() {
        changes.insert(i, WatchStream::new(rx.clone()));
    }
    let stream = changes.map(move |_| {
        let data = serde_json::to_string(&s.snapshot()).unwrap_or_else(|_| "{}".into());
        Ok(Event::default().data(data))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

async fn recent_games(State(s): State<AppState>) -> Response {
    let (opts, handles) = (s.opts.clone(), s.handles());
    match tokio::task::spawn_blocking(move || {
        archive::recent(&opts.archive, opts.recent_games, &handles)
    })
    .await
    {
        Ok(list) => Json(list).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

async fn ratings(State(s): State<AppState>) -> Response {
    let (opts, handles) = (s.opts.clone(), s.handles());
    match tokio::task::spawn_blocking(move || archive::ratings(&opts.archive, &handles)).await {
        Ok(list) => Json(list).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

async fn learning(State(s): State<AppState>) -> Response {
    let path = s.opts.learning.clone();
    match tokio::task::spawn_blocking(move || learn::stats::summary(&path, 20)).await {
        Ok(Ok(sum)) => Json(sum).into_response(),
        Ok(Err(e)) => {
            tracing::debug!("web dashboard: {e}");
            (StatusCode::NOT_FOUND, "no learning store").into_response()
        }
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

async fn game_pgn(State(s): State<AppState>, UrlPath(file): UrlPath<String>) -> Response {
    let Some(index) = file
        .strip_suffix(".pgn")
        .and_then(|n| n.parse::<usize>().ok())
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let opts = s.opts.clone();
    let game =
        tokio::task::spawn_blocking(move || archive::games(&opts.archive).into_iter().nth(index))
            .await
            .ok()
            .flatten();
    match game {
        Some(g) => (
            [(
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8",
            )],
            g,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
