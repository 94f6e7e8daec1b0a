//! A dropped connection in the middle of a game: the server adjourns it, wily reconnects
//! (backoff with jitter), asks to resume, finishes the game and records it whole.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connection_then_reconnect_and_resume() {
    let tmp = tmpdir("reconnect");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let proxy = Proxy::start(addr).await;
    let policy = SparringPolicy {
        chooser: MoveChooser::Random { seed: 41 },
        play_seeks: true,
        accept_challenges: true,
        think: Duration::from_millis(250),
        resign_at: Some(8),
        // The adjourned game counts as one result line, the resumed one as another.
        games: 2,
        timeout: Duration::from_secs(90),
        ..SparringPolicy::default()
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let cfg = bot_config(dir, 2, 0);
    let bot = tokio::spawn(run_bot(
        cfg,
        connect_config(proxy.addr, "wily", WILY_PW),
        1,
        None,
        Duration::from_secs(90),
    ));
    // Watch the game and cut wily's connection after a few moves.
    let mut watcher = RawClient::login(addr, "Boss", Some(BOSS_PW)).await;
    let mut observing = false;
    for _ in 0..100 {
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
    assert!(observing);
    for _ in 0..6 {
        assert!(
            watcher.wait_line("<12> ", 10).await.is_some(),
            "moves are played"
        );
    }
    proxy.drop_all();
    let adjourned = watcher.wait_line("adjourned", 10).await;
    assert!(
        adjourned.is_some(),
        "the server adjourned the game: {:?}",
        watcher.seen
    );
    let report = bot.await.expect("bot task");
    let spar = spar.await.expect("task").expect("sparring");
    assert!(report.reconnects >= 1, "{report:?}");
    assert_eq!(report.totals.games, 1);
    assert_eq!(report.totals.wins, 1, "{:?}", spar.games);
    assert_eq!(spar.games.len(), 2);
    assert_eq!(spar.games[0].result, "*");
    // The resumed game ends with the sparring partner's resignation (after its eighth
    // move) or, when it blunders into a mate first, checkmated.
    assert!(
        spar.games[1].reason.contains("resigns") || spar.games[1].reason.contains("checkmated"),
        "{:?}",
        spar.games[1]
    );
    let pgn = archive(dir);
    assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
    assert!(
        !pgn.contains("[FEN "),
        "the resumed game kept its moves from the start: {pgn}"
    );
    // Moves from before and after the drop: the record replays legally, starts with the
    // adjourned game's first move, ends with the resumed game's last move, and holds more
    // moves than were played before the drop.
    let games: Vec<_> = wily::chess::PgnReader::new(pgn.as_bytes()).collect();
    let g = games[0].as_ref().expect("the record reads back");
    g.replay().expect("every move replays legally");
    let san = |m: &str| m.trim_end_matches(['+', '#']).to_string();
    let first = g.moves.first().expect("moves").san.clone();
    assert_eq!(san(&first), san(&spar.games[0].moves[0]), "{pgn}");
    let last = g.moves.last().expect("moves").san.clone();
    let resumed_last = spar.games[1].moves.last().expect("moves after the drop");
    assert_eq!(san(&last), san(resumed_last), "{pgn}");
    assert!(g.moves.len() > spar.games[0].moves.len(), "{pgn}");
    srv.shutdown().await;
}
