//! Observing, talking, and a dropped connection with adjournment and
//! resumption on the local server, against the lasker recordings.

use crate::server_support;

use server_support::*;

#[tokio::test]
async fn observe_kibitz_whisper_tell_say() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        let mut g = Client::login(addr, "GammaBot", Some("gamma")).await;
        let mut w = Client::login(addr, "Watcher", None).await;
        start_match(&mut a, &mut b, "5 0 u").await;
        for c in [&mut g, &mut w] {
            let r = c.cmd("observe AlphaBot").await;
            assert!(r.starts_with("You are now observing game 1.\n\n<12> "), "{r}");
            assert!(r.contains(" AlphaBot BetaBot 0 5 0 39 39 300 300 1 none (0:00) none 0 0\n"), "{r}");
        }
        // As on lasker, `observe` of a game already observed stops observing it.
        assert_eq!(g.cmd("observe 1").await, "Removing game 1 from observation list.\nfics% ");
        let r = g.cmd("observe 1").await;
        assert!(r.starts_with("You are now observing game 1.\n\n<12> "), "{r}");
        assert_eq!(g.cmd("observe 9").await, "There is no such game.\nfics% ");
        assert_eq!(a.cmd("observe 1").await, "You cannot observe a game that you are playing.\nfics% ");
        assert_eq!(
            g.cmd("allobservers 1").await,
            "Observing  1 [AlphaBot vs. BetaBot]: Watcher GammaBot\nfics% ",
            "in the order they (re)started observing"
        );
        a.send("e4").await;
        for c in [&mut a, &mut b, &mut g, &mut w] {
            c.board().await;
        }
        // A registered observer kibitzes to both players and the other observer.
        assert_eq!(g.cmd("kibitz Nice opening, white!").await, "kibitzed to 3.\nfics% ");
        for c in [&mut a, &mut b, &mut w] {
            c.expect("\n\rGammaBot(----) kibitzes: Nice opening, white!\n\rfics% ").await;
        }
        // Whispers reach observers only.
        assert_eq!(g.cmd("whisper Sicilian?").await, "whispered to 1.\nfics% ");
        w.expect("\n\rGammaBot(----) whispers: Sicilian?\n\rfics% ").await;
        assert_eq!(a.cmd("whisper players can whisper too").await, "whispered to 2.\nfics% ");
        g.expect("AlphaBot(----) whispers: players can whisper too").await;
        w.expect("AlphaBot(----) whispers: players can whisper too").await;
        // Unregistered observers may not talk about other people's games.
        assert_eq!(w.cmd("whisper hi").await, "You must be registered to whisper other people's games.\nfics% ");
        assert_eq!(w.cmd("kibitz hi").await, "You must be registered to kibitz other people's games.\nfics% ");
        if let Some(rec) = recording("08_observers_whisper_kibitz.Watcher.raw") {
            assert!(contains(&rec, b"fics% You must be registered to whisper other people's games.\n\rfics% You must be registered to kibitz other people's games.\n\r"));
        }
        // say and tell.
        assert_eq!(a.cmd("say good luck").await, "(told BetaBot)\nfics% ");
        b.expect("\n\rAlphaBot says: good luck\n\rfics% ").await;
        assert_eq!(b.cmd("tell AlphaBot thanks, you too").await, "(told AlphaBot)\nfics% ");
        a.expect("\n\rBetaBot tells you: thanks, you too\n\rfics% ").await;
        assert_eq!(b.cmd("tell GammaBot hello observer").await, "(told GammaBot)\nfics% ");
        g.expect("\n\rBetaBot tells you: hello observer\n\rfics% ").await;
        assert_eq!(g.cmd("say hi").await, "I don't know whom to say that to.\nfics% ");
        if let Some(rec) = recording("02_seek_play_foolsmate_observe_talk.BetaBot.raw") {
            assert!(contains(&rec, b"\n\rAlphaBot says: good luck\n\rfics% (told AlphaBot)\n\rfics% (told GammaBot)\n\r"));
        }
        // refresh and moves for an observer.
        let r = g.cmd("refresh").await;
        assert!(r.starts_with("\n<12> ") && r.contains(" AlphaBot BetaBot 0 5 0 "), "{r}");
        let m = g.cmd("moves").await;
        assert!(m.contains("  1.  e4      (0:00)  \n"), "{m}");
        // unobserve, then the game ends and only the remaining observer hears it.
        assert_eq!(w.cmd("unobserve").await, "Removing game 1 from observation list.\nfics% ");
        assert_eq!(w.cmd("unobserve").await, "You are not observing any games.\nfics% ");
        b.send("resign").await;
        g.expect("\n\r{Game 1 (AlphaBot vs. BetaBot) BetaBot resigns} 1-0\n\rfics% ").await;
        a.expect("{Game 1 (AlphaBot vs. BetaBot) BetaBot resigns} 1-0\n\rNo ratings adjustment done.\n\rfics% ").await;
        w.settle(std::time::Duration::from_millis(200)).await;
        assert!(!contains(&w.all[w.pos..], b"resigns"));
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn dropped_connection_adjourns_then_resume() {
    bounded(40, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        start_match(&mut a, &mut b, "5 0 u").await;
        a.send("d4").await;
        a.board().await;
        b.board().await;
        b.send("d5").await;
        let before = a.board().await;
        b.board().await;
        b.drop_connection().await;
        let end = a.expect("No ratings adjustment done.\n\rfics% ").await;
        assert!(
            end.ends_with("Your opponent has lost contact or quit.\n{Game 1 (AlphaBot vs. BetaBot) adjourned} *\nNo ratings adjustment done.\nfics% "),
            "{end}"
        );
        if let Some(rec) = recording("07_disconnect_adjourn_resume.AlphaBot.raw") {
            assert!(contains(&rec, b"fics% Your opponent has lost contact or quit.\n\r{Game 1 (AlphaBot vs. BetaBot) adjourned} *\n\rNo ratings adjustment done.\n\rfics% "));
            assert!(contains(&rec, b"Stored games for AlphaBot:\n\r   alphabot vs. betabot\n\r1 stored game found.\n\r"));
        }
        assert_eq!(a.cmd("games").await, "There are no games in progress.\nfics% ");
        assert_eq!(
            a.cmd("stored").await,
            "Stored games for AlphaBot:\n   alphabot vs. betabot\n1 stored game found.\nfics% "
        );
        // BetaBot comes back: both are told about the adjourned game.
        let mut b2 = Client::login(addr, "BetaBot", Some("beta")).await;
        let welcome = String::from_utf8_lossy(&b2.all).replace('\r', "");
        assert!(
            welcome.ends_with("\n1 player, who has an adjourned game with you, is online:\x07\nAlphaBot  \n\nfics% "),
            "{welcome}"
        );
        a.expect("\n\rNotification: BetaBot, who has an adjourned game with you, has arrived.\n\rfics% ").await;
        if let Some(rec) = recording("07_disconnect_adjourn_resume.BetaBot_again.raw") {
            assert!(contains(&rec, b"\n\r1 player, who has an adjourned game with you, is online:\x07\n\rAlphaBot  \n\r\n\rfics% "));
        }
        let issuing = b2.cmd("match AlphaBot").await;
        assert_eq!(
            issuing,
            "Issuing: BetaBot (----) AlphaBot (----) unrated wild 5 0 Loaded from blitz/0 \n\\   (adjourned).\nfics% "
        );
        a.expect("\n\rChallenge: BetaBot (----) AlphaBot (----) unrated wild 5 0 Loaded from blitz/0 \n\r\\   (adjourned).\n\rYou can \"accept\" or \"decline\", or propose different parameters.\n\rfics% ").await;
        a.send("accept").await;
        a.expect("You accept the challenge of BetaBot.\n\r\n\rBetaBot, who was challenging you, has joined a match with AlphaBot.\n\rfics% {Game 1 (AlphaBot vs. BetaBot) Continuing unrated blitz match.}\n\r\n\rCreating: AlphaBot (0) BetaBot (0) unrated blitz 5 0\n\r\n\r{Game 1 (AlphaBot vs. BetaBot) Continuing unrated blitz match.}\n\r\n\r").await;
        let resumed = a.board().await;
        // Everything but the clocks (White's ran for a moment before the drop).
        let (r, o) = (fields(&resumed), fields(&before));
        for i in (0..r.len()).filter(|i| *i != 24 && *i != 25) {
            assert_eq!(r[i], o[i], "field {i}: {resumed} / {before}");
        }
        let white_clock: i64 = r[24].parse().expect("clock");
        assert!((299..=300).contains(&white_clock), "{resumed}");
        b2.expect("Challenge to AlphaBot withdrawn.\n\r{Game 1 (AlphaBot vs. BetaBot) Continuing unrated blitz match.}\n\r").await;
        let bb = b2.board().await;
        assert!(bb.contains(" AlphaBot BetaBot -1 5 0 ") && bb.ends_with(" 1 1"), "{bb}");
        if let Some(rec) = recording("07_disconnect_adjourn_resume.AlphaBot.raw") {
            assert!(contains(&rec, b"\n\rBetaBot, who was challenging you, has joined a match with AlphaBot.\n\rfics% {Game 1 (AlphaBot vs. BetaBot) Continuing unrated blitz match.}\n\r\n\rCreating: "));
            assert!(contains(&rec, b"Loaded from blitz/0 \n\r\\   (adjourned).\n\r"));
        }
        a.send("c4").await;
        let line = a.board().await;
        assert!(line.contains(" P/c2-c4 (0:") && line.ends_with(" c4 0 1"), "{line}");
        b2.board().await;
        b2.send("resign").await;
        a.expect("{Game 1 (AlphaBot vs. BetaBot) BetaBot resigns} 1-0\n\rNo ratings adjustment done.\n\rfics% ").await;
        assert_eq!(a.cmd("stored").await, "AlphaBot has no adjourned games.\nfics% ");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn unregistered_drop_aborts_and_mutual_adjourn_needs_registration() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut v = Client::login(addr, "Visitor", None).await;
        let mut s = Client::login(addr, "Stranger", None).await;
        start_match(&mut v, &mut s, "1 0").await;
        assert_eq!(
            v.cmd("adjourn").await,
            "Both players must be registered to adjourn a game.  Use \"abort\".\nfics% "
        );
        v.send("e4").await;
        s.board().await;
        s.drop_connection().await;
        v.expect("Your opponent has lost contact or quit.\n\r{Game 1 (Visitor vs. Stranger) aborted} *\n\r").await;
        // Registered players adjourn by agreement.
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        start_match(&mut a, &mut b, "5 0").await;
        assert_eq!(a.cmd("adjourn").await, "Adjourn request sent.\nfics% ");
        b.expect("\n\rAlphaBot would like to adjourn the game; type \"adjourn\" to accept.\n\rfics% ").await;
        b.send("adjourn").await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) Game adjourned by mutual agreement} *\n\rNo ratings adjustment done.\n\rfics% ";
        a.expect(end).await;
        b.expect(end).await;
        assert!(b.cmd("stored").await.contains("1 stored game found."));
        // `resume` brings it back.
        b.send("resume").await;
        b.expect("Issuing: BetaBot (----) AlphaBot (----) rated wild 5 0 Loaded from blitz/0").await;
        a.expect("Challenge: BetaBot").await;
        a.expect("fics% ").await;
        a.send("accept").await;
        a.expect("Continuing rated blitz match.}").await;
        let w = a.board().await;
        assert!(w.contains(" AlphaBot BetaBot 1 5 0 39 39 300 300 1 none (0:00) none 0 0"), "{w}");
        srv.shutdown().await;
    })
    .await;
}
