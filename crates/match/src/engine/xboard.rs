//! The xboard (CECP v2) side of the runner: `xboard` + `protover 2` and the engine's
//! `feature` lines (each answered `accepted`/`rejected`), `option`/`memory`/`cores`;
//! per game `new`, `variant`, `force`, `setboard` (or `edit` for engines without it),
//! `level`/`st`/`sd`/`nps`, `post`, `easy` and a `ping` to synchronise; per move
//! `time`/`otim` and `go` or the opponent's move (`usermove` when asked for, SAN when the
//! engine set `san=1`), reading `move` and the thinking output for the score.

use super::process::Process;
use super::types::{
    secs, send_options, Fault, FaultKind, PlyText, Reader, Reply, Score, Setup, Turn,
};
use super::uci::timeout_fault;
use crate::config::{EngineSpec, Variant};
use crate::timecontrol::{format_seconds, Limits};
use chess::fen::to_fen;
use chess::parse_any_move;
use cozy_chess::{Board, Color, Piece};
use std::time::{Duration, Instant};

/// Features the runner understands (answered `accepted`); others are `rejected`.
const KNOWN_FEATURES: [&str; 26] = [
    "ping",
    "setboard",
    "playother",
    "san",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "nps",
    "debug",
    "memory",
    "smp",
    "egt",
    "option",
    "done",
    "exclude",
    "setscore",
];

/// How long a protocol-2 engine gets to start its `feature` lines (the protocol's rule).
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// Silence while waiting for features after which the engine is nudged with a `ping`.
const NUDGE_AFTER: Duration = Duration::from_millis(250);

pub(super) struct Xboard {
    pub myname: Option<String>,
    pub warnings: Vec<String>,
    pub reuse: bool,
    ping: bool,
    setboard: bool,
    san: bool,
    usermove: bool,
    variants: Option<Vec<String>>,
    chess960: bool,
    timeout: Duration,
    /// `waitlimit=`: the depth-only `st` bound.
    wait_limit: Duration,
    ping_count: u64,
    /// Moves of the game the engine has been told.
    known: usize,
    /// `go` was sent this game: the engine plays its colour.
    playing: bool,
    limits_warned: bool,
    nodes_only: bool,
}

/// Splits a `feature` line into name/value pairs (values may be quoted).
pub(super) fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let rest = line.trim_start().strip_prefix("feature").unwrap_or("");
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            name.push(c);
            chars.next();
        }
        if name.is_empty() {
            break;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'=') {
            chars.next();
            if chars.peek() == Some(&'"') {
                chars.next();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    value.push(c);
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
            }
        }
        out.push((name, value));
    }
    out
}

/// Reads thinking output (`depth score time nodes pv...`): depth, score, nodes. Scores of
/// 100000+N (and below -100000) are mates in N, as the protocol says.
pub(super) fn parse_post(line: &str) -> Option<(u32, Score, u64)> {
    let mut it = line.split_ascii_whitespace();
    let d = it.next()?;
    let digits: String = d.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || !d[digits.len()..].chars().all(|c| ".&+-*".contains(c)) {
        return None;
    }
    let depth = digits.parse().ok()?;
    let score: i64 = it.next()?.parse().ok()?;
    let _time: i64 = it.next()?.parse().ok()?;
    let nodes: u64 = it.next()?.parse().ok()?;
    let score = if score >= 100_000 {
        Score::Mate((score - 100_000).min(10_000) as i32)
    } else if score <= -100_000 {
        Score::Mate(-((-score - 100_000).min(10_000) as i32))
    } else {
        Score::Cp(score as i32)
    };
    Some((depth, score, nodes))
}

/// The `edit` commands that set up `board` (for engines without `setboard`).
fn edit_commands(board: &Board) -> Vec<String> {
    let mut cmds = Vec::new();
    if board.side_to_move() == Color::Black {
        // The protocol's way to give Black the move before `edit`.
        cmds.push("a2a3".to_string());
    }
    cmds.push("edit".into());
    cmds.push("#".into());
    for color in [Color::White, Color::Black] {
        if color == Color::Black {
            cmds.push("c".into());
        }
        for sq in board.colors(color) {
            let p = board.piece_on(sq).unwrap_or(Piece::Pawn);
            cmds.push(format!("{}{}", char::from(p).to_ascii_uppercase(), sq));
        }
    }
    cmds.push(".".into());
    cmds
}

fn minutes_seconds(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    if s.is_multiple_of(60) {
        format!("{}", s / 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

impl Xboard {
    pub fn start(proc: &mut Process, spec: &EngineSpec, variant: Variant) -> Result<Xboard, Fault> {
        let io = |e: String| Fault::new(FaultKind::StartFailed, e);
        proc.send("xboard").map_err(io)?;
        proc.send("protover 2").map_err(io)?;
        let mut x = Xboard {
            myname: None,
            warnings: Vec::new(),
            reuse: true,
            ping: false,
            setboard: false,
            san: false,
            usermove: false,
            variants: None,
            chess960: variant == Variant::Chess960,
            timeout: spec.timeout,
            wait_limit: spec.wait_limit,
            ping_count: 0,
            known: 0,
            playing: false,
            limits_warned: false,
            nodes_only: false,
        };
        let mut options: Vec<String> = Vec::new();
        let mut deadline = Instant::now() + FEATURE_WAIT;
        let mut done = false;
        let mut extended = false;
        let mut r = Reader { proc, bytes: 0 };
        let mut nudges = 0u64;
        while !done {
            let slice = deadline.min(Instant::now() + NUDGE_AFTER);
            let line = match r.next(slice, &|| Fault::new(FaultKind::Hung, "")) {
                Ok((l, _)) => l,
                Err(f) if f.kind == FaultKind::Hung => {
                    if Instant::now() >= deadline {
                        break;
                    }
                    // Some engines (GNU Chess 6) print their features only as more
                    // input arrives: a ping is harmless and gets them going.
                    nudges += 1;
                    r.proc.send(&format!("ping {nudges}")).map_err(io)?;
                    continue;
                }
                Err(f) => return Err(Fault::new(FaultKind::StartFailed, f.detail)),
            };
            if !line.trim_start().starts_with("feature") {
                continue;
            }
            let mut answers = Vec::new();
            for (name, value) in parse_features(&line) {
                let on = value == "1";
                match name.as_str() {
                    "done" if on => done = true,
                    "done" => {
                        extended = true;
                        deadline = Instant::now() + spec.wait_limit;
                    }
                    "ping" => x.ping = on,
                    "setboard" => x.setboard = on,
                    "san" => x.san = on,
                    "usermove" => x.usermove = on,
                    "reuse" => x.reuse = on,
                    "myname" => x.myname = Some(value.clone()),
                    "variants" => {
                        x.variants = Some(value.split(',').map(|v| v.trim().to_string()).collect())
                    }
                    "option" => {
                        options.push(value.split(" -").next().unwrap_or("").trim().to_string())
                    }
                    _ => {}
                }
                if name != "done" {
                    let verdict = if KNOWN_FEATURES.contains(&name.as_str()) {
                        "accepted"
                    } else {
                        "rejected"
                    };
                    answers.push(format!("{verdict} {name}"));
                }
            }
            for a in answers {
                r.proc.send(&a).map_err(io)?;
            }
        }
        if extended && !done {
            return Err(Fault::new(
                FaultKind::StartFailed,
                format!(
                    "sent 'feature done=0' but no 'done=1' within {} s",
                    secs(spec.wait_limit)
                ),
            ));
        }
        // Pongs to the nudges may still come; `sync` waits for a later number.
        x.ping_count = nudges;
        if x.chess960
            && !x
                .variants
                .as_ref()
                .is_some_and(|v| v.iter().any(|v| v == "fischerandom"))
        {
            x.warnings.push(format!(
                "{} does not list 'fischerandom' in its variants; Chess960 games may fail",
                spec.name
            ));
        }
        if let Some(mb) = spec.memory {
            proc.send(&format!("memory {mb}")).map_err(io)?;
        }
        if let Some(c) = spec.cores {
            proc.send(&format!("cores {c}")).map_err(io)?;
        }
        send_options(
            proc,
            spec,
            &spec.options,
            |n| options.iter().any(|o| o == n),
            |n, v| match v {
                Some(v) => format!("option {n}={v}"),
                None => format!("option {n}"),
            },
            &mut x.warnings,
        )?;
        x.sync(proc)
            .map_err(|f| Fault::new(FaultKind::StartFailed, f.detail))?;
        Ok(x)
    }

    /// `ping N` and wait for `pong N` (other lines, stale pongs included, are skipped).
    fn sync(&mut self, proc: &mut Process) -> Result<(), Fault> {
        if !self.ping {
            return Ok(());
        }
        self.ping_count += 1;
        let n = self.ping_count;
        proc.send(&format!("ping {n}"))
            .map_err(|e| Fault::new(FaultKind::Crashed, e))?;
        let deadline = Instant::now() + self.timeout;
        let want = format!("pong {n}");
        let timeout = self.timeout;
        let mut r = Reader { proc, bytes: 0 };
        loop {
            let (line, _) = r.next(deadline, &|| {
                Fault::new(
                    FaultKind::Hung,
                    format!("no 'pong' within {} s", secs(timeout)),
                )
            })?;
            if line.trim() == want {
                return Ok(());
            }
        }
    }

    /// The time-control commands for `limits`, warning once about what the protocol
    /// cannot carry exactly.
    fn limit_commands(&mut self, spec: &EngineSpec, l: &Limits) -> Vec<String> {
        let mut cmds = Vec::new();
        let mut warn = Vec::new();
        self.nodes_only = false;
        if let Some(c) = l.clock {
            if c.base.subsec_nanos() != 0 {
                warn.push(format!(
                    "{}: xboard's 'level' takes whole seconds; base {} s rounded",
                    spec.name,
                    format_seconds(c.base)
                ));
            }
            if c.fractional_increment() {
                warn.push(format!(
                    "{}: fractional increment {} s sent to an xboard engine; some (Crafty 25.2) read it as 0",
                    spec.name,
                    format_seconds(c.inc)
                ));
            }
            cmds.push(format!(
                "level {} {} {}",
                c.moves.unwrap_or(0),
                minutes_seconds(c.base),
                format_seconds(c.inc)
            ));
        }
        if let Some(t) = l.movetime {
            if t.subsec_nanos() != 0 {
                warn.push(format!(
                    "{}: fractional 'st {}' sent to an xboard engine; some read whole seconds only",
                    spec.name,
                    format_seconds(t)
                ));
            }
            cmds.push(format!("st {}", format_seconds(t)));
        }
        if let Some(d) = l.depth {
            cmds.push(format!("sd {d}"));
        }
        if let Some(n) = l.nodes {
            if l.clock.is_none() && l.movetime.is_none() {
                // The protocol's node limit: a node rate and one second per move.
                cmds.push(format!("nps {n}"));
                cmds.push("st 1".into());
                self.nodes_only = true;
            } else {
                warn.push(format!(
                    "{}: xboard has no node limit beside a clock or move time; nodes={n} ignored",
                    spec.name
                ));
            }
        } else if l.clock.is_none() && l.movetime.is_none() {
            // Depth only: keep the engine from a time control of its own choosing.
            cmds.push(format!("st {}", self.wait_limit.as_secs().max(1)));
        }
        if !self.limits_warned {
            self.warnings.extend(warn);
            self.limits_warned = true;
        }
        cmds
    }

    pub fn new_game(
        &mut self,
        proc: &mut Process,
        spec: &EngineSpec,
        setup: &Setup,
    ) -> Result<(), Fault> {
        proc.drain();
        self.chess960 = setup.variant == Variant::Chess960;
        let mut cmds = vec!["new".to_string()];
        if self.chess960 {
            cmds.push("variant fischerandom".into());
        }
        cmds.push("force".into());
        if *setup.start != Board::default() {
            if self.setboard {
                cmds.push(format!("setboard {}", to_fen(setup.start)));
            } else {
                cmds.extend(edit_commands(setup.start));
            }
        }
        cmds.extend(self.limit_commands(spec, &setup.limits));
        cmds.push("post".into());
        cmds.push(if spec.ponder { "hard" } else { "easy" }.into());
        for c in &cmds {
            proc.send(c)
                .map_err(|e| Fault::new(FaultKind::Crashed, e))?;
        }
        self.known = 0;
        self.playing = false;
        self.sync(proc)
    }

    fn move_text(&self, p: &PlyText) -> String {
        let text = if self.san {
            p.san.as_str()
        } else if self.chess960 && p.castle.is_some() {
            p.castle.unwrap_or_default()
        } else {
            p.coord.as_str()
        };
        if self.usermove {
            format!("usermove {text}")
        } else {
            text.to_string()
        }
    }

    pub fn think(&mut self, proc: &mut Process, turn: &Turn) -> Result<Reply, Fault> {
        let crashed = |e: String| Fault::new(FaultKind::Crashed, e);
        let mut clock_lines = Vec::new();
        if let Some(own) = turn.own {
            let opp = turn.opp.unwrap_or(own);
            clock_lines.push(format!("time {}", own.remaining().as_millis() / 10));
            clock_lines.push(format!("otim {}", opp.remaining().as_millis() / 10));
        }
        let missing = &turn.plies[self.known.min(turn.plies.len())..];
        let asked = if self.playing && missing.len() == 1 {
            // The opponent's reply: the engine starts thinking when it arrives.
            for l in &clock_lines {
                proc.send(l).map_err(crashed)?;
            }
            proc.send(&self.move_text(&missing[0])).map_err(crashed)?
        } else {
            if self.playing {
                proc.send("force").map_err(crashed)?;
            }
            for p in missing {
                proc.send(&self.move_text(p)).map_err(crashed)?;
            }
            for l in &clock_lines {
                proc.send(l).map_err(crashed)?;
            }
            self.playing = true;
            proc.send("go").map_err(crashed)?
        };
        self.known = turn.plies.len();
        let deadline = asked + turn.allowance;
        let on_timeout = || timeout_fault(turn);
        let board = turn.pos.board();
        let us = board.side_to_move();
        let mut r = Reader { proc, bytes: 0 };
        let (mut score, mut depth, mut nodes) = (None, None, None);
        loop {
            let (line, at) = r.next(deadline, &on_timeout)?;
            let t = line.trim();
            // `move e2e4`, or the first protocol's `My move is : e2e4` (GNU Chess 6).
            let played = t.strip_prefix("move ").or_else(|| {
                t.strip_prefix("My move is")
                    .and_then(|r| r.trim_start().strip_prefix(':'))
            });
            if let Some(m) = played {
                let m = m.trim();
                let mv = parse_any_move(board, m).map_err(|e| Fault::bad_move(m, &e))?;
                self.known += 1;
                return Ok(Reply {
                    mv,
                    score,
                    depth,
                    nodes,
                    extra: Default::default(),
                    pv: String::new(),
                    used: at.saturating_duration_since(asked),
                    arrived: at,
                    asked,
                });
            }
            if t == "resign" || t.starts_with("resign ") {
                return Err(Fault::new(FaultKind::Resigned, "resigned"));
            }
            let claim = if t.starts_with("1-0") {
                Some(Color::White)
            } else if t.starts_with("0-1") {
                Some(Color::Black)
            } else {
                None
            };
            if claim == Some(!us) {
                return Err(Fault::new(
                    FaultKind::Resigned,
                    format!("resigned ('{}')", t.chars().take(80).collect::<String>()),
                ));
            }
            if t.starts_with("Illegal move") {
                let what = t.chars().take(120).collect::<String>();
                return Err(Fault::new(
                    FaultKind::Garbage,
                    format!("refused a legal move: '{what}'"),
                ));
            }
            if let Some((d, s, n)) = parse_post(t) {
                score = Some(s);
                depth = Some(d);
                nodes = Some(n);
            }
        }
    }

    pub fn game_over(
        &mut self,
        proc: &mut Process,
        result: &str,
        reason: &str,
    ) -> Result<(), String> {
        let reason: String = reason.chars().filter(|&c| c != '{' && c != '}').collect();
        proc.send(&format!("result {result} {{{reason}}}"))?;
        proc.send("force")?;
        self.playing = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_with_quotes() {
        let f = parse_features(
            r#"feature ping=1 myname="Crafty 25.2" variants="normal,nocastle" done=0"#,
        );
        assert_eq!(
            f,
            vec![
                ("ping".into(), "1".into()),
                ("myname".into(), "Crafty 25.2".into()),
                ("variants".into(), "normal,nocastle".into()),
                ("done".into(), "0".into()),
            ]
        );
        assert!(parse_features("feature").is_empty());
    }

    #[test]
    fn thinking_output() {
        assert_eq!(
            parse_post("12 35 120 451233 e4 e5 Nf3"),
            Some((12, Score::Cp(35), 451233))
        );
        assert_eq!(
            parse_post(" 9. -120 5 100 Nf3"),
            Some((9, Score::Cp(-120), 100))
        );
        assert_eq!(
            parse_post("20& 100005 5 100 Qh7#"),
            Some((20, Score::Mate(5), 100))
        );
        assert_eq!(
            parse_post("20 -100003 5 100"),
            Some((20, Score::Mate(-3), 100))
        );
        assert_eq!(parse_post("Hello 1 2 3"), None);
        assert_eq!(parse_post("12 x 1 2"), None);
        assert_eq!(parse_post("1. e4"), None);
    }

    #[test]
    fn edit_sets_up_black_to_move() {
        let b = chess::parse_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        let c = edit_commands(&b);
        assert_eq!(c, ["a2a3", "edit", "#", "Ke1", "Pe2", "c", "Ke8", "."]);
    }

    #[test]
    fn level_base() {
        assert_eq!(minutes_seconds(Duration::from_secs(120)), "2");
        assert_eq!(minutes_seconds(Duration::from_secs(10)), "0:10");
        assert_eq!(minutes_seconds(Duration::from_secs(90)), "1:30");
    }
}
