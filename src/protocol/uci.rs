//! The UCI protocol: `uci`, `isready`, `ucinewgame`, `position`, `go` (clock, depth, nodes,
//! movetime, mate, infinite, ponder, searchmoves, and `go perft N`), `stop`, `ponderhit`,
//! `setoption` (Hash, Pawn Hash, Threads, Ponder, MultiPV, Move Overhead, Clear Hash,
//! UCI_Chess960, Contempt, SyzygyPath, SyzygyProbeDepth, Syzygy50MoveRule, Swindle,
//! UCI_LimitStrength, UCI_Elo) and `quit`. The search runs in the background, so input is
//! read while it thinks and `stop` is answered at once; `bestmove` is printed by a waiter thread.

use crate::chess::perft;
use crate::chess::{move_from_uci, move_to_uci, parse_fen};
use crate::engine::skill::{ELO_MAX, ELO_MIN};
use crate::engine::tunables::TUNABLES;
use crate::engine::{
    Bound, Engine, EngineOptions, Limits, SearchControl, SearchInfo, SearchRequest,
};
use cozy_chess::{Board, Move};

/// `UCI_Elo` until set.
const ELO_DEFAULT: u32 = 1500;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where protocol output goes (stdout, or a buffer in tests). Locked once per line.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes.
pub fn say(out: &Output, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Runs UCI on stdin/stdout (the `wily uci` command).
pub fn run() -> Result<(), String> {
    run_io(Box::new(std::io::stdin().lock()), stdout_output(), None)
}

/// Runs UCI on stdin/stdout when another front end already read the first line (`uci`).
pub fn run_with_first_line(first: String) -> Result<(), String> {
    run_io(
        Box::new(std::io::stdin().lock()),
        stdout_output(),
        Some(first),
    )
}

fn stdout_output() -> Output {
    Arc::new(Mutex::new(Box::new(std::io::stdout())))
}

/// Runs UCI over any input and output until `quit` or end of input.
pub fn run_io(
    mut input: Box<dyn BufRead + '_>,
    out: Output,
    first: Option<String>,
) -> Result<(), String> {
    let mut uci = Uci::new(out);
    if let Some(line) = first {
        if !uci.handle(&line) {
            uci.stop_search();
            return Ok(());
        }
    }
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => {
                // End of input: a search with limits may finish and answer first.
                uci.finish_search();
                break;
            }
            Ok(_) => {
                if !uci.handle(&line) {
                    break;
                }
            }
            Err(e) => {
                uci.stop_search();
                return Err(format!("reading input: {e}"));
            }
        }
    }
    uci.stop_search();
    Ok(())
}

struct Running {
    control: SearchControl,
    waiter: JoinHandle<()>,
    /// `go infinite` / `go ponder`: never ends on its own.
    open_ended: bool,
}

/// The state of one UCI session.
struct Uci {
    engine: Engine,
    out: Output,
    board: Board,
    history: Vec<u64>,
    chess960: bool,
    running: Option<Running>,
    /// `UCI_LimitStrength` and `UCI_Elo`.
    limit_strength: bool,
    elo: u32,
}

/// Formats one `info` line (PV in UCI notation from `root`).
pub fn info_line(root: &Board, info: &SearchInfo, chess960: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score.to_uci()
    );
    match info.bound {
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
        Bound::Exact => {}
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} tbhits {} time {}",
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis()
    ));
    let pv = line_to_uci(root, &info.pv, chess960);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// Converts a line of moves to UCI strings, stopping at the first illegal move.
pub fn line_to_uci(root: &Board, moves: &[Move], chess960: bool) -> Vec<String> {
    let mut b = root.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !b.is_legal(mv) {
            break;
        }
        out.push(move_to_uci(&b, mv, chess960));
        b.play_unchecked(mv);
    }
    out
}

/// Parses the arguments of `go` (after the word `go`) into limits and search moves.
pub fn parse_go(board: &Board, args: &[&str], chess960: bool) -> (Limits, Vec<Move>) {
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let ms = |s: Option<&&str>| -> Option<Duration> {
        let v: i64 = s?.parse().ok()?;
        Some(Duration::from_millis(v.max(0) as u64))
    };
    let num = |s: Option<&&str>| -> Option<u64> {
        let v: i64 = s?.parse().ok()?;
        Some(v.max(0) as u64)
    };
    let mut i = 0;
    while i < args.len() {
        let next = args.get(i + 1);
        let mut consumed = 2;
        match args[i] {
            "wtime" => limits.wtime = ms(next),
            "btime" => limits.btime = ms(next),
            "winc" => limits.winc = ms(next),
            "binc" => limits.binc = ms(next),
            "movetime" => limits.movetime = ms(next),
            "movestogo" => limits.movestogo = num(next).map(|v| v.min(10_000) as u32),
            "depth" => limits.depth = num(next).map(|v| v.clamp(1, 200) as u32),
            "nodes" => limits.nodes = num(next).map(|v| v.max(1)),
            "mate" => limits.mate = num(next).map(|v| v.clamp(1, 100) as u32),
            "infinite" => {
                limits.infinite = true;
                consumed = 1;
            }
            "ponder" => {
                limits.ponder = true;
                consumed = 1;
            }
            "searchmoves" => {
                consumed = 1;
                while let Some(m) = args.get(i + consumed) {
                    match move_from_uci(board, m, chess960) {
                        Ok(mv) => {
                            searchmoves.push(mv);
                            consumed += 1;
                        }
                        Err(_) => break,
                    }
                }
            }
            _ => consumed = 1,
        }
        i += consumed;
    }
    (limits, searchmoves)
}

/// Parses `position ...` (after the word `position`): the board and the hashes of the
/// positions before it. Unknown or illegal moves stop the move list there (reported).
pub fn parse_position(
    args: &[&str],
    chess960: bool,
) -> Result<(Board, Vec<u64>, Option<String>), String> {
    let moves_at = args.iter().position(|t| *t == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let mut board = match setup.first() {
        Some(&"startpos") => Board::default(),
        Some(&"fen") => {
            let fen = setup[1..].join(" ");
            parse_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?
        }
        _ => return Err("position needs 'startpos' or 'fen'".to_string()),
    };
    let mut history = Vec::new();
    let mut warning = None;
    if let Some(at) = moves_at {
        for m in &args[at + 1..] {
            match move_from_uci(&board, m, chess960) {
                Ok(mv) => {
                    history.push(board.hash());
                    board.play_unchecked(mv);
                }
                Err(e) => {
                    warning = Some(format!("illegal move '{m}' ignored with the rest: {e}"));
                    break;
                }
            }
        }
    }
    Ok((board, history, warning))
}

impl Uci {
    fn new(out: Output) -> Uci {
        Uci {
            engine: Engine::new(EngineOptions::default()),
            out,
            board: Board::default(),
            history: Vec::new(),
            chess960: false,
            limit_strength: false,
            elo: ELO_DEFAULT,
            running: None,
        }
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    /// Stops a running search and waits until its `bestmove` has been printed.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            let _ = r.waiter.join();
        }
    }

    /// Lets a search with limits run to its end (an open-ended one is stopped).
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            if r.open_ended {
                r.control.stop();
            }
            let _ = r.waiter.join();
        }
    }

    /// Reaps a search that ended on its own.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.waiter.is_finished())
        {
            if let Some(r) = self.running.take() {
                let _ = r.waiter.join();
            }
        }
    }

    /// Handles one command line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        self.reap();
        match cmd {
            "uci" => {
                self.say(&format!("id name wily {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the wily developers");
                let o = self.engine.options().clone();
                self.say(&format!(
                    "option name Hash type spin default {} min 1 max 65536",
                    o.hash_mb
                ));
                self.say("option name Pawn Hash type spin default 1 min 1 max 1024");
                self.say("option name Threads type spin default 1 min 1 max 256");
                self.say("option name Ponder type check default false");
                self.say("option name MultiPV type spin default 1 min 1 max 256");
                self.say(&format!(
                    "option name Move Overhead type spin default {} min 0 max 5000",
                    o.move_overhead_ms
                ));
                self.say("option name Clear Hash type button");
                self.say("option name UCI_Chess960 type check default false");
                self.say("option name Contempt type spin default 0 min -500 max 500");
                self.say("option name SyzygyPath type string default <empty>");
                self.say(&format!(
                    "option name SyzygyProbeDepth type spin default {} min 1 max 100",
                    self.engine.syzygy_probe_depth()
                ));
                self.say(&format!(
                    "option name Syzygy50MoveRule type check default {}",
                    self.engine.syzygy_50_move_rule()
                ));
                self.say(&format!(
                    "option name Swindle type check default {}",
                    self.engine.swindle()
                ));
                self.say("option name UCI_LimitStrength type check default false");
                self.say(&format!(
                    "option name UCI_Elo type spin default {} min {ELO_MIN} max {ELO_MAX}",
                    self.elo
                ));
                // The search's tunable constants, for tuners (`wily spsa`); leave them be.
                for t in TUNABLES {
                    self.say(&format!(
                        "option name {} type spin default {} min {} max {}",
                        t.name, t.default, t.min, t.max
                    ));
                }
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.engine.new_game();
                self.board = Board::default();
                self.history.clear();
            }
            "position" => {
                self.stop_search();
                match parse_position(args, self.chess960) {
                    Ok((b, h, warn)) => {
                        self.board = b;
                        self.history = h;
                        if let Some(w) = warn {
                            self.say(&format!("info string {w}"));
                        }
                    }
                    Err(e) => self.say(&format!("info string {e}")),
                }
            }
            "go" => {
                self.stop_search();
                if args.first() == Some(&"perft") {
                    let depth = args.get(1).and_then(|d| d.parse::<u32>().ok()).unwrap_or(1);
                    self.go_perft(depth.min(12));
                } else {
                    self.go(args);
                }
            }
            "stop" => self.stop_search(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.control.ponderhit();
                }
            }
            "setoption" => self.setoption(args),
            "quit" => {
                self.stop_search();
                return false;
            }
            "d" => {
                self.say(&format!(
                    "info string fen {}",
                    crate::chess::to_fen(&self.board)
                ));
            }
            "debug" | "register" => {}
            other => self.say(&format!("info string unknown command '{other}'")),
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <words...> [value <words...>]
        let name_at = args.iter().position(|t| t.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            self.say("info string setoption needs a name");
            return;
        };
        let name = args[n + 1..value_at.unwrap_or(args.len()).max(n + 1)]
            .join(" ")
            .to_ascii_lowercase();
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        let int = value.trim().parse::<i64>();
        let flag = value.trim().eq_ignore_ascii_case("true");
        match (name.as_str(), int) {
            ("hash", Ok(v)) => {
                self.stop_search();
                self.engine.set_hash_mb(v.clamp(1, 65_536) as usize);
            }
            ("pawn hash", Ok(v)) => {
                self.stop_search();
                let mb = v.clamp(1, 1024) as usize;
                self.engine.set_pawn_hash_bytes(mb << 20);
            }
            ("threads", Ok(v)) => {
                self.stop_search();
                self.engine.set_threads(v.clamp(1, 256) as usize);
            }
            ("multipv", Ok(v)) => self.engine.set_multipv(v.clamp(1, 256) as usize),
            ("move overhead", Ok(v)) => self.engine.set_move_overhead(v.clamp(0, 5000) as u64),
            ("contempt", Ok(v)) => self.engine.set_draw_score(-(v.clamp(-500, 500) as i32)),
            ("clear hash", _) => {
                self.stop_search();
                self.engine.clear_hash();
            }
            ("syzygypath", _) => {
                self.stop_search();
                let text = self.engine.set_syzygy_path(value.trim());
                for line in text.unwrap_or_else(|e| e).lines() {
                    self.say(&format!("info string {}", line.trim()));
                }
            }
            ("syzygyprobedepth", Ok(v)) => self.engine.set_syzygy_probe_depth(v as i32),
            ("syzygy50moverule", _) => self.engine.set_syzygy_50_move_rule(flag),
            ("swindle", _) => self.engine.set_swindle(flag),
            ("uci_limitstrength", _) => {
                self.limit_strength = flag;
                self.engine.set_strength(flag.then_some(self.elo));
            }
            ("uci_elo", Ok(v)) => {
                self.elo = v.clamp(i64::from(ELO_MIN), i64::from(ELO_MAX)) as u32;
                if self.limit_strength {
                    self.engine.set_strength(Some(self.elo));
                }
            }
            ("ponder", _) => {}
            (n, Ok(v)) if TUNABLES.iter().any(|t| t.name == n) => {
                if let Err(e) = self
                    .engine
                    .set_search_param(n, v.clamp(-1 << 30, 1 << 30) as i32)
                {
                    self.say(&format!("info string {e}"));
                }
            }
            ("uci_chess960", _) => self.chess960 = flag,
            _ => self.say(&format!(
                "info string unknown option or bad value: {name} {value}"
            )),
        }
    }

    fn go(&mut self, args: &[&str]) {
        let (limits, searchmoves) = parse_go(&self.board, args, self.chess960);
        let open_ended = limits.infinite || limits.ponder;
        let request = SearchRequest {
            board: self.board.clone(),
            history: self.history.clone(),
            limits,
            searchmoves,
        };
        let root = self.board.clone();
        let out = Arc::clone(&self.out);
        let chess960 = self.chess960;
        let info_root = root.clone();
        let handle = self.engine.start(
            request,
            Box::new(move |info: &SearchInfo| {
                say(&out, &info_line(&info_root, info, chess960));
            }),
        );
        let control = handle.control();
        let out = Arc::clone(&self.out);
        let waiter = std::thread::Builder::new()
            .name("wily-uci-bestmove".to_string())
            .spawn(move || {
                let r = handle.wait();
                let line = match r.best {
                    Some(best) => {
                        let mut s = format!("bestmove {}", move_to_uci(&root, best, chess960));
                        if let Some(p) = r.ponder {
                            let mut b = root.clone();
                            if b.try_play(best).is_ok() && b.is_legal(p) {
                                s.push_str(&format!(" ponder {}", move_to_uci(&b, p, chess960)));
                            }
                        }
                        s
                    }
                    None => "bestmove 0000".to_string(),
                };
                say(&out, &line);
            });
        match waiter {
            Ok(w) => {
                self.running = Some(Running {
                    control,
                    waiter: w,
                    open_ended,
                })
            }
            Err(e) => {
                control.stop();
                self.say(&format!("info string cannot start the search: {e}"));
                self.say("bestmove 0000");
            }
        }
    }

    fn go_perft(&mut self, depth: u32) {
        let start = Instant::now();
        let mut total = 0;
        for (mv, n) in perft::divide(&self.board, depth) {
            total += n;
            self.say(&format!(
                "{}: {n}",
                move_to_uci(&self.board, mv, self.chess960)
            ));
        }
        if depth == 0 {
            total = 1;
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
        self.say(&perft::summary_line(total, start.elapsed().as_secs_f64()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_arguments_parse_into_limits() {
        let b = Board::default();
        let args: Vec<&str> =
            "wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 9 nodes 500 searchmoves e2e4 g1f3 ponder"
                .split(' ')
                .collect();
        let (l, sm) = parse_go(&b, &args, false);
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.btime, Some(Duration::ZERO));
        assert_eq!(l.winc, Some(Duration::from_millis(10)));
        assert_eq!(l.binc, Some(Duration::from_millis(20)));
        assert_eq!(l.movestogo, Some(7));
        assert_eq!(l.depth, Some(9));
        assert_eq!(l.nodes, Some(500));
        assert!(l.ponder && !l.infinite);
        assert_eq!(sm.len(), 2);
        let (l, _) = parse_go(&b, &["infinite", "movetime", "junk"], false);
        assert!(l.infinite);
        assert_eq!(l.movetime, None);
    }

    #[test]
    fn position_command_applies_moves_and_converts_castling() {
        let args: Vec<&str> = "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"
            .split(' ')
            .collect();
        let (b, h, warn) = parse_position(&args, false).expect("parses");
        assert!(warn.is_none());
        assert_eq!(h.len(), 7);
        assert_eq!(
            crate::chess::to_fen(&b),
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
        );
        let (b2, h2, warn) = parse_position(&["startpos", "moves", "e2e4", "e2e5"], false)
            .expect("parses up to the bad move");
        assert!(warn.is_some());
        assert_eq!(h2.len(), 1);
        assert_ne!(b2, Board::default());
        assert!(parse_position(&["fen", "bad"], false).is_err());
        assert!(parse_position(&[], false).is_err());
    }

    fn run_session(input: &str) -> String {
        let buf: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out: Output = Arc::new(Mutex::new(Box::new(Sink(Arc::clone(&buf)))));
        run_io(Box::new(input.as_bytes()), out, None).expect("session runs");
        let bytes = buf.lock().unwrap_or_else(|e| e.into_inner()).clone();
        String::from_utf8(bytes).expect("utf8")
    }

    #[test]
    fn chess960_castling_is_king_takes_rook_both_ways() {
        // Scharnagl position with the king on f1 and rooks on b1 and g1, all castling open.
        let fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1";
        let text = run_session(&format!(
            "setoption name UCI_Chess960 value true\nposition fen {fen} moves f1g1\nd\nquit\n"
        ));
        // White castled short: king g1, rook f1.
        assert!(
            text.contains("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b"),
            "{text}"
        );
        let mut b = parse_fen(fen).expect("fen");
        let castle = move_from_uci(&b, "f1g1", true).expect("castling");
        assert_eq!(move_to_uci(&b, castle, true), "f1g1");
        b.play(castle);
        assert!(b.castle_rights(cozy_chess::Color::White).short.is_none());
    }

    /// The node count of the last `info ... nodes N` line.
    fn last_nodes(text: &str) -> u64 {
        text.lines()
            .rev()
            .filter_map(|l| l.split(" nodes ").nth(1))
            .find_map(|rest| rest.split_whitespace().next()?.parse().ok())
            .expect("an info line with nodes")
    }

    #[test]
    fn search_constants_are_listed_set_by_name_and_change_the_search() {
        let go =
            "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\n\
                  go depth 8\nisready\n";
        let plain = run_session(&format!("uci\n{go}"));
        for t in TUNABLES {
            let line = format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            );
            assert!(plain.contains(&line), "{line}");
        }
        // The defaults by name are the defaults.
        let default = |n: &str| TUNABLES.iter().find(|t| t.name == n).map(|t| t.default);
        let (lmr_div, rfp) = (default("lmr_div").unwrap(), default("rfp_margin").unwrap());
        let same = run_session(&format!(
            "setoption name lmr_div value {lmr_div}\nsetoption name RFP_MARGIN value {rfp}\n{go}"
        ));
        assert_eq!(last_nodes(&plain), last_nodes(&same));
        let changed = run_session(&format!(
            "setoption name lmr_div value 150\nsetoption name rfp_margin value 60\n{go}"
        ));
        assert!(!changed.contains("unknown option"), "{changed}");
        assert_ne!(last_nodes(&plain), last_nodes(&changed));
        // Out of range is clamped, not refused; a bad value is reported.
        let odd = run_session(
            "setoption name rfp_margin value 99999\nsetoption name rfp_margin value x\nisready\n",
        );
        assert!(
            odd.contains("unknown option or bad value: rfp_margin x"),
            "{odd}"
        );
    }

    #[test]
    fn bad_input_is_reported_not_fatal() {
        let text = run_session(
            "position fen nonsense\nsetoption name Hash value lots\nfoo\ngo perft 2\nisready\nquit\n",
        );
        assert!(text.contains("info string bad FEN"));
        assert!(text.contains("info string unknown option or bad value"));
        assert!(text.contains("info string unknown command 'foo'"));
        assert!(text.contains("Nodes searched: 400"));
        assert!(text.contains("readyok"));
    }

    #[test]
    fn session_answers_and_plays_a_move() {
        let text = run_session("uci\nisready\nposition startpos moves e2e4\ngo depth 4\nisready\n");
        assert!(text.contains("uciok"));
        assert!(text.contains("readyok"));
        assert!(text.contains("info depth 1 "));
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .expect("a bestmove line");
        let mv = best.split_whitespace().next().expect("move");
        let mut b = Board::default();
        b.play("e2e4".parse().expect("move"));
        assert!(
            move_from_uci(&b, mv, false).is_ok(),
            "bestmove {mv} is legal"
        );
    }
}
