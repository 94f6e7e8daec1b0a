//! The engines of a match as read from the command line or the TOML match file
//! ([`EngineSpec`]: command, protocol, options, limits), and the small choices the whole
//! match shares (variant, pairing, PGN output); the match as a whole is
//! [`super::settings::MatchSettings`].

use super::engine::process::Launch;
use super::timecontrol::Limits;
use book::PolyglotBook;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A Polyglot opening book the runner plays from on an engine's behalf (`book=FILE
/// bookdepth=N`): while the position is in the book, the engine is not asked.
#[derive(Clone)]
pub struct EngineBook {
    pub path: PathBuf,
    /// Book moves only up to this full move number (`None`: as long as the book has one).
    pub depth: Option<u32>,
    pub book: Arc<PolyglotBook>,
}

impl std::fmt::Debug for EngineBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineBook")
            .field("path", &self.path)
            .field("depth", &self.depth)
            .finish_non_exhaustive()
    }
}

/// The engine's protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    /// CECP v2 (xboard / WinBoard).
    Xboard,
}

/// Whose point of view an engine's reported scores take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreView {
    /// The side to move's (the protocols' rule).
    Mover,
    /// White's (some xboard engines, Crafty 25.2 among them).
    White,
}

/// The chess variant played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Standard,
    /// Fischer random chess.
    Chess960,
}

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Its name in the PGN and the tables (unique in the match).
    pub name: String,
    /// True when `name=` gave it; otherwise the engine's `id name` replaces it when the
    /// match starts (see [`super::names`]).
    pub name_given: bool,
    /// Program, arguments and working directory.
    pub launch: Launch,
    pub protocol: Protocol,
    /// Engine options: UCI `setoption`, xboard `option NAME=VALUE`, in the given order.
    pub options: Vec<(String, String)>,
    /// Its own time control (time odds when engines differ).
    pub limits: Limits,
    /// Start a fresh process for every game.
    pub restart: bool,
    pub score_view: ScoreView,
    /// Extra time a move may take past the clock before it loses on time.
    pub time_margin: Duration,
    /// `timeout=`: how long an answer that should come at once (`readyok` before a
    /// game, `pong`) may take before the engine counts as hung.
    pub timeout: Duration,
    /// `waitlimit=`: how long to wait for the start-up handshake and for a move with no
    /// clock or move time (depth and node limits).
    pub wait_limit: Duration,
    /// xboard `memory` (megabytes).
    pub memory: Option<u64>,
    /// xboard `cores`.
    pub cores: Option<u32>,
    /// The runner's book for this engine.
    pub book: Option<EngineBook>,
    /// Let the engine think on the opponent's time (`ponder`: UCI `go ponder` and
    /// `ponderhit`, xboard `hard`).
    pub ponder: bool,
}

/// How games are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// The first engine plays each of the others.
    Gauntlet,
    /// Every engine plays every other.
    RoundRobin,
    /// Every engine plays all of those before it, one engine's games after another's.
    Pyramid,
    /// Single elimination: pairings of the bracket, winners going on (`-seeds N` places
    /// the first N engines apart).
    Knockout,
}

/// Where the PGN goes and how much it says.
#[derive(Clone, Debug)]
pub struct PgnSpec {
    pub path: PathBuf,
    /// c-chess-cli's levels: 0 tags and result only; 1 the moves; 2 `{+0.35/18}` after
    /// each engine move; 3 `{+0.35/18 1.2s}` (time used too).
    pub verbosity: u8,
    /// What else each move's comment carries (fastchess's `-pgnout` names).
    pub extras: PgnExtras,
}

/// The PGN comment's extras, each off unless asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnExtras {
    pub nodes: bool,
    pub seldepth: bool,
    pub nps: bool,
    pub hashfull: bool,
    pub tbhits: bool,
    pub timeleft: bool,
    pub latency: bool,
}

impl PgnExtras {
    /// Sets the extra `key` (`nodes`, `seldepth`, `nps`, `hashfull`, `tbhits`,
    /// `timeleft`, `latency`); false when `key` is none of them.
    pub fn set(&mut self, key: &str, on: bool) -> bool {
        let f = match key {
            "nodes" => &mut self.nodes,
            "seldepth" => &mut self.seldepth,
            "nps" => &mut self.nps,
            "hashfull" => &mut self.hashfull,
            "tbhits" => &mut self.tbhits,
            "timeleft" => &mut self.timeleft,
            "latency" => &mut self.latency,
            _ => return false,
        };
        *f = on;
        true
    }
}
