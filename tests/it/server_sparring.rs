//! The scripted sparring client against the local server: whole games
//! between two sparring players and against a raw client, ending in mate,
//! resignation, agreed draw, abort and time forfeit.

use crate::server_support;

use cozy_chess::{Board, Move};
use server_support::*;
use std::sync::Arc;
use std::time::Duration;
use wily::server::{sparring_player, MoveChooser, ServerConfig, SparringPolicy};

fn script(moves: &'static [&'static str]) -> MoveChooser {
    // Play the listed coordinate moves in order (by position in the game).
    MoveChooser::Callback(Arc::new(move |b: &Board| {
        let ply = (usize::from(b.fullmove_number()) - 1) * 2
            + usize::from(b.side_to_move() == cozy_chess::Color::Black);
        let idx = ply / 2;
        moves.get(idx).and_then(|m| m.parse::<Move>().ok())
    }))
}

#[tokio::test]
async fn random_game_between_two_sparring_players() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let waiter = tokio::spawn(sparring_player(
            addr,
            "BetaBot",
            Some("beta"),
            SparringPolicy {
                chooser: MoveChooser::Random { seed: 11 },
                resign_at: Some(40),
                ..Default::default()
            },
        ));
        tokio::time::sleep(Duration::from_millis(100)).await;
        let challenger = sparring_player(
            addr,
            "AlphaBot",
            Some("alpha"),
            SparringPolicy {
                chooser: MoveChooser::Random { seed: 12 },
                challenge: Some(("BetaBot".into(), 5, 0)),
                resign_at: Some(45),
                ..Default::default()
            },
        )
        .await
        .expect("challenger");
        let waiter = waiter.await.expect("join").expect("waiter");
        assert_eq!(challenger.games.len(), 1);
        assert_eq!(waiter.games.len(), 1);
        assert_eq!(
            challenger.games[0], waiter.games[0],
            "both saw the same game"
        );
        assert_eq!(challenger.illegal_replies + waiter.illegal_replies, 0);
        let g = &challenger.games[0];
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()),
            "{g:?}"
        );
        assert!(!g.moves.is_empty());
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn sparring_mates_a_raw_client() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let spar = tokio::spawn(sparring_player(
            addr,
            "BetaBot",
            Some("beta"),
            SparringPolicy {
                chooser: script(&["e7e5", "d8h4"]),
                ..Default::default()
            },
        ));
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        a.cmd("match BetaBot 5 0 u white").await;
        a.board().await;
        a.send("f3").await;
        a.board().await;
        a.board().await;
        a.send("g4").await;
        a.board().await;
        let mate = a.board().await;
        assert!(
            mate.contains(" Q/d8-h4 ") && mate.contains(" Qh4+ "),
            "{mate}"
        );
        a.expect("{Game 1 (AlphaBot vs. BetaBot) AlphaBot checkmated} 0-1")
            .await;
        let report = spar.await.expect("join").expect("sparring");
        assert_eq!(report.games[0].reason, "AlphaBot checkmated");
        assert_eq!(report.games[0].moves, vec!["f3", "e5", "g4", "Qh4+"]);
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn sparring_draw_abort_and_flag() {
    bounded(60, async {
        let srv = server_with(|c| ServerConfig {
            zero_base_ms: 1200,
            ..c
        })
        .await;
        let addr = srv.local_addr();
        // Agreed draw: one offers with its third move, the other accepts.
        let acceptor = tokio::spawn(sparring_player(
            addr,
            "BetaBot",
            Some("beta"),
            SparringPolicy {
                accept_draws: true,
                ..Default::default()
            },
        ));
        tokio::time::sleep(Duration::from_millis(100)).await;
        let offerer = sparring_player(
            addr,
            "AlphaBot",
            Some("alpha"),
            SparringPolicy {
                challenge: Some(("BetaBot".into(), 5, 0)),
                offer_draw_at: Some(3),
                ..Default::default()
            },
        )
        .await
        .expect("offerer");
        acceptor.await.expect("join").expect("acceptor");
        assert!(
            offerer.games[0]
                .reason
                .ends_with("Game drawn by mutual agreement"),
            "{:?}",
            offerer.games
        );
        assert_eq!(offerer.games[0].result, "1/2-1/2");
        // Abort at the first move.
        let other = tokio::spawn(sparring_player(
            addr,
            "BetaBot",
            Some("beta"),
            SparringPolicy::default(),
        ));
        tokio::time::sleep(Duration::from_millis(100)).await;
        let aborter = sparring_player(
            addr,
            "AlphaBot",
            Some("alpha"),
            SparringPolicy {
                challenge: Some(("BetaBot".into(), 5, 0)),
                abort_at: Some(2),
                ..Default::default()
            },
        )
        .await
        .expect("aborter");
        other.await.expect("join").expect("other");
        assert!(
            aborter.games[0]
                .reason
                .ends_with("Game aborted by mutual agreement"),
            "{:?}",
            aborter.games
        );
        assert_eq!(aborter.games[0].result, "*");
        // Time forfeit: a guest stops moving; the other flags it.
        let flagger = tokio::spawn(sparring_player(
            addr,
            "BetaBot",
            Some("beta"),
            SparringPolicy {
                seek: Some((0, 1)),
                ..Default::default()
            },
        ));
        let sleeper = sparring_player(
            addr,
            "guest",
            None,
            SparringPolicy {
                play_seeks: true,
                stop_moving_at: Some(3),
                ..Default::default()
            },
        )
        .await
        .expect("sleeper");
        let flagger = flagger.await.expect("join").expect("flagger");
        let g = &flagger.games[0];
        assert!(
            g.reason
                .ends_with(&format!("{} forfeits on time", sleeper.handle)),
            "{g:?}"
        );
        assert!(sleeper.handle.starts_with("Guest"));
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn twenty_games_in_a_row_through_seeks() {
    bounded(120, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let seeker = tokio::spawn(sparring_player(
            addr,
            "AlphaBot",
            Some("alpha"),
            SparringPolicy {
                chooser: MoveChooser::Random { seed: 3 },
                seek: Some((1, 0)),
                resign_at: Some(30),
                accept_draws: true,
                games: 20,
                ..Default::default()
            },
        ));
        tokio::time::sleep(Duration::from_millis(100)).await;
        let player = sparring_player(
            addr,
            "guest",
            None,
            SparringPolicy {
                chooser: MoveChooser::Random { seed: 4 },
                play_seeks: true,
                resign_at: Some(31),
                offer_draw_at: Some(20),
                games: 20,
                ..Default::default()
            },
        )
        .await
        .expect("player");
        let seeker = seeker.await.expect("join").expect("seeker");
        assert_eq!(player.games.len(), 20);
        assert_eq!(seeker.games, player.games);
        assert!(
            player.games.iter().all(|g| g.number == 1),
            "game numbers are reused"
        );
        assert_eq!(seeker.illegal_replies + player.illegal_replies, 0);
        let mut c = Client::login(addr, "GammaBot", Some("gamma")).await;
        assert_eq!(
            c.cmd("games").await,
            "There are no games in progress.\nfics% "
        );
        assert_eq!(c.cmd("sought").await, "fics% ");
        srv.shutdown().await;
    })
    .await;
}
