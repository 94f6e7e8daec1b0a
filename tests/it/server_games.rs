//! Whole games on the local server between raw TCP clients: the challenge,
//! creation, style 12 and result lines of a fool's mate compared with the
//! recordings; resignation, agreed draw, abort, time forfeit, illegal and
//! out-of-turn moves, seeks.

use crate::server_support;

use server_support::*;
use std::time::Duration;
use wily::server::ServerConfig;

const START_W: &str = "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 300 300 1 none (0:00) none 0 0";
const AFTER_F3_W: &str = "<12> rnbqkbnr pppppppp -------- -------- -------- -----P-- PPPPP-PP RNBQKBNR B -1 1 1 1 1 0 1 AlphaBot BetaBot -1 5 0 39 39 300 300 1 P/f2-f3 (0:00) f3 0 0";
const AFTER_E5_W: &str = "<12> rnbqkbnr pppp-ppp -------- ----p--- -------- -----P-- PPPPP-PP RNBQKBNR W 4 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 300 300 2 P/e7-e5 (0:00) e5 0 1";

fn recorded_text(name: &str) -> Option<String> {
    recording(name).map(|r| String::from_utf8_lossy(&r).replace('\r', ""))
}

#[tokio::test]
async fn fools_mate_lines_match_recording() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        let mut g = Client::login(addr, "GammaBot", Some("gamma")).await;
        for c in [&mut a, &mut b, &mut g] {
            assert_eq!(c.cmd("set style 12").await, "Style 12 set.\nfics% ");
        }
        // The challenge, as rpblc/lasker print it.
        let issuing = a.cmd("match BetaBot 5 0 rated white").await;
        assert!(issuing.starts_with("Issuing: AlphaBot (----) [white] BetaBot (----) rated blitz 5 0.\n"), "{issuing}");
        assert!(issuing.contains("Your blitz rating will change:"));
        b.expect("\n\rChallenge: AlphaBot (----) [white] BetaBot (----) rated blitz 5 0.\n\r").await;
        b.expect("You can \"accept\" or \"decline\", or propose different parameters.\n\rfics% ").await;
        b.send("accept").await;
        let acc = b.expect("fics% ").await;
        assert_eq!(acc, "You accept the challenge of AlphaBot.\n\nAlphaBot, who was challenging you, has joined a match with BetaBot.\nfics% ");
        a.expect("\n\rBetaBot accepts your challenge.\n\rfics% Challenge to BetaBot withdrawn.\n\r").await;
        let created = a.expect("fics% ").await;
        assert_eq!(
            created,
            format!("\nCreating: AlphaBot (0) BetaBot (0) rated blitz 5 0\n\n{{Game 1 (AlphaBot vs. BetaBot) Creating rated blitz match.}}\n\n{START_W}\nfics% ")
        );
        let bstart = b.board().await;
        assert_eq!(bstart, START_W.replace("BetaBot 1 5 0", "BetaBot -1 5 0").replace("none 0 0", "none 1 0"));
        // Observer.
        let games = g.cmd("games").await;
        assert!(games.contains("  1 ---- AlphaBot    ---- BetaBot    [ br  5   0]   5:00 -  5:00 (39-39) W:  1\n"), "{games}");
        let obs = g.cmd("observe 1").await;
        assert!(obs.starts_with("You are now observing game 1.\n\n<12> "), "{obs}");
        assert!(obs.contains("AlphaBot BetaBot 0 5 0 39 39 300 300 1 none (0:00) none 0 0\n"), "{obs}");
        // Out of turn and illegal.
        assert_eq!(b.cmd("e7e5").await, "It is not your move.\nfics% ");
        assert_eq!(a.cmd("e2e5").await, "Illegal move.\nfics% ");
        assert_eq!(a.cmd("Ke2").await, "Illegal move.\nfics% ");
        a.send("f3").await;
        assert_eq!(a.board().await, AFTER_F3_W);
        b.board().await;
        g.board().await;
        b.send("e5").await;
        assert_eq!(a.board().await, AFTER_E5_W);
        b.board().await;
        g.board().await;
        if let Some(rec) = recorded_text("02_seek_play_foolsmate_observe_talk.AlphaBot.raw") {
            // The recorded game was created from a seek (unrated); the boards
            // only differ there in the game type fields, not at all here.
            for line in [AFTER_F3_W, AFTER_E5_W] {
                assert!(rec.contains(line), "recording has {line}");
            }
        }
        a.send("g4").await;
        let gw = a.board().await;
        assert!(gw.starts_with("<12> rnbqkbnr pppp-ppp -------- ----p--- ------P- -----P-- PPPPP--P RNBQKBNR B 6 1 1 1 1 0 1 AlphaBot BetaBot -1 5 0 39 39 "), "{gw}");
        assert!(gw.contains(" 2 P/g2-g4 (0:0") && gw.ends_with(") g4 0 1"), "{gw}");
        b.board().await;
        g.board().await;
        b.send("Qh4#").await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) AlphaBot checkmated} 0-1";
        // The mover gets the board and the result with one prompt.
        let mb = b.expect("fics% ").await;
        assert!(mb.starts_with("\n<12> rnb-kbnr pppp-ppp -------- ----p--- ------Pq -----P-- PPPPP--P RNBQKBNR W -1 1 1 1 1 1 1 AlphaBot BetaBot -1 5 0 39 39 "), "{mb}");
        assert!(mb.contains(" 3 Q/d8-h4 (0:0"), "{mb}");
        assert!(mb.ends_with(&format!(") Qh4+ 1 1\n\n{end}\nBlitz rating adjustment: 0 --> 1516\nfics% ")), "{mb}");
        let ab = a.board().await;
        assert!(ab.contains(" 3 Q/d8-h4 (0:0") && ab.ends_with(") Qh4+ 0 1"), "{ab}");
        a.expect("fics% ").await;
        assert_eq!(a.expect("fics% ").await, format!("\n{end}\nBlitz rating adjustment: 0 --> 1484\nfics% "));
        let gb = g.board().await;
        assert!(gb.contains(" AlphaBot BetaBot 0 5 0 "), "{gb}");
        g.expect("fics% ").await;
        assert_eq!(g.expect("fics% ").await, format!("\n{end}\nfics% "));
        if let Some(rec) = recorded_text("02_seek_play_foolsmate_observe_talk.BetaBot.raw") {
            assert!(rec.contains(&format!(" Qh4+ 1 1\n\n{end}\n")));
        }
        assert_eq!(g.cmd("games").await, "There are no games in progress.\nfics% ");
        let finger = a.cmd("finger").await;
        assert!(finger.contains("Blitz     1484    350.0      0      1      0      1"), "{finger}");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn resignation_unrated_without_colour() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        let issuing = b.cmd("match AlphaBot 3 2 u").await;
        assert!(
            issuing.starts_with("Issuing: BetaBot (----) AlphaBot (----) unrated blitz 3 2.\n"),
            "{issuing}"
        );
        assert!(!issuing.contains("rating will change"));
        a.expect("Challenge: BetaBot (----) AlphaBot (----) unrated blitz 3 2.\n\rYou can")
            .await;
        a.expect("fics% ").await;
        if let Some(rec) = recorded_text("03_match_resign.AlphaBot.raw") {
            assert!(rec
                .contains("Challenge: BetaBot (----) AlphaBot (----) unrated blitz 3 2.\nYou can"));
        }
        a.send("accept").await;
        let board = a.board().await;
        let f = fields(&board);
        let a_white = f[17] == "AlphaBot";
        let (mut w, mut bl) = if a_white { (a, b) } else { (b, a) };
        bl.board().await;
        assert!(
            board.contains(" 3 2 39 39 180 180 1 none (0:00) none "),
            "{board}"
        );
        w.send("e4").await;
        w.board().await;
        bl.board().await;
        bl.send("e5").await;
        w.board().await;
        bl.board().await;
        w.send("resign").await;
        let (wn, bn) = (w.name.clone(), bl.name.clone());
        let end = format!(
            "{{Game 1 ({wn} vs. {bn}) {wn} resigns}} 0-1\nNo ratings adjustment done.\nfics% "
        );
        w.expect(&end.replace('\n', "\n\r")).await;
        bl.expect(&end.replace('\n', "\n\r")).await;
        assert_eq!(w.cmd("resign").await, "You are not playing a game.\nfics% ");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn draw_declined_then_agreed_and_abort_agreed() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        // AlphaBot asks for black, as in the recording.
        let issuing = a.cmd("match BetaBot 2 12 rated black").await;
        assert!(issuing.starts_with("Issuing: AlphaBot (----) [black] BetaBot (----) rated blitz 2 12.\n"));
        b.expect("Challenge: AlphaBot (----) [black] BetaBot (----) rated blitz 2 12.").await;
        b.expect("fics% ").await;
        b.send("accept").await;
        let wb = b.board().await;
        assert!(wb.contains(" BetaBot AlphaBot 1 2 12 39 39 120 120 1 none (0:00) none 0 0"), "{wb}");
        a.board().await;
        for (mover, other, mv) in [(0, 1, "d4"), (1, 0, "Nf6"), (0, 1, "c4")] {
            let cl = [&mut b, &mut a];
            cl[mover].send(mv).await;
            cl[mover].board().await;
            cl[other].board().await;
        }
        // The increment was added to White's clock after the timed move.
        assert_eq!(a.cmd("draw").await, "Draw request sent.\nfics% ");
        b.expect("\n\rAlphaBot offers you a draw.\n\rfics% ").await;
        assert_eq!(b.cmd("decline").await, "You decline the draw request from AlphaBot.\nfics% ");
        a.expect("\n\rBetaBot declines draw request.\n\rfics% ").await;
        assert_eq!(b.cmd("draw").await, "Draw request sent.\nfics% ");
        a.expect("BetaBot offers you a draw.").await;
        a.expect("fics% ").await;
        a.send("draw").await;
        let end = "{Game 1 (BetaBot vs. AlphaBot) Game drawn by mutual agreement} 1/2-1/2";
        let got = a.expect("fics% ").await;
        assert!(got.starts_with(&format!("\n{end}\nBlitz rating adjustment: 0 --> 1500\n")), "{got}");
        b.expect(end).await;
        // A second game, aborted by agreement.
        a.cmd("match BetaBot 5 0 white").await;
        b.expect("Challenge: AlphaBot (1500) [white] BetaBot (1500) rated blitz 5 0.").await;
        b.expect("fics% ").await;
        b.send("accept").await;
        a.board().await;
        b.board().await;
        a.send("e4").await;
        a.board().await;
        b.board().await;
        assert_eq!(a.cmd("abort").await, "Abort request sent.\nfics% ");
        b.expect("\n\rAlphaBot would like to abort the game; type \"abort\" to accept.\n\rfics% ").await;
        b.send("abort").await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) Game aborted by mutual agreement} *\n\rNo ratings adjustment done.\n\rfics% ";
        a.expect(end).await;
        b.expect(end).await;
        if let Some(rec) = recording("04_draw_abort_unreg.AlphaBot.raw") {
            assert!(contains(&rec, end.as_bytes()));
            assert!(contains(&rec, b"\n\rBetaBot declines draw request.\n\rfics% "));
        }
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn flag_refused_early_then_time_forfeit() {
    bounded(30, async {
        let srv = server_with(|c| ServerConfig { zero_base_ms: 1500, ..c }).await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        let (wb, _) = start_match(&mut a, &mut b, "0 1 u").await;
        assert!(wb.contains(" 0 1 39 39 1 1 1 none"), "{wb}");
        a.send("e4").await;
        a.board().await;
        b.board().await;
        assert_eq!(
            a.cmd("flag").await,
            "You cannot flag before both players have moved.\nUse abort instead.\nfics% "
        );
        b.send("e5").await;
        a.board().await;
        b.board().await;
        a.send("Nf3").await;
        a.board().await;
        let bb = b.board().await;
        assert!(bb.ends_with(" 1 1"), "clock ticking: {bb}");
        assert_eq!(a.cmd("flag").await, "Your opponent is not out of time!\nfics% ");
        tokio::time::sleep(Duration::from_millis(1700)).await;
        a.send("flag").await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) BetaBot forfeits on time} 1-0\n\rNo ratings adjustment done.\n\rfics% ";
        a.expect(end).await;
        b.expect(end).await;
        if let Some(rec) = recording("05_special_moves_flag.AlphaBot.raw") {
            assert!(contains(&rec, end.as_bytes()));
            assert!(contains(&rec, b"You cannot flag before both players have moved.\n\rUse abort instead.\n\r"));
        }
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn auto_flag_ends_the_game_by_itself() {
    bounded(30, async {
        let srv = server_with(|c| ServerConfig {
            zero_base_ms: 800,
            auto_flag: true,
            ..c
        })
        .await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        start_match(&mut a, &mut b, "0 1 u").await;
        a.send("e4").await;
        b.board().await;
        b.send("e5").await;
        // White never moves again.
        a.expect("{Game 1 (AlphaBot vs. BetaBot) AlphaBot forfeits on time} 0-1")
            .await;
        b.expect("{Game 1 (AlphaBot vs. BetaBot) AlphaBot forfeits on time} 0-1")
            .await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn special_moves_and_promotion_forms() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        start_match(&mut a, &mut b, "10 0 u").await;
        let moves = [
            ("e4", "P/e2-e4", "e4"),
            ("d5", "P/d7-d5", "d5"),
            ("e5", "P/e4-e5", "e5"),
            ("f5", "P/f7-f5", "f5"),
            ("exf6", "P/e5-f6", "exf6"),
            ("Nc6", "P/b8-c6", "Nc6"),
            ("fxg7", "P/f6-g7", "fxg7"),
            ("Bf5", "B/c8-f5", "Bf5"),
        ];
        for (i, (mv, verbose, pretty)) in moves.iter().enumerate() {
            let (m, o) = if i % 2 == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
            m.send(mv).await;
            let line = m.board().await;
            o.board().await;
            let verbose = if *mv == "Nc6" { "N/b8-c6" } else { verbose };
            assert!(line.contains(&format!(" {verbose} (")) && line.contains(&format!(") {pretty} ")), "{line}");
        }
        // lasker refuses b7a8q-style promotion, takes =q and SAN.
        assert_eq!(a.cmd("g7h8q").await, "g7h8q: Command not found.\nfics% ");
        a.send("g7h8=q").await;
        let line = a.board().await;
        b.board().await;
        assert!(line.contains(" P/g7-h8 (0:") && line.contains(") gxh8=Q "), "{line}");
        assert!(line.contains(" 47 32 "), "material: {line}");
        for (i, mv) in ["Qd7", "Nf3", "o-o-o", "Bc4", "e6", "O-O"].iter().enumerate() {
            let (m, o) = if i % 2 == 0 { (&mut b, &mut a) } else { (&mut a, &mut b) };
            m.send(mv).await;
            let line = m.board().await;
            o.board().await;
            if *mv == "o-o-o" {
                assert!(line.contains(" o-o-o (0:") && line.contains(") O-O-O "), "{line}");
                // lasker prints 0 in the double-push field after castling; wily prints -1 as FICS documents.
                assert!(line.contains(" W -1 1 1 0 0 3 1 "), "castling rights: {line}");
            }
            if *mv == "O-O" {
                assert!(line.contains(" RNBQ-RK- B -1 0 0 0 0 1 1 "), "{line}");
            }
        }
        let moves = b.cmd("moves").await;
        assert!(moves.contains("Move  AlphaBot           BetaBot            \n----  ----------------   ----------------\n"), "{moves}");
        assert!(moves.contains("  1.  e4      (0:00)     d5      (0:00)  \n"), "{moves}");
        assert!(moves.contains("      {Still in progress} *\n"), "{moves}");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn guests_seek_unseek_play() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut g1 = Client::login(addr, "guest", None).await;
        let mut g2 = Client::login(addr, "guest", None).await;
        assert_ne!(g1.name, g2.name);
        let ad5 = format!("  0    0 {:<17}   5   0 unrated blitz     \n", g1.name);
        assert_eq!(g1.cmd("seek 5 0").await, format!("{ad5}fics% "));
        g2.expect(&ad5.replace('\n', "\n\r")).await;
        assert_eq!(g1.cmd("unseek").await, "Ads removed: 0\nfics% ");
        g2.expect("AD_DESTROY: 0\n\rfics% ").await;
        let ad3 = format!("  0    0 {:<17}   3   0 unrated blitz     \n", g1.name);
        assert_eq!(g1.cmd("seek 3 0").await, format!("{ad3}fics% "));
        assert_eq!(
            g1.cmd("play 0").await,
            "ERROR: You cannot respond to your own seek ads\nfics% "
        );
        g2.expect(&ad3.replace('\n', "\n\r")).await;
        assert_eq!(g2.cmd("sought").await, format!("{ad3}fics% "));
        assert_eq!(
            g2.cmd("play 7").await,
            "That seek is not available.\nfics% "
        );
        g2.send("play 0").await;
        let acc = g2.expect("fics% ").await;
        assert_eq!(
            acc,
            format!(
                "You accept the challenge of {}.\nAD_DESTROY: 0\nfics% ",
                g1.name
            )
        );
        g1.expect(&format!(
            "\n\r{} accepts your challenge.\n\rfics% Ads removed: 0\n\r\n\rCreating: ",
            g2.name
        ))
        .await;
        let creating = g1.expect("\n").await;
        assert!(creating.ends_with("unrated blitz 3 0\n"), "{creating}");
        g1.board().await;
        g2.board().await;
        if let Some(rec) = recording("06_guests_seek_unseek_play.guest2.raw") {
            assert!(contains(&rec, b"\n\rAD_DESTROY: 0\n\rfics% "));
        }
        if let Some(rec) = recording("06_guests_seek_unseek_play.guest1.raw") {
            assert!(contains(
                &rec,
                b"fics% ERROR: You cannot respond to your own seek ads\n\rfics% "
            ));
            assert!(contains(
                &rec,
                b" accepts your challenge.\n\rfics% Ads removed: 0\n\r\n\rCreating: "
            ));
        }
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn computer_notice_decline_and_withdraw() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut d = Client::login(addr, "DeltaBot", Some("delta")).await;
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        d.cmd("match AlphaBot 1 0").await;
        a.expect("Challenge: DeltaBot (----) AlphaBot (----) rated lightning 1 0.\n\r")
            .await;
        a.expect("--** DeltaBot is a computer **--\n\rYou can \"accept\"")
            .await;
        a.expect("fics% ").await;
        assert_eq!(
            a.cmd("decline").await,
            "You decline the match offer from DeltaBot.\nfics% "
        );
        d.expect("\n\rAlphaBot declines the match offer.\n\rfics% ")
            .await;
        assert_eq!(
            a.cmd("accept").await,
            "You have no offers to accept.\nfics% "
        );
        d.cmd("match AlphaBot 1 0").await;
        a.expect("fics% ").await;
        assert_eq!(
            d.cmd("withdraw").await,
            "You withdraw the match offer to AlphaBot.\nfics% "
        );
        a.expect("\n\rDeltaBot withdraws the match offer.\n\rfics% ")
            .await;
        assert_eq!(
            a.cmd("match nosuchplayer").await,
            "No user named 'nosuchplayer' is logged in.\nfics% "
        );
        assert_eq!(
            a.cmd("match AlphaBot").await,
            "You can't match yourself.\nfics% "
        );
        let who = a.cmd("who").await;
        assert!(who.contains("---- DeltaBot(C)\n"), "{who}");
        srv.shutdown().await;
    })
    .await;
}

async fn play_line(a: &mut Client, b: &mut Client, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let (m, o) = if i % 2 == 0 {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        m.send(mv).await;
        let line = m.board().await;
        assert!(line.starts_with("<12> "), "{mv}: {line}");
        o.board().await;
    }
}

#[tokio::test]
async fn stalemate_repetition_and_fifty_moves() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        // Sam Loyd's ten-move stalemate.
        start_match(&mut a, &mut b, "5 0 u").await;
        let loyd = [
            "e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7",
            "Qxb7", "Qd3", "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6",
        ];
        play_line(&mut a, &mut b, &loyd).await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) Game drawn by stalemate} 1/2-1/2\n\rNo ratings adjustment done.\n\rfics% ";
        a.expect(end).await;
        b.expect(end).await;
        // Threefold repetition, claimed with `draw`.
        start_match(&mut a, &mut b, "5 0 u").await;
        assert_eq!(a.cmd("draw").await, "Draw request sent.\nfics% ");
        b.expect("AlphaBot offers you a draw.").await;
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
        play_line(&mut a, &mut b, &shuffle).await;
        a.send("draw").await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) Game drawn by repetition} 1/2-1/2\n\rNo ratings adjustment done.\n\rfics% ";
        a.expect(end).await;
        b.expect(end).await;
        // The 50 move rule: 100 reversible half-moves, then a claim.
        start_match(&mut a, &mut b, "5 0 u").await;
        play_line(&mut a, &mut b, &["e4", "e5"]).await;
        let mut line = Vec::new();
        for _ in 0..25 {
            line.extend_from_slice(&shuffle[..4]);
        }
        play_line(&mut a, &mut b, &line).await;
        b.send("draw").await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) Game drawn by the 50 move rule} 1/2-1/2\n\rNo ratings adjustment done.\n\rfics% ";
        a.expect(end).await;
        b.expect(end).await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn ms_clocks_pendinfo_and_seekinfo() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        assert_eq!(a.cmd("iset ms 1").await, "ms set\nfics% ");
        assert_eq!(a.cmd("iset pendinfo 1").await, "pendinfo set\nfics% ");
        assert_eq!(b.cmd("iset pendinfo 1").await, "pendinfo set\nfics% ");
        assert_eq!(b.cmd("iset seekinfo 1").await, "seekinfo set\n<sc>\nfics% ");
        // Seek ads reach seekinfo clients as <s>/<sr> lines.
        assert_eq!(a.cmd("seek 3 0").await, "  0    0 AlphaBot            3   0 rated   blitz     \nfics% ");
        b.expect("<s> 0 w=AlphaBot ti=00 rt=0P t=3 i=0 r=r tp=blitz c=? rr=0-9999 a=t f=f\n\r").await;
        a.cmd("unseek").await;
        b.expect("<sr> 0\n\r").await;
        // A challenge comes with <pf>/<pt>.
        let issuing = a.cmd("match BetaBot 5 0 u white").await;
        assert!(issuing.contains("\n<pt> "), "{issuing}");
        assert!(issuing.contains(" w=BetaBot t=match p=AlphaBot (----) [white] BetaBot (----) unrated blitz 5 0\n"), "{issuing}");
        b.expect("Challenge: AlphaBot (----) [white] BetaBot (----) unrated blitz 5 0.").await;
        let ch = b.expect("fics% ").await;
        assert!(ch.contains("\n<pf> ") && ch.contains(" w=AlphaBot t=match p=AlphaBot (----) [white] BetaBot (----) unrated blitz 5 0\n"), "{ch}");
        b.send("accept").await;
        let pr = a.expect("<pr> ").await;
        let _ = pr;
        let w = a.board().await;
        assert!(w.ends_with(" 1 5 0 39 39 300000 300000 1 none (0:00.000) none 0 0"), "{w}");
        let bb = b.board().await;
        assert!(bb.ends_with(" -1 5 0 39 39 300 300 1 none (0:00) none 1 0"), "seconds for BetaBot: {bb}");
        srv.shutdown().await;
    })
    .await;
}

/// A challenge whose other side logs out goes with a word to the one left, as FICS
/// says it: the challenger hears that the one it challenged has departed and that the
/// challenge is withdrawn; the one challenged, that its challenger has departed.
#[tokio::test]
async fn a_challenge_goes_with_a_word_when_a_side_departs() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        a.cmd("match BetaBot 5 0 unrated").await;
        b.expect("Challenge: AlphaBot").await;
        b.send("quit").await;
        b.expect_closed().await;
        a.expect("BetaBot, whom you were challenging, has departed.\n\rChallenge to BetaBot withdrawn.\n\r")
            .await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        a.cmd("match BetaBot 5 0 unrated").await;
        b.expect("Challenge: AlphaBot").await;
        a.send("quit").await;
        a.expect_closed().await;
        b.expect("AlphaBot, who was challenging you, has departed.\n\r").await;
        // Nothing is left pending for the one still here.
        let pending = b.cmd("pending").await;
        assert!(!pending.contains("AlphaBot"), "{pending}");
    })
    .await;
}
