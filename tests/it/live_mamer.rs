//! A live tournament: wily joins a 4-player mamer tournament on a real lasker server and
//! plays every round to the end. Needs lasker and mamer (both built from their public
//! source outside this repository, listening on 127.0.0.1; see docs/tournaments.md), so
//! it is ignored by default. Run it with
//!
//! ```text
//! WILY_MAMER_ICS=127.0.0.1:5959 WILY_MAMER_HANDLE=wilybot WILY_MAMER_PASSWORD=... \
//! WILY_MAMER_MANAGER=admin:... WILY_MAMER_PLAYERS=TPlayA:pa,TPlayB:pb,TPlayC:pc \
//! cargo test --test it live_mamer -- --ignored --nocapture
//! ```
//!
//! `WILY_MAMER_MANAGER` is a mamer manager's account (it creates, opens and closes the
//! tournament), `WILY_MAMER_PLAYERS` the three other entrants (wily's scripted sparring
//! client, random moves, resigning at its 40th move), `WILY_MAMER_DIRECTOR` the
//! director's handle (default `mamer`), `WILY_MAMER_WIRE` a path to keep wily's wire log
//! at (the recordings in `tests/fixtures/mamer/` were made from it). With four players
//! the tournament has five entrants and a bye each round; `WILY_MAMER_STYLE=r` and
//! `WILY_MAMER_ROUNDS=5` make it a round robin in which every entrant, wily too, has one
//! bye. Without the variables the test fails and names them.

use crate::bot_support;

use bot_support::*;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;
use tokio::sync::watch;
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

struct Live {
    addr: SocketAddr,
    handle: String,
    password: String,
    manager: (String, String),
    players: Vec<(String, String)>,
    director: String,
    /// mamer's style letter: `s` (swiss) or `r` (round robin).
    style: String,
    rounds: u32,
}

const VARS: &str = "set WILY_MAMER_ICS=host:port, WILY_MAMER_HANDLE, WILY_MAMER_PASSWORD, \
     WILY_MAMER_MANAGER=name:password and WILY_MAMER_PLAYERS=name:password,name:password,\
     name:password (see docs/tournaments.md)";

fn pair(s: &str) -> Option<(String, String)> {
    let (a, b) = s.split_once(':')?;
    Some((a.trim().to_string(), b.trim().to_string()))
}

fn live() -> Option<Live> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let addr = var("WILY_MAMER_ICS")?.to_socket_addrs().ok()?.next()?;
    let players: Vec<_> = var("WILY_MAMER_PLAYERS")?
        .split(',')
        .filter_map(pair)
        .collect();
    if !(3..=4).contains(&players.len()) {
        return None;
    }
    Some(Live {
        addr,
        handle: var("WILY_MAMER_HANDLE")?,
        password: var("WILY_MAMER_PASSWORD")?,
        manager: pair(&var("WILY_MAMER_MANAGER")?)?,
        players,
        director: var("WILY_MAMER_DIRECTOR").unwrap_or_else(|| "mamer".into()),
        style: var("WILY_MAMER_STYLE").unwrap_or_else(|| "s".into()),
        rounds: var("WILY_MAMER_ROUNDS")
            .and_then(|r| r.parse().ok())
            .unwrap_or(3),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs lasker and mamer on 127.0.0.1: set WILY_MAMER_ICS, WILY_MAMER_HANDLE, \
            WILY_MAMER_PASSWORD, WILY_MAMER_MANAGER, WILY_MAMER_PLAYERS (docs/tournaments.md) \
            and run with --ignored"]
async fn joins_a_mamer_tournament_and_plays_every_round() {
    let l = live().unwrap_or_else(|| panic!("{VARS}"));
    let d = &l.director;
    // The manager creates a 3-round swiss tournament, 1 0 unrated, and opens it.
    let mut mgr = RawClient::login(l.addr, &l.manager.0, Some(&l.manager.1)).await;
    mgr.send("+channel 49").await;
    mgr.send(&format!("tell {d} create")).await;
    let created = mgr
        .wait_line("Created tourney number", 15)
        .await
        .expect("the director created a tournament");
    let n: u32 = created
        .split_whitespace()
        .last()
        .and_then(|w| w.parse().ok())
        .expect("its number");
    let (rounds, style) = (format!("r {}", l.rounds), format!("s {}", l.style));
    for v in ["t 1", "i 0", "m u", &rounds, &style] {
        mgr.send(&format!("tell {d} stv {n} {v}")).await;
        tokio::time::sleep(Duration::from_millis(1200)).await;
    }
    // wily: tournaments on, its everyday seek on (it must not go out during the event).
    let tmp = tmpdir("mamer");
    let dir = tmp.path();
    let mut cfg = bot_config(dir, 1, 0);
    cfg.server.host = l.addr.ip().to_string();
    cfg.server.port = l.addr.port();
    cfg.server.handle = l.handle.clone();
    cfg.server.timeseal = false;
    cfg.operators.handles.clear();
    cfg.talk.greeting.clear();
    cfg.talk.goodbye.clear();
    cfg.tourney.join = true;
    cfg.tourney.directors = vec![d.clone()];
    cfg.tourney.time_controls = vec!["1 0".into()];
    cfg.tourney.list_every_mins = 1;
    cfg.tourney.max_rounds = 9;
    let mut connect = connect_config(l.addr, &l.handle, &l.password);
    let wire_path = dir.join("wire.log");
    connect.wire_log = Some(wire_path.clone());
    let (stop_tx, stop_rx) = watch::channel(0u32);
    let bot = tokio::spawn(run_bot(
        cfg,
        connect,
        0,
        Some(stop_rx),
        Duration::from_secs(1500),
    ));
    // Once wily has logged in (and seen the tournament listed as `new`, not yet open),
    // the manager opens it: wily joins from the announcement.
    assert!(
        wait_wire(&wire_path, 30, |w| w.contains("Ended at")).await,
        "wily asked for the tournament list"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    mgr.send(&format!("tell {d} open {n}")).await;
    mgr.wait_line("Tourney Announcement", 15)
        .await
        .expect("the tournament was announced");
    let me = l.handle.to_ascii_lowercase();
    let joined = loop {
        let Some(line) = mgr.wait_line("has joined tourney", 90).await else {
            panic!("wily did not join: {:?}", mgr.seen);
        };
        if line.to_ascii_lowercase().contains(&me) {
            break line;
        }
    };
    println!("{joined}");

    // Three scripted entrants.
    let mut players = Vec::new();
    for (i, (name, pw)) in l.players.iter().enumerate() {
        let policy = SparringPolicy {
            chooser: MoveChooser::Random {
                seed: 11 + i as u64,
            },
            accept_challenges: true,
            resign_at: Some(40),
            games: l.rounds as usize,
            timeout: Duration::from_secs(1200),
            login_commands: vec![format!("tell {d} join {n}")],
            ..SparringPolicy::default()
        };
        let (addr, name, pw) = (l.addr, name.clone(), pw.clone());
        players.push(tokio::spawn(async move {
            sparring_player(addr, &name, Some(&pw), policy).await
        }));
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
    let entrants = l.players.len() + 1;
    mgr.wait_line(
        &format!("has joined tourney #{n} {entrants} players now"),
        60,
    )
    .await
    .expect("every entrant");
    mgr.send(&format!("tell {d} close {n}")).await;
    let results = mgr
        .wait_line(&format!("First place in tourney #{n} goes to"), 1200)
        .await
        .unwrap_or_else(|| panic!("the tournament did not end: {:?}", mgr.seen));
    println!("{results}");
    // The director turns the flags off after the results: give the bot a moment.
    let flag_off = wait_wire(&wire_path, 30, |w| {
        w.contains("has set your tourney variable to OFF")
    })
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _ = stop_tx.send(1);
    let report = bot.await.expect("bot task");
    // A player with a bye waits for a third game that never comes: stop it.
    for p in players {
        match tokio::time::timeout(Duration::from_secs(5), p).await {
            Ok(Ok(Ok(r))) => println!("{}: {} games", r.handle, r.games.len()),
            Ok(Ok(Err(e))) => println!("a player: {e}"),
            Ok(Err(e)) => println!("a player task: {e}"),
            Err(_) => println!("a player still waiting for a game (a bye): stopped"),
        }
    }
    let pgn = archive(dir);
    let wire = std::fs::read_to_string(&wire_path).unwrap_or_default();
    if let Ok(keep) = std::env::var("WILY_MAMER_WIRE") {
        std::fs::write(&keep, &wire).expect("wire copy");
    }
    println!("{report:?}");
    println!("{pgn}");
    assert!(flag_off, "the director turned wily's tournament flag off");
    assert_eq!(report.tourney.joined, 1);
    assert_eq!(report.tourney.finished, 1);
    let t = report.tourney;
    assert_eq!(t.games + t.byes, l.rounds, "one game or a bye a round");
    assert_eq!(
        report.totals.games, t.games,
        "no other game during the tournament"
    );
    assert_eq!(report.time_losses, 0);
    let event = format!("[Event \"{d} tourney #{n}");
    assert_eq!(pgn.matches(&event).count() as u32, t.games, "{pgn}");
    let rounds = (1..=l.rounds)
        .filter(|r| pgn.contains(&format!("[Round \"{r}\"]")))
        .count() as u32;
    assert_eq!(rounds, t.games, "a Round tag per game: {pgn}");
    println!(
        "figures: tournaments joined {}, finished {}, games {}, byes {}, results +{} ={} -{}",
        t.joined,
        t.finished,
        t.games,
        t.byes,
        report.totals.wins,
        report.totals.draws,
        report.totals.losses
    );
    assert!(
        wire.contains(&format!("-> \"tell {d} join {n}\"")),
        "the join"
    );
    assert!(!wire.contains(&l.password), "the password is masked");
    // No seek between the join and the director's last word.
    let join_at = wire.find(&format!("tell {d} join {n}")).expect("join");
    let off_at = wire.find("tourney variable to OFF").unwrap_or(wire.len());
    assert!(
        !wire[join_at..off_at].contains("-> \"seek "),
        "a seek went out during the tournament"
    );
}
