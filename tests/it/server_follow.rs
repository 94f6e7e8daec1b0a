//! The local server against the lasker recordings of `tests/fixtures/ics/lasker` (see the
//! README there): a second login of an account while its first session is connected,
//! and the follow list kept with the account, command by command, byte for byte.

use crate::server_support;

use server_support::*;
use wily::server::Account;

fn fixture(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ics/lasker")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The recorded answers after login, one per command, as `Client::cmd` returns them.
fn answers(rec: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(rec).replace('\r', "");
    let after = text
        .split_once("**** Starting FICS session as ")
        .map(|(_, r)| r)
        .expect("session start");
    let mut parts: Vec<String> = after
        .split("fics% ")
        .map(|p| format!("{p}fics% "))
        .collect();
    parts.remove(0); // the welcome text before the first prompt
    parts.pop(); // the goodbye after `quit`
    parts
}

async fn with_rs_accounts() -> wily::server::ServerHandle {
    server_with(|c| {
        c.with_account(Account::new("RsBot", "rsbotpw"))
            .with_account(Account::new("RsAlpha", "rsalphapw"))
            .with_account(Account::new("RsBeta", "rsbetapw"))
    })
    .await
}

#[tokio::test]
async fn the_follow_list_answers_as_lasker_does() {
    bounded(30, async {
        let srv = with_rs_accounts().await;
        let addr = srv.local_addr();
        // Before the recording, RsBot's list had been used (and was empty).
        let mut c = Client::login(addr, "RsBot", Some("rsbotpw")).await;
        assert_eq!(
            c.cmd("=follow").await,
            "fics% ",
            "a list never used shows nothing"
        );
        c.cmd("+follow RsAlpha").await;
        c.cmd("-follow RsAlpha").await;
        c.send("quit").await;
        c.expect_closed().await;
        for (file, commands) in [
            (
                "follow_list_stored.RsBot_1.raw",
                &["=follow", "+follow RsAlpha", "+follow RsAlpha", "=follow"][..],
            ),
            (
                "follow_list_stored.RsBot_2.raw",
                &[
                    "=follow",
                    "follow RsAlpha",
                    "follow RsAlpha",
                    "-follow RsAlpha",
                    "-follow RsAlpha",
                    "+follow RsAlpha",
                    "+follow RsBeta",
                    "=follow",
                    "-follow RsBeta",
                    "+follow NoSuchPlayer",
                    "+nosuchlist RsAlpha",
                ][..],
            ),
        ] {
            let want = answers(&fixture(file));
            assert_eq!(want.len(), commands.len(), "{file}");
            // A new login each time: the list is kept with the account.
            let mut c = Client::login(addr, "RsBot", Some("rsbotpw")).await;
            for (cmd, want) in commands.iter().zip(&want) {
                assert_eq!(&c.cmd(cmd).await, want, "{file}: {cmd}");
            }
            c.send("quit").await;
            c.expect_closed().await;
        }
        // Third login: RsAlpha is still followed, and its new game is observed for RsBot.
        let mut bot = Client::login(addr, "RsBot", Some("rsbotpw")).await;
        bot.cmd("set style 12").await;
        let want = answers(&fixture("follow_list_stored.RsBot_3.raw"));
        assert_eq!(bot.cmd("=follow").await, want[1]);
        let mut a = Client::login(addr, "RsAlpha", Some("rsalphapw")).await;
        let mut b = Client::login(addr, "RsBeta", Some("rsbetapw")).await;
        start_match(&mut a, &mut b, "5 0 unrated").await;
        bot.expect("You are now observing game 1.\n\r\n\r<12> ")
            .await;
        bot.expect("fics% ").await;
        // As on lasker, `observe` of that game again drops it.
        assert_eq!(
            bot.cmd("observe RsAlpha").await,
            "Removing game 1 from observation list.\nfics% "
        );
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn a_second_login_throws_the_first_session_out_in_laskers_words() {
    bounded(30, async {
        let srv = with_rs_accounts().await;
        let addr = srv.local_addr();
        let mut old = Client::login(addr, "RsBot", Some("rsbotpw")).await;
        old.cmd("set style 12").await;
        let mut new = Client::connect(addr).await;
        new.expect("login: ").await;
        new.send("RsBot").await;
        new.expect("password: ").await;
        new.send("rsbotpw").await;
        new.expect("**** Starting FICS session as RsBot ****").await;
        new.expect("fics% ").await;
        old.expect_closed().await;
        let segment = |bytes: &[u8]| -> Vec<u8> {
            let from = find(bytes, b"password: ").expect("password prompt");
            let to = find(bytes, b"**** Starting FICS").expect("session start");
            bytes[from..to].to_vec()
        };
        let rec_new = fixture("login_replaces_session.RsBot_new.raw");
        assert_eq!(
            String::from_utf8_lossy(&segment(&new.all)),
            String::from_utf8_lossy(&segment(&rec_new))
        );
        let rec_old = fixture("login_replaces_session.RsBot_old.raw");
        let tail = |bytes: &[u8]| -> Vec<u8> {
            let at = find(bytes, b"Style 12 set.").expect("style answer");
            bytes[at..].to_vec()
        };
        assert_eq!(
            String::from_utf8_lossy(&tail(&old.all)),
            String::from_utf8_lossy(&tail(&rec_old))
        );
        srv.shutdown().await;
    })
    .await;
}
