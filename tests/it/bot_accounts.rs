//! Several accounts in one process: each `[[accounts]]` entry gets its own settings
//! (server, handle, password variable, engine budget); two accounts play side by side
//! through the library's entry point, an account refused at login and one whose
//! connection is cut disturb nobody else's game; and games from two accounts that end at
//! the same moment are all kept by the shared archive and learning store.

use crate::bot_support;

use bot_support::*;
use cozy_chess::{Color, Move};
use std::sync::{Arc, Barrier};
use std::time::Duration;
use wily::config::Config;
use wily::learn::{GameOutcome, GameRecord, Learner};
use wily::server::MoveChooser;

#[test]
fn accounts_parse_validate_and_apply() {
    let text = "[server]\nlocal = false\nhost = \"ics.example\"\nport = 5000\nhandle = \"x\"\n\
                [[accounts]]\nhandle = \"One\"\npassword_env = \"ONE_PW\"\nthreads = 2\nhash_mb = 32\n\
                [[accounts]]\nhandle = \"Two\"\nhost = \"other.example\"\nport = 23\n";
    let c = Config::parse(text, std::path::Path::new("t.toml")).expect("valid");
    assert_eq!(c.accounts.len(), 2);
    let one = c.accounts[0].apply(&c);
    assert_eq!(
        (
            one.server.handle.as_str(),
            one.engine.threads,
            one.engine.hash_mb
        ),
        ("One", 2, 32)
    );
    assert_eq!(one.server.password_env.as_deref(), Some("ONE_PW"));
    let two = c.accounts[1].apply(&c);
    assert_eq!(
        (two.server.host.as_str(), two.server.port),
        ("other.example", 23)
    );
    assert_eq!(two.engine.threads, c.engine.threads);
    let bad = "[[accounts]]\nhandle = \"A\"\nthreads = 0\n[[accounts]]\nhandle = \"a\"\n";
    let e = Config::parse(bad, std::path::Path::new("t.toml"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("accounts[0].threads") && e.contains("same handle"),
        "{e}"
    );
}

/// Two accounts and a third with a wrong password, run by the library's entry point for
/// `[[accounts]]` against the local server, each good one challenged by its own sparring
/// opponent. First both play a quick game at the same time (both games reach the one
/// archive and the one learning store); then, during a second pair of games, every
/// connection of `wily` (it goes through a proxy) is cut: `wily` reconnects, and
/// `Alpha`'s game goes on and finishes normally on its one connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_play_side_by_side_and_fail_alone() {
    std::env::set_var("WILY_TEST_ACCOUNTS_WILY", WILY_PW);
    std::env::set_var("WILY_TEST_ACCOUNTS_ALPHA", "alphapass");
    std::env::set_var("WILY_TEST_ACCOUNTS_BOSS", "not-the-password");
    let tmp = tmpdir("accounts-e2e");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let proxy = Proxy::start(addr).await;
    let mut cfg = bot_config(dir, 5, 0);
    cfg.seek.enabled = false;
    cfg.engine.learn = 7;
    cfg.accounts = vec![
        account_at(proxy.addr, "wily", "WILY_TEST_ACCOUNTS_WILY"),
        account_at(addr, "Alpha", "WILY_TEST_ACCOUNTS_ALPHA"),
        account_at(addr, "Boss", "WILY_TEST_ACCOUNTS_BOSS"),
    ];
    cfg.accounts[1].hash_mb = Some(4);
    let run = start_accounts(&cfg, 2, Duration::from_secs(150), 2).await;
    let (rxs, stop, bots) = (run.statuses, run.stop, run.task);

    // Round 1: two quick games, mated at about the same moment.
    let think = Duration::from_millis(50);
    let spar = challenger(addr, "Sparring", SPAR_PW, "wily", suicidal(), think, None);
    let beta = challenger(addr, "Beta", "betapass", "Alpha", suicidal(), think, None);
    spar.await.expect("task").expect("sparring");
    beta.await.expect("task").expect("beta");
    for rx in &rxs[..2] {
        assert!(
            wait_status(rx, 30, |s| s.games == 1 && s.game.is_none()).await,
            "{:?}",
            rx.borrow()
        );
    }
    assert_eq!(
        archive(dir).matches("[Event ").count(),
        2,
        "both games kept"
    );

    // Round 2: wily's connection is cut in the middle of its game; Alpha's goes on.
    let slow = Duration::from_millis(300);
    let spar = challenger(
        addr,
        "Sparring",
        SPAR_PW,
        "wily",
        MoveChooser::Random { seed: 3 },
        slow,
        None,
    );
    let beta = challenger(
        addr,
        "Beta",
        "betapass",
        "Alpha",
        MoveChooser::Random { seed: 4 },
        slow,
        Some(14),
    );
    for rx in &rxs[..2] {
        assert!(
            wait_status(rx, 60, |s| s
                .game
                .as_ref()
                .is_some_and(|g| g.moves.len() >= 4))
            .await,
            "both games under way: {:?}",
            rx.borrow()
        );
    }
    let alpha_game = rxs[1].borrow().game.as_ref().map(|g| g.number);
    proxy.drop_all();
    assert!(
        wait_status(&rxs[0], 10, |s| s.connections.len() >= 3).await,
        "wily lost its connection and came back: {:?}",
        rxs[0].borrow().connections
    );
    beta.await
        .expect("task")
        .expect("Alpha's opponent finished its game");
    assert!(wait_status(&rxs[1], 30, |s| s.games == 2).await);
    stop.send(2).expect("stop");
    let runs = bots.await.expect("accounts task");
    spar.abort();

    let handles: Vec<&str> = runs.iter().map(|r| r.handle.as_str()).collect();
    assert_eq!(handles, vec!["wily", "Alpha", "Boss"]);
    let boss = runs[2]
        .result
        .as_ref()
        .expect_err("the wrong password fails");
    assert!(boss.contains("login failed"), "{boss}");
    let wily = runs[0].result.as_ref().expect("wily ran");
    assert!(wily.reconnects >= 1, "{wily:?}");
    assert!(wily.totals.games >= 1, "{wily:?}");
    let alpha = runs[1].result.as_ref().expect("Alpha ran");
    assert_eq!(alpha.reconnects, 0, "Alpha's connection was never touched");
    assert_eq!((alpha.totals.games, alpha.recorded), (2, 2), "{alpha:?}");
    assert_eq!(alpha.totals.wins, 2, "both opponents lost: {alpha:?}");
    let alpha_events = &rxs[1].borrow().connections;
    assert_eq!(
        alpha_events
            .iter()
            .filter(|e| e.what == "connected")
            .count(),
        1,
        "{alpha_events:?}"
    );
    assert!(alpha_game.is_some());

    // Every finished game is in the one archive and the one learning store.
    let games = (wily.recorded + alpha.recorded) as usize;
    let pgn = archive(dir);
    assert_eq!(pgn.matches("[Event ").count(), games, "{pgn}");
    assert!(pgn.contains("[White \"Alpha\"]") || pgn.contains("[Black \"Alpha\"]"));
    let learner = Learner::open(&dir.join("learn.db")).expect("store");
    assert_eq!(learner.store().count("games").expect("count"), games as i64);
    srv.shutdown().await;
}

#[test]
fn games_ending_together_are_all_stored() {
    let tmp = tmpdir("accounts-store");
    let path = tmp.path().join("learn.db");
    drop(Learner::open(&path).expect("create"));
    const PER: usize = 20;
    let barrier = Arc::new(Barrier::new(2));
    let workers: Vec<_> = ["One", "Two"]
        .into_iter()
        .map(|name| {
            let path = path.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut l = Learner::open(&path).expect("open");
                let moves: Vec<Move> = ["e2e4", "e7e5"]
                    .iter()
                    .map(|m| m.parse().expect("move"))
                    .collect();
                for _ in 0..PER {
                    let mut rec =
                        GameRecord::new(moves.clone(), Color::White, GameOutcome::Draw, "agreed");
                    rec.opponent = name.to_string();
                    barrier.wait();
                    l.after_game(&rec, None).expect("stored");
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker");
    }
    let l = Learner::open(&path).expect("open");
    assert_eq!(l.store().count("games").expect("count"), 2 * PER as i64);
}
