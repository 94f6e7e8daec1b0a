//! A real `wily` process writing games to the learning store is killed with SIGKILL in
//! the middle of its work; the store must reopen, pass SQLite's integrity check, and
//! hold only whole games (every game with all of its training samples, nothing partial).

use crate::scratch;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wily::learn::Learner;

fn games_reported(db: &std::path::Path, kill_after: u64) -> u64 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(["learn", "stress-write", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn wily");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut last = 0u64;
    let start = Instant::now();
    while last < kill_after {
        match lines.next() {
            Some(Ok(l)) => {
                if let Some(n) = l.strip_prefix("committed ") {
                    last = n.trim().parse().expect("count");
                }
            }
            _ => break,
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "stress writer too slow"
        );
    }
    // Child::kill sends SIGKILL on Unix: no chance to finish the transaction in flight.
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    assert!(
        !status.success(),
        "the writer should have died from the signal"
    );
    last
}

#[test]
fn sigkill_mid_write_leaves_a_readable_store() {
    // One folder for the whole test: every round restarts the writer on the same store
    // (`games_reported` waits for each killed child before returning).
    let dir = scratch::dir("learn-crash");
    let db = dir.path().join("learn.db");
    let mut total_reported = 0;
    // Kill it at three different points, reopening the same store each time.
    for (round, kill_after) in [5u64, 17, 31].into_iter().enumerate() {
        let reported = games_reported(&db, kill_after);
        assert!(
            reported >= kill_after,
            "round {round}: only {reported} games"
        );
        total_reported += reported;
        let learner = Learner::open(&db).expect("the store must reopen after SIGKILL");
        learner
            .store()
            .integrity_check()
            .expect("integrity check after SIGKILL");
        let games = learner.store().count("games").expect("games");
        // Everything reported as committed is there; at most the game in flight is lost
        // (it may also have committed just before the kill, before its line was read).
        assert!(
            games as u64 >= total_reported,
            "round {round}: {games} games stored, {total_reported} reported committed"
        );
        total_reported = games as u64;
        // Whole games only: each game has one sample per white move (the stress writer
        // searches every white move with sampling at 100%).
        let c = rusqlite::Connection::open(&db).expect("sqlite");
        let bad: i64 = c
            .query_row(
                "SELECT count(*) FROM games g
                 WHERE (SELECT count(*) FROM samples s WHERE s.game_id = g.id) != (g.plies + 1) / 2",
                [],
                |r| r.get(0),
            )
            .expect("query");
        assert_eq!(bad, 0, "round {round}: a game with missing samples");
        let orphans: i64 = c
            .query_row(
                "SELECT count(*) FROM samples WHERE game_id NOT IN (SELECT id FROM games)",
                [],
                |r| r.get(0),
            )
            .expect("query");
        assert_eq!(orphans, 0);
    }
}
