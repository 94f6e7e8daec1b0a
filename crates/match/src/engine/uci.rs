//! The UCI side of the runner: `uci`/`uciok` with the engine's options, `setoption`,
//! `ucinewgame` + `isready`, then per move `position ... moves ...` and `go` with the
//! clocks or limits, reading `info` lines for the score and `bestmove` for the move.
//! With pondering on, the engine's `bestmove X ponder Y` is followed by `position ... X Y`
//! and `go ponder ...` while the opponent thinks; the opponent's move is then answered
//! with `ponderhit` when it was Y (the engine's clock runs from there), else with `stop`,
//! the stale `bestmove` read and dropped, and the usual `position` and `go`.

use super::process::Process;
use super::types::{
    secs, send_options, Fault, FaultKind, InfoExtra, Reader, Reply, Score, Setup, Turn,
};
use crate::config::{EngineSpec, Variant};
use crate::timecontrol::Limits;
use chess::fen::to_fen;
use chess::move_from_uci;
use cozy_chess::{Board, Color};
use std::fmt::Write;
use std::time::{Duration, Instant};

pub(super) struct Uci {
    pub id_name: Option<String>,
    pub warnings: Vec<String>,
    chess960: bool,
    /// `position startpos` or `position fen ...` for the current game.
    position: String,
    limits: Limits,
    /// Pondering is on (`ponder` in the engine's settings).
    ponder: bool,
    /// The ponder move of the engine's last `bestmove`.
    ponder_move: Option<String>,
    /// A `go ponder` is running, on this expected move.
    pondering: Option<String>,
}

/// What one `info` line says.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Info {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub extra: InfoExtra,
}

/// Reads an `info` line's depth, score and nodes (and seldepth, nps, hashfull, tbhits,
/// time); lines for a second PV are ignored.
pub(super) fn parse_info(line: &str) -> Info {
    let mut info = Info::default();
    let mut it = line.split_ascii_whitespace().skip(1);
    while let Some(tok) = it.next() {
        match tok {
            "depth" => info.depth = it.next().and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = it.next().and_then(|v| v.parse().ok()),
            "seldepth" => info.extra.seldepth = it.next().and_then(|v| v.parse().ok()),
            "nps" => info.extra.nps = it.next().and_then(|v| v.parse().ok()),
            "hashfull" => info.extra.hashfull = it.next().and_then(|v| v.parse().ok()),
            "tbhits" => info.extra.tbhits = it.next().and_then(|v| v.parse().ok()),
            "time" => info.extra.time_ms = it.next().and_then(|v| v.parse().ok()),
            "multipv" if it.next().and_then(|v| v.parse::<u32>().ok()).unwrap_or(1) > 1 => {
                return Info::default();
            }
            "score" => {
                let kind = it.next();
                let v = it.next().and_then(|v| v.parse::<i32>().ok());
                info.score = match (kind, v) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
            }
            // Free text or the move list: nothing after it is a field.
            "string" | "pv" | "refutation" | "currline" => break,
            _ => {}
        }
    }
    info
}

fn expect_line(
    proc: &mut Process,
    want: &str,
    timeout: Duration,
    what: &str,
) -> Result<Vec<String>, Fault> {
    let deadline = Instant::now() + timeout;
    let mut r = Reader { proc, bytes: 0 };
    let mut seen = Vec::new();
    loop {
        let on_timeout = || {
            Fault::new(
                FaultKind::StartFailed,
                format!("no '{want}' within {} s after '{what}'", secs(timeout)),
            )
        };
        let (line, _) = r.next(deadline, &on_timeout)?;
        if line.trim() == want {
            return Ok(seen);
        }
        seen.push(line);
    }
}

impl Uci {
    pub fn start(proc: &mut Process, spec: &EngineSpec, variant: Variant) -> Result<Uci, Fault> {
        let io = |e: String| Fault::new(FaultKind::StartFailed, e);
        proc.send("uci").map_err(io)?;
        let lines = expect_line(proc, "uciok", spec.wait_limit, "uci")?;
        let mut id_name = None;
        let mut options = Vec::new();
        for l in &lines {
            if let Some(n) = l.strip_prefix("id name ") {
                id_name = Some(n.trim().to_string());
            } else if let Some(rest) = l.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                options.push(name.to_ascii_lowercase());
            }
        }
        let mut u = Uci {
            id_name,
            warnings: Vec::new(),
            chess960: variant == Variant::Chess960,
            position: String::new(),
            limits: spec.limits,
            ponder: spec.ponder,
            ponder_move: None,
            pondering: None,
        };
        let mut set = spec.options.clone();
        let has =
            |set: &[(String, String)], n: &str| set.iter().any(|(k, _)| k.eq_ignore_ascii_case(n));
        if let Some(mb) = spec.memory {
            if !has(&set, "Hash") {
                set.push(("Hash".into(), mb.to_string()));
            }
        }
        if let Some(c) = spec.cores {
            if !has(&set, "Threads") {
                set.push(("Threads".into(), c.to_string()));
            }
        }
        if u.chess960 {
            set.push(("UCI_Chess960".into(), "true".into()));
        }
        if spec.ponder && !has(&set, "Ponder") {
            set.push(("Ponder".into(), "true".into()));
        }
        send_options(
            proc,
            spec,
            &set,
            |n| options.contains(&n.to_ascii_lowercase()),
            |n, v| match v {
                Some(v) => format!("setoption name {n} value {v}"),
                None => format!("setoption name {n}"),
            },
            &mut u.warnings,
        )?;
        proc.send("isready").map_err(io)?;
        expect_line(proc, "readyok", spec.wait_limit, "isready")?;
        Ok(u)
    }

    pub fn new_game(
        &mut self,
        proc: &mut Process,
        spec: &EngineSpec,
        setup: &Setup,
    ) -> Result<(), Fault> {
        proc.drain();
        self.limits = setup.limits;
        self.ponder_move = None;
        self.pondering = None;
        let crashed = |e: String| Fault::new(FaultKind::Crashed, e);
        // A Chess960 position in a standard match (or back): the engine is told.
        let chess960 = setup.variant == Variant::Chess960;
        if chess960 != self.chess960 {
            self.chess960 = chess960;
            proc.send(&format!("setoption name UCI_Chess960 value {chess960}"))
                .map_err(crashed)?;
        }
        self.position = if *setup.start == Board::default() && !self.chess960 {
            "position startpos".to_string()
        } else {
            format!("position fen {}", to_fen(setup.start))
        };
        proc.send("ucinewgame").map_err(crashed)?;
        proc.send("isready").map_err(crashed)?;
        expect_line(proc, "readyok", spec.timeout, "ucinewgame")
            .map(|_| ())
            .map_err(|f| match f.kind {
                FaultKind::StartFailed => Fault::new(FaultKind::Hung, f.detail),
                _ => f,
            })
    }

    fn go_line(&self, turn: &Turn) -> String {
        self.go_line_for("go", turn.pos.side_to_move(), turn)
    }

    /// `go` (or `go ponder`) for `stm` to move, `turn.own` being `stm`'s clock.
    fn go_line_for(&self, head: &str, stm: Color, turn: &Turn) -> String {
        let mut go = String::from(head);
        let l = &self.limits;
        if let Some(own) = turn.own {
            let opp = turn.opp.unwrap_or(own);
            let (w, b) = match stm {
                Color::White => (own, opp),
                Color::Black => (opp, own),
            };
            let _ = write!(
                go,
                " wtime {} btime {}",
                w.remaining().as_millis(),
                b.remaining().as_millis()
            );
            if !w.increment().is_zero() || !b.increment().is_zero() {
                let _ = write!(
                    go,
                    " winc {} binc {}",
                    w.increment().as_millis(),
                    b.increment().as_millis()
                );
            }
            if let Some(m) = own.moves_to_go() {
                let _ = write!(go, " movestogo {m}");
            }
        }
        if let Some(t) = l.movetime {
            let _ = write!(go, " movetime {}", t.as_millis());
        }
        if let Some(d) = l.depth {
            let _ = write!(go, " depth {d}");
        }
        if let Some(n) = l.nodes {
            let _ = write!(go, " nodes {n}");
        }
        if go == "go" {
            go.push_str(" infinite");
        }
        go
    }

    /// `position ...` with the game's moves and `extra` after them.
    fn position_line(&self, turn: &Turn, extra: Option<&str>) -> String {
        let mut pos = String::with_capacity(self.position.len() + 16 + turn.plies.len() * 6);
        pos.push_str(&self.position);
        if !turn.plies.is_empty() || extra.is_some() {
            pos.push_str(" moves");
            for p in turn.plies.iter().map(|p| p.coord.as_str()).chain(extra) {
                pos.push(' ');
                pos.push_str(p);
            }
        }
        pos
    }

    /// Starts pondering after the engine's own move: `turn` is the opponent's turn (its
    /// position, the moves so far, `own` this engine's clock). Nothing happens without
    /// pondering on or a legal ponder move.
    pub fn start_ponder(&mut self, proc: &mut Process, turn: &Turn) -> Result<(), Fault> {
        let Some(pm) = self.ponder_move.take() else {
            return Ok(());
        };
        if !self.ponder || move_from_uci(turn.pos.board(), &pm, self.chess960).is_err() {
            return Ok(());
        }
        let crashed = |e: String| Fault::new(FaultKind::Crashed, e);
        let stm = !turn.pos.side_to_move();
        proc.send(&self.position_line(turn, Some(&pm)))
            .map_err(crashed)?;
        proc.send(&self.go_line_for("go ponder", stm, turn))
            .map_err(crashed)?;
        self.pondering = Some(pm);
        Ok(())
    }

    /// Ends a running ponder search (the game is over): `stop`; the stale `bestmove` is
    /// skipped by the next game's `isready`.
    pub fn stop_ponder(&mut self, proc: &mut Process) -> Result<(), String> {
        if self.pondering.take().is_some() {
            proc.send("stop")?;
        }
        Ok(())
    }

    pub fn think(&mut self, proc: &mut Process, turn: &Turn) -> Result<Reply, Fault> {
        let crashed = |e: String| Fault::new(FaultKind::Crashed, e);
        let asked = match self.pondering.take() {
            Some(pm) if turn.plies.last().map(|p| p.coord.as_str()) == Some(pm.as_str()) => {
                proc.send("ponderhit").map_err(crashed)?
            }
            other => {
                if other.is_some() {
                    // A ponder miss: the search on the wrong move is stopped and its
                    // bestmove dropped before the real question.
                    proc.send("stop").map_err(crashed)?;
                    let deadline = Instant::now() + turn.allowance;
                    let on_timeout = || timeout_fault(turn);
                    let mut r = Reader { proc, bytes: 0 };
                    loop {
                        let (line, _) = r.next(deadline, &on_timeout)?;
                        if line.starts_with("bestmove") {
                            break;
                        }
                    }
                }
                proc.send(&self.position_line(turn, None))
                    .map_err(crashed)?;
                proc.send(&self.go_line(turn)).map_err(crashed)?
            }
        };
        let deadline = asked + turn.allowance;
        let on_timeout = || timeout_fault(turn);
        let mut r = Reader { proc, bytes: 0 };
        let mut last = Info::default();
        let mut pv_text = String::new();
        loop {
            let (line, at) = r.next(deadline, &on_timeout)?;
            let mut words = line.split_ascii_whitespace();
            match words.next() {
                Some("info") => {
                    let i = parse_info(&line);
                    if i.score.is_some() {
                        last.score = i.score;
                    }
                    last.depth = i.depth.or(last.depth);
                    last.nodes = i.nodes.or(last.nodes);
                    let (e, o) = (&mut last.extra, i.extra);
                    e.seldepth = o.seldepth.or(e.seldepth);
                    e.nps = o.nps.or(e.nps);
                    e.hashfull = o.hashfull.or(e.hashfull);
                    e.tbhits = o.tbhits.or(e.tbhits);
                    e.time_ms = o.time_ms.or(e.time_ms);
                    if let Some((_, pv)) = line.split_once(" pv ") {
                        if i.score.is_some() {
                            pv_text.clear();
                            pv_text.push_str(pv.trim());
                        }
                    }
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("");
                    let board = turn.pos.board();
                    let mv = move_from_uci(board, text, self.chess960)
                        .map_err(|e| Fault::bad_move(text, &e))?;
                    if self.ponder && words.next() == Some("ponder") {
                        self.ponder_move = words.next().map(str::to_string);
                    }
                    return Ok(Reply {
                        mv,
                        score: last.score,
                        depth: last.depth,
                        nodes: last.nodes,
                        extra: last.extra,
                        pv: pv_text,
                        used: at.saturating_duration_since(asked),
                        arrived: at,
                        asked,
                    });
                }
                _ => {}
            }
        }
    }
}

/// The fault for a move that never came: a loss on time under a clock or move time, a
/// hang otherwise.
pub(super) fn timeout_fault(turn: &Turn) -> Fault {
    if turn.timed {
        Fault::new(
            FaultKind::TimeForfeit,
            format!("no move within {} s", secs(turn.allowance)),
        )
    } else {
        Fault::new(
            FaultKind::Hung,
            format!("no move within {} s", secs(turn.allowance)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let i = parse_info("info depth 12 seldepth 18 multipv 1 score cp -35 lowerbound nodes 12345 nps 1 hashfull 7 tbhits 3 time 45 pv e2e4 e7e5");
        assert_eq!(
            i,
            Info {
                score: Some(Score::Cp(-35)),
                depth: Some(12),
                nodes: Some(12345),
                extra: InfoExtra {
                    seldepth: Some(18),
                    nps: Some(1),
                    hashfull: Some(7),
                    tbhits: Some(3),
                    time_ms: Some(45),
                },
            }
        );
        let i = parse_info("info depth 30 score mate -4 pv a1a2");
        assert_eq!(i.score, Some(Score::Mate(-4)));
        assert_eq!(
            parse_info("info multipv 2 depth 5 score cp 10"),
            Info::default()
        );
        let i = parse_info("info string score cp 999 depth 99");
        assert_eq!(i, Info::default());
        let i = parse_info("info score cp banana depth x");
        assert_eq!(i, Info::default());
    }
}
