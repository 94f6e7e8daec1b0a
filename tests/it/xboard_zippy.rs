//! xboard's zippy mode drives wily on a chess server: the local server runs in-process,
//! a real xboard (under a virtual X display) logs in as `zippy` with `-zp` and
//! `-fcp "wily xboard"`, and a scripted opponent challenges it and plays legal moves
//! until the game ends. This is how Crafty has long been run on ICS through xboard.
//!
//! Needs `xboard` and `Xvfb` (Debian: `apt-get install xboard xvfb`); without them the
//! test prints why it skips (under `CI=true` it fails, naming them). Xvfb, xboard and the engine xboard starts are killed when the
//! test ends, pass or fail.

use crate::scratch;
use crate::server_support;

use cozy_chess::{Board, Color, Move, Piece};
use server_support::{bounded, find, server_with, Client};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use wily::ics::board::Relation;
use wily::ics::parse::{style12, ClockUnit};
use wily::server::Account;

fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push("/usr/games".into());
    for n in names {
        for d in &dirs {
            let p = d.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// A child started in its own process group; the whole group (xboard and the engine it
/// started) is killed on drop, so nothing outlives the test.
struct Group(Child);

impl Group {
    fn spawn(cmd: &mut Command) -> Group {
        use std::os::unix::process::CommandExt;
        Group(cmd.process_group(0).spawn().expect("spawn"))
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A virtual X display on a free number (Xvfb picks it and writes it to `-displayfd`).
fn start_display(xvfb: &Path) -> (Group, String) {
    use std::io::{BufRead, BufReader};
    let mut g = Group::spawn(
        Command::new(xvfb)
            .args([
                "-displayfd",
                "1",
                "-nolisten",
                "tcp",
                "-screen",
                "0",
                "1024x768x24",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    );
    let out = g.0.stdout.take().expect("Xvfb stdout");
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .expect("Xvfb display number");
    let n = line.trim();
    assert!(!n.is_empty(), "Xvfb did not start");
    (g, format!(":{n}"))
}

/// Some legal move, picked by a small deterministic generator.
fn pick(board: &Board, seed: &mut u64) -> Option<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|set| {
        moves.extend(set);
        false
    });
    if moves.is_empty() {
        return None;
    }
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    Some(moves[(*seed >> 33) as usize % moves.len()])
}

fn server_form(mv: Move) -> String {
    match mv.promotion {
        Some(p) => {
            let c = match p {
                Piece::Knight => 'n',
                Piece::Bishop => 'b',
                Piece::Rook => 'r',
                _ => 'q',
            };
            format!("{}{}={c}", mv.from, mv.to)
        }
        None => format!("{}{}", mv.from, mv.to),
    }
}

fn start_xboard(dir: &Path, port: u16, xboard: &Path, display: &str) -> Group {
    std::fs::write(dir.join("logon"), "zippy\nzpass\n").unwrap();
    let engine = format!("{} xboard", env!("CARGO_BIN_EXE_wily"));
    Group::spawn(
        Command::new(xboard)
            .args([
                "-ics",
                "-icshost",
                "127.0.0.1",
                "-icsport",
                &port.to_string(),
            ])
            .arg("-icslogon")
            .arg(dir.join("logon"))
            .args(["-zp", "-xponder", "-fcp", &engine, "-fd"])
            .arg(dir)
            .arg("-settingsFile")
            .arg(dir.join("xboardrc"))
            .args(["-saveSettingsOnExit", "false", "-debug", "-nameOfDebugFile"])
            .arg(dir.join("xboard.debug"))
            .env("DISPLAY", display)
            .env("WILY_BOOK_DIR", dir.join("book"))
            .env("WILY_LISTS_DIR", dir.join("lists"))
            .env("HOME", dir)
            // xboard logs out of the server when its keyboard input ends: keep it open.
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )
}

/// Waits until `name` is logged in (its `finger` answers with the login banner line).
async fn wait_logged_in(me: &mut Client, name: &str) {
    for _ in 0..100 {
        let reply = me.cmd(&format!("finger {name}")).await;
        if reply.contains("On for:") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("{name} never logged in");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xboard_zippy_plays_a_game_with_wily_on_the_local_server() {
    let (xboard, xvfb) = (which(&["xboard"]), which(&["Xvfb"]));
    let (Some(xboard), Some(xvfb)) = (xboard.clone(), xvfb.clone()) else {
        let names: Vec<&str> = [("xboard", &xboard), ("Xvfb", &xvfb)]
            .iter()
            .filter(|(_, p)| p.is_none())
            .map(|(n, _)| *n)
            .collect();
        server_support::shared_data::need::missing(
            &names.join(" and "),
            "apt-get install xboard xvfb, or run .ci/install-test-tools as root",
        );
        return;
    };
    // Declared before the xboard process group: dropped after it, once xboard has died.
    let scratch = scratch::dir("zippy");
    let dir = scratch.path();
    let server = server_with(|c| {
        c.with_account(Account::new("zippy", "zpass").computer())
            .with_account(Account::new("tester", "tpass"))
    })
    .await;
    let addr = server.local_addr();
    let (_display, display) = start_display(&xvfb);
    let xboard_proc = start_xboard(dir, addr.port(), &xboard, &display);
    let debug = dir.join("xboard.debug");
    bounded(240, async {
        let mut me = Client::login(addr, "tester", Some("tpass")).await;
        me.name = "tester".into();
        me.cmd("set style 12").await;
        wait_logged_in(&mut me, "zippy").await;
        // Zippy accepts every challenge once its engine is ready ("not quite ready" and a
        // decline before that); it plays White here and so moves first.
        let mut tries = 0;
        loop {
            me.send("match zippy 1 0 unrated black").await;
            let reply = me
                .expect_any(&["Creating unrated", "declines the match"])
                .await;
            if reply.contains("Creating") {
                break;
            }
            tries += 1;
            assert!(tries < 60, "zippy kept declining: {reply}");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let mut seed = 7u64;
        let mut my_moves = 0;
        let result = loop {
            me.settle(Duration::from_millis(100)).await;
            let text = String::from_utf8_lossy(&me.all[me.pos..]).to_string();
            let Some(end) = text.rfind("\n\r") else {
                continue;
            };
            me.pos += end + 2;
            let mut finished = None;
            for line in text[..end].split("\n\r") {
                let line = line.trim_start_matches("fics% ").trim();
                if line.starts_with("{Game ") && !line.contains("Creating") {
                    finished = Some(line.to_string());
                } else if line.starts_with("<12> ") {
                    let b12 = style12::parse(line, ClockUnit::Auto).expect("a style 12 line");
                    if b12.relation == Relation::MyMove {
                        let board: Board = b12.to_fen().parse().expect("a legal position");
                        assert_eq!(board.side_to_move(), Color::Black);
                        if let Some(mv) = pick(&board, &mut seed) {
                            me.send(&server_form(mv)).await;
                            my_moves += 1;
                        }
                    }
                }
            }
            if let Some(r) = finished {
                break r;
            }
        };
        println!("game over after {my_moves} moves of the scripted player: {result}");
        assert!(my_moves >= 2, "the game barely started: {result}");
        assert!(
            result.ends_with("1-0") || result.ends_with("1/2-1/2"),
            "wily (White, through xboard) should not lose to random moves: {result}"
        );
        assert!(!result.contains("forfeits on time"), "{result}");
    })
    .await;
    let log = std::fs::read(&debug).unwrap_or_default();
    let count = |needle: &str| {
        let mut n = 0;
        let mut rest = &log[..];
        while let Some(i) = find(rest, needle.as_bytes()) {
            n += 1;
            rest = &rest[i + needle.len()..];
        }
        n
    };
    assert!(
        count(">first : ics 127.0.0.1") >= 1,
        "xboard never told wily about the server"
    );
    assert!(
        count("<first : move ") >= 2,
        "wily sent no moves through xboard"
    );
    // xboard goes first (it would spin on a closed server connection), then the server.
    drop(xboard_proc);
    server.shutdown().await;
}
