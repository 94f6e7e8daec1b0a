//! A live test against a real FICS-lineage server (the `lasker` server built from its
//! public source, outside this repository). Runs only when `WILY_LIVE_ICS=host:port`
//! names a running server, with `WILY_LIVE_HANDLE`/`WILY_LIVE_PASSWORD` (wily's account)
//! and `WILY_LIVE_OPP`/`WILY_LIVE_OPP_PASSWORD` (the opponent's); ignored by default
//! (`cargo test --test it live_lasker -- --ignored`), and failing, saying what to set,
//! when run without them. Two games: the opponent challenges wily (wily accepts), then
//! wily seeks and the opponent answers the seek. Both end with a result, both are in
//! the PGN archive and the learning store, and wily never loses on time. A second test,
//! on the same server and accounts, checks the finger notes wily sets at login and its
//! public commands (`docs/bot.md`, "Finger notes" and "Public commands"): a second
//! connection's `finger` shows the configured notes, a guest and a registered player are
//! answered `help` and `info`, and `eval` of a game two people play is refused, and of
//! wily's own game too.

use crate::bot_support;

use bot_support::*;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;
use tokio::sync::watch;
use wily::bot::run::driver::{run, RunOptions};
use wily::learn::Learner;
use wily::lists::OpponentLists;
use wily::server::{sparring_player, SparringPolicy};

struct Live {
    addr: SocketAddr,
    handle: String,
    password: String,
    opp: String,
    opp_password: String,
}

fn live() -> Option<Live> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let addr = var("WILY_LIVE_ICS")?.to_socket_addrs().ok()?.next()?;
    Some(Live {
        addr,
        handle: var("WILY_LIVE_HANDLE")?,
        password: var("WILY_LIVE_PASSWORD")?,
        opp: var("WILY_LIVE_OPP")?,
        opp_password: var("WILY_LIVE_OPP_PASSWORD")?,
    })
}

/// The settings from the environment, or a panic saying what to set.
fn live_or_panic() -> Live {
    live().unwrap_or_else(|| {
        panic!(
            "set WILY_LIVE_ICS=host:port, WILY_LIVE_HANDLE, WILY_LIVE_PASSWORD, \
             WILY_LIVE_OPP and WILY_LIVE_OPP_PASSWORD to play on a running server"
        )
    })
}

/// The bot's settings for the live server: its address and handle, no timeseal, no
/// seeks of its own, no operators.
fn live_config(l: &Live, dir: &std::path::Path) -> wily::config::Config {
    let mut cfg = bot_config(dir, 2, 0);
    cfg.server.host = l.addr.ip().to_string();
    cfg.server.port = l.addr.port();
    cfg.server.handle = l.handle.clone();
    cfg.server.timeseal = false;
    cfg.seek.enabled = false;
    cfg.operators.handles.clear();
    cfg
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running FICS-lineage server: set WILY_LIVE_ICS=host:port, WILY_LIVE_HANDLE, WILY_LIVE_PASSWORD, WILY_LIVE_OPP, WILY_LIVE_OPP_PASSWORD and run with --ignored"]
async fn plays_a_challenge_and_a_seek_on_a_real_server() {
    let l = live_or_panic();
    let tmp = tmpdir("live");
    let dir = tmp.path();
    let mut cfg = live_config(&l, dir);
    cfg.engine.learn = 7;
    let mut connect = connect_config(l.addr, &l.handle, &l.password);
    connect.wire_log = Some(dir.join("wire.log"));
    let opts = RunOptions {
        lists: OpponentLists::load(&cfg.paths.lists).0,
        max_games: 2,
        ..RunOptions::new(connect)
    };
    let (book, learn) = wily::bot::learning::open(&cfg);
    let (reload, reload_rx) = tokio::sync::mpsc::unbounded_channel();
    let opts = RunOptions {
        book: Box::new(book),
        learn: Box::new(learn),
        reload: Some(reload_rx),
        ..opts
    };
    let mut seek_cfg = cfg.clone();
    seek_cfg.seek.enabled = true;
    let bot = tokio::spawn(run(cfg, opts));
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Game 1: the opponent challenges.
    let challenge = SparringPolicy {
        chooser: wily::bot::run::local::engine_chooser(1),
        challenge: Some((l.handle.clone(), 2, 0)),
        think: Duration::from_millis(200),
        games: 1,
        timeout: Duration::from_secs(300),
        ..SparringPolicy::default()
    };
    let r = sparring_player(l.addr, &l.opp, Some(&l.opp_password), challenge)
        .await
        .expect("the opponent played a game");
    println!("challenge game: {r:?}");
    // Game 2: seeking turned on by a reload (as SIGHUP does); the opponent asks the
    // server for the seeks and plays wily's.
    let lists = OpponentLists::load(&seek_cfg.paths.lists).0;
    reload
        .send(wily::bot::run::service::Reload {
            cfg: seek_cfg,
            lists,
        })
        .expect("reload");
    let seeker = SparringPolicy {
        chooser: wily::bot::run::local::engine_chooser(1),
        play_seeks: true,
        think: Duration::from_millis(200),
        games: 1,
        timeout: Duration::from_secs(300),
        ..SparringPolicy::default()
    };
    let r = sparring_player(l.addr, &l.opp, Some(&l.opp_password), seeker)
        .await
        .expect("the opponent played wily's seek");
    println!("seek game: {r:?}");
    let report = tokio::time::timeout(Duration::from_secs(400), bot)
        .await
        .expect("the bot finished in time")
        .expect("bot task")
        .expect("the bot ran");
    println!("{report:?}");
    assert_eq!(report.totals.games, 2);
    assert_eq!(report.recorded, 2);
    assert_eq!(report.time_losses, 0);
    let pgn = archive(dir);
    assert_eq!(pgn.matches("[Event ").count() as u32, report.recorded);
    let learner = Learner::open(&dir.join("learn.db")).expect("store");
    assert_eq!(
        learner.store().count("games").expect("count") as u32,
        report.recorded
    );
    let wire = std::fs::read_to_string(dir.join("wire.log")).unwrap_or_default();
    if let Ok(keep) = std::env::var("WILY_LIVE_WIRE") {
        std::fs::write(&keep, &wire).expect("wire copy");
    }
    assert!(
        !wire.contains(&l.password),
        "the password is masked in the wire log"
    );
}

/// What `handle` told `c` in `lines`: the first `tells you:` line, and the lines lasker
/// wrapped it into (it wraps at the receiver's `width`, 79 by default, after a space, and
/// goes on with `\   ` on the next line): the pieces joined with one space again.
fn told(lines: &[String], handle: &str) -> Option<String> {
    let key = format!("{handle} tells you: ");
    let at = lines.iter().position(|x| x.contains(&key))?;
    let mut answer = lines[at].split_once(&key)?.1.to_string();
    for more in &lines[at + 1..] {
        let Some(rest) = more.strip_prefix('\\') else {
            break;
        };
        answer.push(' ');
        answer.push_str(rest.trim());
    }
    Some(answer)
}

/// `tell HANDLE text` from `c`: what is told back, or `None` within `secs`; when the
/// server says the tell did not reach (`retry`: the bot not logged in yet, or not yet
/// hearing guests), the tell is sent again a second later.
async fn ask_with(
    c: &mut RawClient,
    handle: &str,
    text: &str,
    secs: u64,
    retry: bool,
) -> Option<String> {
    let end = tokio::time::Instant::now() + Duration::from_secs(secs);
    while tokio::time::Instant::now() < end {
        c.send(&format!("tell {handle} {text}")).await;
        let from = c.seen.len();
        let mut refused = false;
        while !refused && tokio::time::Instant::now() < end {
            c.wait_line_for("\u{0}never", Duration::from_millis(300))
                .await;
            let new = &c.seen[from..];
            if let Some(at) = new.iter().position(|x| x.contains(" tells you: ")) {
                // The wrapped rest of the line, if any, comes with it or just after.
                c.wait_line_for("\u{0}never", Duration::from_millis(300))
                    .await;
                return told(&c.seen[from + at..], handle);
            }
            refused = new.iter().any(|x| {
                x.starts_with("No user named") || x.contains("isn't listening to unregistered")
            });
        }
        if !retry {
            return None;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    None
}

/// `tell HANDLE text` from `c`, once: what is told back, or `None` within `secs`.
async fn ask(c: &mut RawClient, handle: &str, text: &str, secs: u64) -> Option<String> {
    ask_with(c, handle, text, secs, false).await
}

/// As [`ask`], sending the tell again while the server says it did not reach the bot.
async fn ask_until(c: &mut RawClient, handle: &str, text: &str, secs: u64) -> Option<String> {
    ask_with(c, handle, text, secs, true).await
}

/// Asks `finger HANDLE` each second until its display satisfies `done`, within `secs`;
/// the display's lines.
async fn finger_until(
    c: &mut RawClient,
    handle: &str,
    secs: u64,
    done: impl Fn(&[String]) -> bool,
) -> Option<Vec<String>> {
    for _ in 0..secs {
        c.seen.clear();
        c.send(&format!("finger {handle}")).await;
        if c.wait_line("Statistics for", 1).await.is_some() {
            // The rest of the display, up to its prompt.
            c.wait_line_for("\u{0}never", Duration::from_millis(500))
                .await;
            if done(&c.seen) {
                return Some(c.seen.clone());
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running FICS-lineage server: set WILY_LIVE_ICS=host:port, WILY_LIVE_HANDLE, WILY_LIVE_PASSWORD, WILY_LIVE_OPP, WILY_LIVE_OPP_PASSWORD and run with --ignored"]
async fn notes_and_public_commands_on_a_real_server() {
    let l = live_or_panic();
    let tmp = tmpdir("live-public");
    let dir = tmp.path();
    let mut cfg = live_config(&l, dir);
    cfg.public.per_handle_per_minute = 20;
    cfg.server.notes = Some(vec![
        "wily {version}: live check, {threads} thread(s), {hash} MB hash".into(),
        "Tell me help for what I answer.".into(),
    ]);
    let note_1 = format!(
        " 1: wily {}: live check, {} thread(s), {} MB hash",
        env!("CARGO_PKG_VERSION"),
        cfg.engine.threads,
        cfg.engine.hash_mb
    );
    // Other notes first (as an earlier run or the operator may have left them): the bot
    // must write both lines and take out the third.
    let mut own = RawClient::login(l.addr, &l.handle, Some(&l.password)).await;
    for (n, text) in [
        (1, "an old first line"),
        (2, "an old second line"),
        (3, "a third"),
    ] {
        own.send(&format!("set {n} {text}")).await;
        // FICS answers `Note N set:`, lasker `Plan variable N changed to`.
        assert!(
            own.wait_line(text, 5).await.is_some(),
            "note {n} set: {:?}",
            own.seen
        );
    }
    own.send("quit").await;
    drop(own);
    let mut connect = connect_config(l.addr, &l.handle, &l.password);
    connect.wire_log = Some(dir.join("wire.log"));
    let (stop, stop_rx) = watch::channel(0u32);
    let extras = BotExtras {
        stop: Some(stop_rx),
        ..BotExtras::default()
    };
    let bot = tokio::spawn(run_bot_with(cfg, connect, extras, Duration::from_secs(300)));

    // A registered player: answered once the bot is up; then the notes it set at login.
    let mut opp = RawClient::login(l.addr, &l.opp, Some(&l.opp_password)).await;
    let help = ask_until(&mut opp, &l.handle, "help", 30)
        .await
        .expect("the bot answers a registered player's help");
    assert!(
        help.starts_with("I am wily") && help.contains("eval [game]"),
        "{help}"
    );
    // The notes as configured: both lines written, the third taken out.
    let want = [note_1.as_str(), " 2: Tell me help for what I answer."];
    let notes = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|x| {
                x.len() > 3 && x.as_bytes()[2] == b':' && x[..2].trim().parse::<u8>().is_ok()
            })
            .cloned()
            .collect()
    };
    let lines = finger_until(&mut opp, &l.handle, 20, |lines| notes(lines) == want)
        .await
        .unwrap_or_else(|| panic!("finger shows the configured notes: {:?}", opp.seen));
    assert_eq!(notes(&lines), want, "{lines:?}");
    let info = ask(&mut opp, &l.handle, "info", 10)
        .await
        .expect("info answered");
    assert!(
        info.starts_with(&format!("wily {} (Rust):", env!("CARGO_PKG_VERSION"))),
        "{info}"
    );

    // A guest (lasker names it GuestXXXX): heard, since wily said `set tell 1`.
    let mut guest = RawClient::login(l.addr, "guest", None).await;
    let help = ask_until(&mut guest, &l.handle, "help", 10)
        .await
        .unwrap_or_else(|| panic!("the guest is answered: {:?}", guest.seen));
    assert!(help.starts_with("I am wily"), "{help}");
    let info = ask(&mut guest, &l.handle, "info", 10)
        .await
        .expect("the guest's info answered");
    assert!(
        info.starts_with(&format!("wily {} (Rust):", env!("CARGO_PKG_VERSION"))),
        "{info}"
    );

    // A game two people play (the guest challenges the opponent): `eval` refused.
    guest.send(&format!("match {} 5 0 unrated", l.opp)).await;
    opp.wait_line("Challenge:", 10)
        .await
        .unwrap_or_else(|| panic!("the guest's challenge: {:?}", opp.seen));
    opp.send("accept").await;
    let created = guest
        .wait_line("Creating unrated", 10)
        .await
        .unwrap_or_else(|| panic!("the game starts: {:?}", guest.seen));
    let game: u32 = created
        .split_once("{Game ")
        .and_then(|(_, r)| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a game number in {created:?}"));
    for (who, c) in [("guest", &mut guest), ("opponent", &mut opp)] {
        let a = ask(c, &l.handle, &format!("eval {game}"), 10)
            .await
            .unwrap_or_else(|| panic!("the {who}'s eval answered"));
        assert!(
            a.contains("only relayed games and games between computers")
                && a.contains(&format!("game {game} is not one of them"))
                && !a.contains("depth"),
            "{a}"
        );
    }
    guest.send("resign").await;
    opp.wait_line("resigns}", 10).await;
    opp.send("quit").await;
    drop(opp);

    // wily's own game (the opponent challenges it): `games` names it, `eval` refuses it.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let challenge = SparringPolicy {
        chooser: wily::bot::run::local::engine_chooser(1),
        challenge: Some((l.handle.clone(), 2, 0)),
        think: Duration::from_millis(500),
        games: 1,
        timeout: Duration::from_secs(300),
        ..SparringPolicy::default()
    };
    let (addr, opp_name, opp_pw) = (l.addr, l.opp.clone(), l.opp_password.clone());
    let spar =
        tokio::spawn(
            async move { sparring_player(addr, &opp_name, Some(&opp_pw), challenge).await },
        );
    let mut own_game = None;
    for _ in 0..30 {
        let g = ask(&mut guest, &l.handle, "games", 5)
            .await
            .expect("games answered");
        if let Some(n) = g
            .strip_prefix("playing game ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse::<u32>().ok())
        {
            own_game = Some(n);
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let own_game = own_game.unwrap_or_else(|| panic!("wily's game in `games`: {:?}", guest.seen));
    let a = ask(&mut guest, &l.handle, &format!("eval {own_game}"), 10)
        .await
        .expect("eval of wily's game answered");
    assert_eq!(
        a,
        format!("game {own_game} is my own game: no evaluations of it.")
    );
    let r = spar
        .await
        .expect("the opponent's task")
        .expect("the opponent played wily");
    println!("wily's game: {r:?}");
    guest.send("quit").await;

    stop.send_modify(|n| *n += 2);
    let report = bot.await.expect("the bot task");
    println!("{report:?}");
    assert_eq!(report.totals.games, 1, "{report:?}");
    let wire = std::fs::read_to_string(dir.join("wire.log")).unwrap_or_default();
    if let Ok(keep) = std::env::var("WILY_LIVE_WIRE") {
        std::fs::write(&keep, &wire).expect("wire copy");
    }
    assert!(wire.contains("set tell 1"), "wily asked to hear guests");
    assert!(!wire.contains(&l.password), "the password is masked");
}
