//! wily's own protocol layer (`link::connect`) against the local server: login
//! (registered, guest, wrong password), the dialect setup, a whole game
//! against the sparring player, read as typed events.

use crate::server_support;

use cozy_chess::Board;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use server_support::*;
use std::time::Duration;
use wily::ics::board::Relation;
use wily::ics::events::{EndReason, GameResult};
use wily::ics::{Event, Login, Password, RateLimit};
use wily::link::{connect, ConnectConfig};
use wily::server::{sparring_player, MoveChooser, SparringPolicy};

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
                Event::FingerNotes { name, .. } if name == "AlphaBot" => break,
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

/// Every line the server sends in a busy session, run through wily's own
/// receive pipeline: only human-oriented text may stay unrecognised.
#[tokio::test]
async fn protocol_layer_understands_the_server_output() {
    use wily::ics::pipeline::{Output, Pipeline, PipelineOptions};
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        let mut g = Client::login(addr, "GammaBot", Some("gamma")).await;
        for c in [&mut a, &mut b, &mut g] {
            c.cmd("set style 12").await;
            c.cmd("iset ms 1").await;
        }
        g.cmd("seek 5 0").await;
        b.cmd("sought").await;
        g.cmd("unseek").await;
        a.cmd("match BetaBot 5 0 rated white").await;
        b.expect("fics% ").await;
        b.send("decline").await;
        a.expect("declines the match offer.").await;
        let (_, _) = start_match(&mut a, &mut b, "5 0").await;
        g.cmd("observe 1").await;
        a.send("f3").await;
        b.board().await;
        b.send("e5").await;
        a.board().await;
        a.cmd("draw").await;
        b.expect("offers you a draw.").await;
        b.cmd("decline").await;
        g.cmd("kibitz hello").await;
        g.cmd("whisper hi").await;
        a.cmd("say hi").await;
        b.cmd("tell AlphaBot hey").await;
        a.cmd("e2e5").await;
        b.cmd("e7e6").await;
        a.cmd("g4").await;
        b.board().await;
        b.cmd("Qh4#").await;
        a.expect("checkmated").await;
        g.expect("checkmated").await;
        for c in [&mut a, &mut b, &mut g] {
            c.cmd("flag").await;
            c.cmd("nosuchcommand").await;
            c.cmd("iset nosuch 1").await;
            c.settle(Duration::from_millis(100)).await;
        }
        let known_human = [
            "Statistics for",
            "rating     RD",
            "players displayed",
            "Do 'help'",
            "_____",
            "Server name",
            "local chess server",
            "This is wily",
            "If you are not",
            "If not, just",
            "(After logging in",
            "Newcomers",
            "type 'help'",
            "Guests play",
            "Move  ",
            "----  ",
            "      {Still",
            "--- ",
            "match, initial time",
            "You can \"accept\"",
            "Your new RD",
            "rating will change",
            // A lasker notice (also in the recordings) the protocol layer keeps as text.
            ", who was challenging you, has joined a match with ",
        ];
        let mut seen: Vec<Vec<&'static str>> = Vec::new();
        for c in [&a, &b, &g] {
            let mut p = Pipeline::new(PipelineOptions::default());
            let mut out = Output::default();
            p.feed(&c.all, &mut out);
            p.flush(&mut out);
            let mut kinds = Vec::new();
            for ev in &out.events {
                kinds.push(match ev {
                    Event::Board(_) => "board",
                    Event::GameEnd(_) => "end",
                    Event::Chat(_) => "chat",
                    Event::IllegalMove { .. } => "illegal",
                    Event::NotYourMove => "notyourmove",
                    Event::CommandNotFound { .. } => "notfound",
                    Event::SettingRefused { .. } => "refused",
                    Event::Seek(_) => "seek",
                    Event::SeekRemoved { .. } => "seekremoved",
                    Event::OfferDeclined { .. } => "declined",
                    Event::OfferReceived { .. } => "offer",
                    Event::Challenge(_) => "challenge",
                    Event::ChatDelivered { .. } => "delivered",
                    Event::Told { .. } => "told",
                    Event::ObserveStarted { .. } => "observe",
                    _ => "",
                });
                if let Event::Unknown(line) = ev {
                    let t = line.trim();
                    let art = !t.chars().any(|ch| ch.is_ascii_alphabetic())
                        || t.starts_with('\\')
                        || t.contains("|_")
                        || t.contains("\\_");
                    assert!(
                        art || known_human.iter().any(|k| t.contains(k)),
                        "{}: unrecognised {t:?}",
                        c.name
                    );
                }
            }
            seen.push(kinds);
        }
        let has = |i: usize, k: &str| seen[i].contains(&k);
        for k in [
            "board", "end", "chat", "illegal", "notfound", "refused", "declined", "told",
        ] {
            assert!(has(0, k), "AlphaBot saw no {k}");
        }
        for k in [
            "board",
            "end",
            "chat",
            "notyourmove",
            "seek",
            "seekremoved",
            "offer",
            "challenge",
            "told",
        ] {
            assert!(has(1, k), "BetaBot saw no {k}");
        }
        for k in ["board", "end", "observe", "delivered"] {
            assert!(has(2, k), "GammaBot saw no {k}");
        }
        srv.shutdown().await;
    })
    .await;
}
