//! Restarting the bot while its old session is still connected, on the local server
//! (which, like lasker, replaces the old session at a new login of the account, keeps a
//! follow list in the account, toggles it with `follow NAME`, and makes a follower observe
//! a followed player's new game by itself). Two starts in a row over a live session: each
//! logs in, leaves the account following exactly what the settings say, and the bot
//! observes a followed player's game and plays its own.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use tokio::sync::watch;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

/// Waits until `stale` (logged in as wily) is thrown out by the bot's new login.
async fn kicked(stale: &mut RawClient) {
    let line = stale.wait_line("you can't both be logged in", 20).await;
    assert!(
        line.is_some(),
        "the bot's login replaced the old session: {:?}",
        stale.seen
    );
}

/// A scripted player (password: the name in lower case + `pass`) playing one game by
/// `policy`, with random moves from `seed` at a human pace.
fn player(
    addr: std::net::SocketAddr,
    name: &'static str,
    seed: u64,
    policy: SparringPolicy,
) -> tokio::task::JoinHandle<std::io::Result<wily::server::SparringReport>> {
    let password = format!("{}pass", name.to_ascii_lowercase());
    tokio::spawn(async move {
        let policy = SparringPolicy {
            chooser: MoveChooser::Random { seed },
            think: Duration::from_millis(300),
            games: 1,
            timeout: Duration::from_secs(60),
            ..policy
        };
        sparring_player(addr, name, Some(&password), policy).await
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_restarts_over_a_live_session_keep_the_follow_list_and_play() {
    let tmp = tmpdir("restart");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();

    // Before the first start the account already follows Alpha (wanted) and Sparring
    // (not in the settings). This session stays connected: the old session of a bot
    // that died without logging out.
    let mut stale = RawClient::login(addr, "wily", Some(WILY_PW)).await;
    for n in ["Alpha", "Sparring"] {
        stale.send(&format!("+follow {n}")).await;
        let added = stale.wait_line(&format!("[{n}] added"), 5).await;
        assert!(added.is_some(), "{:?}", stale.seen);
    }

    // First start: idle, following Alpha.
    let mut cfg = bot_config(dir, 1, 0);
    cfg.seek.enabled = false;
    cfg.observe.follow = vec!["Alpha".into()];
    let (stop, stop_rx) = watch::channel(0u32);
    let wire = dir.join("wire.log");
    let mut connect = connect_config(addr, "wily", WILY_PW);
    connect.wire_log = Some(wire.clone());
    let bot = tokio::spawn(run_bot(
        cfg.clone(),
        connect,
        0,
        Some(stop_rx),
        Duration::from_secs(90),
    ));
    kicked(&mut stale).await;
    // The login commands go out at the rate limit; the last one takes Sparring off.
    let settled = wait_wire(&wire, 20, |log| {
        log.contains("[Sparring] removed from your follow list.")
    })
    .await;
    assert!(
        settled,
        "{}",
        std::fs::read_to_string(&wire).unwrap_or_default()
    );
    let beta = player(addr, "Beta", 41, SparringPolicy::default());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let alpha = player(
        addr,
        "Alpha",
        42,
        SparringPolicy {
            challenge: Some(("Beta".into(), 5, 0)),
            accept_challenges: false,
            resign_at: Some(8),
            ..SparringPolicy::default()
        },
    );
    // The game started after the bot's login, and the bot's own look for Alpha's games
    // waits a minute: only the account's follow list can make wily observe it now.
    let mut boss = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    let mut observers = None;
    for _ in 0..40 {
        boss.send("allobservers Alpha").await;
        if let Some(l) = boss.wait_line("Observing ", 1).await {
            observers = Some(l);
            break;
        }
    }
    let observers = observers.unwrap_or_default();
    assert!(
        observers.split_whitespace().any(|w| w == "wily"),
        "the server made wily observe Alpha's game: {observers:?} {:?}",
        boss.seen
    );
    alpha.await.expect("task").expect("alpha");
    beta.await.expect("task").expect("beta");
    stop.send(2).expect("stop");
    let first = bot.await.expect("first run");
    assert_eq!(first.totals.games, 0);

    // The account follows exactly what the settings say.
    let mut stale = RawClient::login(addr, "wily", Some(WILY_PW)).await;
    assert_eq!(stale.follow_list().await, vec!["Alpha".to_string()]);

    // Second start over the live session `stale`: it plays a game.
    let spar = tokio::spawn(sparring_player(
        addr,
        "Sparring",
        Some(SPAR_PW),
        SparringPolicy {
            chooser: suicidal(),
            play_seeks: true,
            games: 1,
            timeout: Duration::from_secs(90),
            ..SparringPolicy::default()
        },
    ));
    cfg.seek.enabled = true;
    let second = tokio::spawn(run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        1,
        None,
        Duration::from_secs(90),
    ));
    kicked(&mut stale).await;
    let second = second.await.expect("second run");
    assert_eq!(second.totals.games, 1, "the restarted bot played");
    assert_eq!(second.reconnects, 0);
    spar.await.expect("task").expect("sparring");
    let mut c = RawClient::login(addr, "wily", Some(WILY_PW)).await;
    assert_eq!(
        c.follow_list().await,
        vec!["Alpha".to_string()],
        "the second start left it so"
    );
    srv.shutdown().await;
}
