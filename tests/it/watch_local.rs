//! The watcher (`[watch]`) live on wily's local server: a relay account replays a PGN
//! game as an examined game while two sparring players play a blitz game; wily, with
//! no followed player, finds both (`tell relay listgames`, `games /b`), observes them at
//! once, analyses each new position, kibitzes into each game (`xkibitz N`), and saves
//! both with their analysis in `logs/observed.pgn`. Two guests, one on each game, read
//! the kibitzes. Bounded: a minute at most.

use crate::bot_support;

use bot_support::*;
use std::time::Duration;
use tokio::sync::watch;
use wily::chess::pgn::PgnReader;
use wily::server::{self, sparring_player, Account, RelayConfig, ServerConfig, SparringPolicy};

/// Observes game 1 (the relay opens it on the server's first clock tick).
async fn observe_relayed(c: &mut RawClient) -> bool {
    for _ in 0..20 {
        c.send("observe 1").await;
        if c.wait_line("You are now observing game 1", 1)
            .await
            .is_some()
        {
            return true;
        }
    }
    false
}

fn is_analysis(text: &str) -> bool {
    // `d3 +0.35 0.3s` (level 2): depth, a White-side score, seconds.
    let mut w = text.split_whitespace();
    let depth = w.next().is_some_and(|d| {
        d.strip_prefix('d')
            .is_some_and(|n| n.parse::<u32>().is_ok())
    });
    let score = w
        .next()
        .is_some_and(|s| s.starts_with('+') || s.starts_with('-'));
    depth && score
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observes_a_relayed_game_and_a_played_game_at_once_and_kibitzes_both() {
    let tmp = tmpdir("watch");
    let dir = tmp.path();
    let games: Vec<_> = PgnReader::new(OPERA.as_bytes())
        .filter_map(Result::ok)
        .collect();
    assert_eq!(games.len(), 1);
    let relay = RelayConfig {
        name: "relay".into(),
        event: "Wily Test Relay - Round 1".into(),
        games,
        at_once: 1,
        move_interval: Duration::from_millis(600),
        linger: Duration::from_secs(4),
        wait_for_observer: true,
    };
    let cfg = ServerConfig {
        relay: Some(relay),
        ..ServerConfig::local(0)
            .with_account(Account::new("wily", WILY_PW).computer())
            .with_account(Account::new("Alpha", "alphapass"))
            .with_account(Account::new("Beta", "betapass"))
    };
    let srv = server::start(cfg).await.expect("server starts");
    let addr = srv.local_addr();

    // The played game: Alpha challenges Beta to 5 0 and resigns at move 14.
    let (alpha, beta) = alpha_beta_game(addr, (41, 42), Duration::from_millis(450), 22).await;

    // Two guests: one on the relayed game (number 1), one on the played game.
    let mut on_relay = RawClient::login(addr, "Visitor", None).await;
    assert!(observe_relayed(&mut on_relay).await, "{:?}", on_relay.seen);
    let mut on_played = RawClient::login(addr, "Stranger", None).await;
    let mut observing = false;
    for _ in 0..50 {
        on_played.send("observe Alpha").await;
        if on_played
            .wait_line("You are now observing game", 1)
            .await
            .is_some()
        {
            observing = true;
            break;
        }
    }
    assert!(observing, "{:?}", on_played.seen);

    let mut cfg = bot_config(dir, 5, 0);
    cfg.seek.enabled = false;
    cfg.watch.enabled = true;
    cfg.watch.top = vec!["blitz".into()];
    cfg.watch.relay = vec!["relay".into()];
    cfg.watch.max_games = 2;
    cfg.watch.min_score = 0;
    cfg.watch.poll_secs = 1;
    cfg.watch.analysis_ms = 200;
    cfg.watch.kibitz = 2;
    cfg.watch.whisper = 0;
    // One kibitz per game every five seconds at most: the server takes two lines a
    // second from a client, and a kibitz kept waiting is about a position gone.
    cfg.watch.per_game_per_minute = 12;
    cfg.talk.noise = 0;
    // The relay's clock runs from before the bot logs in, and the server takes two lines
    // a second from it: the login's finger-notes lines (`docs/bot.md`, "Finger notes")
    // would hold the first kibitzes back past the relay's moves.
    cfg.server.notes = Some(Vec::new());
    let (stop, stop_rx) = watch::channel(0u32);
    let bot = tokio::spawn(run_bot(
        cfg,
        connect_config(addr, "wily", WILY_PW),
        0,
        Some(stop_rx),
        Duration::from_secs(90),
    ));

    let relay_end = on_relay.wait_line("stopped examining game 1", 60).await;
    assert!(relay_end.is_some(), "{:?}", on_relay.seen);
    let played_end = on_played.wait_line("{Game ", 60).await;
    assert!(played_end.is_some(), "{:?}", on_played.seen);
    alpha.await.expect("task").expect("alpha");
    beta.await.expect("task").expect("beta");
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.send(2).expect("stop");
    let report = bot.await.expect("bot");

    let kib = |seen: &[String]| -> Vec<String> {
        seen.iter()
            .filter(|l| l.starts_with("wily") && l.contains(" kibitzes: "))
            .cloned()
            .collect()
    };
    let relay_kib = kib(&on_relay.seen);
    let played_kib = kib(&on_played.seen);
    eprintln!(
        "kibitzes seen: relayed game {}, played game {}; watcher totals {:?}; own play {} ms",
        relay_kib.len(),
        played_kib.len(),
        report.watch,
        report.play_ms
    );
    assert!(relay_kib.len() >= 2, "relay: {:?}", on_relay.seen);
    assert!(played_kib.len() >= 2, "played: {:?}", on_played.seen);
    for k in relay_kib.iter().chain(&played_kib) {
        let text = k.split(" kibitzes: ").nth(1).unwrap_or("");
        assert!(is_analysis(text), "{k}");
    }
    assert_eq!(report.totals.games, 0, "observing is not playing");
    assert_eq!(report.watch.observed, 2, "{:?}", report.watch);
    assert_eq!(report.watch.saved, 2, "{:?}", report.watch);

    // Both games were saved, annotated, the relayed one with its event and result.
    let pgn = std::fs::read_to_string(dir.join("logs").join("observed.pgn")).expect("observed.pgn");
    let saved: Vec<_> = PgnReader::new(pgn.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("the saved games read back");
    assert_eq!(saved.len(), 2, "{pgn}");
    let relayed = saved
        .iter()
        .find(|g| g.tag("Event") == Some("Wily Test Relay - Round 1"))
        .unwrap_or_else(|| panic!("the relayed game: {pgn}"));
    assert_eq!(relayed.tag("White"), Some("Morphy"));
    assert_eq!(relayed.result, "1-0", "{pgn}");
    assert!(relayed.replay().is_ok(), "{pgn}");
    assert!(relayed.moves.len() >= 20, "{pgn}");
    let annotated = relayed
        .moves
        .iter()
        .filter(|m| m.comment.as_deref().is_some_and(|c| c.starts_with("wily ")))
        .count();
    assert!(annotated >= 10, "{pgn}");
    let played = saved
        .iter()
        .find(|g| g.tag("White") == Some("Alpha") || g.tag("Black") == Some("Alpha"))
        .unwrap_or_else(|| panic!("the played game: {pgn}"));
    assert!(
        played.result == "1-0" || played.result == "0-1",
        "Alpha resigned: {pgn}"
    );
    assert!(played
        .moves
        .iter()
        .any(|m| m.comment.as_deref().is_some_and(|c| c.starts_with("wily "))));
    srv.shutdown().await;
}

/// Counts the bot's `xkibitz`/`xwhisper` lines in its wire log before, during and after
/// its own game (from the `Creating:` it receives to the game's result line).
fn talk_around_own_game(wire: &str) -> (usize, usize, usize, bool) {
    let (mut before, mut during, mut after) = (0, 0, 0);
    let (mut playing, mut played) = (false, false);
    for line in wire.lines() {
        let Some((_, rest)) = line.split_once(' ') else {
            continue;
        };
        if let Some(body) = rest.strip_prefix("<- ") {
            if body.contains("Creating: wily") || body.contains("Creating: Sparring") {
                playing = true;
            } else if (body.contains("(wily vs. Sparring)") || body.contains("(Sparring vs. wily)"))
                && !body.contains("Creating")
                && body.contains("} ")
            {
                if playing {
                    played = true;
                }
                playing = false;
            }
        } else if let Some(body) = rest.strip_prefix("-> ") {
            if body.starts_with("\"xkibitz ") || body.starts_with("\"xwhisper ") {
                match (playing, played) {
                    (true, _) => during += 1,
                    (false, false) => before += 1,
                    (false, true) => after += 1,
                }
            }
        }
    }
    (before, during, after, played)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn its_own_game_stops_the_analysis_of_watched_games() {
    let tmp = tmpdir("watch-play");
    let dir = tmp.path();
    let games: Vec<_> = PgnReader::new(OPERA.as_bytes())
        .filter_map(Result::ok)
        .collect();
    let cfg = ServerConfig {
        relay: Some(RelayConfig {
            games,
            at_once: 1,
            move_interval: Duration::from_millis(700),
            linger: Duration::from_secs(5),
            wait_for_observer: true,
            ..RelayConfig::default()
        }),
        ..ServerConfig::local(0)
            .with_account(Account::new("wily", WILY_PW).computer())
            .with_account(Account::new("Sparring", SPAR_PW))
    };
    let srv = server::start(cfg).await.expect("server starts");
    let addr = srv.local_addr();
    let mut guest = RawClient::login(addr, "Visitor", None).await;
    assert!(observe_relayed(&mut guest).await, "{:?}", guest.seen);

    let mut cfg = bot_config(dir, 1, 0);
    cfg.seek.enabled = true;
    cfg.watch.enabled = true;
    cfg.watch.top = Vec::new();
    cfg.watch.min_score = 0;
    cfg.watch.poll_secs = 1;
    cfg.watch.analysis_ms = 300;
    cfg.watch.kibitz = 2;
    cfg.watch.whisper = 0;
    cfg.watch.per_game_per_minute = 20;
    cfg.talk.noise = 0;
    let wire = dir.join("wire.log");
    let mut connect = connect_config(addr, "wily", WILY_PW);
    connect.wire_log = Some(wire.clone());
    let (stop, stop_rx) = watch::channel(0u32);
    let bot = tokio::spawn(run_bot(
        cfg,
        connect,
        0,
        Some(stop_rx),
        Duration::from_secs(90),
    ));
    // wily watches and kibitzes, then Sparring answers its seek.
    let talked = wait_wire(&wire, 30, |log| log.matches("-> \"xkibitz 1 ").count() >= 2).await;
    assert!(
        talked,
        "{}",
        std::fs::read_to_string(&wire).unwrap_or_default()
    );
    let spar = tokio::spawn(async move {
        sparring_player(
            addr,
            "Sparring",
            Some(SPAR_PW),
            SparringPolicy {
                chooser: suicidal(),
                play_seeks: true,
                seeks_of: Some("wily".into()),
                accept_challenges: true,
                think: Duration::from_millis(100),
                games: 1,
                timeout: Duration::from_secs(60),
                ..SparringPolicy::default()
            },
        )
        .await
    });
    spar.await.expect("task").expect("sparring");
    assert!(
        guest
            .wait_line("stopped examining game 1", 60)
            .await
            .is_some(),
        "{:?}",
        guest.seen
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    stop.send(2).expect("stop");
    let report = bot.await.expect("bot");
    let log = std::fs::read_to_string(&wire).expect("wire log");
    let (before, during, after, played) = talk_around_own_game(&log);
    let total = report.watch.analysis_ms + report.play_ms;
    eprintln!(
        "kibitzes before/during/after its own game: {before}/{during}/{after}; engine time: \
         watching {} ms, playing {} ms ({:.0}% watching); {:?}",
        report.watch.analysis_ms,
        report.play_ms,
        100.0 * report.watch.analysis_ms as f64 / total.max(1) as f64,
        report.watch
    );
    assert!(played, "wily played its game: {log}");
    assert_eq!(report.totals.games, 1);
    assert!(
        before >= 2,
        "it kibitzed the relayed game before playing: {log}"
    );
    assert_eq!(during, 0, "nothing is analysed while wily plays: {log}");
    assert!(report.play_ms > 0);
    srv.shutdown().await;
}
