//! Loopback tests of the bot's dealings with people: a challenge the filters decline,
//! operator tells obeyed and a stranger's ignored, and a list change by tell that
//! changes the resign threshold in the game being played.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use tokio::sync::watch;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_decline_a_challenge_politely() {
    let tmp = tmpdir("decline");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let mut cfg = bot_config(dir, 1, 0);
    cfg.seek.enabled = false;
    let (stop, stop_rx) = watch::channel(0u32);
    let bot = tokio::spawn(run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        0,
        Some(stop_rx),
        Duration::from_secs(60),
    ));
    let mut beta = RawClient::login(addr, "Beta", Some("betapass")).await;
    // Wait until wily is logged in.
    let mut ready = false;
    for _ in 0..50 {
        beta.send("finger wily").await;
        if beta.wait_line("On for:", 1).await.is_some() {
            ready = true;
            break;
        }
    }
    assert!(ready, "wily logged in");
    beta.send("match wily 100 0").await;
    let tell = beta
        .wait_line("wily(C) tells you:", 10)
        .await
        .unwrap_or_else(|| panic!("no tell: {:?}", beta.seen));
    assert!(tell.contains("I do not play that time control"), "{tell}");
    assert!(
        beta.wait_line("declines the match offer", 10)
            .await
            .is_some(),
        "{:?}",
        beta.seen
    );
    stop.send(2).expect("stop");
    let report = bot.await.expect("bot task");
    assert_eq!(report.totals.declined, 1);
    assert_eq!(report.totals.games, 0);
    srv.shutdown().await;
}

async fn tell(client: &mut RawClient, text: &str) -> Option<String> {
    client.send(&format!("tell wily {text}")).await;
    client.wait_line("wily(C) tells you:", 5).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_obeyed_stranger_ignored_and_list_change_takes_effect() {
    let tmp = tmpdir("operator");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let cfg = bot_config(dir, 1, 0);
    let (stop, stop_rx) = watch::channel(0u32);
    let bot = tokio::spawn(run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        0,
        Some(stop_rx),
        Duration::from_secs(90),
    ));
    let mut boss = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    let mut status = None;
    for _ in 0..50 {
        status = tell(&mut boss, "status").await;
        if status.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let status = status.expect("operator gets a status line");
    // A tell never carries `;` (lasker would run the rest as wily's command): `,`.
    assert!(status.contains("idle, seek on, accept on"), "{status}");
    let r = tell(&mut boss, "seek off").await.expect("answer");
    assert!(r.contains("seeking off"), "{r}");
    // A stranger gets one polite line, and the command is not obeyed.
    let mut eve = RawClient::login(addr, "Alpha", Some("alphapass")).await;
    let r = tell(&mut eve, "seek on").await.expect("a polite line");
    assert!(r.contains("I am wily, a computer program"), "{r}");
    assert!(
        tell(&mut eve, "accept off").await.is_none(),
        "only one answer per stranger"
    );
    let s = tell(&mut boss, "status").await.expect("status");
    assert!(s.contains("seek off, accept on"), "{s}");
    // A game against Sparring: its thresholds follow the lists.
    let policy = SparringPolicy {
        chooser: MoveChooser::Random { seed: 11 },
        play_seeks: true,
        think: Duration::from_millis(300),
        resign_at: Some(12),
        games: 1,
        timeout: Duration::from_secs(60),
        ..SparringPolicy::default()
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    for _ in 0..50 {
        boss.send("finger Sparring").await;
        if boss.wait_line("On for:", 1).await.is_some() {
            break;
        }
    }
    tell(&mut boss, "seek on").await.expect("seek on");
    let mut playing = None;
    for _ in 0..50 {
        let s = tell(&mut boss, "status").await.unwrap_or_default();
        if s.contains("playing game") {
            playing = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let before = playing.expect("wily is playing");
    assert!(before.contains("resign at -9"), "{before}");
    let r = tell(&mut boss, "list GM +sparring").await.expect("answer");
    assert!(r.contains("added sparring"), "{r}");
    let after = tell(&mut boss, "status").await.expect("status");
    assert!(
        after.contains("GM") && after.contains("resign at -3"),
        "{after}"
    );
    assert!(std::fs::read_to_string(dir.join("lists").join("GM"))
        .expect("saved")
        .contains("sparring"));
    let r = tell(&mut boss, "rm -rf /").await.expect("answer");
    assert!(r.contains("unknown command"), "{r}");
    spar.await.expect("task").expect("sparring finished");
    stop.send(1).expect("stop");
    let report = bot.await.expect("bot");
    assert_eq!(report.totals.games, 1);
    srv.shutdown().await;
}
