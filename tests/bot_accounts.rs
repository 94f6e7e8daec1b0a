//! Several accounts in one process: each `[[accounts]]` entry gets its own settings
//! (server, handle, password variable, engine budget); one account refused at login does
//! not disturb the other's game; and games from two accounts that end at the same moment
//! are both kept by the shared learning store.

mod bot_support;

use bot_support::*;
use cozy_chess::{Color, Move};
use std::sync::{Arc, Barrier};
use std::time::Duration;
use wily::bot::app::remote_connect;
use wily::bot::driver::{run, BotError, RunOptions};
use wily::config::{AccountSection, Config};
use wily::learn::{GameOutcome, GameRecord, Learner};
use wily::lists::OpponentLists;
use wily::server::{sparring_player, SparringPolicy};

fn account(handle: &str, var: &str, threads: usize, hash: usize) -> AccountSection {
    let text = format!(
        "handle = {handle:?}\npassword_env = {var:?}\nthreads = {threads}\nhash_mb = {hash}\n"
    );
    toml::from_str(&text).expect("account entry")
}

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_account_leaves_the_other_game_alone() {
    std::env::set_var("WILY_TEST_ACCOUNT_GOOD", WILY_PW);
    std::env::set_var("WILY_TEST_ACCOUNT_BAD", "not-the-password");
    let tmp = tmpdir("accounts");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let policy = SparringPolicy {
        chooser: suicidal(),
        play_seeks: true,
        games: 1,
        timeout: Duration::from_secs(90),
        ..SparringPolicy::default()
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    let mut base = bot_config(dir, 1, 0);
    base.server.host = addr.ip().to_string();
    base.server.port = addr.port();
    base.server.timeseal = false;
    base.engine.learn = 7;
    let mut tasks = Vec::new();
    for a in [
        account("wily", "WILY_TEST_ACCOUNT_GOOD", 1, 8),
        account("Beta", "WILY_TEST_ACCOUNT_BAD", 1, 4),
    ] {
        let cfg = a.apply(&base);
        assert_eq!(cfg.engine.hash_mb, a.hash_mb.expect("hash"));
        let connect = remote_connect(&cfg).expect("connect settings");
        let (book, learn) = wily::bot::learning::open(&cfg);
        let opts = RunOptions {
            lists: OpponentLists::load(&cfg.paths.lists).0,
            book: Box::new(book),
            learn: Box::new(learn),
            max_games: 1,
            ..RunOptions::new(connect)
        };
        tasks.push(tokio::spawn(tokio::time::timeout(
            Duration::from_secs(90),
            run(cfg, opts),
        )));
    }
    let beta = tasks.pop().expect("beta").await.expect("task");
    assert!(
        matches!(beta, Ok(Err(BotError::Login(_)))),
        "the refused account stops on its own: {beta:?}"
    );
    let wily = tasks
        .pop()
        .expect("wily")
        .await
        .expect("task")
        .expect("in time")
        .expect("wily ran");
    spar.await.expect("task").expect("sparring");
    assert_eq!(wily.totals.games, 1);
    assert_eq!(wily.recorded, 1);
    assert_eq!(wily.reconnects, 0);
    let learner = Learner::open(&dir.join("learn.db")).expect("store");
    assert_eq!(learner.store().count("games").expect("count"), 1);
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
