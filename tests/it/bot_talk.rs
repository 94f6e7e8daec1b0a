//! Loopback tests of what the bot says: whispers at levels 1-3 and the noise setting in
//! its own games (read by an observer), and kibitzes of its analysis while observing a
//! game between two other players.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use tokio::sync::watch;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

/// Plays one game with the given whisper level and noise; returns every whisper an
/// observer saw.
async fn whispers(
    tag: &str,
    level: u8,
    noise: u64,
    chooser: MoveChooser,
    resign_at: Option<u32>,
) -> Vec<String> {
    let tmp = tmpdir(tag);
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let mut cfg = bot_config(dir, 1, 0);
    cfg.talk.whisper = level;
    cfg.talk.noise = noise;
    cfg.talk.max_per_minute = 120;
    let mut watcher = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    let bot = tokio::spawn(run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        1,
        None,
        Duration::from_secs(60),
    ));
    let policy = SparringPolicy {
        chooser,
        play_seeks: true,
        think: Duration::from_millis(300),
        resign_at,
        games: 1,
        timeout: Duration::from_secs(60),
        ..SparringPolicy::default()
    };
    // The sparring partner logs in once wily is seeking, and plays its ad.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    let mut observing = false;
    for _ in 0..200 {
        watcher.send("observe wily").await;
        if watcher
            .wait_line_for("You are now observing game", Duration::from_millis(200))
            .await
            .is_some()
        {
            observing = true;
            break;
        }
    }
    assert!(
        observing,
        "the watcher observes wily's game: {:?}",
        watcher.seen
    );
    let end = watcher.wait_line("{Game ", 60).await;
    assert!(end.is_some(), "the game ended: {:?}", watcher.seen);
    spar.await.expect("task").expect("sparring");
    bot.await.expect("bot");
    srv.shutdown().await;
    watcher
        .seen
        .iter()
        .filter(|l| l.contains("whispers: "))
        .map(|l| l.split("whispers: ").nth(1).unwrap_or("").to_string())
        .collect()
}

fn is_search_line(w: &str) -> bool {
    // `d3 +1.20 0.0s` ...
    let mut it = w.split_whitespace();
    matches!(it.next(), Some(d) if d.starts_with('d') && d[1..].parse::<u32>().is_ok())
        && matches!(it.next(), Some(s) if s.starts_with('+') || s.starts_with('-'))
        && matches!(it.next(), Some(t) if t.ends_with('s'))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whisper_level_1_only_announces_mates() {
    let w = whispers("w1", 1, 0, suicidal(), None).await;
    assert!(!w.is_empty(), "a mate was announced");
    assert!(
        w.iter()
            .all(|x| x.starts_with("mate in ") || x.starts_with("mated in ")),
        "{w:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whisper_level_2_gives_depth_score_and_time() {
    let w = whispers("w2", 2, 0, MoveChooser::Random { seed: 21 }, Some(10)).await;
    assert!(w.len() >= 3, "{w:?}");
    assert!(
        w.iter().all(|x| is_search_line(x) && !x.contains(" pv ")),
        "{w:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whisper_level_3_adds_the_pv_and_noise_silences() {
    let w = whispers("w3", 3, 0, MoveChooser::Random { seed: 22 }, Some(10)).await;
    assert!(w.len() >= 3, "{w:?}");
    for x in &w {
        assert!(is_search_line(x), "{x}");
        let pv = x
            .split(" pv ")
            .nth(1)
            .unwrap_or_else(|| panic!("no pv in {x}"));
        // PVs start with a move number: `3. Nf3` or `3... Nf6`.
        let first = pv.split_whitespace().next().unwrap_or("");
        assert!(
            first.ends_with('.') && first.trim_end_matches('.').parse::<u32>().is_ok(),
            "{x}"
        );
    }
    let quiet = whispers(
        "w3q",
        3,
        1_000_000_000_000,
        MoveChooser::Random { seed: 22 },
        Some(10),
    )
    .await;
    assert!(quiet.is_empty(), "noise keeps wily silent: {quiet:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observes_a_followed_player_and_kibitzes_its_analysis() {
    let tmp = tmpdir("observe");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let (alpha, beta) = alpha_beta_game(addr, (31, 32), Duration::from_millis(400), 10).await;
    let mut watcher = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    let mut observing = false;
    for _ in 0..50 {
        watcher.send("observe Alpha").await;
        if watcher
            .wait_line("You are now observing game", 1)
            .await
            .is_some()
        {
            observing = true;
            break;
        }
    }
    assert!(observing, "{:?}", watcher.seen);
    let mut cfg = bot_config(dir, 1, 0);
    cfg.seek.enabled = false;
    cfg.observe.follow = vec!["Alpha".into()];
    cfg.observe.kibitz = 2;
    cfg.observe.whisper = 0;
    cfg.talk.noise = 1000;
    let (stop, stop_rx) = watch::channel(0u32);
    let bot = tokio::spawn(run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        0,
        Some(stop_rx),
        Duration::from_secs(60),
    ));
    let end = watcher.wait_line("{Game ", 60).await;
    assert!(end.is_some(), "{:?}", watcher.seen);
    let kibitzes: Vec<&String> = watcher
        .seen
        .iter()
        .filter(|l| l.starts_with("wily") && l.contains("kibitzes: "))
        .collect();
    assert!(
        kibitzes.len() >= 2,
        "wily kibitzed its analysis: {:?}",
        watcher.seen
    );
    for k in &kibitzes {
        let text = k.split("kibitzes: ").nth(1).unwrap_or("");
        assert!(is_search_line(text), "{k}");
    }
    alpha.await.expect("task").expect("alpha");
    beta.await.expect("task").expect("beta");
    stop.send(2).expect("stop");
    let report = bot.await.expect("bot");
    assert_eq!(report.totals.games, 0, "observing is not playing");
    srv.shutdown().await;
}
