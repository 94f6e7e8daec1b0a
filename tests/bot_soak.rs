//! Soak test (ignored by default; run with
//! `cargo test --release --test bot_soak -- --ignored --nocapture`, games from
//! `WILY_SOAK_GAMES`, default 100): bullet games in a row through a proxy that injects
//! garbage lines and lag spikes and drops the connection twice. No crash, no game lost
//! on time, every game recorded.

mod bot_support;

use bot_support::*;
use std::time::{Duration, Instant};
use wily::bot::input::MoveSource;
use wily::server::{sparring_player, SparringPolicy};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "long: run explicitly"]
async fn soak_bullet_games_with_garbage_lag_and_drops() {
    let games: u32 = std::env::var("WILY_SOAK_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let tmp = tmpdir("soak");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let proxy = Proxy::start(addr).await;
    let policy = SparringPolicy {
        chooser: suicidal(),
        play_seeks: true,
        accept_challenges: true,
        games: usize::MAX,
        timeout: Duration::from_secs(24 * 3600),
        ..SparringPolicy::default()
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut cfg = bot_config(dir, 1, 0);
    cfg.talk.whisper = 2;
    cfg.talk.noise = 0;
    let started = Instant::now();
    let bot = tokio::spawn(run_bot(
        cfg,
        connect_config(proxy.addr, "wily", WILY_PW),
        games,
        None,
        Duration::from_secs(3600),
    ));
    // Trouble maker: garbage every 300 ms, a lag spike every 2 s, two drops.
    let mut drops = 0;
    let mut tick = 0u64;
    let mut garbage = 0u64;
    let mut spikes = 0u64;
    while !bot.is_finished() {
        tokio::time::sleep(Duration::from_millis(300)).await;
        tick += 1;
        proxy.inject_garbage();
        garbage += 1;
        if tick.is_multiple_of(7) {
            proxy.lag(200 + (tick * 37) % 600);
            spikes += 1;
        }
        let recorded = archive(dir).matches("[Event ").count() as u32;
        let drop_at = [games * 3 / 10, games * 7 / 10];
        if drops < 2 && recorded >= drop_at[drops] && recorded < games {
            // Let the next game get going, then cut the line mid-game.
            tokio::time::sleep(Duration::from_millis(700)).await;
            proxy.drop_all();
            drops += 1;
            println!("soak: connection dropped after {recorded} games");
        }
    }
    let report = bot.await.expect("bot task");
    spar.abort();
    let pgn = archive(dir);
    let in_archive = pgn.matches("[Event ").count() as u32;
    println!(
        "soak: {} games in {:.0} s (+{} ={} -{}), recorded {} (archive {}), reconnects {}, lost on time {}, garbage lines {}, lag spikes {}, drops {}",
        report.totals.games,
        started.elapsed().as_secs_f64(),
        report.totals.wins,
        report.totals.draws,
        report.totals.losses,
        report.recorded,
        in_archive,
        report.reconnects,
        report.time_losses,
        garbage,
        spikes,
        drops
    );
    println!("soak reaction times:\n{}", report.reactions.report());
    assert!(report.totals.games >= games);
    assert_eq!(
        report.recorded, report.totals.games,
        "every finished game recorded"
    );
    assert_eq!(in_archive, report.recorded);
    assert_eq!(report.time_losses, 0, "no game lost on time");
    assert_eq!(drops, 2);
    assert!(report.reconnects >= 2, "{report:?}");
    assert!(report.reactions.summary(MoveSource::Search).is_some());
    srv.shutdown().await;
}
