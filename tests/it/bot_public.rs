//! Finger notes and public commands against the local server, in both dialects
//! (`docs/bot.md`, "Finger notes" and "Public commands"): the bot writes its default
//! description to an account without notes and `finger` shows it; an account with its
//! operator's own notes keeps them; configured notes replace what differs. Anyone, a guest
//! too on the FICS dialect (the bot's `set tell 1`), gets answers to `help`, `info`,
//! `seeks`, `games` and `record` (the learning store's results after a game), a handle
//! over its limit gets no answer, and `eval` gives wily's analysis of a relayed game it
//! watches but is refused for a game people play.

use crate::bot_support;

use bot_support::*;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use wily::bot::run::metrics::Metrics;
use wily::ics::Dialect;
use wily::server::{Account, ServerConfig, ServerHandle};

async fn server_of(dialect: Dialect) -> ServerHandle {
    let mut c = ServerConfig::local(0)
        .with_account(Account::new("wily", WILY_PW).computer())
        .with_account(Account::new("Sparring", SPAR_PW))
        .with_account(Account::new("Alpha", "alphapass"));
    c.dialect = dialect;
    wily::server::start(c).await.expect("server starts")
}

fn prompt(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Icc => "aics%",
        _ => "fics%",
    }
}

/// The bot for `dialect`, in the background until `stop` fires.
fn start_bot(
    cfg: wily::config::Config,
    addr: SocketAddr,
    dialect: Dialect,
    learning: bool,
    metrics: Option<Arc<Metrics>>,
) -> (
    watch::Sender<u32>,
    tokio::task::JoinHandle<wily::bot::run::driver::RunReport>,
) {
    let mut cfg = cfg;
    cfg.server.dialect = dialect;
    let mut connect = connect_config(addr, "wily", WILY_PW);
    connect.dialect = dialect;
    connect.icc_level2 = dialect == Dialect::Icc;
    connect.rate_limit.per_second = 10.0;
    connect.rate_limit.burst = 20;
    let (tx, rx) = watch::channel(0u32);
    let extras = BotExtras {
        stop: Some(rx),
        learning,
        metrics,
        ..BotExtras::default()
    };
    let task = tokio::spawn(run_bot_with(cfg, connect, extras, Duration::from_secs(120)));
    (tx, task)
}

async fn stop(
    tx: watch::Sender<u32>,
    task: tokio::task::JoinHandle<wily::bot::run::driver::RunReport>,
) {
    tx.send_modify(|n| *n += 2);
    task.await.expect("the bot task");
}

/// Asks `finger wily` until a line contains `want`, within `secs`; the finger's lines.
async fn finger_until(c: &mut RawClient, want: &str, secs: u64) -> Option<Vec<String>> {
    for _ in 0..secs * 2 {
        c.seen.clear();
        c.send("finger wily").await;
        if c.wait_line(want, 1).await.is_some() {
            // The rest of the display (the lines after `want`).
            c.wait_line_for("\u{0}never", Duration::from_millis(500))
                .await;
            return Some(c.seen.clone());
        }
        c.wait_line_for("\u{0}never", Duration::from_millis(400))
            .await;
    }
    None
}

/// `tell wily text` from `c`: wily's answer, or `None` within `secs`.
async fn ask(c: &mut RawClient, text: &str, secs: u64) -> Option<String> {
    c.send(&format!("tell wily {text}")).await;
    let line = c.wait_line("tells you: ", secs).await?;
    Some(line.split_once("tells you: ")?.1.to_string())
}

/// As [`ask`], asking again each second while the bot is not logged in yet.
async fn ask_when_up(c: &mut RawClient, text: &str, secs: u64) -> Option<String> {
    for _ in 0..secs {
        if let Some(a) = ask(c, text, 1).await {
            return Some(a);
        }
    }
    None
}

async fn notes_and_commands(dialect: Dialect) {
    let tag = format!("public-{dialect:?}");
    let dir = tmpdir(&tag);
    let srv = server_of(dialect).await;
    let addr = srv.local_addr();
    let p = prompt(dialect);

    // The operator's own notes: kept, the default text is not written over them.
    let mut own = RawClient::login_prompt(addr, "wily", Some(WILY_PW), p).await;
    own.send("set 1 run by my operator, ask Alpha").await;
    assert!(own
        .wait_line("Note 1 set: run by my operator", 5)
        .await
        .is_some());
    own.send("quit").await;
    drop(own);
    let mut cfg = bot_config(dir.path(), 1, 0);
    cfg.seek.enabled = false;
    cfg.public.per_handle_per_minute = 3;
    let (tx, task) = start_bot(cfg.clone(), addr, dialect, false, None);
    let mut alpha = RawClient::login_prompt(addr, "Alpha", Some("alphapass"), p).await;
    let help = ask_when_up(&mut alpha, "help", 15)
        .await
        .expect("help answered");
    assert!(
        help.starts_with("I am wily") && help.contains("eval [game]"),
        "{help}"
    );
    // Logged in and answering: its finger at login was read a moment ago.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let lines = finger_until(&mut alpha, " 1: run by my operator", 5)
        .await
        .expect("the operator's note stays");
    assert!(!lines.iter().any(|l| l.starts_with(" 2:")), "{lines:?}");
    stop(tx, task).await;

    // Configured notes replace the operator's line; {threads} and {hash} filled in.
    let mut cfg2 = cfg.clone();
    cfg2.engine.threads = 2;
    cfg2.engine.hash_mb = 32;
    cfg2.server.notes = Some(vec![
        "wily {version} on {threads} threads, {hash} MB".into(),
        "tell me help".into(),
    ]);
    let (tx, task) = start_bot(cfg2, addr, dialect, false, None);
    let want = format!(" 1: wily {} on 2 threads, 32 MB", env!("CARGO_PKG_VERSION"));
    let lines = finger_until(&mut alpha, &want, 20)
        .await
        .expect("notes set");
    let shown: Vec<&String> = lines.iter().filter(|l| l.starts_with(" 2:")).collect();
    assert_eq!(shown, vec![" 2: tell me help"], "{lines:?}");
    stop(tx, task).await;

    // Public commands: info, seeks, games, eval (refused), the per-handle limit.
    let metrics = Arc::new(Metrics::new());
    let (tx, task) = start_bot(cfg, addr, dialect, false, Some(metrics.clone()));
    // Another player sees the bot answer first, so Alpha's count starts at 0.
    let mut other = RawClient::login_prompt(addr, "Sparring", Some(SPAR_PW), p).await;
    ask_when_up(&mut other, "help", 15)
        .await
        .expect("the bot is up");
    let info = ask(&mut alpha, "info", 5).await.expect("info answered");
    assert!(
        info.starts_with(&format!("wily {} (Rust):", env!("CARGO_PKG_VERSION"))),
        "{info}"
    );
    assert!(
        info.contains("1 search thread(s)") && info.contains("lists GM 0, IM 0, C 0"),
        "{info}"
    );
    let seeks = ask(&mut alpha, "seeks", 5).await.expect("seeks answered");
    assert!(
        seeks.starts_with("I am not seeking now, I accept"),
        "{seeks}"
    );
    let eval = ask(&mut alpha, "eval 1", 5).await.expect("eval answered");
    assert!(
        eval.contains("only relayed games and games between computers"),
        "{eval}"
    );
    assert!(
        ask(&mut alpha, "games", 2).await.is_none(),
        "a fourth answer in a minute"
    );
    if dialect == Dialect::Fics {
        // A guest is heard: the bot said `set tell 1`.
        let mut guest = RawClient::login_prompt(addr, "guest", None, p).await;
        let help = ask(&mut guest, "help", 5)
            .await
            .expect("the guest is answered");
        assert!(help.starts_with("I am wily"), "{help}");
    }
    stop(tx, task).await;
    // `/metrics` counts the answers by command and the one over the limit.
    let text = metrics.render(&[]);
    let value = |series: &str| -> f64 {
        let line = text
            .lines()
            .find(|l| l.starts_with(series))
            .unwrap_or_else(|| panic!("{series} missing from\n{text}"));
        line[series.len()..].trim().parse().expect("a number")
    };
    for word in ["info", "seeks", "eval"] {
        let series = format!("wily_public_answers_total{{command=\"{word}\"}}");
        assert_eq!(value(&series), 1.0, "{word}\n{text}");
    }
    assert!(value("wily_public_answers_total{command=\"help\"}") >= 1.0);
    assert_eq!(value("wily_public_answers_total{command=\"games\"}"), 0.0);
    assert_eq!(value("wily_public_dropped_total"), 1.0, "{text}");
    srv.shutdown().await;
}

#[tokio::test]
async fn notes_and_commands_fics() {
    notes_and_commands(Dialect::Fics).await;
}

#[tokio::test]
async fn notes_and_commands_icc() {
    notes_and_commands(Dialect::Icc).await;
}

/// After a game, `record` reads the learning store: one game overall, none against the
/// asker; and the default description goes to an account without notes.
#[tokio::test]
async fn record_after_a_game_and_default_notes() {
    let dir = tmpdir("public-record");
    let srv = server_of(Dialect::Fics).await;
    let addr = srv.local_addr();
    let cfg = bot_config(dir.path(), 1, 0);
    let engine_line = format!(
        "{} search thread(s), {} MB hash",
        cfg.engine.threads, cfg.engine.hash_mb
    );
    let spar = spar_one_game(addr, Duration::from_secs(90));
    let (tx, task) = start_bot(cfg, addr, Dialect::Fics, true, None);
    spar.await.expect("sparring task").expect("one game");
    let mut alpha = RawClient::login(addr, "Alpha", Some("alphapass")).await;
    let lines = finger_until(&mut alpha, " 1: wily ", 10)
        .await
        .expect("default notes");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(" 2: Engine: ") && l.contains(&engine_line)),
        "{lines:?}"
    );
    let mut record = None;
    for _ in 0..20 {
        let r = ask(&mut alpha, "record", 5).await.expect("record answered");
        if !r.contains("my record: 0 games") {
            record = Some(r);
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let record = record.expect("the game reached the store");
    assert!(
        record.starts_with("my record: 1 games (+1 =0 -0), against you (Alpha): 0 games"),
        "{record}"
    );
    stop(tx, task).await;
    srv.shutdown().await;
}

/// wily watches a relayed game and a game two people play (`[watch]`); a guest's `eval`
/// gets wily's analysis of the relayed game and a refusal for the people's game.
#[tokio::test]
async fn eval_of_a_relayed_game_never_of_people_playing() {
    use wily::chess::pgn::PgnReader;
    use wily::server::RelayConfig;
    let dir = tmpdir("public-eval");
    let games: Vec<_> = PgnReader::new(OPERA.as_bytes())
        .filter_map(Result::ok)
        .collect();
    let relay = RelayConfig {
        name: "relay".into(),
        event: "Wily Test Relay - Round 1".into(),
        games,
        at_once: 1,
        move_interval: Duration::from_millis(1500),
        linger: Duration::from_secs(4),
        wait_for_observer: true,
    };
    let sc = ServerConfig {
        relay: Some(relay),
        ..ServerConfig::local(0)
            .with_account(Account::new("wily", WILY_PW).computer())
            .with_account(Account::new("Alpha", "alphapass"))
            .with_account(Account::new("Beta", "betapass"))
    };
    let srv = wily::server::start(sc).await.expect("server starts");
    let addr = srv.local_addr();
    let (alpha, beta) = alpha_beta_game(addr, (41, 42), Duration::from_millis(700), 30).await;
    let mut cfg = bot_config(dir.path(), 5, 0);
    cfg.seek.enabled = false;
    cfg.watch.enabled = true;
    cfg.watch.top = vec!["blitz".into()];
    cfg.watch.relay = vec!["relay".into()];
    cfg.watch.max_games = 2;
    cfg.watch.min_score = 0;
    cfg.watch.poll_secs = 1;
    cfg.watch.analysis_ms = 200;
    cfg.watch.kibitz = 0;
    cfg.watch.whisper = 0;
    cfg.public.per_handle_per_minute = 120;
    cfg.public.per_minute = 120;
    let (tx, task) = start_bot(cfg, addr, Dialect::Fics, false, None);
    let mut guest = RawClient::login(addr, "Visitor", None).await;
    // Both games observed: `games` names them.
    let mut observed = Vec::new();
    for _ in 0..40 {
        if let Some(g) = ask_when_up(&mut guest, "games", 5).await {
            if let Some((_, list)) = g.split_once("observing game(s) ") {
                observed = list
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .split(", ")
                    .filter_map(|n| n.trim().parse::<u32>().ok())
                    .collect();
                if observed.len() == 2 {
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert_eq!(observed.len(), 2, "{:?}", guest.seen);
    // The relayed game (number 1): wily's analysis, White's view.
    let mut eval = None;
    for _ in 0..30 {
        let a = ask(&mut guest, "eval 1", 5).await.expect("eval answered");
        if a.contains(" at depth ") || a.contains("my last analysis") {
            eval = Some(a);
            break;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let eval = eval.expect("an evaluation of the relayed game");
    assert!(eval.starts_with("game 1 Morphy-"), "{eval}");
    // The people's game: refused, and nothing about its score.
    let people = *observed.iter().find(|n| **n != 1).expect("the played game");
    let a = ask(&mut guest, &format!("eval {people}"), 5)
        .await
        .expect("answered");
    assert!(
        a.contains("only relayed games and games between computers") && !a.contains("depth"),
        "{a}"
    );
    stop(tx, task).await;
    // The people's game is not this test's: its players go with the server.
    alpha.abort();
    beta.abort();
    srv.shutdown().await;
}
