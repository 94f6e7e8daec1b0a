//! An engine as the match runner sees it: start it, set up a game, ask for a move under
//! the clock, tell it the game is over, close it. [`Engine`] hides the protocol
//! ([`uci`] or [`xboard`]) behind those five calls; everything an engine can do wrong
//! comes back as a [`Fault`] that ends its game.

pub mod process;
mod uci;
mod xboard;

use super::config::{EngineSpec, Protocol, ScoreView, Variant};
use super::timecontrol::{format_seconds, GameClock, Limits};
use crate::chess::{move_to_uci, to_san, MoveParseError, Position};
use cozy_chess::{Board, Color, Move};
use process::{Process, Recv, Registry};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
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

/// An engine's move and what it said about it.
#[derive(Clone, Debug)]
pub struct Reply {
    pub mv: Move,
    /// The last score reported before the move (mover's point of view).
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
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
    /// Its colour.
    pub color: Color,
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

/// The protocol state of a running engine.
enum Proto {
    Uci(uci::Uci),
    Xboard(xboard::Xboard),
}

/// A running engine.
pub struct Engine {
    pub spec: Arc<EngineSpec>,
    proc: Process,
    proto: Proto,
    /// Games started in this process.
    pub games: u32,
    /// Set after a fault or a dropped game: the process should not be trusted again.
    pub dirty: bool,
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
    fn next(
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

impl Engine {
    /// Starts the engine and completes the protocol's handshake (options included).
    pub fn start(
        spec: Arc<EngineSpec>,
        registry: &Registry,
        log: Option<&Path>,
        variant: Variant,
    ) -> Result<Engine, Fault> {
        let defer: process::Defer = match spec.protocol {
            Protocol::Uci => |l| l.starts_with("info"),
            Protocol::Xboard => |l| xboard::parse_post(l).is_some(),
        };
        let mut proc = Process::spawn(&spec.launch, registry, log.is_some(), defer)
            .map_err(|e| Fault::new(FaultKind::StartFailed, e))?;
        proc.log_to(log);
        let proto = match spec.protocol {
            Protocol::Uci => Proto::Uci(uci::Uci::start(&mut proc, &spec, variant)?),
            Protocol::Xboard => Proto::Xboard(xboard::Xboard::start(&mut proc, &spec, variant)?),
        };
        Ok(Engine {
            spec,
            proc,
            proto,
            games: 0,
            dirty: false,
        })
    }

    /// The name the engine gave itself (`id name`, `myname`), if any.
    pub fn id_name(&self) -> Option<&str> {
        match &self.proto {
            Proto::Uci(u) => u.id_name.as_deref(),
            Proto::Xboard(x) => x.myname.as_deref(),
        }
    }

    /// Warnings from the handshake (unknown options, fractional increments, ...).
    pub fn take_warnings(&mut self) -> Vec<String> {
        match &mut self.proto {
            Proto::Uci(u) => std::mem::take(&mut u.warnings),
            Proto::Xboard(x) => std::mem::take(&mut x.warnings),
        }
    }

    /// True when this process can play another game: not dirty, no restart asked for,
    /// and (xboard) the engine did not say `reuse=0`.
    pub fn reusable(&self) -> bool {
        !self.dirty
            && !self.spec.restart
            && match &self.proto {
                Proto::Uci(_) => true,
                Proto::Xboard(x) => x.reuse,
            }
    }

    /// Points the I/O log at another file (the next game's).
    pub fn log_to(&mut self, path: Option<&Path>) {
        self.proc.log_to(path);
    }

    /// Prepares a new game.
    pub fn new_game(&mut self, setup: &Setup) -> Result<(), Fault> {
        self.games += 1;
        let r = match &mut self.proto {
            Proto::Uci(u) => u.new_game(&mut self.proc, &self.spec, setup),
            Proto::Xboard(x) => x.new_game(&mut self.proc, &self.spec, setup),
        };
        if r.is_err() {
            self.dirty = true;
        }
        r
    }

    /// Asks for a move in `turn.pos`.
    pub fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        let r = match &mut self.proto {
            Proto::Uci(u) => u.think(&mut self.proc, turn),
            Proto::Xboard(x) => x.think(&mut self.proc, turn),
        };
        match r {
            Ok(mut reply) => {
                if self.spec.score_view == ScoreView::White
                    && turn.pos.side_to_move() == Color::Black
                {
                    reply.score = reply.score.map(Score::flip);
                }
                Ok(reply)
            }
            Err(f) => {
                if f.kind != FaultKind::Resigned {
                    self.dirty = true;
                }
                Err(f)
            }
        }
    }

    /// Tells the engine the game ended (`result` for xboard engines).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if let Proto::Xboard(x) = &mut self.proto {
            if x.game_over(&mut self.proc, result, reason).is_err() {
                self.dirty = true;
            }
        }
    }

    /// Ends the process politely (`quit`), killing it if it lingers.
    pub fn close(self) {
        let grace = if self.dirty {
            Duration::from_millis(50)
        } else {
            Duration::from_millis(500)
        };
        self.proc.close(&["quit"], grace);
    }
}

/// Seconds with the shortest form, for messages.
pub(crate) fn secs(d: Duration) -> String {
    format_seconds(Duration::from_millis(d.as_millis() as u64))
}
