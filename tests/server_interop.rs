//! wily's own protocol layer (`ics::connect`) against the local server: login
//! (registered, guest, wrong password), the dialect setup, a whole game
//! against the sparring player, read as typed events.

mod server_support;

use cozy_chess::Board;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use server_support::*;
use std::time::Duration;
use wily::ics::board::Relation;
use wily::ics::events::{EndReason, GameResult};
use wily::ics::server::{sparring_player, MoveChooser, SparringPolicy};
use wily::ics::{connect, ConnectConfig, Event, Login, Password, RateLimit};

fn config(port: u16, login: Login) -> ConnectConfig {
    let mut c = ConnectConfig::new("127.0.0.1", port, login);
    c.rate_limit = RateLimit {
        per_second: 100.0,
        burst: 100,
        max_queue: 256,
    };
    c.login_timeout = Duration::from_secs(10);
    c.connect_timeout = Duration::from_secs(5);
    c
}

#[tokio::test]
async fn protocol_layer_logs_in_and_sets_up() {
    bounded(30, async {
        let srv = server().await;
        let port = srv.local_addr().port();
        let (conn, mut events) = connect(config(
            port,
            Login::Registered {
                handle: "AlphaBot".into(),
                password: Password::new("alpha"),
            },
        ))
        .await
        .expect("registered login");
        assert_eq!(conn.handle(), "AlphaBot");
        assert!(!conn.is_guest());
        conn.send("finger").expect("send");
        let mut acks = 0;
        loop {
            let ev = tokio::time::timeout(WAIT, events.recv())
                .await
                .expect("event")
                .expect("open");
            match ev {
                Event::CommandNotFound { command } => panic!("setup command refused: {command}"),
                Event::SettingRefused { name } => panic!("setting refused: {name}"),
                Event::SettingAck { .. } => acks += 1,
                Event::Unknown(l) if l.contains("Statistics for AlphaBot") => break,
                _ => {}
            }
        }
        assert!(acks >= 5, "setup acknowledged ({acks})");
        conn.close();
        let (g, _) = connect(config(port, Login::Guest))
            .await
            .expect("guest login");
        assert!(
            g.handle().starts_with("Guest") && g.is_guest(),
            "{}",
            g.handle()
        );
        let bad = connect(config(
            port,
            Login::Registered {
                handle: "AlphaBot".into(),
                password: Password::new("nope"),
            },
        ))
        .await;
        match bad {
            Err(e) => assert!(e.is_final(), "{e:?}"),
            Ok(_) => panic!("a wrong password must fail"),
        }
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn protocol_layer_plays_a_game_against_sparring() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let (conn, mut events) = connect(config(
            addr.port(),
            Login::Registered {
                handle: "AlphaBot".into(),
                password: Password::new("alpha"),
            },
        ))
        .await
        .expect("login");
        let spar = tokio::spawn(sparring_player(
            addr,
            "DeltaBot",
            Some("delta"),
            SparringPolicy {
                chooser: MoveChooser::Random { seed: 5 },
                challenge: Some(("AlphaBot".into(), 2, 12)),
                resign_at: Some(25),
                ..Default::default()
            },
        ));
        let mut rng = StdRng::seed_from_u64(9);
        let (mut boards, mut computer_notice, mut created) = (0, false, false);
        let end = loop {
            let ev = tokio::time::timeout(WAIT, events.recv())
                .await
                .expect("event")
                .expect("open");
            match ev {
                Event::Challenge(offer) => {
                    assert_eq!(offer.challenger.name, "DeltaBot");
                    assert_eq!((offer.base_minutes, offer.increment_secs), (2, 12));
                    assert_eq!(offer.category, "blitz");
                    conn.send("accept").expect("accept");
                }
                Event::IsComputer { name } => {
                    assert_eq!(name, "DeltaBot");
                    computer_notice = true;
                }
                Event::Creating(_) | Event::GameStart(_) => created = true,
                Event::Board(b) => {
                    boards += 1;
                    assert!(b.clocks_in_ms, "iset ms 1 was part of the setup");
                    if b.relation == Relation::MyMove {
                        let board: Board =
                            Board::from_fen(&b.to_fen(), false).expect("fen from style 12");
                        let mut legal = Vec::new();
                        board.generate_moves(|pm| {
                            legal.extend(pm);
                            false
                        });
                        let mv = legal[rng.gen_range(0..legal.len())];
                        conn.send_move(&wily::chess::san::to_ics_move(&board, mv))
                            .expect("move");
                    }
                }
                Event::IllegalMove { text } => panic!("illegal move sent: {text}"),
                Event::GameEnd(e) => break e,
                _ => {}
            }
        };
        eprintln!("interop: {boards} boards, end {end:?}");
        assert!(computer_notice && created && boards > 4);
        assert!(
            end.white == "AlphaBot" || end.black == "AlphaBot",
            "{end:?}"
        );
        let report = spar.await.expect("join").expect("sparring");
        let g = &report.games[0];
        match end.result {
            GameResult::WhiteWins => assert_eq!(g.result, "1-0"),
            GameResult::BlackWins => assert_eq!(g.result, "0-1"),
            GameResult::Draw => assert_eq!(g.result, "1/2-1/2"),
            GameResult::NoResult => assert_eq!(g.result, "*"),
        }
        if g.reason.ends_with("resigns") {
            assert_eq!(end.reason, EndReason::Resignation);
        }
        srv.shutdown().await;
    })
    .await;
}
