//! Finger notes and the `tell` variable on the local server, as FICS and lasker answer
//! them: `set N text` (`Note N set: text`), `set N` alone (`Note N unset.`, the lines
//! below move up), a gap filled with blank lines, no line past 10, the notes in `finger`
//! as ` 1: text`, kept across logins; and guests' tells heard only after `set tell 1`.

use crate::server_support;

use server_support::*;

#[tokio::test]
async fn notes_are_set_shown_kept_and_unset() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        assert_eq!(
            a.cmd("set 1 wily is a computer").await,
            "Note 1 set: wily is a computer\nfics% "
        );
        assert_eq!(
            a.cmd("set 3 third line").await,
            "Note 3 set: third line\nfics% "
        );
        assert_eq!(
            a.cmd("set 11 too far").await,
            "No such variable \"11\".\nfics% "
        );
        let f = a.cmd("finger").await;
        assert!(f.starts_with("\nStatistics for AlphaBot"), "{f}");
        assert!(
            f.ends_with("\n 1: wily is a computer\n 2: \n 3: third line\nfics% "),
            "{f}"
        );
        // Kept when the player logs out, and shown to others.
        a.send("quit").await;
        let mut g = Client::login(addr, "guest", None).await;
        let f = g.cmd("finger AlphaBot").await;
        assert!(
            f.contains("\n 1: wily is a computer\n 2: \n 3: third line\n"),
            "{f}"
        );
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        assert_eq!(a.cmd("set 2").await, "Note 2 unset.\nfics% ");
        assert_eq!(
            a.cmd("set 5").await,
            "You do not have that many lines set.\nfics% "
        );
        let f = a.cmd("finger").await;
        assert!(
            f.ends_with("\n 1: wily is a computer\n 2: third line\nfics% "),
            "{f}"
        );
        assert_eq!(a.cmd("set 2").await, "Note 2 unset.\nfics% ");
        assert_eq!(a.cmd("set 1").await, "Note 1 unset.\nfics% ");
        let f = a.cmd("finger").await;
        assert!(!f.contains(" 1:"), "{f}");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn guests_are_heard_only_after_set_tell_1() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut g = Client::login(addr, "guest", None).await;
        let r = g.cmd("tell AlphaBot hello").await;
        assert!(
            r.contains("isn't listening to unregistered users' tells."),
            "{r}"
        );
        assert_eq!(
            a.cmd("set tell 1").await,
            "You will now hear direct tells from unregistered users.\nfics% "
        );
        let r = g.cmd("tell AlphaBot hello").await;
        assert!(r.starts_with("(told AlphaBot)"), "{r}");
        a.expect("tells you: hello").await;
        srv.shutdown().await;
    })
    .await;
}
