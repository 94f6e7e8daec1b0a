//! The xboard route keeps Crafty's server behaviour: under ICS mode (`ics HOST`, as
//! xboard's zippy sends it) the opponent named by `name` (and `computer`) is looked up in
//! the opponent lists and the resign threshold, book width and draw score are tuned as
//! `wily ics` tunes them; the finished game is learned from (the learning store records
//! it, with the opponent). Outside ICS mode nothing is tuned and no store is created.
//!
//! Drives `wily xboard` through its pipes with the commands xboard sends in zippy mode
//! (the real xboard under Xvfb is `tests/it/xboard_zippy.rs`).

use crate::scratch;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start(dir: &Path) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wily"))
            .arg("xboard")
            .current_dir(dir)
            .env("WILY_BOOK_DIR", dir.join("book"))
            .env("WILY_LISTS_DIR", dir.join("lists"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("wily xboard starts");
        let stdin = child.stdin.take().expect("stdin");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to wily");
        self.stdin.flush().expect("flush");
    }

    /// The first line containing `needle` within 20 s.
    fn expect(&mut self, needle: &str) -> String {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if l.contains(needle) {
                        return l;
                    }
                }
                Err(_) => panic!("no line with {needle:?}; seen: {:#?}", self.seen),
            }
        }
    }

    /// Sends `ping n` and returns the lines before its `pong n`.
    fn sync(&mut self, n: u32) -> Vec<String> {
        let from = self.seen.len();
        self.send(&format!("ping {n}"));
        self.expect(&format!("pong {n}"));
        self.seen[from..].to_vec()
    }

    fn quit(mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// Plays a few moves as White against the engine (Black), then ends the game with
/// xboard's `result` as a resignation of the engine.
fn play_a_short_game(e: &mut Engine) {
    e.send("sd 2");
    e.send("st 1");
    for mv in ["e2e4", "d2d4"] {
        e.send(&format!("usermove {mv}"));
        let reply = e.expect("move ");
        // d2d4 stays legal whatever Black's first move was.
        assert!(!reply.trim_start_matches("move ").trim().is_empty());
    }
    e.send("result 1-0 {Black resigns}");
}

#[test]
fn ics_mode_tunes_for_the_named_opponent_and_learns_from_the_game() {
    let tmp = scratch::dir("xboard-opponent");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("lists")).unwrap();
    std::fs::create_dir_all(dir.join("book")).unwrap();
    std::fs::write(dir.join("lists").join("GM"), "BigMaster\n").unwrap();
    std::fs::write(dir.join("lists").join("S"), "Sneaky\n").unwrap();
    let store = dir.join("book").join("learn.db");

    // Outside ICS mode: no tuning, no store.
    let mut e = Engine::start(dir);
    e.send("xboard");
    e.send("protover 2");
    e.expect("done=1");
    e.send("new");
    e.send("name BigMaster");
    let before = e.sync(1);
    assert!(
        !before.iter().any(|l| l.starts_with("# opponent")),
        "{before:?}"
    );
    play_a_short_game(&mut e);
    e.sync(2);
    e.quit();
    assert!(!store.exists(), "no learning store outside ICS mode");

    // ICS mode, as zippy starts a game.
    let mut e = Engine::start(dir);
    e.send("xboard");
    e.send("protover 2");
    e.expect("done=1");
    e.send("new");
    e.send("ics 127.0.0.1");
    e.send("name BigMaster");
    let l = e.expect("# opponent BigMaster");
    assert_eq!(
        l,
        "# opponent BigMaster: GM, resign at -3, book width 3, draw score 0"
    );
    e.send("name Sneaky");
    let l = e.expect("# opponent Sneaky");
    assert_eq!(
        l,
        "# opponent Sneaky: player (special), resign at -9, book width 5, draw score -50"
    );
    e.send("new");
    e.send("name Joe");
    let l = e.expect("# opponent Joe");
    assert_eq!(
        l,
        "# opponent Joe: player, resign at -9, book width 5, draw score 0"
    );
    e.send("rating 2100 1900");
    e.send("computer");
    let l = e.expect("# opponent Joe");
    assert_eq!(
        l,
        "# opponent Joe: computer, resign at -9, book width 2, draw score 0"
    );
    play_a_short_game(&mut e);
    e.expect("# learned from the game");
    e.sync(3);
    e.quit();

    let learner = wily::learn::Learner::open(&store).expect("the store was created");
    let stats = learner.opponent_stats("Joe").expect("statistics");
    assert_eq!((stats.games, stats.losses), (1, 1), "{stats:?}");
    let none = learner.opponent_stats("BigMaster").expect("statistics");
    assert_eq!(none.games, 0, "the game outside ICS mode was not learned");
}
