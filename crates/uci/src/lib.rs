//! The UCI protocol: `uci`, `isready`, `ucinewgame`, `position`, `go` (clock, depth, nodes,
//! movetime, mate, infinite, ponder, searchmoves, and `go perft N`), `stop`, `ponderhit`,
//! `setoption` and `quit`. The options are the UCI rows of `options.rs`'s table; `uci`
//! lists them, `ucifull` (or `uci` under `wily uci --full`) lists the search's tunable
//! constants after them, and `setoption` sets both. The search runs in the background, so
//! input is read while it thinks and `stop` is answered at once; `bestmove` is printed by a
//! waiter thread. After the first second of a search, `info depth D currmove M
//! currmovenumber N` tells each root move as the search reaches it.
//!
//! Its own crate, below the console and xboard (`protocol`, which hand over to it and share
//! [`options`]), so that the lean engine binary (`crates/lean`) has UCI without the book
//! and the learning store. May depend on: `chess`, `engine`. Its `Cargo.toml` lists them
//! and the compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod options;

use crate::options::{EngineOption, Opt, Value, OPTIONS};
use chess::perft;
use chess::{move_from_uci, move_to_uci, parse_fen};
use cozy_chess::{Board, Move};
use engine::tunables::TUNABLES;
use engine::{
    Bound, Engine, EngineOptions, Limits, RootMoveInfo, SearchControl, SearchInfo, SearchRequest,
    SearchResult, Watchers,
};

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
/// With `full`, `uci` lists the search's tunable constants too (as `ucifull` does), for
/// tuners whose driver sends only `uci` (`wily uci --full`).
pub fn run(full: bool) -> Result<(), String> {
    run_full(
        Box::new(std::io::stdin().lock()),
        stdout_output(),
        None,
        full,
    )
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
    input: Box<dyn BufRead + '_>,
    out: Output,
    first: Option<String>,
) -> Result<(), String> {
    run_full(input, out, first, false)
}

/// [`run_io`], with `full` as for [`run`].
pub fn run_full(
    mut input: Box<dyn BufRead + '_>,
    out: Output,
    first: Option<String>,
    full: bool,
) -> Result<(), String> {
    let mut uci = Uci::new(out);
    uci.full = full;
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
    /// `Pawn Hash` (MB) and `SyzygyPath`, as set.
    pawn_hash_mb: i64,
    syzygy_path: String,
    /// `EvalFile`, as last loaded.
    eval_file: String,
    /// `uci` lists the tunables too (`wily uci --full`).
    full: bool,
}

/// The table default of an option (the tests' and a fresh session's value).
fn table_default(opt: Opt) -> Value {
    OPTIONS
        .iter()
        .find(|o| o.opt == opt)
        .map_or(Value::Press, EngineOption::default_value)
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

/// How long a search runs before it tells its root moves (`currmove`), so that short
/// searches do not flood the GUI.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// The `info depth D currmove M currmovenumber N` line for a root move, once the search
/// has run [`CURRMOVE_AFTER`].
pub fn currmove_line(root: &Board, rm: &RootMoveInfo, chess960: bool) -> Option<String> {
    (rm.time >= CURRMOVE_AFTER).then(|| {
        format!(
            "info depth {} currmove {} currmovenumber {}",
            rm.depth,
            move_to_uci(root, rm.mv, chess960),
            rm.number
        )
    })
}

/// The `info` line to print before `bestmove` when the last main line printed does not
/// start with the move played (a search stopped inside an iteration whose new best move
/// was not reported yet): the result's depth, score and line, led by the move played.
pub fn final_info_line(
    root: &Board,
    r: &SearchResult,
    printed: Option<Move>,
    chess960: bool,
) -> Option<String> {
    let best = r.best?;
    if printed == Some(best) {
        return None;
    }
    let mut pv = if r.pv.first() == Some(&best) {
        r.pv.clone()
    } else {
        let mut v = vec![best];
        v.extend(r.ponder);
        v
    };
    pv.truncate(64);
    let ms = r.time.as_millis() as u64;
    let nps = (r.nodes * 1000).checked_div(ms).unwrap_or(0);
    let moves = line_to_uci(root, &pv, chess960);
    Some(format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        r.depth.max(1),
        r.score.to_uci(),
        r.nodes,
        nps,
        ms,
        moves.join(" ")
    ))
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
            elo: table_default(Opt::Elo).int() as u32,
            pawn_hash_mb: table_default(Opt::PawnHash).int(),
            syzygy_path: String::new(),
            eval_file: String::new(),
            full: false,
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
            "uci" => self.list_options(self.full),
            "ucifull" => self.list_options(true),
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
                self.say(&format!("info string fen {}", chess::to_fen(&self.board)));
            }
            "debug" | "register" => {}
            other => self.say(&format!("info string unknown command '{other}'")),
        }
        true
    }

    /// The value in use of a UCI option, shown as its default by `uci`.
    fn current(&self, opt: Opt) -> Value {
        let o = self.engine.options();
        match opt {
            Opt::Hash => Value::Int(o.hash_mb as i64),
            Opt::PawnHash => Value::Int(self.pawn_hash_mb),
            Opt::Threads => Value::Int(o.threads as i64),
            Opt::MultiPv => Value::Int(o.multipv as i64),
            Opt::MoveOverhead => Value::Int(o.move_overhead_ms as i64),
            Opt::Chess960 => Value::Bool(self.chess960),
            Opt::Contempt => Value::Int(-i64::from(o.draw_score)),
            Opt::SyzygyPath => Value::Text(self.syzygy_path.clone()),
            Opt::SyzygyProbeDepth => Value::Int(i64::from(self.engine.syzygy_probe_depth())),
            Opt::Syzygy50MoveRule => Value::Bool(self.engine.syzygy_50_move_rule()),
            Opt::Swindle => Value::Bool(self.engine.swindle()),
            Opt::EvalFile => Value::Text(self.eval_file.clone()),
            Opt::Eval => Value::Text(
                if self.engine.eval_nnue() {
                    "nnue"
                } else {
                    "hce"
                }
                .into(),
            ),
            Opt::LimitStrength => Value::Bool(self.limit_strength),
            Opt::Elo => Value::Int(i64::from(self.elo)),
            other => table_default(other),
        }
    }

    /// Answers `uci` (`full`: `ucifull`): the id, every UCI option, with `full` the
    /// search's tunable constants (for tuners such as `wily spsa`; leave them be), `uciok`.
    fn list_options(&self, full: bool) {
        self.say(&format!("id name wily {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the wily developers");
        for o in OPTIONS.iter().filter(|o| o.uci.is_some()) {
            self.say(&o.uci_line(&self.current(o.opt)));
        }
        if full {
            for t in TUNABLES {
                self.say(&format!(
                    "option name {} type spin default {} min {} max {}",
                    t.name, t.default, t.min, t.max
                ));
            }
        }
        // Which evaluation a fresh session uses: the embedded network, when the build
        // has one (by its checksum), or the hand-written evaluation.
        self.say(&format!(
            "info string eval {}",
            self.engine.eval_description()
        ));
        self.say("uciok");
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
        let bad = || format!("info string unknown option or bad value: {name} {value}");
        if let Some(o) = options::find_uci(&name) {
            match o.parse_uci(&value) {
                Some(v) => self.set(o.opt, &v),
                None => self.say(&bad()),
            }
        } else if TUNABLES.iter().any(|t| t.name == name) {
            match value.trim().parse::<i64>() {
                Ok(v) => {
                    if let Err(e) = self
                        .engine
                        .set_search_param(&name, v.clamp(-1 << 30, 1 << 30) as i32)
                    {
                        self.say(&format!("info string {e}"));
                    }
                }
                Err(_) => self.say(&bad()),
            }
        } else {
            self.say(&bad());
        }
    }

    /// Sets one UCI option to a value read by [`EngineOption::parse_uci`].
    fn set(&mut self, opt: Opt, v: &Value) {
        match opt {
            Opt::Hash => {
                self.stop_search();
                self.engine.set_hash_mb(v.int() as usize);
            }
            Opt::PawnHash => {
                self.stop_search();
                self.pawn_hash_mb = v.int();
                self.engine.set_pawn_hash_bytes((v.int() as usize) << 20);
            }
            Opt::Threads => {
                self.stop_search();
                self.engine.set_threads(v.int() as usize);
            }
            Opt::MultiPv => self.engine.set_multipv(v.int() as usize),
            Opt::MoveOverhead => self.engine.set_move_overhead(v.int() as u64),
            Opt::Contempt => self.engine.set_draw_score(-(v.int() as i32)),
            Opt::ClearHash => {
                self.stop_search();
                self.engine.clear_hash();
            }
            Opt::SyzygyPath => {
                self.stop_search();
                self.syzygy_path = v.text().to_string();
                let text = self.engine.set_syzygy_path(v.text());
                for line in text.unwrap_or_else(|e| e).lines() {
                    self.say(&format!("info string {}", line.trim()));
                }
            }
            Opt::SyzygyProbeDepth => self.engine.set_syzygy_probe_depth(v.int() as i32),
            Opt::Syzygy50MoveRule => self.engine.set_syzygy_50_move_rule(v.flag()),
            Opt::Swindle => self.engine.set_swindle(v.flag()),
            Opt::EvalFile => {
                self.stop_search();
                match self.engine.set_eval_file(v.text()) {
                    Ok(m) => {
                        self.eval_file = v.text().to_string();
                        self.say(&format!("info string {m}"));
                    }
                    Err(e) => self.say(&format!("info string EvalFile: {e}")),
                }
            }
            Opt::Eval => {
                self.stop_search();
                if let Err(e) = self.engine.set_eval_nnue(v.text() == "nnue") {
                    self.say(&format!("info string {e}"));
                }
            }
            Opt::LimitStrength => {
                self.limit_strength = v.flag();
                self.engine.set_strength(v.flag().then_some(self.elo));
            }
            Opt::Elo => {
                self.elo = v.int() as u32;
                if self.limit_strength {
                    self.engine.set_strength(Some(self.elo));
                }
            }
            Opt::Chess960 => self.chess960 = v.flag(),
            // `go ponder` says when to ponder; the xboard-only rows never come here.
            Opt::Ponder
            | Opt::DrawScore
            | Opt::Resign
            | Opt::Whisper
            | Opt::Kibitz
            | Opt::Noise
            | Opt::Strength => {}
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
        // The first move of the last main line printed, so that the search's last word
        // agrees with its `bestmove` (GUIs and match runners check that it does).
        let last_head: Arc<Mutex<Option<Move>>> = Arc::new(Mutex::new(None));
        let head = Arc::clone(&last_head);
        let rm_out = Arc::clone(&self.out);
        let rm_root = root.clone();
        let watchers = Watchers {
            root_move: Some(Box::new(move |rm: &RootMoveInfo| {
                if let Some(l) = currmove_line(&rm_root, rm, chess960) {
                    say(&rm_out, &l);
                }
            })),
            ..Watchers::default()
        };
        let handle = self.engine.start_watched(
            request,
            Box::new(move |info: &SearchInfo| {
                if info.multipv <= 1 {
                    if let Ok(mut h) = head.lock() {
                        *h = info.pv.first().copied();
                    }
                }
                say(&out, &info_line(&info_root, info, chess960));
            }),
            watchers,
        );
        let control = handle.control();
        let out = Arc::clone(&self.out);
        let waiter = std::thread::Builder::new()
            .name("wily-uci-bestmove".to_string())
            .spawn(move || {
                let r = handle.wait();
                let printed = last_head.lock().map(|h| *h).unwrap_or(None);
                if let Some(last) = final_info_line(&root, &r, printed, chess960) {
                    say(&out, &last);
                }
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
#[path = "uci_tests.rs"]
mod tests;
