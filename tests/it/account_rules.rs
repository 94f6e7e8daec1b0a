//! The rules of a computer account, end to end: the bot against the in-process local
//! server over real TCP, players played by raw clients.
//!
//! - `iset fr 1` goes out with every login's setup, before `iset lock 1`, when the bot
//!   accepts Chess960; a server answering `No such ivariable` (lasker, the local server
//!   with `computer_ivars` off) is not asked again after a reconnect.
//! - Seeks are manual: an answer arrives as a match request, judged by `[accept]` (a
//!   blocked player is declined); a server without manual seeks (lasker, the local server
//!   with `manual_seeks` off) gets automatic ones.
//! - `accept.rematch`, `accept.abort_idle_secs`, `accept.takebacks` and the
//!   `[hooks]` game-start and game-end commands.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use wily::server::{self, Account, ServerConfig, ServerHandle};

async fn server_with(f: impl FnOnce(ServerConfig) -> ServerConfig) -> ServerHandle {
    let c = ServerConfig::local(0)
        .with_account(Account::new("wily", WILY_PW).computer())
        .with_account(Account::new("Alpha", "alphapass"))
        .with_account(Account::new("Beta", "betapass"))
        .with_account(Account::new("Boss", BOSS_PW));
    server::start(f(c)).await.expect("server starts")
}

/// Waits until `who`'s `sought` lists an ad of wily's.
async fn wait_for_ad(who: &mut RawClient) {
    for _ in 0..50 {
        who.send("sought").await;
        if who.wait_line(" wily ", 1).await.is_some() {
            return;
        }
    }
    panic!("no seek ad of wily's: {:?}", who.seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn iset_fr_goes_with_every_login_before_the_lock() {
    let tmp = tmpdir("iset-fr");
    let srv = server_with(|c| c).await;
    let wire = tmp.path().join("wire.log");
    let mut cfg = bot_config(tmp.path(), 5, 0);
    cfg.seek.enabled = false;
    cfg.accept.variants = vec!["chess".into(), "chess960".into()];
    let (stop, bot) = start_bot(cfg, srv.local_addr(), &wire);
    assert!(
        wait_wire(&wire, 20, |w| w.contains("fr set")
            && w.contains("\"iset lock 1\""))
        .await,
        "the server acknowledged iset fr: {}",
        std::fs::read_to_string(&wire).unwrap_or_default()
    );
    let w = std::fs::read_to_string(&wire).unwrap_or_default();
    let fr = w.find("iset fr 1").expect("iset fr 1 sent");
    let lock = w.find("iset lock 1").expect("iset lock 1 sent");
    assert!(fr < lock, "iset fr 1 must precede iset lock 1:\n{w}");
    stop_bot(stop, bot).await;
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_the_ivariable_is_not_asked_again() {
    let tmp = tmpdir("iset-lasker");
    let srv = server_with(|c| ServerConfig {
        computer_ivars: false,
        ..c
    })
    .await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let mut cfg = bot_config(tmp.path(), 5, 0);
    cfg.seek.enabled = false;
    cfg.accept.variants = vec!["chess".into(), "chess960".into()];
    let (stop, bot) = start_bot(cfg, addr, &wire);
    assert!(
        wait_wire(&wire, 20, |w| w.contains("No such ivariable")
            && w.contains("fr"))
        .await,
        "{}",
        std::fs::read_to_string(&wire).unwrap_or_default()
    );
    // Another login of the account takes over; the bot comes back (and takes over in
    // turn) with a second login's setup.
    let _intruder = RawClient::login(addr, "wily", Some(WILY_PW)).await;
    assert!(
        wait_wire(&wire, 30, |w| w.matches("iset lock 1").count() >= 2).await,
        "a second login: {}",
        std::fs::read_to_string(&wire).unwrap_or_default()
    );
    let w = std::fs::read_to_string(&wire).unwrap_or_default();
    assert_eq!(w.matches("iset fr 1").count(), 1, "not asked again:\n{w}");
    stop_bot(stop, bot).await;
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_to_manual_seeks_are_judged_by_the_filters() {
    let tmp = tmpdir("manual-seek");
    let srv = server_with(|c| c).await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let mut cfg = bot_config(tmp.path(), 5, 0);
    cfg.seek.manual = true;
    cfg.accept.block = vec!["Alpha".into()];
    let (stop, bot) = start_bot(cfg, addr, &wire);
    let mut alpha = RawClient::login(addr, "Alpha", Some("alphapass")).await;
    wait_for_ad(&mut alpha).await;
    alpha.send("play wily").await;
    assert!(
        alpha
            .wait_line("wily declines the match offer.", 10)
            .await
            .is_some(),
        "a blocked player's answer is declined: {:?}",
        alpha.seen
    );
    assert!(!alpha.seen.iter().any(|l| l.starts_with("Creating:")));
    let mut beta = RawClient::login(addr, "Beta", Some("betapass")).await;
    wait_for_ad(&mut beta).await;
    beta.send("play wily").await;
    assert!(
        beta.wait_line("Creating:", 10).await.is_some(),
        "{:?}",
        beta.seen
    );
    beta.send("resign").await;
    assert!(beta.wait_line("Beta resigns}", 10).await.is_some());
    assert!(wait_wire(&wire, 10, |w| w.contains("Beta resigns}")).await);
    let report = stop_bot(stop, bot).await;
    let w = std::fs::read_to_string(&wire).unwrap_or_default();
    assert_eq!(report.totals.declined, 1, "{w}");
    assert_eq!(report.totals.games, 1);
    assert!(w.contains("-> \"seek 5 0 unrated m\""), "{w}");
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_manual_seeks_gets_automatic_ones() {
    let tmp = tmpdir("auto-seek");
    let srv = server_with(|c| ServerConfig {
        manual_seeks: false,
        ..c
    })
    .await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let mut cfg = bot_config(tmp.path(), 5, 0);
    cfg.seek.manual = true;
    let (stop, bot) = start_bot(cfg, addr, &wire);
    let mut beta = RawClient::login(addr, "Beta", Some("betapass")).await;
    wait_for_ad(&mut beta).await;
    beta.send("play wily").await;
    assert!(
        beta.wait_line("Creating:", 10).await.is_some(),
        "{:?}",
        beta.seen
    );
    assert!(!beta.seen.iter().any(|l| l.contains("Issuing:")));
    beta.send("resign").await;
    assert!(beta.wait_line("Beta resigns}", 10).await.is_some());
    stop_bot(stop, bot).await;
    let w = std::fs::read_to_string(&wire).unwrap_or_default();
    let refused = w
        .find("No such category/board: m/0")
        .unwrap_or_else(|| panic!("refused: {w}"));
    assert!(
        w[refused..].contains("-> \"seek 5 0 unrated\""),
        "sought again without the flag:\n{w}"
    );
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_and_the_game_hooks() {
    let tmp = tmpdir("rematch");
    let srv = server_with(|c| c).await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let mut cfg = bot_config(tmp.path(), 5, 0);
    cfg.seek.enabled = false;
    cfg.accept.rematch = true;
    cfg.hooks.game_start = vec!["tell {opponent} hello {opponent}, game {game}".into()];
    cfg.hooks.game_end = vec!["tell {opponent} result {result} ({outcome})".into()];
    let (stop, bot) = start_bot(cfg, addr, &wire);
    let mut beta = RawClient::login(addr, "Beta", Some("betapass")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    beta.send("match wily 5 0 unrated white").await;
    assert!(
        beta.wait_line("Creating:", 10).await.is_some(),
        "{:?}",
        beta.seen
    );
    assert!(
        beta.wait_line("tells you: hello Beta, game 1", 10)
            .await
            .is_some(),
        "{:?}",
        beta.seen
    );
    beta.send("resign").await;
    assert!(
        beta.wait_line("tells you: result 0-1 (win)", 10)
            .await
            .is_some(),
        "{:?}",
        beta.seen
    );
    assert!(
        beta.wait_line("Challenge: wily", 10).await.is_some(),
        "the rematch: {:?}",
        beta.seen
    );
    beta.send("decline").await;
    stop_bot(stop, bot).await;
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_opponent_who_never_moves_is_aborted() {
    let tmp = tmpdir("idle-abort");
    let srv = server_with(|c| ServerConfig {
        abort_before_moves: true,
        ..c
    })
    .await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let mut cfg = bot_config(tmp.path(), 5, 0);
    cfg.seek.enabled = false;
    cfg.accept.abort_idle_secs = 2;
    let (stop, bot) = start_bot(cfg, addr, &wire);
    let mut beta = RawClient::login(addr, "Beta", Some("betapass")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    beta.send("match wily 5 0 unrated white").await;
    assert!(
        beta.wait_line("Creating:", 10).await.is_some(),
        "{:?}",
        beta.seen
    );
    let end = beta.wait_line("Game aborted on move 1} *", 10).await;
    assert!(end.is_some(), "{:?}", beta.seen);
    let report = stop_bot(stop, bot).await;
    assert_eq!(report.recorded, 1);
    let pgn = archive(tmp.path());
    assert!(pgn.contains("[Termination \"unterminated\"]"), "{pgn}");
    srv.shutdown().await;
}

/// The style-12 lines' side to move and move number.
fn to_move(line: &str) -> Option<(String, u32)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.first() != Some(&"<12>") || f.len() < 27 {
        return None;
    }
    Some((f[9].to_string(), f[26].parse().ok()?))
}

/// Waits for a board with Black to move at move `n`.
async fn black_to_move(c: &mut RawClient, n: u32) {
    for _ in 0..40 {
        let Some(l) = c.wait_line("<12>", 10).await else {
            break;
        };
        if to_move(&l) == Some(("B".into(), n)) {
            return;
        }
    }
    panic!("no board with Black to move at move {n}: {:?}", c.seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_accepted_up_to_the_limit() {
    let tmp = tmpdir("takeback");
    let srv = server_with(|c| c).await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let mut cfg = bot_config(tmp.path(), 5, 0);
    cfg.seek.enabled = false;
    cfg.accept.takebacks = 1;
    let (stop, bot) = start_bot(cfg, addr, &wire);
    let mut beta = RawClient::login(addr, "Beta", Some("betapass")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    beta.send("match wily 5 0 unrated black").await;
    assert!(
        beta.wait_line("Creating:", 10).await.is_some(),
        "{:?}",
        beta.seen
    );
    black_to_move(&mut beta, 1).await;
    beta.send("a7a6").await;
    black_to_move(&mut beta, 2).await;
    beta.send("takeback 2").await;
    assert!(
        beta.wait_line("wily accepts the takeback request.", 10)
            .await
            .is_some(),
        "{:?}",
        beta.seen
    );
    black_to_move(&mut beta, 1).await;
    beta.send("h7h6").await;
    black_to_move(&mut beta, 2).await;
    beta.send("takeback 2").await;
    assert!(
        beta.wait_line("wily declines takeback request.", 10)
            .await
            .is_some(),
        "the second one is over the limit: {:?}",
        beta.seen
    );
    beta.send("resign").await;
    assert!(beta.wait_line("Beta resigns}", 10).await.is_some());
    let report = stop_bot(stop, bot).await;
    assert_eq!(report.recorded, 1);
    let pgn = archive(tmp.path());
    assert!(pgn.contains(" h6 ") && !pgn.contains(" a6 "), "{pgn}");
    assert!(
        !pgn.contains("[FEN"),
        "the game was kept, not re-synchronised: {pgn}"
    );
    srv.shutdown().await;
}

/// lasker's real answer to an unknown interface variable (recorded), through the protocol
/// layer into the bot's vocabulary: the event the session reads to stop sending `fr`.
#[test]
fn lasker_recorded_answer_to_an_unknown_ivariable() {
    let rel = "data/ics/lasker/01_login_guest_registered.guest1.raw";
    let path = std::env::var_os("WILY_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"))
        .join(rel);
    let Ok(bytes) = std::fs::read(&path) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the recording {} is needed (set WILY_SHARED)",
            path.display()
        );
        eprintln!("SKIP: {} not found (set WILY_SHARED)", path.display());
        return;
    };
    let (events, _) = wily::ics::pipeline::events_of(
        &bytes,
        &[7, 64, 1],
        wily::ics::pipeline::PipelineOptions::default(),
    );
    let now = std::time::Instant::now();
    let refused: Vec<String> = events
        .into_iter()
        .filter_map(|e| match wily::bot::translate::translate(e, now) {
            Some(wily::bot::input::ServerEvent::SettingRefused { name }) => Some(name),
            _ => None,
        })
        .collect();
    assert_eq!(refused, vec!["nosuchvar".to_string()]);
}
