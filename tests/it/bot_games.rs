//! Full games of the bot against the local server's sparring client, over loopback:
//! checkmate, resignation, agreed draw, abort and time forfeit, each recorded in the PGN
//! archive.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

fn sparring(chooser: MoveChooser) -> SparringPolicy {
    SparringPolicy {
        chooser,
        play_seeks: true,
        accept_challenges: true,
        games: 1,
        timeout: Duration::from_secs(120),
        ..SparringPolicy::default()
    }
}

async fn play_one(
    tag: &str,
    policy: SparringPolicy,
    base: u32,
    inc: u32,
    zero_base_ms: Option<u64>,
) -> (
    String,
    wily::bot::run::driver::RunReport,
    wily::server::SparringReport,
) {
    let tmp = tmpdir(tag);
    let dir = tmp.path();
    let srv = server(zero_base_ms).await;
    let addr = srv.local_addr();
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    let cfg = bot_config(dir, base, inc);
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
    (pgn, report, spar)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_ends_in_checkmate_and_is_recorded() {
    let (pgn, report, spar) = play_one("mate", sparring(suicidal()), 1, 0, None).await;
    assert_eq!(report.recorded, 1);
    assert_eq!(report.totals.wins, 1, "{pgn}");
    let g = &spar.games[0];
    assert!(g.reason.ends_with("checkmated"), "{g:?}");
    assert!(pgn.contains("[Termination \"normal\"]"));
    assert!(pgn.contains("checkmated}"), "{pgn}");
    assert!(pgn.contains("#"), "the mating move is in the record: {pgn}");
    for tag in [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "WhiteElo",
        "BlackElo",
        "TimeControl",
        "Termination",
    ] {
        assert!(pgn.contains(&format!("[{tag} ")), "missing {tag}");
    }
    assert!(pgn.contains("[TimeControl \"60+0\"]"));
    // wily's moves carry score/depth/time comments.
    assert!(pgn.contains("/3 "), "depth-3 comments: {pgn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opponent_resigns() {
    let policy = SparringPolicy {
        resign_at: Some(4),
        ..sparring(MoveChooser::Random { seed: 3 })
    };
    let (pgn, report, spar) = play_one("resign", policy, 1, 0, None).await;
    assert_eq!(report.totals.wins, 1);
    assert!(
        spar.games[0].reason.contains("resigns"),
        "{:?}",
        spar.games[0]
    );
    assert!(pgn.contains("Sparring resigns}"), "{pgn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offer_is_accepted_when_the_draw_score_says_so() {
    let tmp = tmpdir("draw");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let policy = SparringPolicy {
        offer_draw_at: Some(3),
        ..sparring(MoveChooser::Random { seed: 5 })
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    let mut cfg = bot_config(dir, 1, 0);
    // A draw is worth more to wily than any ordinary position here.
    cfg.opponents.draw_score_default = 1000;
    let report = run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        1,
        None,
        Duration::from_secs(60),
    )
    .await;
    let spar = spar.await.expect("task").expect("sparring");
    assert_eq!(report.totals.draws, 1, "{:?}", spar.games);
    assert_eq!(spar.games[0].result, "1/2-1/2");
    assert!(archive(dir).contains("mutual agreement"));
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offer_is_declined_when_wily_is_better() {
    let tmp = tmpdir("nodraw");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let policy = SparringPolicy {
        offer_draw_at: Some(3),
        resign_at: Some(6),
        ..sparring(MoveChooser::Random { seed: 5 })
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    let mut cfg = bot_config(dir, 1, 0);
    cfg.opponents.draw_score_default = -1000;
    let report = run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        1,
        None,
        Duration::from_secs(60),
    )
    .await;
    let spar = spar.await.expect("task").expect("sparring");
    assert_eq!(report.totals.draws, 0);
    assert!(
        spar.games[0].reason.contains("resigns"),
        "{:?}",
        spar.games[0]
    );
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn early_abort_request_is_accepted() {
    let policy = SparringPolicy {
        abort_at: Some(1),
        ..sparring(MoveChooser::Random { seed: 2 })
    };
    let (pgn, report, spar) = play_one("abort", policy, 1, 0, None).await;
    assert_eq!(spar.games[0].result, "*");
    assert!(
        spar.games[0].reason.to_ascii_lowercase().contains("abort"),
        "{:?}",
        spar.games[0]
    );
    assert_eq!(report.recorded, 1, "aborted games are recorded too");
    assert!(pgn.contains("[Termination \"unterminated\"]"), "{pgn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wily_flags_an_opponent_who_stops_moving() {
    // `0 1` games start with 3 s on the local server.
    let policy = SparringPolicy {
        stop_moving_at: Some(3),
        flag_opponent: false,
        ..sparring(MoveChooser::Random { seed: 9 })
    };
    let (pgn, report, spar) = play_one("flag", policy, 0, 1, Some(3000)).await;
    assert!(
        spar.games[0].reason.contains("forfeits on time"),
        "{:?}",
        spar.games[0]
    );
    assert_eq!(report.totals.wins, 1);
    assert_eq!(report.time_losses, 0);
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
}
