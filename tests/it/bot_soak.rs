//! The bot's fault soak in small, in the default suite: `wily::soak::run` with a few
//! games on two pairs, every fault kind at least once (garbage and cut lines, lag spikes,
//! a dropped connection, a line cut with the connection dropped, an adjournment by
//! agreement and a server restart), and the must-be-0 figures asserted: no crash, no time
//! forfeit, no game missing from the PGN archives or the learning stores, no adjourned
//! game left unresumed, and at least one game resumed; then the same over ICC's level-2
//! datagrams, whose faults are ICC's (malformed, unknown and out-of-order datagrams,
//! datagrams cut in two). The 1,000-game soaks are the command `wily soak` (docs/bot.md,
//! "Fault soak").

use std::time::Duration;
use wily::ics::Dialect;
use wily::soak::{run, SoakOptions};

/// 10 games on two pairs with one planned fault of each kind, in `dialect`.
fn small(dialect: Dialect, seed: u64) -> SoakOptions {
    SoakOptions {
        pairs: 2,
        drops: 1,
        cut_drops: 1,
        adjourns: 1,
        restarts: 1,
        time_limit: Duration::from_secs(150),
        dialect,
        seed,
        progress: Some(std::sync::Arc::new(|l: &str| println!("{l}"))),
        progress_every: 2,
        ..SoakOptions::for_games(10)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_soak_with_every_fault_passes() {
    let r = run(small(Dialect::Fics, 1)).await.expect("the soak runs");
    println!("{r}");
    assert!(r.problems().is_empty(), "{:?}", r.problems());
    assert!(r.completed >= 10, "{r}");
    assert!(r.resumptions >= 1 && r.finished_after_resume >= 1, "{r}");
    assert!(r.adjourned_agreed >= 1, "an adjournment by agreement: {r}");
    assert!(r.adjourned_dropped >= 1, "a game adjourned by a drop: {r}");
    assert_eq!(r.restarts, 1, "{r}");
    assert!(r.proxy.garbage > 0 && r.proxy.lag_spikes > 0, "{r}");
    assert!(r.proxy.cut_resumed > 0 && r.proxy.cut_dropped > 0, "{r}");
    assert!(r.proxy.drops > 0, "{r}");
    assert_eq!(r.unfired, 0, "every planned fault found a game: {r}");
    assert!(r.rss_start_kib > 0 && r.rss_end_kib > 0, "{r}");
    // The bots' /metrics, read back: problems() already held them against the bots' own
    // totals; here, that they counted something at all.
    let c = &r.counters;
    assert!(!c.unreadable, "{r}");
    assert_eq!(c.games, u64::from(r.bot_games), "{r}");
    assert!(c.games >= r.completed as u64, "{r}");
    assert!(
        c.reconnects >= 1,
        "the dropped connections were counted: {r}"
    );
    assert!(c.learn_writes >= r.completed as u64, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_soak_over_icc_datagrams_with_every_fault_passes() {
    let r = run(small(Dialect::Icc, 5)).await.expect("the soak runs");
    println!("{r}");
    assert!(r.problems().is_empty(), "{:?}", r.problems());
    assert!(r.completed >= 10, "{r}");
    assert!(r.icc, "{r}");
    let c = &r.proxy;
    assert!(
        c.dg_malformed > 0 && c.dg_unknown > 0 && c.dg_out_of_order > 0,
        "every kind of datagram fault: {r}"
    );
    assert_eq!(
        c.garbage,
        c.dg_malformed + c.dg_unknown + c.dg_out_of_order,
        "no FICS text garbage on ICC: {r}"
    );
    assert!(
        c.cut_resumed > 0 && c.cut_dropped > 0 && c.lag_spikes > 0,
        "{r}"
    );
    assert!(r.resumptions >= 1 && r.adjourned_agreed >= 1, "{r}");
    assert_eq!(r.restarts, 1, "{r}");
    assert_eq!(r.unfired, 0, "{r}");
    let text = r.to_string();
    assert!(
        text.contains("ICC level-2 datagrams") && text.contains("datagrams malformed"),
        "{text}"
    );
    assert_eq!(r.counters.games, u64::from(r.bot_games), "{r}");
}
