//! The watcher's parsers (`ics::parse::listings`) on real traffic: the recorded lasker and
//! rpblc sessions (their `games` answers, and no false listing rows anywhere in them),
//! then the local server's examined and relayed games read back byte for byte through
//! the whole pipeline: `games` and `games /e` rows, the relay's `listgames` qtells, the
//! observer's style-12 boards with relation -2, `relay moves: ...`, and the end of the
//! examined game.

// Both support modules locate the shared data with the same small helper module.
#![allow(clippy::duplicate_mod)]

use crate::ics_common;
use crate::server_support;

use ics_common::*;
use server_support::{bounded, Client};
use std::time::Duration;
use wily::chess::pgn::PgnReader;
use wily::ics::events::Relation;
use wily::ics::listing::ListedState;
use wily::ics::Event;
use wily::server::{self, RelayConfig, ServerConfig};

#[test]
fn recorded_games_answers_are_read_and_nothing_else_looks_like_a_listing() {
    let Some(all) = recordings() else { return };
    let (mut ends, mut rows) = (0, Vec::new());
    for (name, bytes) in &all {
        let text = String::from_utf8_lossy(bytes);
        let said = text.matches("There are no games in progress.").count()
            + text.matches(" game displayed.").count()
            + text.matches(" games displayed").count();
        let evs = events(bytes);
        let got = evs
            .iter()
            .filter(|e| matches!(e, Event::GamesListEnd { .. }))
            .count();
        assert_eq!(got, said, "{name}: `games` answers");
        ends += got;
        for e in &evs {
            match e {
                Event::GameListed(r) => rows.push((name.clone(), r.clone())),
                Event::RelayGame(_)
                | Event::RelayHeader { .. }
                | Event::TourneyGame(_)
                | Event::TourneyGamesHeader { .. }
                | Event::ExaminedMove { .. }
                | Event::ExaminerLeft { .. }
                | Event::NoExaminers => panic!("{name}: a line read as a listing: {e:?}"),
                _ => {}
            }
        }
    }
    assert!(ends >= 5, "the recordings hold `games` answers ({ends})");
    // The two recorded `games` rows (the observer of scenario 02 on each server):
    //   lasker: `  1 ---- AlphaBot    ---- BetaBot    [ nu  5   0]   5:00 -  5:00 (39-39) W:  1`
    //   rpblc:  ` 1 ---- AlphaBot    ---- BetaBot    [ br  5   0]   4:59 -  5:00 (39-39) W:  1`
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (name, r) in &rows {
        assert!(
            name.contains("02_") && name.ends_with("GammaBot.raw"),
            "{name}"
        );
        assert_eq!(
            (r.game, r.white.as_str(), r.black.as_str()),
            (1, "AlphaBot", "BetaBot")
        );
        assert_eq!(r.state, ListedState::Playing);
        assert_eq!(r.white_rating, wily::ics::Rating::Unrated);
        assert_eq!(
            (r.base, r.increment, r.white_to_move, r.move_number),
            (5, 0, true, 1)
        );
        let (kind, rated) = if name.starts_with("lasker") {
            ('n', false)
        } else {
            ('b', true)
        };
        assert_eq!((r.kind, r.rated), (kind, rated), "{name}");
    }
}

const GAME: &str = r#"[Event "Test"]
[White "Anderssen, Adolf"]
[Black "Kieseritzky, Lionel"]
[WhiteElo "2600"]
[BlackElo "2500"]
[Result "1-0"]
[ECO "C33"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 1-0
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_relay_reads_back_through_the_pipeline() {
    bounded(40, async {
        let games: Vec<_> = PgnReader::new(GAME.as_bytes())
            .filter_map(Result::ok)
            .collect();
        let cfg = ServerConfig {
            relay: Some(RelayConfig {
                games,
                at_once: 1,
                move_interval: Duration::from_millis(150),
                linger: Duration::from_millis(600),
                wait_for_observer: true,
                ..RelayConfig::default()
            }),
            ..ServerConfig::local(0)
        };
        let srv = server::start(cfg).await.expect("server");
        let addr = srv.local_addr();
        let mut c = Client::login(addr, "Watcher", None).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        c.cmd("games").await;
        c.cmd("games /e").await;
        c.cmd("games /b").await;
        c.cmd("tell relay listgames").await;
        c.cmd("observe 1").await;
        c.expect("stopped examining game 1.").await;
        c.expect("Removing game 1 from observation list.").await;
        let evs = events(&c.all);
        srv.shutdown().await;

        let rows: Vec<_> = evs
            .iter()
            .filter_map(|e| match e {
                Event::GameListed(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(rows.len(), 2, "`games` and `games /e`: {evs:?}");
        for r in &rows {
            assert_eq!(r.state, ListedState::Examined);
            assert_eq!(
                (r.game, r.white.as_str(), r.black.as_str()),
                (1, "Anderssen", "Kieseritzky")
            );
            assert_eq!(r.white_rating.value(), Some(2600));
        }
        assert!(evs.contains(&Event::GamesListEnd { shown: 1, total: 1 }));
        assert!(evs.contains(&Event::GamesListEnd { shown: 0, total: 1 }), "`games /b`");
        assert!(evs.iter().any(|e| matches!(e,
            Event::RelayHeader { count: 1, event } if event == "wily relay")));
        assert!(evs.iter().any(|e| matches!(e,
            Event::RelayGame(r) if r.game == 1 && r.result == "*" && r.eco.as_deref() == Some("C33"))));
        let boards: Vec<_> = boards(&evs);
        assert!(boards.len() >= 10, "{} boards", boards.len());
        assert!(boards
            .iter()
            .all(|b| b.relation == Relation::ObservingExamined && b.game == 1));
        for w in boards.windows(2) {
            assert!(follows(w[0], w[1]), "{} then {}", w[0].to_fen(), w[1].to_fen());
        }
        let moves: Vec<String> = evs
            .iter()
            .filter_map(|e| match e {
                Event::ExaminedMove { examiner, san } if examiner == "relay" => Some(san.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(
            moves,
            ["e4", "e5", "f4", "exf4", "Bc4", "Qh4+", "Kf1", "b5", "Bxb5", "Nf6"]
        );
        assert!(evs.iter().any(|e| matches!(e,
            Event::ExaminerLeft { examiner, game: 1 } if examiner == "relay")));
        assert!(evs.contains(&Event::NoExaminers));
        assert!(evs.contains(&Event::ObserveStopped { game: 1 }));
    })
    .await;
}
