//! A UCI session driven through the real binary: wily plays a full game against itself
//! (two processes, one per side, with real clocks) until the game has a result, and every
//! `bestmove` is legal and arrives before the clock runs out.

use cozy_chess::{Board, Color, GameStatus, Piece};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};
use wily::chess::{move_from_uci, move_to_uci};

struct Player {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Player {
    fn spawn() -> Player {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wily"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("wily starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Player {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").expect("write to wily");
        self.stdin.flush().expect("flush");
    }

    /// Waits for a line starting with `prefix` (other lines are checked for sanity).
    fn expect(&mut self, prefix: &str, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' line within {timeout:?}"));
            if line.starts_with(prefix) {
                return line;
            }
            if line.starts_with("info ") && line.contains(" score ") {
                assert!(
                    line.contains(" depth ") && line.contains(" nodes "),
                    "{line}"
                );
            }
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn insufficient(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    heavy.is_empty() && board.occupied().len() <= 3
}

#[test]
fn wily_plays_a_full_game_against_itself_over_uci() {
    let mut white = Player::spawn();
    let mut black = Player::spawn();
    for p in [&mut white, &mut black] {
        p.send("uci");
        p.expect("uciok", Duration::from_secs(10));
        p.send("setoption name Hash value 8");
        p.send("setoption name Move Overhead value 30");
        p.send("ucinewgame");
        p.send("isready");
        p.expect("readyok", Duration::from_secs(10));
    }
    let mut board = Board::default();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: Vec<u64> = vec![board.hash_without_ep()];
    let inc = Duration::from_millis(20);
    let mut clock = [Duration::from_millis(2000), Duration::from_millis(2000)];
    let result;
    loop {
        match board.status() {
            GameStatus::Won => {
                result = if board.side_to_move() == Color::White {
                    "0-1"
                } else {
                    "1-0"
                };
                break;
            }
            GameStatus::Drawn => {
                result = "1/2-1/2 (stalemate or fifty moves)";
                break;
            }
            GameStatus::Ongoing => {}
        }
        if insufficient(&board) {
            result = "1/2-1/2 (insufficient material)";
            break;
        }
        let key = board.hash_without_ep();
        if seen.iter().filter(|k| **k == key).count() >= 3 {
            result = "1/2-1/2 (repetition)";
            break;
        }
        let side = board.side_to_move() as usize;
        let player = if side == 0 { &mut white } else { &mut black };
        let pos = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        player.send(&pos);
        player.send(&format!(
            "go wtime {} btime {} winc {} binc {}",
            clock[0].as_millis(),
            clock[1].as_millis(),
            inc.as_millis(),
            inc.as_millis()
        ));
        let t0 = Instant::now();
        let line = player.expect("bestmove", clock[side] + Duration::from_secs(2));
        let used = t0.elapsed();
        assert!(
            used < clock[side],
            "lost on time: used {used:?} with {:?} left",
            clock[side]
        );
        clock[side] = clock[side] - used + inc;
        let text = line
            .split_whitespace()
            .nth(1)
            .expect("a move after bestmove");
        let mv = move_from_uci(&board, text, false)
            .unwrap_or_else(|e| panic!("illegal bestmove '{text}' in {board}: {e}"));
        moves.push(move_to_uci(&board, mv, false));
        board.play(mv);
        seen.push(board.hash_without_ep());
        assert!(moves.len() < 2000, "game never ends");
    }
    eprintln!("result {result} after {} plies", moves.len());
    assert!(!moves.is_empty());
}

#[test]
fn stop_answers_at_once_and_isready_is_answered_while_searching() {
    let mut p = Player::spawn();
    p.send("uci");
    p.expect("uciok", Duration::from_secs(10));
    p.send("position startpos moves e2e4 e7e5");
    p.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    p.send("isready");
    p.expect("readyok", Duration::from_secs(2));
    let t = Instant::now();
    p.send("stop");
    let line = p.expect("bestmove", Duration::from_secs(2));
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        t.elapsed()
    );
    let mut b = Board::default();
    for m in ["e2e4", "e7e5"] {
        b.play(m.parse().expect("move"));
    }
    let mv = line.split_whitespace().nth(1).expect("move");
    assert!(move_from_uci(&b, mv, false).is_ok(), "{line}");
    // go perft extension
    p.send("position startpos");
    p.send("go perft 3");
    let n = p.expect("Nodes searched", Duration::from_secs(10));
    assert_eq!(n, "Nodes searched: 8902");
    // Ponder: no bestmove until ponderhit, then one arrives.
    p.send("position startpos moves e2e4");
    p.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(300));
    p.send("ponderhit");
    p.expect("bestmove", Duration::from_secs(3));
}

#[test]
fn no_subcommand_switches_to_uci_on_first_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wily"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("wily starts");
    {
        let stdin = child.stdin.as_mut().expect("stdin");
        stdin
            .write_all(b"uci\nisready\nposition startpos\ngo depth 3\n")
            .expect("write");
    }
    std::thread::sleep(Duration::from_millis(500));
    {
        let stdin = child.stdin.as_mut().expect("stdin");
        stdin.write_all(b"quit\n").expect("write");
    }
    let out = child.wait_with_output().expect("wily exits");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    assert!(text.contains("bestmove "), "{text}");
}
