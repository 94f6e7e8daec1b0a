//! Learning from finished games, as Crafty does it, kept in a durable store.
//!
//! - Book learning (`learn` bit 1): the searches over the first ten moves out of book,
//!   with the rating difference, give a learned value for the book move that led there.
//! - Position learning (bit 2): when a search value falls well below the previous one,
//!   the position searched then (the one where the drop was seen), its score, depth and
//!   best move are remembered (at most 65,536, oldest replaced first) and handed to the
//!   engine, which honours them in every later search, principal variation included
//!   ([`Learner::learned_positions`], `Engine::set_learned`). The search one move earlier
//!   meets that position two plies down and so sees the drop in time to avoid it.
//! - Result learning (bit 4): after losing by mate or resignation, the last book position
//!   where wily had a choice gets its move forbidden.
//! - Every game's opponent, ratings, time control, result and reason, and sampled
//!   training positions (FEN, search score, result) for evaluation tuning.
//!
//! Everything one game teaches is written in one SQLite transaction
//! ([`Learner::after_game`]). Submodules: [`store`] (database, schema, migrations),
//! [`game`] (what a game teaches), [`lrn`] (`book.lrn`/`position.lrn` export and import),
//! [`console`] (`learn`, `import`), [`error`]; the `wily learn ...` command line is
//! [`crate::cli::learn`].
//!
//! May depend on: `chess`, `engine`, `book`, `datadir`. Its `Cargo.toml` lists them and the
//! compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod cli;
pub mod console;
pub mod crafty_export;
pub mod crafty_lrn;
pub mod error;
pub mod game;
pub mod lrn;
pub mod stats;
pub mod store;

pub use error::LearnError;
pub use game::{GameOutcome, GameRecord, LearnReport, SearchRecord};
pub use store::Store;

use book::LearnedValues;
use chess::fen::parse_fen;
use cozy_chess::{Board, Move};
use engine::LearnedPosition;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Most positions position learning keeps.
pub const MAX_POSITIONS: usize = 65_536;

/// `learn N` bits.
pub const LEARN_BOOK: u8 = 1;
pub const LEARN_POSITION: u8 = 2;
pub const LEARN_RESULT: u8 = 4;

/// Learning settings.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnSettings {
    /// `learn N`: 1 book, 2 position, 4 result (default 7, all).
    pub mode: u8,
    /// Fraction (0..=1) of wily's searched positions kept as training samples.
    pub sample_rate: f64,
    /// Position learning: how far (centipawns) a search value must fall below the
    /// previous search's before the position is remembered.
    pub position_drop: i32,
    /// Position learning: the least search depth worth remembering.
    pub position_min_depth: i32,
    /// Most positions kept (oldest replaced first).
    pub max_positions: usize,
    /// The learning log: each game's learned book line appended in Crafty's `book.lrn`
    /// format (players, date, `{value, depth, rating_difference}`), for sharing, and the
    /// positions it taught to `position.lrn` in the same folder
    /// ([`game::position_log_path`]).
    pub lrn_log: Option<std::path::PathBuf>,
}

impl Default for LearnSettings {
    fn default() -> Self {
        LearnSettings {
            mode: LEARN_BOOK | LEARN_POSITION | LEARN_RESULT,
            sample_rate: 0.25,
            position_drop: 50,
            position_min_depth: 4,
            max_positions: MAX_POSITIONS,
            lrn_log: None,
        }
    }
}

/// A remembered position (see [`Learner::learned_positions`] for the engine's form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtSeed {
    /// `cozy_chess::Board::hash()` of the position.
    pub hash: u64,
    pub mv: Move,
    /// Centipawns from the side to move.
    pub score: i32,
    pub depth: i32,
}

impl From<TtSeed> for LearnedPosition {
    fn from(s: TtSeed) -> LearnedPosition {
        LearnedPosition {
            key: s.hash,
            mv: s.mv,
            score: s.score,
            depth: s.depth,
        }
    }
}

/// A learned book value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookValue {
    pub value: i32,
    pub depth: i32,
    pub games: u32,
}

/// The learning store plus in-memory copies of what the book and the engine consult
/// on every move (so a probe never touches the database).
#[derive(Debug)]
pub struct Learner {
    store: Store,
    pub settings: LearnSettings,
    book_values: HashMap<(u64, Move), BookValue>,
    forbidden: HashSet<(u64, Move)>,
    /// Polyglot key -> seed.
    positions: HashMap<u64, TtSeed>,
}

impl Learner {
    /// Opens (or creates) the store at `path` and loads what it knows.
    pub fn open(path: &Path) -> Result<Learner, LearnError> {
        let store = Store::open(path)?;
        let mut l = Learner {
            store,
            settings: LearnSettings::default(),
            book_values: HashMap::new(),
            forbidden: HashSet::new(),
            positions: HashMap::new(),
        };
        l.load()?;
        Ok(l)
    }

    /// The default store path (`learn.db` in the book folder, see
    /// [`datadir::book_dir`]).
    pub fn default_path() -> PathBuf {
        datadir::book_dir().join("learn.db")
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn path(&self) -> &Path {
        self.store.path()
    }

    pub fn mode(&self) -> u8 {
        self.settings.mode
    }

    /// Sets the `learn N` bitmask (0..=7).
    pub fn set_mode(&mut self, mode: u8) -> Result<(), LearnError> {
        if mode > 7 {
            return Err(LearnError::Usage(
                "learn N: N is 0-7 (1 book, 2 position, 4 result)".to_string(),
            ));
        }
        self.settings.mode = mode;
        Ok(())
    }

    /// Re-reads the in-memory copies from the database.
    pub fn load(&mut self) -> Result<(), LearnError> {
        let path = self.store.path().to_path_buf();
        let err = |op| {
            let path = path.clone();
            move |e| store::sql_err(&path, op, e)
        };
        let conn = &self.store.conn;
        self.book_values.clear();
        self.forbidden.clear();
        self.positions.clear();
        let mut q = conn
            .prepare("SELECT key, mv, fen, value, depth, games FROM book_learn")
            .map_err(err("read book learning"))?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })
            .map_err(err("read book learning"))?;
        for row in rows {
            let (key, mv, fen, value, depth, games) = row.map_err(err("read book learning"))?;
            if let Some(mv) = legal_move(&fen, &mv) {
                self.book_values.insert(
                    (key as u64, mv),
                    BookValue {
                        value: value.clamp(-32_000, 32_000) as i32,
                        depth: depth.clamp(0, 1000) as i32,
                        games: games.clamp(0, i64::from(u32::MAX)) as u32,
                    },
                );
            }
        }
        let mut q = conn
            .prepare("SELECT key, mv, fen FROM forbidden")
            .map_err(err("read result learning"))?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(err("read result learning"))?;
        for row in rows {
            let (key, mv, fen) = row.map_err(err("read result learning"))?;
            if let Some(mv) = legal_move(&fen, &mv) {
                self.forbidden.insert((key as u64, mv));
            }
        }
        let mut q = conn
            .prepare("SELECT key, fen, score, depth, best FROM positions")
            .map_err(err("read position learning"))?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<String>>(4)?,
                ))
            })
            .map_err(err("read position learning"))?;
        for row in rows {
            let (key, fen, score, depth, best) = row.map_err(err("read position learning"))?;
            if let Some(seed) = make_seed(&fen, best.as_deref(), score, depth) {
                self.positions.insert(key as u64, seed);
            }
        }
        Ok(())
    }

    /// The learned value of a book move, whatever the `learn` bits say.
    pub fn book_value_raw(&self, key: u64, mv: Move) -> Option<BookValue> {
        self.book_values.get(&(key, mv)).copied()
    }

    /// The remembered positions (empty when position learning is off).
    pub fn tt_seeds(&self) -> Vec<TtSeed> {
        let mut out = Vec::new();
        self.for_each_tt_seed(|s| out.push(*s));
        out
    }

    /// The remembered positions in the engine's form (empty when position learning is
    /// off). Hand them over whenever they change: `engine.set_learned(&learner
    /// .learned_positions())`; the engine keeps them across new games and hash clears.
    pub fn learned_positions(&self) -> Vec<LearnedPosition> {
        let mut out = Vec::new();
        self.for_each_tt_seed(|s| out.push(LearnedPosition::from(*s)));
        out
    }

    /// Calls `f` for every remembered position without copying them (nothing when
    /// position learning is off).
    pub fn for_each_tt_seed(&self, f: impl FnMut(&TtSeed)) {
        if self.settings.mode & LEARN_POSITION != 0 {
            self.positions.values().for_each(f);
        }
    }

    /// Counts of what is known: (book values, positions, forbidden moves).
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.book_values.len(),
            self.positions.len(),
            self.forbidden.len(),
        )
    }
}

impl LearnedValues for Learner {
    fn book_value(&self, key: u64, mv: Move) -> Option<i32> {
        if self.settings.mode & LEARN_BOOK == 0 {
            return None;
        }
        self.book_values.get(&(key, mv)).map(|v| v.value)
    }

    fn is_forbidden(&self, key: u64, mv: Move) -> bool {
        self.settings.mode & LEARN_RESULT != 0 && self.forbidden.contains(&(key, mv))
    }
}

/// Parses a stored move (cozy-chess coordinates) and checks it is legal in `fen`.
pub(crate) fn legal_move(fen: &str, mv: &str) -> Option<Move> {
    let board = parse_fen(fen).ok()?;
    legal_move_on(&board, mv)
}

pub(crate) fn legal_move_on(board: &Board, mv: &str) -> Option<Move> {
    let mv: Move = mv.parse().ok()?;
    board.is_legal(mv).then_some(mv)
}

fn make_seed(fen: &str, best: Option<&str>, score: i64, depth: i64) -> Option<TtSeed> {
    let board = parse_fen(fen).ok()?;
    let mv = legal_move_on(&board, best?)?;
    Some(TtSeed {
        hash: board.hash(),
        mv,
        score: score.clamp(-32_000, 32_000) as i32,
        depth: depth.clamp(0, 255) as i32,
    })
}
