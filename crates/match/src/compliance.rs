//! `wily match -compliance [-xboard] ENGINE [ARGS...]`: starts an engine and drives it
//! through the protocol's required exchanges and the awkward ones, printing a verdict
//! per check and failing when any check fails.
//!
//! UCI: the `uci`/`uciok` handshake with `id name`, `isready`, options with spaces in
//! their names, `ucinewgame` between positions, `go` with every limit kind (depth, nodes,
//! movetime, both clocks with and without increments, `movestogo`, `searchmoves`,
//! `infinite`), `isready` during a search, `stop` at once, a 200-ply `position ... moves`
//! list, the `info` lines' form, and `quit` while searching. Every `bestmove` must be
//! legal in the position it was asked for. xboard: `protover 2` features with `done=1`,
//! `ping`/`pong` (also during a search), `new`/`force`/`usermove`, `go`, `?` (move now),
//! `setboard`, and `quit` while thinking.

use chess::coord::move_from_uci;
use chess::fen::parse_fen;
use cozy_chess::Board;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running engine: its input and the lines it prints.
struct Probe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Probe {
    fn start(program: &str, args: &[String]) -> Result<Probe, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no engine input")?;
        let stdout = child.stdout.take().ok_or("no engine output")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l.trim_end().to_string()).is_err() {
                    break;
                }
            }
        });
        Ok(Probe {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, cmd: &str) -> Result<(), String> {
        writeln!(self.stdin, "{cmd}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("sending '{cmd}': {e}"))
    }

    /// Lines up to and including the first that `done` accepts, within `limit`.
    fn until(
        &mut self,
        limit: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<Vec<String>, String> {
        let end = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    seen.push(l);
                    if stop {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {} ms", limit.as_millis()))
                }
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            }
        }
    }

    /// Whether any line arrives within `wait` (a line that should not come).
    fn silent_for(&mut self, wait: Duration, bad: impl Fn(&str) -> bool) -> Result<(), String> {
        let end = Instant::now() + wait;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if bad(&l) => return Err(format!("unexpected '{l}'")),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Ok(()),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            }
        }
    }

    fn exited_within(&mut self, limit: Duration) -> bool {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The verdicts so far.
struct Report {
    passed: usize,
    failed: usize,
    out: Vec<String>,
}

impl Report {
    fn check(&mut self, name: &str, r: Result<(), String>) {
        let line = match r {
            Ok(()) => {
                self.passed += 1;
                format!("PASS  {name}")
            }
            Err(e) => {
                self.failed += 1;
                format!("FAIL  {name}: {e}")
            }
        };
        println!("{line}");
        self.out.push(line);
    }
}

/// The legal move `text` names in `board`, as an error when it is not one.
fn legal(board: &Board, text: &str) -> Result<(), String> {
    move_from_uci(board, text, false)
        .map(|_| ())
        .map_err(|_| format!("'{text}' is not a legal move in {board}"))
}

fn bestmove_of(lines: &[String]) -> Option<&str> {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .and_then(|r| r.split_whitespace().next())
}

const WAIT: Duration = Duration::from_secs(10);
const QUICK: Duration = Duration::from_secs(2);

fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove ")
}

/// Sends `go ARGS` in `board` (already set up) and checks the bestmove is legal.
fn go_legal(p: &mut Probe, board: &Board, args: &str, limit: Duration) -> Result<(), String> {
    p.send(&format!("go {args}"))?;
    let lines = p.until(limit, is_bestmove)?;
    let mv = bestmove_of(&lines).ok_or("no bestmove")?;
    legal(board, mv)
}

/// Checks an `info` line's form: known keys, numbers where numbers belong.
fn info_ok(line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let num_keys = [
        "depth",
        "seldepth",
        "time",
        "nodes",
        "multipv",
        "nps",
        "hashfull",
        "tbhits",
        "cpuload",
        "currmovenumber",
    ];
    let mut i = 1;
    while i < words.len() {
        let w = words[i];
        if w == "string" {
            return Ok(());
        }
        if num_keys.contains(&w) {
            let v = words.get(i + 1).ok_or(format!("'{w}' has no value"))?;
            v.parse::<i64>()
                .map_err(|_| format!("'{w} {v}' is not a number in '{line}'"))?;
            i += 2;
        } else if w == "score" {
            let kind = words.get(i + 1).copied().unwrap_or("");
            let v = words.get(i + 2).copied().unwrap_or("");
            if !["cp", "mate"].contains(&kind) || v.parse::<i64>().is_err() {
                return Err(format!("bad score in '{line}'"));
            }
            i += 3;
            while matches!(words.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                i += 1;
            }
        } else if w == "pv" || w == "refutation" || w == "currline" {
            return Ok(());
        } else if w == "currmove" || w == "wdl" {
            i += if w == "wdl" { 4 } else { 2 };
        } else {
            return Err(format!("unknown key '{w}' in '{line}'"));
        }
    }
    Ok(())
}

fn uci_checks(p: &mut Probe, r: &mut Report) {
    let mut options = Vec::new();
    let hs = (|| {
        p.send("uci")?;
        let lines = p.until(WAIT, |l| l == "uciok")?;
        if !lines.iter().any(|l| l.starts_with("id name ")) {
            return Err("no 'id name' before uciok".into());
        }
        for l in &lines {
            if let Some(rest) = l.strip_prefix("option name ") {
                if let Some((name, _)) = rest.split_once(" type ") {
                    options.push(name.to_string());
                }
            }
        }
        Ok(())
    })();
    let ok = hs.is_ok();
    r.check("uci answers id name ... uciok", hs);
    if !ok {
        return;
    }
    r.check("isready answers readyok", ready(p));
    let spaced: Vec<&String> = options.iter().filter(|o| o.contains(' ')).collect();
    r.check(
        "setoption of every option, names with spaces included, then readyok",
        (|| {
            for o in &options {
                if o.eq_ignore_ascii_case("Hash") {
                    p.send("setoption name Hash value 16")?;
                }
            }
            for o in &spaced {
                // A name with spaces, sent as it was given; buttons take no value.
                p.send(&format!("setoption name {o}"))?;
            }
            ready(p)
        })(),
    );
    let start = Board::default();
    r.check("ucinewgame then readyok", {
        let _ = p.send("ucinewgame");
        ready(p)
    });
    for (what, args) in [
        ("go depth 3", "depth 3"),
        ("go nodes 2000", "nodes 2000"),
        ("go movetime 100", "movetime 100"),
        (
            "go wtime btime winc binc",
            "wtime 1000 btime 1000 winc 50 binc 50",
        ),
        ("go wtime btime (no increment)", "wtime 500 btime 500"),
        ("go with movestogo", "wtime 2000 btime 2000 movestogo 20"),
        ("go searchmoves", "depth 4 searchmoves a2a3"),
    ] {
        let res = (|| {
            p.send("position startpos")?;
            p.send(&format!("go {args}"))?;
            let lines = p.until(WAIT, is_bestmove)?;
            let mv = bestmove_of(&lines).ok_or("no bestmove")?;
            legal(&start, mv)?;
            if args.contains("searchmoves") && mv != "a2a3" {
                return Err(format!("bestmove {mv} is not among searchmoves a2a3"));
            }
            for l in lines.iter().filter(|l| l.starts_with("info ")) {
                info_ok(l)?;
            }
            Ok(())
        })();
        r.check(&format!("{what}: a legal bestmove, well-formed info"), res);
    }
    r.check(
        "go infinite: no bestmove before stop; isready during the search; stop",
        (|| {
            p.send("position startpos moves e2e4")?;
            p.send("go infinite")?;
            p.silent_for(Duration::from_millis(300), is_bestmove)?;
            p.send("isready")?;
            let lines = p.until(QUICK, |l| l == "readyok" || is_bestmove(l))?;
            if lines.iter().any(|l| is_bestmove(l)) {
                return Err("bestmove during go infinite before stop".into());
            }
            p.send("stop")?;
            let lines = p.until(QUICK, is_bestmove)?;
            let b = board_after(&["e2e4"])?;
            legal(&b, bestmove_of(&lines).ok_or("no bestmove")?)
        })(),
    );
    r.check(
        "stop at once after go: exactly one bestmove",
        (|| {
            p.send("position startpos")?;
            p.send("go infinite")?;
            p.send("stop")?;
            let lines = p.until(QUICK, is_bestmove)?;
            legal(&start, bestmove_of(&lines).ok_or("no bestmove")?)?;
            p.send("isready")?;
            let lines = p.until(QUICK, |l| l == "readyok")?;
            if lines.iter().any(|l| is_bestmove(l)) {
                return Err("a second bestmove after one stop".into());
            }
            Ok(())
        })(),
    );
    r.check(
        "ucinewgame between positions (fen, then another fen)",
        (|| {
            let f1 = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
            let f2 = "8/8/4k3/8/8/3K4/4P3/8 b - - 0 1";
            for f in [f1, f2] {
                p.send("ucinewgame")?;
                ready(p)?;
                p.send(&format!("position fen {f}"))?;
                let b = parse_fen(f).map_err(|e| e.to_string())?;
                go_legal(p, &b, "depth 4", WAIT)?;
            }
            Ok(())
        })(),
    );
    r.check(
        "a 200-ply position startpos moves list",
        (|| {
            let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
            let moves: Vec<&str> = cycle.iter().cycle().take(200).copied().collect();
            let mut more = moves.clone();
            more.extend(["e2e4", "e7e5"]);
            p.send(&format!("position startpos moves {}", more.join(" ")))?;
            let b = board_after(&more)?;
            go_legal(p, &b, "depth 3", WAIT)
        })(),
    );
    r.check(
        "quit while searching ends the process",
        (|| {
            p.send("position startpos")?;
            p.send("go infinite")?;
            std::thread::sleep(Duration::from_millis(100));
            p.send("quit")?;
            if p.exited_within(QUICK) {
                Ok(())
            } else {
                Err("still running 2 s after quit".into())
            }
        })(),
    );
}

fn ready(p: &mut Probe) -> Result<(), String> {
    p.send("isready")?;
    p.until(WAIT, |l| l == "readyok").map(|_| ())
}

fn board_after(moves: &[&str]) -> Result<Board, String> {
    let mut b = Board::default();
    for m in moves {
        let mv = move_from_uci(&b, m, false).map_err(|_| format!("test move {m} illegal"))?;
        b.play(mv);
    }
    Ok(b)
}

fn xboard_move(lines: &[String]) -> Option<&str> {
    lines
        .last()
        .and_then(|l| l.strip_prefix("move "))
        .map(str::trim)
}

fn xboard_checks(p: &mut Probe, r: &mut Report) {
    let hs = (|| {
        p.send("xboard")?;
        p.send("protover 2")?;
        let lines = p.until(WAIT, |l| l.starts_with("feature") && l.contains("done=1"))?;
        let all = lines.join(" ");
        for f in ["usermove=1", "setboard=1", "ping=1"] {
            if !all.contains(f) {
                return Err(format!("no 'feature {f}'"));
            }
        }
        Ok(())
    })();
    let ok = hs.is_ok();
    r.check(
        "protover 2: features usermove=1 setboard=1 ping=1 ... done=1",
        hs,
    );
    if !ok {
        return;
    }
    let ping = |p: &mut Probe, n: u32| -> Result<(), String> {
        p.send(&format!("ping {n}"))?;
        p.until(WAIT, |l| l == format!("pong {n}")).map(|_| ())
    };
    r.check("ping answers pong", ping(p, 1));
    r.check(
        "new, force, usermove, go: a legal move",
        (|| {
            for c in ["new", "force", "post", "usermove e2e4", "sd 3", "go"] {
                p.send(c)?;
            }
            let lines = p.until(WAIT, |l| l.starts_with("move "))?;
            let b = board_after(&["e2e4"])?;
            legal(&b, xboard_move(&lines).ok_or("no move")?)
        })(),
    );
    r.check(
        "setboard, then ping during a search and ? (move now)",
        (|| {
            let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
            for c in [
                "new",
                "force",
                &format!("setboard {fen}"),
                "sd 60",
                "st 30",
                "go",
            ] {
                p.send(c)?;
            }
            std::thread::sleep(Duration::from_millis(200));
            p.send("ping 7")?;
            let lines = p.until(QUICK, |l| l == "pong 7" || l.starts_with("move "))?;
            p.send("?")?;
            let lines = if lines.iter().any(|l| l.starts_with("move ")) {
                lines
            } else {
                p.until(QUICK, |l| l.starts_with("move "))?
            };
            let b = parse_fen(fen).map_err(|e| e.to_string())?;
            legal(&b, xboard_move(&lines).ok_or("no move")?)
        })(),
    );
    r.check(
        "quit while thinking ends the process",
        (|| {
            for c in ["new", "force", "sd 60", "st 30", "go"] {
                p.send(c)?;
            }
            std::thread::sleep(Duration::from_millis(100));
            p.send("quit")?;
            if p.exited_within(QUICK) {
                Ok(())
            } else {
                Err("still running 2 s after quit".into())
            }
        })(),
    );
}

/// Runs the checks (`args`: `[-xboard] PROGRAM [ARGS...]`); an error when any fails.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let (xboard, rest) = match args.first().map(String::as_str) {
        Some("-xboard") | Some("--xboard") => (true, &args[1..]),
        Some("-uci") | Some("--uci") => (false, &args[1..]),
        _ => (false, args),
    };
    let (program, pargs) = rest
        .split_first()
        .ok_or("-compliance needs the engine's program (and its arguments)")?;
    let mut p = Probe::start(program, pargs)?;
    let mut r = Report {
        passed: 0,
        failed: 0,
        out: Vec::new(),
    };
    println!(
        "{} compliance of {}",
        if xboard { "xboard" } else { "UCI" },
        rest.join(" ")
    );
    if xboard {
        xboard_checks(&mut p, &mut r);
    } else {
        uci_checks(&mut p, &mut r);
    }
    println!(
        "compliance: {} passed, {} failed ({} checks)",
        r.passed,
        r.failed,
        r.out.len()
    );
    if r.failed > 0 {
        Err(format!("{} compliance checks failed", r.failed))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        assert!(info_ok("info depth 5 seldepth 7 score cp 20 nodes 100 nps 5 pv e2e4").is_ok());
        assert!(info_ok("info depth 5 score mate -3 lowerbound time 4").is_ok());
        assert!(info_ok("info string hello world").is_ok());
        assert!(info_ok("info depth x").is_err());
        assert!(info_ok("info score pawns 3").is_err());
        assert!(info_ok("info bogus 1").is_err());
    }
}
