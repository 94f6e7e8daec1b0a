//! The helper path (`server.helper`, ICC's `timestamp` the way xboard's `-icshelper` runs
//! it): wily starts a stand-in helper that forwards bytes (`tests/fixtures/icc/
//! forward_helper.py`), logs in to a small ICC-speaking listener through it with
//! `level2settings=` first, and gets its events; a missing helper is a plain, final error.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use wily::ics::dialect::Dialect;
use wily::ics::events::Event;
use wily::ics::icc::Datagram;
use wily::ics::login::{Login, Password};
use wily::link::{connect, ConnectConfig, ConnectError, HelperConfig};

fn helper_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/icc/forward_helper.py")
}

fn python_ok() -> bool {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok && std::env::var("CI").as_deref() == Ok("true") {
        panic!("python3 is needed for the stand-in helper (tests/fixtures/icc/forward_helper.py)");
    }
    ok
}

fn config(port: u16, helper: HelperConfig) -> ConnectConfig {
    let mut c = ConnectConfig::new(
        "127.0.0.1",
        port,
        Login::Registered {
            handle: "wily".into(),
            password: Password::new("pw"),
        },
    );
    c.dialect = Dialect::Icc;
    c.helper = Some(helper);
    c.connect_timeout = Duration::from_secs(10);
    c.login_timeout = Duration::from_secs(10);
    c
}

#[tokio::test]
async fn login_and_events_through_a_forwarding_helper() {
    if !python_ok() {
        eprintln!("skipped: no python3 (set CI=true to make this a failure)");
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(async move {
        let (sock, _) = listener.accept().await.unwrap();
        let (r, mut w) = sock.into_split();
        let mut lines = BufReader::new(r).lines();
        w.write_all(b"login: ").await.unwrap();
        let first = lines.next_line().await.unwrap().unwrap();
        // ICC reads the settings and asks for the name again.
        w.write_all(b"login: ").await.unwrap();
        let name = lines.next_line().await.unwrap().unwrap();
        w.write_all(b"password: ").await.unwrap();
        let _pw = lines.next_line().await.unwrap().unwrap();
        let mut hello = Datagram::new(0).with("wily").with("C").encode();
        hello.extend_from_slice(b"\r\naics% ");
        hello.extend(
            Datagram::new(31)
                .with("boss")
                .with("")
                .with("hello bot")
                .with(1)
                .encode(),
        );
        w.write_all(&hello).await.unwrap();
        let mut setup = Vec::new();
        while let Ok(Ok(Some(l))) =
            tokio::time::timeout(Duration::from_secs(3), lines.next_line()).await
        {
            setup.push(l.clone());
            if l.starts_with("set-2 104") {
                break;
            }
        }
        (first, name, setup)
    });
    let (conn, mut events) = connect(config(port, HelperConfig::new(helper_script())))
        .await
        .expect("connected through the helper");
    assert_eq!(conn.handle(), "wily");
    let mut tell = None;
    while let Ok(Some(ev)) = tokio::time::timeout(Duration::from_secs(5), events.recv()).await {
        if let Event::Chat(c) = &ev {
            tell = Some(c.text.clone());
            break;
        }
    }
    assert_eq!(tell.as_deref(), Some("hello bot"));
    let (first, name, setup) = server.await.unwrap();
    assert!(first.starts_with("level2settings=1"), "{first}");
    assert_eq!(name, "wily");
    assert!(
        setup.iter().any(|l| l == "set-quietly style 13"),
        "{setup:?}"
    );
    assert!(setup.iter().any(|l| l == "set-2 50 1"), "{setup:?}");
    conn.close();
}

#[tokio::test]
async fn a_missing_helper_is_a_final_error_naming_the_setting() {
    let err = connect(config(1, HelperConfig::new("/nonexistent/timestamp")))
        .await
        .expect_err("no connection");
    assert!(matches!(err, ConnectError::Helper(_)), "{err}");
    assert!(err.is_final());
    let text = err.to_string();
    assert!(
        text.contains("/nonexistent/timestamp") && text.contains("server.helper"),
        "{text}"
    );
}

#[tokio::test]
async fn a_helper_that_dies_ends_the_connection() {
    if !python_ok() {
        eprintln!("skipped: no python3 (set CI=true to make this a failure)");
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(async move {
        let (sock, _) = listener.accept().await.unwrap();
        let (r, mut w) = sock.into_split();
        let mut lines = BufReader::new(r).lines();
        w.write_all(b"login: ").await.unwrap();
        lines.next_line().await.unwrap();
        lines.next_line().await.unwrap();
        w.write_all(b"password: ").await.unwrap();
        lines.next_line().await.unwrap();
        let mut hello = Datagram::new(0).with("wily").with("").encode();
        hello.extend_from_slice(b"aics% ");
        w.write_all(&hello).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The server side goes away: the helper sees the end and exits.
    });
    let (_conn, mut events) = connect(config(port, HelperConfig::new(helper_script())))
        .await
        .expect("connected");
    server.await.unwrap();
    let mut gone = false;
    while let Ok(Some(ev)) = tokio::time::timeout(Duration::from_secs(10), events.recv()).await {
        if matches!(ev, Event::Disconnected { .. }) {
            gone = true;
            break;
        }
    }
    assert!(gone, "the connection ends when the helper does");
}
