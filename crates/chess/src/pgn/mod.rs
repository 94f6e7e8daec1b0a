//! PGN games: the parsed game type, replaying a game's SAN into a `Position`, and the
//! streaming reader ([`PgnReader`]) and writer ([`write_game`]) in submodules.

mod reader;
mod writer;

pub use reader::{PgnError, PgnErrorKind, PgnReader, MAX_NESTING};
pub use writer::{write_game, write_game_ending, write_pgn_game};

use super::coord::MoveParseError;
use super::fen::{parse_fen, FenError};
use super::position::Position;
use super::san::parse_san;
use cozy_chess::{Board, Move};
use std::fmt;

/// One move of a game's main line as written in the PGN.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnMove {
    /// The move text with move numbers and annotation glyphs removed (`Nf3`, `exd8=Q+`).
    pub san: String,
    /// Numeric annotation glyphs (`$1`, or `!` read as 1, `?` as 2, `!!` 3, `??` 4,
    /// `!?` 5, `?!` 6).
    pub nags: Vec<u8>,
    /// The comment(s) following the move, joined by a space.
    pub comment: Option<String>,
    /// The variations written right after the move, each an alternative to it (played
    /// from the position before it): their moves, each with the variations written after
    /// it in turn, to any depth (up to [`MAX_NESTING`] levels). Inside a variation
    /// only the moves are kept (`san` and `variations`; no NAGs or comments).
    pub variations: Vec<Vec<PgnMove>>,
}

/// A game read from PGN: the main line, and with each move the variations written
/// after it (with theirs, to any depth).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Main-line moves.
    pub moves: Vec<PgnMove>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`); from the `Result` tag or `*`
    /// when the movetext has none.
    pub result: String,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The 1-based line where the game starts in its file.
    pub line: usize,
}

/// Why a game's moves could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The `FEN` tag is not a legal position.
    BadFen(FenError),
    /// A `Variant` tag wily does not play.
    UnsupportedVariant(String),
    /// A move that is not legal (or not readable) at the given ply.
    BadMove {
        /// 0-based ply of the move in the game.
        ply: usize,
        /// The move as written.
        san: String,
        /// Why it failed.
        error: MoveParseError,
    },
}

impl ReplayError {
    /// The ply where replay stopped (0 for errors before the first move).
    pub fn ply(&self) -> usize {
        match self {
            ReplayError::BadMove { ply, .. } => *ply,
            _ => 0,
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            ReplayError::UnsupportedVariant(v) => write!(f, "unsupported variant '{v}'"),
            ReplayError::BadMove { ply, san, error } => write!(
                f,
                "move {}{} '{san}': {error}",
                ply / 2 + 1,
                if ply % 2 == 0 { "." } else { "..." }
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

impl PgnGame {
    /// The value of a tag (first occurrence, exact name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// True when the game starts from a set-up position (`FEN` tag).
    pub fn has_setup(&self) -> bool {
        self.tag("FEN").is_some()
    }

    /// The starting board: the `FEN` tag when present, else the standard position.
    /// A `Variant` other than standard chess or Chess960 is refused.
    pub fn start_board(&self) -> Result<Board, ReplayError> {
        if let Some(v) = self.tag("Variant") {
            let v_l = v.to_ascii_lowercase();
            let ok = [
                "",
                "standard",
                "chess",
                "normal",
                "chess960",
                "fischerandom",
                "chess 960",
                "fischer random",
                "from position",
            ]
            .contains(&v_l.trim());
            if !ok {
                return Err(ReplayError::UnsupportedVariant(v.to_string()));
            }
        }
        match self.tag("FEN") {
            Some(fen) => parse_fen(fen).map_err(ReplayError::BadFen),
            None => Ok(Board::default()),
        }
    }

    /// Replays the main line: the start board and the legal moves.
    pub fn replay_moves(&self) -> Result<(Board, Vec<Move>), ReplayError> {
        let start = self.start_board()?;
        let mut board = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (ply, m) in self.moves.iter().enumerate() {
            let mv = parse_san(&board, &m.san).map_err(|error| ReplayError::BadMove {
                ply,
                san: m.san.clone(),
                error,
            })?;
            board.play_unchecked(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    }

    /// Replays the main line into a [`Position`] (with its full history).
    pub fn replay(&self) -> Result<Position, ReplayError> {
        let start = self.start_board()?;
        let mut pos = Position::new(start);
        for (ply, m) in self.moves.iter().enumerate() {
            let mv = parse_san(pos.board(), &m.san).map_err(|error| ReplayError::BadMove {
                ply,
                san: m.san.clone(),
                error,
            })?;
            // parse_san only returns legal moves.
            pos.play_unchecked(mv);
        }
        Ok(pos)
    }
}

/// Replays a game into a [`Position`]; on failure, the ply reached and the error.
pub fn replay(game: &PgnGame) -> Result<Position, (usize, ReplayError)> {
    game.replay().map_err(|e| (e.ply(), e))
}
