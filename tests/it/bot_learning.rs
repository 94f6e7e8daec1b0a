//! The bot plays book moves from the shipped book and hands every finished game to the
//! learning store (one row per game in its opponent statistics).

use crate::bot_support;
use crate::need;

use bot_support::*;
use std::path::Path;
use std::time::Duration;
use wily::learn::Learner;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn book_moves_and_learning_after_each_game() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("book");
    if !shipped.join("book.wbk").exists() {
        need::missing(
            &format!("the shipped book {}", shipped.join("book.wbk").display()),
            "it is part of the repository: check out book/",
        );
        return;
    }
    let tmp = tmpdir("learning");
    let dir = tmp.path();
    let srv = server(None).await;
    let addr = srv.local_addr();
    let policy = SparringPolicy {
        chooser: MoveChooser::Random { seed: 51 },
        play_seeks: true,
        resign_at: Some(8),
        games: 2,
        timeout: Duration::from_secs(90),
        ..SparringPolicy::default()
    };
    let spar =
        tokio::spawn(async move { sparring_player(addr, "Sparring", Some(SPAR_PW), policy).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut cfg = bot_config(dir, 1, 0);
    cfg.engine.book = true;
    // White: the first move is always a book move.
    cfg.seek.ads[0].color = wily::config::SeekColor::White;
    cfg.engine.learn = 7;
    cfg.paths.book = shipped;
    // The bot's own games as training data for the network.
    cfg.paths.training_positions = Some(dir.join("bot.wpos"));
    let report = run_bot_learning(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        2,
        Duration::from_secs(90),
    )
    .await;
    spar.await.expect("task").expect("sparring");
    assert_eq!(report.recorded, 2);
    let pgn = archive(dir);
    assert!(pgn.contains("{book}"), "book moves were played: {pgn}");
    let learner = Learner::open(&dir.join("learn.db")).expect("store opens");
    assert_eq!(learner.store().count("games").expect("count"), 2);
    // Both games' searched positions (the sparring partner resigns early, so the book
    // may have played them all), from wily's side, numbered 0 and 1.
    let recs = wily::engine::nnue::data::read_records(&dir.join("bot.wpos")).expect("positions");
    let games: std::collections::BTreeSet<u32> = recs.iter().map(|r| r.game).collect();
    assert!(games.iter().all(|&g| g < 2), "{games:?}");
    assert!(recs.iter().all(|r| !r.black_to_move), "wily played White");
    if let Some(r) = report.reactions.summary(wily::bot::input::MoveSource::Book) {
        println!(
            "book reaction: n={} median {:?} p99 {:?} max {:?}",
            r.0, r.1, r.2, r.3
        );
    }
    srv.shutdown().await;
}
