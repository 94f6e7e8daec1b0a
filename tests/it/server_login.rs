//! The local server's login and basic commands, byte for byte against the
//! lasker recordings where the two must agree.

use crate::server_support;

use server_support::*;

fn segment(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let start = find(bytes, from).expect("start marker");
    let end = start + find(&bytes[start..], to).expect("end marker") + to.len();
    bytes[start..end].to_vec()
}

fn replace(bytes: &[u8], what: &str, with: &str) -> Vec<u8> {
    String::from_utf8_lossy(bytes)
        .replace(what, with)
        .into_bytes()
}

#[tokio::test]
async fn banner_ends_with_login_prompt() {
    bounded(20, async {
        let srv = server().await;
        let mut c = Client::connect(srv.local_addr()).await;
        c.expect("login: ").await;
        c.settle(std::time::Duration::from_millis(100)).await;
        assert!(c.all.starts_with(b"\n\r"), "lines end in \\n\\r");
        assert!(c.all.ends_with(
            b"\n\rIf you are not a registered player enter the login name \"guest\"\n\rlogin: "
        ));
        for (i, b) in c.all.iter().enumerate() {
            if *b == b'\n' {
                assert_eq!(c.all.get(i + 1), Some(&b'\r'), "every line ends in \\n\\r");
            }
        }
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn registered_login_matches_recording() {
    bounded(20, async {
        let srv = server().await;
        let c = Client::login(srv.local_addr(), "AlphaBot", Some("alpha")).await;
        let mine = segment(
            &c.all,
            b"login: ",
            b"**** Starting FICS session as AlphaBot ****\n\r",
        );
        assert!(mine.starts_with(b"login: \xff\xfb\x01\n\r\"AlphaBot\" is a registered name."));
        assert!(contains(&mine, b"password: \xff\xfc\x01\n\r**** Starting"));
        if let Some(rec) = recording("01_login_guest_registered.AlphaBot.raw") {
            let theirs = segment(
                &rec,
                b"login: ",
                b"**** Starting FICS session as AlphaBot ****\n\r",
            );
            assert_eq!(
                String::from_utf8_lossy(&mine),
                String::from_utf8_lossy(&theirs)
            );
        }
        // The session ends its welcome with a blank line and the prompt.
        assert!(c.all.ends_with(b"\n\r\n\r\n\rfics% "));
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn wrong_password_is_refused_and_closed() {
    bounded(20, async {
        let srv = server().await;
        let mut c = Client::connect(srv.local_addr()).await;
        c.expect("login: ").await;
        c.send("AlphaBot").await;
        c.expect("password: ").await;
        c.send("wrong").await;
        c.expect("**** Invalid password! ****\n\r\n\r").await;
        c.expect_closed().await;
        let mine = segment(
            &c.all,
            b"password: ",
            b"**** Invalid password! ****\n\r\n\r",
        );
        assert_eq!(
            mine,
            b"password: \xff\xfc\x01\n\r\n\r**** Invalid password! ****\n\r\n\r".to_vec()
        );
        if let Some(rec) = recording("01_login_guest_registered.AlphaBot_badpw.raw") {
            let theirs = segment(&rec, b"password: ", b"**** Invalid password! ****\n\r\n\r");
            assert_eq!(mine, theirs);
        }
        // The server is still fine for the next client.
        let ok = Client::login(srv.local_addr(), "AlphaBot", Some("alpha")).await;
        assert_eq!(ok.name, "AlphaBot");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn guest_and_unregistered_logins_match_recording() {
    bounded(20, async {
        let srv = server().await;
        let g = Client::login(srv.local_addr(), "guest", None).await;
        assert!(
            g.name.starts_with("Guest") && g.name.len() == 9,
            "{}",
            g.name
        );
        assert!(g.name[5..].bytes().all(|b| b.is_ascii_uppercase()));
        let mine = segment(&g.all, b"login: ", b"(U) ****\n\r");
        let mine = replace(&mine, &g.name, "GuestXXXX");
        assert!(contains(&mine, b"Logging you in as \"GuestXXXX\""));
        if let Some(rec) = recording("01_login_guest_registered.guest1.raw") {
            let theirs = replace(
                &segment(&rec, b"login: ", b"(U) ****\n\r"),
                "GuestWLRM",
                "GuestXXXX",
            );
            assert_eq!(
                String::from_utf8_lossy(&mine),
                String::from_utf8_lossy(&theirs)
            );
        }
        // Names that are too short or not letters, then an unregistered name.
        let mut u = Client::connect(srv.local_addr()).await;
        u.expect("login: ").await;
        u.send("").await;
        u.expect("login: ").await;
        u.send("V1s1tor").await;
        u.expect("login: ").await;
        u.send("Visitor").await;
        u.expect("Press return").await;
        u.send("").await;
        u.expect("fics% ").await;
        let mine = segment(&u.all, b"login: ", b"Visitor(U) ****\n\r");
        if let Some(rec) = recording("01_login_guest_registered.unreg.raw") {
            let theirs = segment(&rec, b"login: ", b"Visitor(U) ****\n\r");
            assert_eq!(
                String::from_utf8_lossy(&mine),
                String::from_utf8_lossy(&theirs)
            );
        } else {
            assert!(contains(
                &mine,
                b"A name should be at least three characters long!  Try again."
            ));
        }
        // The same unregistered name cannot log in twice.
        let mut dup = Client::connect(srv.local_addr()).await;
        dup.expect("login: ").await;
        dup.send("visitor").await;
        dup.expect("is already logged in.  Try again.").await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn basic_command_replies_match_recording() {
    bounded(30, async {
        let srv = server().await;
        let mut g = Client::login(srv.local_addr(), "guest", None).await;
        let name = g.name.clone();
        let pad = format!("{name:<17}");
        let cases: Vec<(&str, String)> = vec![
            ("set style 12", "Style 12 set.\n".into()),
            ("iset ms 1", "ms set\n".into()),
            (
                "iset nosuchvar 1",
                "No such ivariable \"nosuchvar\".\n".into(),
            ),
            ("set seek 1", "You will now hear ads.\n".into()),
            (
                "seek 5 0",
                format!("  0    0 {pad}   5   0 unrated blitz     \n"),
            ),
            (
                "sought",
                format!("  0    0 {pad}   5   0 unrated blitz     \n"),
            ),
            ("unseek", "Ads removed: 0\n".into()),
            ("games", "There are no games in progress.\n".into()),
            (
                "nosuchcommand",
                "nosuchcommand: Command not found.\n".into(),
            ),
            (
                "tell nosuchplayer hi",
                "No user named 'nosuchplayer' is logged in.\n".into(),
            ),
        ];
        let rec = recording("01_login_guest_registered.guest1.raw").map(|r| {
            String::from_utf8_lossy(&r)
                .replace('\r', "")
                .replace("GuestWLRM", &name)
        });
        for (cmd, want) in cases {
            let got = g.cmd(cmd).await;
            assert_eq!(got, format!("{want}fics% "), "reply to {cmd}");
            if let Some(rec) = &rec {
                assert!(rec.contains(&want), "recording has {want:?}");
            }
        }
        let who = g.cmd("who").await;
        assert!(who.contains(&format!("\n++++ {name}\n")), "{who}");
        assert!(who.contains(" 1 players displayed (of 1). (*) indicates system administrator.\n"));
        let finger = g.cmd("finger").await;
        assert!(
            finger.contains(&format!("Statistics for {name:<17}On for:")),
            "{finger}"
        );
        assert!(finger.contains(&format!("{name} is NOT a registered player.")));
        g.send("quit").await;
        g.expect("Thank you for using a Free (GNU) Internet Chess server.\n\r\n\r")
            .await;
        g.expect_closed().await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn client_setup_commands_are_all_accepted() {
    bounded(20, async {
        let srv = server().await;
        let mut c = Client::login(srv.local_addr(), "AlphaBot", Some("alpha")).await;
        for cmd in [
            "set style 12",
            "iset ms 1",
            "iset nowrap 1",
            "iset defprompt 1",
            "iset pendinfo 1",
            "iset seekinfo 1",
            "iset seekremove 1",
            "set interface wily 0.1",
            "set seek 0",
            "set open 1",
            "set bell 0",
            "iset lock 1",
        ] {
            let r = c.cmd(cmd).await;
            assert!(
                !r.contains("Command not found") && !r.contains("No such"),
                "{cmd}: {r}"
            );
        }
        assert_eq!(
            c.cmd("iset ms 0").await,
            "Cannot alter: Interface setting locked.\nfics% "
        );
        assert_eq!(c.cmd("set bell 0").await, "Bell off.\nfics% ");
        assert_eq!(
            c.cmd("set open 1").await,
            "You are now open to receive match requests.\nfics% "
        );
        let finger = c.cmd("finger BetaBot").await;
        assert!(finger.contains("Statistics for BetaBot"), "{finger}");
        assert_eq!(
            c.cmd("finger NoSuchName").await,
            "There is no player matching the name NoSuchName.\nfics% "
        );
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn second_login_replaces_the_first() {
    bounded(20, async {
        let srv = server().await;
        let mut first = Client::login(srv.local_addr(), "AlphaBot", Some("alpha")).await;
        let mut second = Client::login(srv.local_addr(), "AlphaBot", Some("alpha")).await;
        first.expect_closed().await;
        let who = second.cmd("who").await;
        assert!(who.contains(" 1 players displayed"), "{who}");
        srv.shutdown().await;
    })
    .await;
}
