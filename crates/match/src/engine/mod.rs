//! An engine as the match runner sees it: start it, set up a game, ask for a move under
//! the clock, tell it the game is over, close it. [`Engine`] hides the protocol
//! ([`uci`] or [`xboard`]) behind those five calls; everything an engine can do wrong
//! comes back as a [`Fault`] that ends its game. The types the protocols share are in
//! [`types`].

pub mod process;
pub mod types;
mod uci;
mod xboard;

pub use types::{Fault, FaultKind, InfoExtra, PlyText, Reply, Score, Setup, Turn};

use super::config::{EngineSpec, Protocol, ScoreView, Variant};
use cozy_chess::Color;
use process::{Process, Registry};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

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

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.proc.pid()
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

    /// Lets the engine think on the opponent's time after its own move (UCI `go
    /// ponder`; xboard engines ponder by themselves after `hard`). `turn` is the
    /// opponent's turn, with this engine's clock as `own`.
    pub fn ponder(&mut self, turn: &Turn) {
        if let Proto::Uci(u) = &mut self.proto {
            if u.start_ponder(&mut self.proc, turn).is_err() {
                self.dirty = true;
            }
        }
    }

    /// Tells the engine the game ended (`result` for xboard engines; a UCI engine's
    /// ponder search is stopped).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        let r = match &mut self.proto {
            Proto::Xboard(x) => x.game_over(&mut self.proc, result, reason),
            Proto::Uci(u) => u.stop_ponder(&mut self.proc),
        };
        if r.is_err() {
            self.dirty = true;
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
