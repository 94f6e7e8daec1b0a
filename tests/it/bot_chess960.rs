//! The bot's Chess960 games on the local server, over loopback: wily seeks with the
//! server's Chess960 word (`fr`, as lasker 2.2 names it), the sparring client plays the
//! ad, and the `fischerandom` game from a random start is played out and recorded with
//! its variant and start position; a Chess960 challenge is accepted or declined as
//! `accept.variants` says.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use wily::server::{sparring_player, SparringPolicy};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_and_plays_a_chess960_game() {
    let tmp = tmpdir("c960-seek");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let policy = SparringPolicy {
        chooser: suicidal(),
        play_seeks: true,
        games: 1,
        timeout: Duration::from_secs(120),
        ..SparringPolicy::default()
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    let mut cfg = bot_config(dir, 1, 0);
    cfg.server.chess960 = "fr".into();
    cfg.seek.ads[0].variant = "chess960".into();
    let report = run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        1,
        None,
        Duration::from_secs(120),
    )
    .await;
    let spar = spar.await.expect("sparring task").expect("sparring ran");
    let pgn = archive(dir);
    srv.shutdown().await;
    assert_eq!(report.recorded, 1, "{pgn}");
    assert_eq!(spar.illegal_replies, 0);
    assert_eq!(report.totals.wins, 1, "{pgn}");
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains("fischerandom game"), "{pgn}");
    // The recorded start is one of the 960 and the moves replay from it.
    let fen = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .expect("FEN tag");
    let start = wily::chess::parse_fen(fen).expect("FEN parses");
    assert!(wily::chess::chess960::index_of(&start).is_some(), "{fen}");
    let games: Vec<_> = wily::chess::PgnReader::new(pgn.as_bytes()).collect();
    assert_eq!(games.len(), 1);
    let g = games[0].as_ref().expect("the record reads back");
    let pos = g.replay().expect("every move replays legally");
    assert!(pos.ply() >= 2, "{pgn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess960_challenge_is_accepted_only_when_allowed() {
    for (variants, accepted) in [(vec!["chess"], false), (vec!["chess", "chess960"], true)] {
        let tmp = tmpdir("c960-challenge");
        let dir = tmp.path();
        let srv = server(None).await;
        let addr = srv.local_addr();
        let mut watcher = RawClient::login(addr, "Alpha", Some("alphapass")).await;
        let mut cfg = bot_config(dir, 1, 0);
        cfg.seek.enabled = false;
        cfg.accept.variants = variants.iter().map(|v| v.to_string()).collect();
        let bot = tokio::spawn(run_bot(
            cfg,
            connect_config(addr, "wily", WILY_PW),
            1,
            None,
            Duration::from_secs(60),
        ));
        // Challenge wily once it is online.
        let mut answer = None;
        for _ in 0..50 {
            watcher.send("match wily 1 0 unrated fr").await;
            if watcher.wait_line("Issuing:", 1).await.is_some() {
                // "wily accepts your challenge." or "wily declines the match offer."
                while let Some(l) = watcher.wait_line("wily ", 10).await {
                    if l.contains("accepts") || l.contains("declines") {
                        answer = Some(l);
                        break;
                    }
                }
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let answer = answer.expect("wily answered the challenge");
        if accepted {
            assert!(answer.contains("accepts your challenge"), "{answer}");
            let creating = watcher.wait_line("Creating:", 10).await.expect("game");
            assert!(creating.contains("fischerandom"), "{creating}");
            watcher.send("resign").await;
            let report = bot.await.expect("bot task");
            assert_eq!(report.totals.wins, 1);
            assert!(archive(dir).contains("[Variant \"Chess960\"]"));
        } else {
            assert!(answer.contains("declines"), "{answer}");
            let told = watcher
                .seen
                .iter()
                .any(|l| l.starts_with("wily") && l.contains("tells you: "));
            assert!(told, "a polite reason: {:?}", watcher.seen);
            bot.abort();
        }
        srv.shutdown().await;
    }
}
