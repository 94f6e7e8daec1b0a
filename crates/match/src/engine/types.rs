//! What the two protocol drivers share: scores, replies, faults, a move's text forms,
//! the game set-up and a move request, reading an engine's lines against a deadline, and
//! sending engine options.

use super::process::{self, Process, Recv};
use crate::config::{EngineSpec, Protocol, Variant};
use crate::timecontrol::{format_seconds, GameClock, Limits};
use chess::{move_to_uci, to_san, MoveParseError, Position};
use cozy_chess::{Board, Move};
use std::fmt;
use std::time::{Duration, Instant};

/// A score as an engine reported it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in N moves (negative: the mover is mated).
    Mate(i32),
}

impl Score {
    /// The score from the other side's point of view.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }

    /// Centipawns for comparisons: mates as ±100,000 less the distance.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m >= 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }
}

impl fmt::Display for Score {
    /// `+0.35`, `-1.20`, `+M5`, `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(c) => write!(
                f,
                "{}{:.2}",
                if c >= 0 { "+" } else { "-" },
                c.abs() as f64 / 100.0
            ),
            Score::Mate(m) => write!(f, "{}M{}", if m >= 0 { "+" } else { "-" }, m.abs()),
        }
    }
}

/// What else the last `info` lines said about a move (for the PGN's extras).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoExtra {
    pub seldepth: Option<u32>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    /// The engine's own `time` (ms).
    pub time_ms: Option<u64>,
}

/// An engine's move and what it said about it.
#[derive(Clone, Debug)]
pub struct Reply {
    pub mv: Move,
    /// The last score reported before the move (mover's point of view).
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The rest of the last `info` lines (UCI only).
    pub extra: InfoExtra,
    /// The principal variation of the last `info ... pv` line, as sent (UCI only; empty
    /// when none came).
    pub pv: String,
    /// Time from the runner's `go` (or move) to the move, by the runner's measurement.
    pub used: Duration,
    /// When the move arrived.
    pub arrived: Instant,
    /// When the request that started the search was written.
    pub asked: Instant,
}

/// How an engine lost its game other than over the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The engine gave up (`resign`, or claimed its own loss).
    Resigned,
    /// It would not start or answer the start-up handshake.
    StartFailed,
    /// Its process ended or closed its output.
    Crashed,
    /// No move (or answer) in the time allowed without a clock.
    Hung,
    /// Its clock ran out.
    TimeForfeit,
    /// An illegal or unreadable move, or it refused a legal one.
    IllegalMove,
    /// Output that is not the protocol (a flood of it, or lines too long).
    Garbage,
}

/// Why an engine lost, in words for the PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Self {
        Fault {
            kind,
            detail: detail.into(),
        }
    }

    /// An engine's move that is not a legal move: `'e2e5' (not legal in this position)`.
    pub fn bad_move(text: &str, err: &MoveParseError) -> Self {
        let why = match err {
            MoveParseError::Empty => "no move".to_string(),
            MoveParseError::Syntax { reason, .. } => format!("not a move: {reason}"),
            MoveParseError::Illegal { reason, .. } => reason.clone(),
            MoveParseError::Ambiguous { candidates, .. } => {
                format!("ambiguous: {}", candidates.join(", "))
            }
        };
        let shown: String = text.chars().take(40).collect();
        Fault::new(FaultKind::IllegalMove, format!("'{shown}' ({why})"))
    }
}

/// Text forms of one move of the game, made once and shared by both engines.
#[derive(Clone, Debug)]
pub struct PlyText {
    /// Coordinate notation for the game's variant (`e1g1`, or `e1h1` in Chess960).
    pub coord: String,
    /// Standard algebraic notation.
    pub san: String,
    /// `O-O` or `O-O-O` for castling (how xboard writes Chess960 castling).
    pub castle: Option<&'static str>,
}

impl PlyText {
    /// The texts of `mv` played on `board`.
    pub fn new(board: &Board, mv: Move, chess960: bool) -> PlyText {
        let us = board.side_to_move();
        let castle = (mv.from == board.king(us) && board.color_on(mv.to) == Some(us)).then_some(
            if mv.to.file() > mv.from.file() {
                "O-O"
            } else {
                "O-O-O"
            },
        );
        PlyText {
            coord: move_to_uci(board, mv, chess960),
            san: to_san(board, mv),
            castle,
        }
    }
}

/// What an engine needs to know to set up a game.
pub struct Setup<'a> {
    pub start: &'a Board,
    pub variant: Variant,
    /// This engine's limits.
    pub limits: Limits,
}

/// One request for a move.
pub struct Turn<'a> {
    pub pos: &'a Position,
    /// Every move of the game so far.
    pub plies: &'a [PlyText],
    /// The mover's and the opponent's clocks, when they have one.
    pub own: Option<&'a GameClock>,
    pub opp: Option<&'a GameClock>,
    /// How long the move may take before it loses on time or counts as a hang.
    pub allowance: Duration,
    /// Whether running out of `allowance` is a loss on time (clock or move time) rather
    /// than a hang.
    pub timed: bool,
}

/// Most output accepted while waiting for one answer.
const FLOOD_BYTES: usize = 16 << 20;

/// Reads lines until `deadline`, turning the end of output and overlong or flooding
/// output into faults. `on_timeout` is the fault for a timeout.
pub(crate) struct Reader<'a> {
    pub proc: &'a mut Process,
    pub bytes: usize,
}

impl Reader<'_> {
    pub(crate) fn next(
        &mut self,
        deadline: Instant,
        on_timeout: &dyn Fn() -> Fault,
    ) -> Result<(String, Instant), Fault> {
        match self.proc.recv(deadline) {
            Recv::Line(l, at, cut) => {
                self.bytes += l.len() + 1;
                if cut {
                    return Err(Fault::new(
                        FaultKind::Garbage,
                        format!("wrote a line longer than {} bytes", process::MAX_LINE),
                    ));
                }
                if self.bytes > FLOOD_BYTES {
                    return Err(Fault::new(
                        FaultKind::Garbage,
                        format!("wrote over {} MiB without answering", FLOOD_BYTES >> 20),
                    ));
                }
                Ok((l, at))
            }
            Recv::Eof => {
                let how = self.proc.death();
                Err(Fault::new(FaultKind::Crashed, format!("crashed ({how})")))
            }
            Recv::Timeout => Err(on_timeout()),
        }
    }
}

/// Sends each engine option as `line(name, value)` (a button when the value is empty),
/// warning about names `listed` says the engine did not announce (they are sent anyway).
pub(crate) fn send_options(
    proc: &mut Process,
    spec: &EngineSpec,
    options: &[(String, String)],
    listed: impl Fn(&str) -> bool,
    line: impl Fn(&str, Option<&str>) -> String,
    warnings: &mut Vec<String>,
) -> Result<(), Fault> {
    let proto = match spec.protocol {
        Protocol::Uci => "UCI",
        Protocol::Xboard => "xboard",
    };
    for (name, value) in options {
        if !listed(name) {
            warnings.push(format!(
                "{} does not list the {proto} option '{name}' (sent anyway)",
                spec.name
            ));
        }
        let text = line(name, (!value.is_empty()).then_some(value.as_str()));
        proc.send(&text)
            .map_err(|e| Fault::new(FaultKind::StartFailed, e))?;
    }
    Ok(())
}

/// Seconds with the shortest form, for messages.
pub(crate) fn secs(d: Duration) -> String {
    format_seconds(Duration::from_millis(d.as_millis() as u64))
}
