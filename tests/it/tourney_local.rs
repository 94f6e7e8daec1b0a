//! Tournaments end to end on the local server: the bot (`wily ics` with `[tourney] join
//! = true`) against the server's mamer-like director over real TCP, the other entrants
//! played by scripted sparring clients that join with `tell mamer join 1`.
//!
//! - A four-player swiss of three rounds: wily finds the open tournament in the
//!   director's list, joins, plays one game a round to the end, does not seek while it is
//!   in, records each game with `Event` and `Round`, and seeks again once the director
//!   turns its flag off.
//! - A five-player round robin: five rounds, wily has one bye and four games.
//! - A tournament that never fills: a shutdown withdraws wily from it
//!   (`tell mamer withdraw 1`) and the director turns the flag off.

use crate::bot_support;

use bot_support::*;
use std::collections::BTreeSet;
use std::time::Duration;
use wily::server::{
    self, Account, DirectorConfig, PairingStyle, ServerConfig, ServerHandle, SparringPolicy,
};

const PLAYERS: [&str; 4] = ["Alpha", "Beta", "Gamma", "Delta"];

async fn server_with(director: DirectorConfig) -> ServerHandle {
    let mut c = ServerConfig::local(0).with_account(Account::new("wily", WILY_PW).computer());
    for p in PLAYERS {
        c = c.with_account(Account::new(p, &format!("{}pass", p.to_lowercase())));
    }
    c.director = Some(director);
    // A player whose clock runs out loses at once (nobody has to call the flag).
    c.auto_flag = true;
    server::start(c).await.expect("server starts")
}

fn director(style: PairingStyle, entrants: usize) -> DirectorConfig {
    DirectorConfig {
        style,
        rounds: 3,
        base: 1,
        inc: 0,
        min_entrants: entrants,
        max_entrants: entrants,
        close_after: Duration::from_secs(1),
        repeat: false,
        ..DirectorConfig::default()
    }
}

/// wily's settings: `[tourney] join = true` for 1 0 games, its everyday seek 1 0.
fn wily_config(dir: &std::path::Path) -> wily::config::Config {
    let mut cfg = bot_config(dir, 1, 0);
    cfg.tourney.join = true;
    cfg.tourney.time_controls = vec!["1 0".into()];
    // Tournament play alone: the finger notes and public commands (`set tell 1`) add
    // login lines to the rate-limited queue, and with them the shutdown withdrawal was
    // not heard in two loaded runs out of four (bot_public.rs tests those lines).
    cfg
}

/// A sparring entrant: joins tournament 1 at login, plays `games` games (resigning at
/// its 12th move), then logs out.
fn entrant(
    addr: std::net::SocketAddr,
    name: &'static str,
    seed: u64,
    games: usize,
) -> tokio::task::JoinHandle<wily::server::SparringReport> {
    let policy = SparringPolicy {
        chooser: server::MoveChooser::Random { seed },
        login_commands: vec!["tell mamer join 1".into()],
        resign_at: Some(12),
        games,
        timeout: Duration::from_secs(80),
        ..SparringPolicy::default()
    };
    let pw = format!("{}pass", name.to_lowercase());
    tokio::spawn(async move {
        server::sparring_player(addr, name, Some(&pw), policy)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    })
}

/// The lines wily sent, in order (the wire log's `->` records).
fn sent(wire: &str) -> Vec<String> {
    wire.lines()
        .filter_map(|l| l.split_once(" -> \""))
        .map(|(_, t)| t.trim_end_matches('"').to_string())
        .collect()
}

/// Byte offset in the wire log of the first line (after `from`) holding `needle`.
fn at(wire: &str, needle: &str, from: usize) -> Option<usize> {
    wire.get(from..)?.find(needle).map(|p| p + from)
}

/// The `Round` tags of the archive's games of tournament 1.
fn tourney_rounds(pgn: &str) -> Vec<String> {
    pgn.split("[Event ")
        .skip(1)
        .filter(|g| g.starts_with("\"mamer tourney #1"))
        .filter_map(|g| g.split("[Round \"").nth(1))
        .filter_map(|r| r.split('"').next())
        .map(str::to_string)
        .collect()
}

/// Waits until the flag went off and wily sent a seek after that; returns the wire log.
async fn wait_for_the_end(wire: &std::path::Path) -> String {
    let done = |w: &str| {
        at(w, "tourney variable to OFF", 0)
            .is_some_and(|off| w.get(off..).is_some_and(|rest| rest.contains("-> \"seek ")))
    };
    let ok = wait_wire(wire, 75, done).await;
    let w = std::fs::read_to_string(wire).unwrap_or_default();
    assert!(ok, "the tournament ended and wily sought again:\n{w}");
    w
}

/// No seek went out between the join and the flag going off.
fn no_seek_while_in(w: &str) {
    let join = at(w, "-> \"tell mamer join 1\"", 0).expect("wily joined");
    let off = at(w, "tourney variable to OFF", join).expect("the flag went off");
    let inside = sent(&w[join..off]);
    assert!(
        !inside.iter().any(|l| l.starts_with("seek ")),
        "no seek while in the tournament: {inside:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wily_plays_a_four_player_swiss_to_the_end() {
    let tmp = tmpdir("tourney-swiss");
    let srv = server_with(director(PairingStyle::Swiss, 4)).await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let (stop, bot) = start_bot(wily_config(tmp.path()), addr, &wire);
    let others: Vec<_> = PLAYERS[..3]
        .iter()
        .enumerate()
        .map(|(i, p)| entrant(addr, p, 11 + i as u64, 3))
        .collect();
    let w = wait_for_the_end(&wire).await;
    if let Ok(path) = std::env::var("WILY_TOURNEY_WIRE") {
        let _ = std::fs::write(path, &w);
    }
    no_seek_while_in(&w);
    assert!(w.contains("You joined the tournament."), "{w}");
    assert!(w.contains("has set your tourney variable to ON."), "{w}");
    assert!(
        w.contains("Tourney Results: First place in tourney #1"),
        "{w}"
    );
    assert!(
        w.contains(" [1 0 0 0 5]"),
        "the result suffix of a tournament game: {w}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let _ = stop.send(1);
    let _ = stop.send(2);
    let report = bot.await.expect("the bot task");
    for o in others {
        let r = o.await.expect("entrant task");
        assert_eq!(r.games.len(), 3, "{} played every round", r.handle);
        assert_eq!(r.illegal_replies, 0);
    }
    let pgn = archive(tmp.path());
    let rounds = tourney_rounds(&pgn);
    assert_eq!(rounds, ["1", "2", "3"], "one game a round, tagged:\n{pgn}");
    assert!(
        pgn.contains("[Event \"mamer tourney #1 (1 0 unrated swiss)\"]"),
        "{pgn}"
    );
    assert_eq!(report.tourney.joined, 1, "{:?}", report.tourney);
    assert_eq!(report.tourney.games, 3, "{:?}", report.tourney);
    assert_eq!(report.tourney.finished, 1, "{:?}", report.tourney);
    assert_eq!(report.tourney.withdrawn, 0, "{:?}", report.tourney);
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_five_player_round_robin_gives_wily_one_bye() {
    let tmp = tmpdir("tourney-rr");
    let srv = server_with(director(PairingStyle::RoundRobin, 5)).await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let (stop, bot) = start_bot(wily_config(tmp.path()), addr, &wire);
    let others: Vec<_> = PLAYERS
        .iter()
        .enumerate()
        .map(|(i, p)| entrant(addr, p, 21 + i as u64, 4))
        .collect();
    let w = wait_for_the_end(&wire).await;
    no_seek_while_in(&w);
    assert_eq!(w.matches("you get a BYE this round.").count(), 1, "{w}");
    assert!(w.contains(":Tourney Players: Round 5 of 5"), "{w}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let _ = stop.send(1);
    let _ = stop.send(2);
    let report = bot.await.expect("the bot task");
    for o in others {
        let r = o.await.expect("entrant task");
        assert_eq!(r.games.len(), 4, "{} met everyone", r.handle);
    }
    let pgn = archive(tmp.path());
    let rounds: BTreeSet<u32> = tourney_rounds(&pgn)
        .iter()
        .filter_map(|r| r.parse().ok())
        .collect();
    assert_eq!(rounds.len(), 4, "four games, one a round:\n{pgn}");
    assert!(rounds.iter().all(|r| (1..=5).contains(r)), "{rounds:?}");
    assert_eq!(report.tourney.byes, 1, "{:?}", report.tourney);
    assert_eq!(report.tourney.games, 4, "{:?}", report.tourney);
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_withdraws_from_a_tournament_that_never_fills() {
    let tmp = tmpdir("tourney-withdraw");
    let srv = server_with(director(PairingStyle::Swiss, 4)).await;
    let addr = srv.local_addr();
    let wire = tmp.path().join("wire.log");
    let (stop, bot) = start_bot(wily_config(tmp.path()), addr, &wire);
    assert!(
        wait_wire(&wire, 20, |w| w.contains("tourney variable to ON.")).await,
        "wily joined: {}",
        std::fs::read_to_string(&wire).unwrap_or_default()
    );
    // A player watching the channel sees the entry list change.
    let mut watcher = RawClient::login(addr, "Alpha", Some("alphapass")).await;
    watcher.send("+channel 49").await;
    assert!(watcher
        .wait_line("added to your channel list", 5)
        .await
        .is_some());
    let _ = stop.send(1);
    assert!(
        watcher
            .wait_line("wily has withdrawn from tourney #1", 10)
            .await
            .is_some(),
        "the director heard the withdrawal: {:?}\nwire:\n{}",
        watcher.seen,
        std::fs::read_to_string(&wire).unwrap_or_default()
    );
    let report = bot.await.expect("the bot task");
    let w = std::fs::read_to_string(&wire).unwrap_or_default();
    let lines = sent(&w);
    let join = lines
        .iter()
        .position(|l| l == "tell mamer join 1")
        .expect("joined");
    let out = lines
        .iter()
        .position(|l| l == "tell mamer withdraw 1")
        .expect("withdrew");
    assert!(join < out);
    assert!(
        !lines[join..out].iter().any(|l| l.starts_with("seek ")),
        "no seek while entered: {lines:?}"
    );
    assert_eq!(report.tourney.withdrawn, 1, "{:?}", report.tourney);
    srv.shutdown().await;
}
