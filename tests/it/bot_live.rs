//! Live restarts on a real chess server (FICS lineage, e.g. a lasker server on
//! 127.0.0.1), only when one is named:
//!
//! ```sh
//! WILY_LIVE_ICS=127.0.0.1:5555 WILY_LIVE_HANDLE=RsLive WILY_LIVE_PASSWORD=... \
//! WILY_LIVE_OPPONENT=RsLiveOpp WILY_LIVE_OPPONENT_PASSWORD=... \
//!     cargo test --profile ci --test it bot_live -- --ignored --nocapture
//! ```
//!
//! Two registered accounts: the bot's and an opponent's. The bot's account is made to
//! follow the opponent, and a session of it is left connected (a bot that died); then
//! the bot is started twice in a row, each time over such a live session, and each time
//! it must log in, play a game against the opponent (a scripted client that challenges it
//! and walks into mates), and leave the account following exactly the opponent. Without
//! `WILY_LIVE_ICS` the test says so and passes.

use crate::bot_support;

use bot_support::*;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;
use wily::server::{sparring_player, SparringPolicy};

struct Live {
    addr: SocketAddr,
    handle: String,
    password: String,
    opponent: String,
    opponent_password: String,
}

fn live() -> Option<Live> {
    let Ok(server) = std::env::var("WILY_LIVE_ICS") else {
        panic!(
            "no live server named (set WILY_LIVE_ICS=host:port and the WILY_LIVE_HANDLE, \
             WILY_LIVE_PASSWORD, WILY_LIVE_OPPONENT, WILY_LIVE_OPPONENT_PASSWORD accounts)"
        );
    };
    let var = |k: &str| {
        std::env::var(k).unwrap_or_else(|_| panic!("WILY_LIVE_ICS is set, so {k} must be too"))
    };
    let addr = server
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .unwrap_or_else(|| panic!("WILY_LIVE_ICS={server:?} is not host:port"));
    Some(Live {
        addr,
        handle: var("WILY_LIVE_HANDLE"),
        password: var("WILY_LIVE_PASSWORD"),
        opponent: var("WILY_LIVE_OPPONENT"),
        opponent_password: var("WILY_LIVE_OPPONENT_PASSWORD"),
    })
}

/// The bot's login sequence is through (its wire log shows it): the follow list read
/// back (`=follow`) holding `name`, or `name` added after a read-back without it.
fn follow_settled(log: &str, name: &str) -> bool {
    let Some(at) = log.find("-- follow list: ") else {
        return false;
    };
    let rest = &log[at..];
    let shown = rest.lines().next().unwrap_or("");
    shown.contains(&format!("\\n\\r{name} ")) || rest.contains(&format!("[{name}] added"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running FICS-lineage server: set WILY_LIVE_ICS=host:port and the WILY_LIVE_HANDLE, WILY_LIVE_PASSWORD, WILY_LIVE_OPPONENT, WILY_LIVE_OPPONENT_PASSWORD accounts, and run with --ignored"]
async fn restarts_over_a_live_session_and_plays() {
    let Some(l) = live() else { return };
    let tmp = tmpdir("live");
    let dir = tmp.path();

    // The account already follows the opponent; this session stays connected.
    let mut stale = RawClient::login(l.addr, &l.handle, Some(&l.password)).await;
    // lasker drops the first change of a list never used before: show it first.
    stale.send("=follow").await;
    stale.send(&format!("+follow {}", l.opponent)).await;
    assert!(
        stale
            .wait_line(&format!("[{}]", l.opponent), 5)
            .await
            .is_some(),
        "the server keeps follow lists: {:?}",
        stale.seen
    );

    let mut cfg = bot_config(dir, 1, 0);
    cfg.server.handle = l.handle.clone();
    cfg.seek.enabled = false;
    cfg.observe.follow = vec![l.opponent.clone()];
    cfg.operators.handles.clear();
    for start in 1..=2 {
        // The bot's side of the wire, kept with WILY_KEEP_TMP=1 (passwords masked).
        let wire = dir.join(format!("wire-{start}.log"));
        let mut connect = connect_config(l.addr, &l.handle, &l.password);
        connect.wire_log = Some(wire.clone());
        let bot = tokio::spawn(run_bot(
            cfg.clone(),
            connect,
            1,
            None,
            Duration::from_secs(180),
        ));
        let kicked = stale
            .wait_line("can't both be logged in", 30)
            .await
            .unwrap_or_else(|| panic!("start {start}: the old session stayed: {:?}", stale.seen));
        eprintln!("start {start}: the old session heard {kicked:?}");
        // The login commands go out at the rate limit (2 lines/s after a burst): once the
        // follow list is settled, the opponent challenges the bot.
        assert!(
            wait_wire(&wire, 30, |log| follow_settled(log, &l.opponent)).await,
            "start {start}: the follow list was read back and set ({})",
            wire.display()
        );
        let opp = sparring_player(
            l.addr,
            &l.opponent,
            Some(&l.opponent_password),
            SparringPolicy {
                chooser: suicidal(),
                challenge: Some((l.handle.clone(), 1, 0)),
                accept_challenges: false,
                think: Duration::from_millis(200),
                games: 1,
                timeout: Duration::from_secs(150),
                ..SparringPolicy::default()
            },
        )
        .await
        .expect("the opponent played");
        let report = bot.await.expect("the bot ran");
        eprintln!(
            "start {start}: games {} (won {}, drawn {}, lost {}), opponent saw {:?}",
            report.totals.games,
            report.totals.wins,
            report.totals.draws,
            report.totals.losses,
            opp.games.iter().map(|g| &g.reason).collect::<Vec<_>>()
        );
        assert_eq!(
            report.totals.games, 1,
            "start {start}: the bot played a game"
        );
        assert_eq!(
            report.reconnects, 0,
            "start {start}: the first login was enough"
        );
        // The next old session, and the follow list as the settings say.
        stale = RawClient::login(l.addr, &l.handle, Some(&l.password)).await;
        let names = stale.follow_list().await;
        eprintln!("start {start}: the account follows {names:?}");
        assert_eq!(names, vec![l.opponent.clone()], "start {start}");
    }
    // Take the opponent off the follow list again.
    stale.send(&format!("-follow {}", l.opponent)).await;
    let _ = stale.wait_line("follow list", 5).await;
    stale.send("quit").await;
}
