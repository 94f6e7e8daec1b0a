//! The connection against a small TCP server on 127.0.0.1 that plays back a recording:
//! it sends the recorded bytes, and at every login prompt waits for the client's line.
//! Covers registered, guest and bad-password logins, the dialect setup, the send path
//! (sanitising, moves jumping the rate-limited queue), timeseal (hello, encoded lines,
//! ping answers), the wire log, close, a dead connection and timeouts. Every test is
//! bounded in time.

use crate::ics_common;
use crate::scratch;

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::mpsc::Receiver;
use wily::ics::events::{DisconnectReason, EndReason, Event};
use wily::ics::{timeseal, Login, LoginFailure, Password, RateLimit};
use wily::link::{connect, ConnectConfig, ConnectError, KeepAlive};

const LIMIT: Duration = Duration::from_secs(20);

/// Splits a recording after every point where the server waits for the client.
fn segments(bytes: &[u8]) -> Vec<(Vec<u8>, bool)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let end = if rest.starts_with(b"login: ") {
            Some(i + 7)
        } else if rest.starts_with(b"password: ") {
            Some(i + 10)
        } else if rest.starts_with(b"Press return to enter the ") {
            rest.windows(2).position(|w| w == b"\":").map(|p| i + p + 2)
        } else {
            None
        };
        match end {
            Some(e) => {
                out.push((bytes[start..e].to_vec(), true));
                start = e;
                i = e;
            }
            None => i += 1,
        }
    }
    out.push((bytes[start..].to_vec(), false));
    out
}

/// Drops 3-byte telnet negotiations the client sent in front of a line.
fn strip_iac(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if line[i] == 0xff && i + 2 < line.len() {
            i += 3;
        } else {
            out.push(line[i]);
            i += 1;
        }
    }
    out
}

#[derive(Clone, Default)]
struct Play {
    timeseal: bool,
    /// Bytes sent after the recording.
    inject: Vec<u8>,
    /// Client lines to wait for after the recording before closing.
    expect_after: usize,
    /// Stay connected and silent instead of closing.
    go_silent: bool,
}

#[derive(Debug, Default)]
struct Heard {
    /// Lines from the client, decoded (timeseal) and without telnet bytes.
    lines: Vec<String>,
    /// Everything the client sent, raw.
    raw: Vec<u8>,
}

async fn serve(listener: TcpListener, recording: Vec<u8>, play: Play) -> Heard {
    let mut heard = Heard::default();
    let Ok((sock, _)) = listener.accept().await else {
        return heard;
    };
    let (r, mut w) = sock.into_split();
    let mut r = BufReader::new(r);
    let mut read_line = async |heard: &mut Heard, wait: Duration| -> bool {
        let mut buf = Vec::new();
        match tokio::time::timeout(wait, r.read_until(b'\n', &mut buf)).await {
            Ok(Ok(n)) if n > 0 => {
                heard.raw.extend_from_slice(&buf);
                let body = buf.strip_suffix(b"\n").unwrap_or(&buf);
                let text = if play.timeseal {
                    match timeseal::decode_client_line(body) {
                        Some(l) => l.text,
                        None => format!("<not timeseal: {body:?}>"),
                    }
                } else {
                    String::from_utf8_lossy(&strip_iac(body))
                        .trim_end_matches('\r')
                        .to_string()
                };
                heard.lines.push(text);
                true
            }
            _ => false,
        }
    };
    if play.timeseal && !read_line(&mut heard, LIMIT).await {
        return heard;
    }
    for (seg, waits) in segments(&recording) {
        if w.write_all(&seg).await.is_err() {
            return heard;
        }
        if waits && !read_line(&mut heard, LIMIT).await {
            return heard;
        }
    }
    let _ = w.write_all(&play.inject).await;
    for _ in 0..play.expect_after {
        if !read_line(&mut heard, Duration::from_secs(5)).await {
            break;
        }
    }
    if play.go_silent {
        // Read (and ignore) until the client gives up on us.
        while read_line(&mut heard, LIMIT).await {}
    }
    heard
}

async fn listener() -> (TcpListener, u16) {
    let l = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = l.local_addr().expect("addr").port();
    (l, port)
}

fn config(port: u16, login: Login) -> ConnectConfig {
    let mut c = ConnectConfig::new("127.0.0.1", port, login);
    c.connect_timeout = Duration::from_secs(5);
    c.login_timeout = Duration::from_secs(10);
    c.rate_limit = RateLimit {
        per_second: 200.0,
        burst: 50,
        max_queue: 100,
    };
    c.keepalive = KeepAlive {
        idle: None,
        probe_after: Duration::from_secs(60),
        probe_timeout: Duration::from_secs(60),
    };
    c
}

fn registered() -> Login {
    Login::Registered {
        handle: "AlphaBot".into(),
        password: Password::new("wily-secret-pw"),
    }
}

async fn collect(mut rx: Receiver<Event>) -> Vec<Event> {
    let mut out = Vec::new();
    while let Ok(Some(ev)) = tokio::time::timeout(LIMIT, rx.recv()).await {
        let last = matches!(ev, Event::Disconnected { .. });
        out.push(ev);
        if last {
            break;
        }
    }
    out
}

fn recording(name: &str) -> Option<Vec<u8>> {
    let dir = ics_common::ics_data()?;
    std::fs::read(dir.join(name)).ok()
}

/// A recording cut before the server's goodbye (`Thank you`), so the client is the one to
/// leave or the connection stays open.
fn recording_before_goodbye(name: &str) -> Option<Vec<u8>> {
    let mut rec = recording(name)?;
    let cut = rec
        .windows(9)
        .position(|w| w == b"Thank you")
        .unwrap_or(rec.len());
    rec.truncate(cut);
    Some(rec)
}

#[tokio::test]
async fn registered_login_setup_and_a_whole_game() {
    let Some(rec) = recording("rpblc/02_match_foolsmate_observe_talk.AlphaBot.raw") else {
        return;
    };
    let (l, port) = listener().await;
    let setup = wily::ics::Dialect::Fics.setup_commands("x").len();
    let server = tokio::spawn(serve(
        l,
        rec,
        Play {
            expect_after: setup,
            ..Default::default()
        },
    ));
    let (conn, rx) = connect(config(port, registered())).await.expect("logs in");
    assert_eq!(conn.handle(), "AlphaBot");
    assert!(!conn.is_guest());
    let events = collect(rx).await;
    let heard = tokio::time::timeout(LIMIT, server)
        .await
        .expect("server ends")
        .expect("server ok");

    assert_eq!(heard.lines[0], "AlphaBot");
    assert_eq!(heard.lines[1], "wily-secret-pw");
    assert_eq!(heard.lines[2], "set style 12");
    assert!(heard
        .lines
        .iter()
        .any(|l| l.starts_with("set interface wily ")));
    assert_eq!(heard.lines.last().map(String::as_str), Some("iset lock 1"));
    // The client accepted the server's echo around the password (IAC DO ECHO).
    assert!(heard.raw.windows(3).any(|w| w == [255, 253, 1]));

    assert!(
        matches!(events.iter().find(|e| matches!(e, Event::LoggedIn { .. })),
        Some(Event::LoggedIn { handle, guest: false }) if handle == "AlphaBot")
    );
    ics_common::assert_in_order(
        "live game",
        &events,
        &[
            &|e| matches!(e, Event::LoggedIn { .. }),
            &|e| matches!(e, Event::Issuing(_)),
            &|e| matches!(e, Event::GameStart(_)),
            &|e| matches!(e, Event::Board(_)),
            &|e| matches!(e, Event::GameEnd(g) if g.reason == EndReason::Checkmate),
            &|e| *e == Event::Goodbye,
            &|e| {
                *e == Event::Disconnected {
                    reason: DisconnectReason::ClosedByServer,
                }
            },
        ],
    );
    assert_eq!(ics_common::boards(&events).len(), 5);
    // The task has ended with the connection: sending now is an error.
    tokio::time::timeout(LIMIT, conn.closed())
        .await
        .expect("task ends");
    assert!(conn.send("tell x").is_err());
}

#[tokio::test]
async fn a_login_over_a_still_connected_session_connects_and_the_old_one_hears_it() {
    // Recorded from lasker (tests/fixtures/ics/lasker/README.md): the second login of an
    // account whose first session is still connected, and that first session.
    let login = || Login::Registered {
        handle: "RsBot".into(),
        password: Password::new("rsbotpw"),
    };
    let setup = wily::ics::Dialect::Fics.setup_commands("x").len();
    for (file, replaced) in [
        ("lasker/login_replaces_session.RsBot_new.raw", true),
        ("lasker/login_replaces_session.RsBot_old.raw", false),
    ] {
        let rec = ics_common::fixture(file);
        let (l, port) = listener().await;
        let play = Play {
            expect_after: setup,
            ..Default::default()
        };
        let server = tokio::spawn(serve(l, rec, play));
        let (conn, rx) = connect(config(port, login())).await.unwrap_or_else(|e| {
            panic!("{file}: a login that replaces an old session is a login: {e}")
        });
        assert_eq!(conn.handle(), "RsBot");
        let events = collect(rx).await;
        let heard = tokio::time::timeout(LIMIT, server)
            .await
            .expect("server ends")
            .expect("server ok");
        assert_eq!(heard.lines.last().map(String::as_str), Some("iset lock 1"));
        let closed = |e: &Event| {
            *e == Event::Disconnected {
                reason: DisconnectReason::ClosedByServer,
            }
        };
        if replaced {
            ics_common::assert_in_order(
                file,
                &events,
                &[
                    &|e| matches!(e, Event::SessionReplaced { .. }),
                    &|e| matches!(e, Event::LoggedIn { handle, guest: false } if handle == "RsBot"),
                    &|e| matches!(e, Event::SettingAck { .. }),
                    &|e| *e == Event::Goodbye,
                    &closed,
                ],
            );
        } else {
            ics_common::assert_in_order(
                file,
                &events,
                &[
                    &|e| matches!(e, Event::LoggedIn { .. }),
                    &|e| matches!(e, Event::SessionTakenOver { .. }),
                    &closed,
                ],
            );
        }
    }
}

#[tokio::test]
async fn guest_login_gets_the_assigned_name() {
    let Some(rec) = recording("lasker/01_login_guest_registered.guest1.raw") else {
        return;
    };
    let (l, port) = listener().await;
    let server = tokio::spawn(serve(l, rec, Play::default()));
    let mut cfg = config(port, Login::Guest);
    cfg.setup = false;
    let (conn, rx) = connect(cfg).await.expect("logs in");
    assert_eq!((conn.handle(), conn.is_guest()), ("GuestWLRM", true));
    let events = collect(rx).await;
    let heard = tokio::time::timeout(LIMIT, server)
        .await
        .expect("server ends")
        .expect("server ok");
    assert_eq!(heard.lines, vec!["guest".to_string(), String::new()]);
    assert!(events.contains(&Event::LoggedIn {
        handle: "GuestWLRM".into(),
        guest: true
    }));
    assert!(events.iter().any(|e| matches!(e, Event::Seek(_))));
}

#[tokio::test]
async fn bad_password_is_a_final_error() {
    for name in [
        "rpblc/01_login.AlphaBot_badpw.raw",
        "lasker/01_login_guest_registered.AlphaBot_badpw.raw",
    ] {
        let Some(rec) = recording(name) else { return };
        let (l, port) = listener().await;
        let server = tokio::spawn(serve(l, rec, Play::default()));
        let err = connect(config(port, registered()))
            .await
            .expect_err("must fail");
        assert!(
            matches!(&err, ConnectError::Login(LoginFailure::BadPassword { handle }) if handle == "AlphaBot"),
            "{name}: {err:?}"
        );
        assert!(err.is_final());
        let _ = tokio::time::timeout(LIMIT, server).await;
    }
}

#[tokio::test]
async fn timeseal_hello_lines_and_ping_answers() {
    let Some(rec) = recording("lasker/02_seek_play_foolsmate_observe_talk.BetaBot.raw") else {
        return;
    };
    let (l, port) = listener().await;
    // Two pings after the recording: v2 in-band and v1 on a line of its own.
    let play = Play {
        timeseal: true,
        inject: b"[G]\0\n\r[G]\n\r".to_vec(),
        expect_after: 2,
        ..Default::default()
    };
    let server = tokio::spawn(serve(l, rec, play));
    let mut cfg = config(
        port,
        Login::Registered {
            handle: "BetaBot".into(),
            password: Password::new("pw2"),
        },
    );
    cfg.timeseal = true;
    cfg.setup = false;
    let (conn, rx) = connect(cfg).await.expect("logs in");
    assert_eq!(conn.handle(), "BetaBot");
    let events = collect(rx).await;
    let heard = tokio::time::timeout(LIMIT, server)
        .await
        .expect("server ends")
        .expect("server ok");
    assert!(
        heard.lines[0].starts_with("TIMESTAMP|wily|"),
        "{:?}",
        heard.lines
    );
    assert_eq!(heard.lines[1], "BetaBot");
    assert_eq!(heard.lines[2], "pw2");
    assert_eq!(
        heard
            .lines
            .iter()
            .filter(|l| *l == timeseal::PING_REPLY)
            .count(),
        2,
        "{:?}",
        heard.lines
    );
    // With timeseal the client never writes raw telnet answers.
    assert!(!heard.raw.contains(&255));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::GameEnd(g) if g.reason == EndReason::Checkmate)));
}

#[tokio::test]
async fn send_path_sanitises_and_moves_jump_the_queue() {
    let Some(rec) = recording("rpblc/01_login.AlphaBot.raw") else {
        return;
    };
    let (l, port) = listener().await;
    let server = tokio::spawn(serve(
        l,
        rec,
        Play {
            expect_after: 5,
            ..Default::default()
        },
    ));
    let mut cfg = config(port, registered());
    cfg.setup = false;
    cfg.rate_limit = RateLimit {
        per_second: 4.0,
        burst: 1,
        max_queue: 10,
    };
    let (conn, rx) = connect(cfg).await.expect("logs in");
    conn.send("whisper one\nquit").expect("open");
    conn.send("whisper two").expect("open");
    conn.send("whisper three").expect("open");
    conn.send_move("e2e4").expect("open");
    conn.send_urgent("refresh").expect("open");
    let heard = tokio::time::timeout(LIMIT, server)
        .await
        .expect("server ends")
        .expect("server ok");
    let after: Vec<&str> = heard.lines[2..].iter().map(String::as_str).collect();
    assert_eq!(after.len(), 5, "{after:?}");
    assert_eq!(after[0], "whisper one quit");
    let pos = |s: &str| after.iter().position(|l| *l == s).unwrap_or(usize::MAX);
    assert!(
        pos("e2e4") < pos("whisper two") && pos("refresh") < pos("whisper three"),
        "{after:?}"
    );
    let events = collect(rx).await;
    assert!(matches!(events.last(), Some(Event::Disconnected { .. })));
}

#[tokio::test]
async fn close_sends_quit_and_ends_the_stream() {
    let Some(rec) = recording_before_goodbye("lasker/01_login_guest_registered.AlphaBot.raw")
    else {
        return;
    };
    let (l, port) = listener().await;
    let server = tokio::spawn(serve(
        l,
        rec,
        Play {
            expect_after: 1,
            ..Default::default()
        },
    ));
    let mut cfg = config(port, registered());
    cfg.setup = false;
    let dir = scratch::dir("ics-wire");
    let wire = dir.path().join("wire.log");
    cfg.wire_log = Some(wire.clone());
    let (conn, rx) = connect(cfg).await.expect("logs in");
    conn.close();
    let events = collect(rx).await;
    assert_eq!(
        events.last(),
        Some(&Event::Disconnected {
            reason: DisconnectReason::ClosedByClient
        })
    );
    let heard = tokio::time::timeout(LIMIT, server)
        .await
        .expect("server ends")
        .expect("server ok");
    assert_eq!(heard.lines.last().map(String::as_str), Some("quit"));
    tokio::time::timeout(LIMIT, conn.closed())
        .await
        .expect("task ends");
    assert!(conn.send("x").is_err());
    let log = std::fs::read_to_string(&wire).expect("wire log written");
    assert!(!log.contains("wily-secret-pw"), "password in the wire log");
    assert!(log.contains("-> \"********\""));
    assert!(log.contains("-> \"quit\""));
}

#[tokio::test]
async fn silent_server_is_detected_as_dead() {
    let Some(rec) = recording_before_goodbye("rpblc/01_login.AlphaBot.raw") else {
        return;
    };
    let (l, port) = listener().await;
    let server = tokio::spawn(serve(
        l,
        rec,
        Play {
            go_silent: true,
            ..Default::default()
        },
    ));
    let mut cfg = config(port, registered());
    cfg.setup = false;
    cfg.keepalive = KeepAlive {
        idle: None,
        probe_after: Duration::from_millis(200),
        probe_timeout: Duration::from_millis(300),
    };
    let (_conn, rx) = connect(cfg).await.expect("logs in");
    let events = collect(rx).await;
    assert_eq!(
        events.last(),
        Some(&Event::Disconnected {
            reason: DisconnectReason::Dead
        })
    );
    server.abort();
}

#[tokio::test]
async fn timeouts_and_refused_connections() {
    // Nobody listening.
    let (l, port) = listener().await;
    drop(l);
    let err = connect(config(port, Login::Guest))
        .await
        .expect_err("refused");
    assert!(
        matches!(err, ConnectError::Connect(_)) && !err.is_final(),
        "{err:?}"
    );
    // A server that accepts and says nothing.
    let (l, port) = listener().await;
    let holder = tokio::spawn(async move {
        let s = l.accept().await;
        tokio::time::sleep(Duration::from_secs(3)).await;
        drop(s);
    });
    let mut cfg = config(port, Login::Guest);
    cfg.login_timeout = Duration::from_millis(300);
    let err = connect(cfg).await.expect_err("times out");
    assert!(matches!(err, ConnectError::LoginTimeout), "{err:?}");
    holder.abort();
    // Bad settings.
    let err = connect(ConnectConfig::new("", 1, Login::Guest))
        .await
        .expect_err("invalid");
    assert!(err.is_final());
}

#[tokio::test]
async fn idle_session_sends_a_keepalive() {
    let Some(rec) = recording_before_goodbye("rpblc/01_login.AlphaBot.raw") else {
        return;
    };
    let (l, port) = listener().await;
    let server = tokio::spawn(serve(
        l,
        rec,
        Play {
            expect_after: 1,
            ..Default::default()
        },
    ));
    let mut cfg = config(port, registered());
    cfg.setup = false;
    cfg.keepalive = KeepAlive {
        idle: Some(Duration::from_millis(300)),
        probe_after: Duration::from_secs(60),
        probe_timeout: Duration::from_secs(60),
    };
    let (conn, rx) = connect(cfg).await.expect("logs in");
    let heard = tokio::time::timeout(LIMIT, server)
        .await
        .expect("server ends")
        .expect("server ok");
    assert_eq!(
        heard.lines.last().map(String::as_str),
        Some("date"),
        "{:?}",
        heard.lines
    );
    conn.close();
    let _ = collect(rx).await;
}

#[tokio::test]
async fn a_held_chat_line_is_delivered_without_a_prompt() {
    let Some(rec) = recording_before_goodbye("rpblc/01_login.AlphaBot.raw") else {
        return;
    };
    let (l, port) = listener().await;
    let play = Play {
        inject: b"\n\rBetaBot tells you: are you there?\n\r".to_vec(),
        go_silent: true,
        ..Default::default()
    };
    let server = tokio::spawn(serve(l, rec, play));
    let mut cfg = config(port, registered());
    cfg.setup = false;
    let (conn, mut rx) = connect(cfg).await.expect("logs in");
    // No prompt and no close follow the tell: only the hold timer can release it.
    let tell = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(ev) = rx.recv().await {
            if let Event::Chat(c) = ev {
                return Some(c);
            }
        }
        None
    })
    .await
    .expect("the tell arrives while the connection is open")
    .expect("a chat event");
    assert_eq!(
        (tell.from.as_str(), tell.text.as_str()),
        ("BetaBot", "are you there?")
    );
    assert!(!conn.is_closed());
    conn.close();
    let _ = collect(rx).await;
    server.abort();
}
