//! The bot's link to the opening book and the learning store: one shared
//! [`BookAndLearning`] behind the session's [`BookSource`] (book moves within the
//! opponent's book width, consulting learned values, the static evaluation for the
//! `bookw eval` term and, with `engine.book_search_ms`, a short search among the book
//! moves as `book random 0` does) and the driver's [`LearnSink`]
//! (book, position and result learning and opponent statistics after every game, in one
//! transaction). A missing or damaged book or store is logged and the bot plays on
//! without it.

use crate::hooks::{BookPick, BookSource, LearnSink, Results};
use crate::input::{EndKind, FinishedGame};
use book::{Book, BookPaths, BookTable, ChooseHooks, LearnedValues, NoLearning};
use config::Config;
use cozy_chess::{Board, Move};
use engine::eval::{EvalParams, Evaluator};
use engine::{Engine, EngineOptions, LearnedPosition};
use learn::{GameOutcome, GameRecord, Learner, SearchRecord};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The book and the learner, shared by the two hooks.
pub struct BookAndLearning {
    pub book: Option<Book>,
    pub learner: Option<Learner>,
    /// Static evaluation for the `bookw eval` term.
    evaluator: Evaluator,
    /// `engine.book_search_ms` > 0 (`book random 0`): a small engine of its own (the
    /// game's engine is busy on its own thread) searching only the kept book moves.
    book_search: Option<(Engine, Duration)>,
    /// `paths.training_positions`: each finished game's positions go there
    /// (`play/positions.rs`).
    positions: Option<std::path::PathBuf>,
    /// Games the learning store took, and those it refused (`/metrics`).
    writes: (u64, u64),
}

impl BookAndLearning {
    /// Runs `f` with the book (if any) and the selection hooks: learned values, the
    /// static evaluation and, when configured, the short search among the book moves.
    fn with_hooks<T>(&mut self, f: impl FnOnce(&mut Book, &mut ChooseHooks) -> T) -> Option<T> {
        let BookAndLearning {
            book,
            learner,
            evaluator,
            book_search,
            ..
        } = self;
        let book = book.as_mut()?;
        let learned: &dyn LearnedValues = match learner {
            Some(l) => &*l,
            None => &NoLearning,
        };
        let mut eval = |b: &Board| evaluator.evaluate(b);
        let mut search;
        let mut hooks = ChooseHooks::new(learned);
        hooks.eval = Some(&mut eval);
        if let Some((engine, time)) = book_search.as_mut() {
            let time = *time;
            search = move |b: &Board, moves: &[Move]| engine.best_of(b, moves, time);
            hooks.search = Some(&mut search);
        }
        Some(f(book, &mut hooks))
    }
}

type Shared = Arc<Mutex<BookAndLearning>>;

/// Opens the book (`paths.book`) and the learning store (`paths.learning`) named in the
/// settings; problems are logged, never fatal.
pub fn open(cfg: &Config) -> (BookHook, LearnHook) {
    let mut book = if cfg.engine.book {
        let (mut b, errors) = Book::load(BookPaths::in_dir(&cfg.paths.book));
        for e in errors {
            tracing::warn!("book: {e}");
        }
        b.settings.enabled = true;
        Some(b)
    } else {
        None
    };
    let learner = if cfg.engine.learn > 0 {
        match Learner::open(&cfg.paths.learning) {
            Ok(mut l) => {
                if let Err(e) = l.set_mode(cfg.engine.learn) {
                    tracing::warn!("learning: {e}");
                }
                l.settings.lrn_log = cfg.paths.learning_log_file();
                Some(l)
            }
            Err(e) => {
                tracing::error!(
                    "learning store {}: {e}; playing without learning",
                    cfg.paths.learning.display()
                );
                None
            }
        }
    } else {
        None
    };
    let book_search = (cfg.engine.book_search_ms > 0).then(|| {
        let engine = Engine::new(EngineOptions {
            threads: 1,
            hash_mb: 4,
            ..EngineOptions::default()
        });
        (engine, Duration::from_millis(cfg.engine.book_search_ms))
    });
    if let Some(b) = book.as_mut() {
        b.settings.random = book_search.is_none();
    }
    let shared = Arc::new(Mutex::new(BookAndLearning {
        book,
        learner,
        evaluator: Evaluator::new(EvalParams::default()),
        book_search,
        positions: cfg.paths.training_positions.clone(),
        writes: (0, 0),
    }));
    (BookHook(shared.clone()), LearnHook(shared))
}

/// The session's book.
pub struct BookHook(Shared);

impl BookHook {
    /// The candidate table the next [`BookSource::pick`] would draw from (tests, `show
    /// book`-like diagnostics); `None` without a book.
    pub fn table(&self, board: &Board, width: u32) -> Option<BookTable> {
        let mut g = self.0.lock().ok()?;
        g.with_hooks(|book, hooks| {
            book.settings.width = (width as usize).clamp(1, 99);
            book.table(board, hooks)
        })
    }
}

impl BookSource for BookHook {
    fn pick(&mut self, board: &Board, width: u32) -> Option<BookPick> {
        let mut g = self.0.lock().ok()?;
        let (mv, candidates, searched) =
            g.with_hooks(|book, hooks| book.pick(board, width as usize, hooks))??;
        Some(BookPick {
            mv,
            candidates,
            searched,
        })
    }

    fn results(&mut self, opponent: Option<&str>) -> Option<Results> {
        let g = self.0.lock().ok()?;
        match g.learner.as_ref()?.results(opponent) {
            Ok(s) => Some(Results {
                games: s.games.max(0) as u64,
                wins: s.wins.max(0) as u64,
                draws: s.draws.max(0) as u64,
                losses: s.losses.max(0) as u64,
            }),
            Err(e) => {
                tracing::warn!("learning store: {e}");
                None
            }
        }
    }
}

/// The driver's learning hook.
pub struct LearnHook(Shared);

/// The learning store's view of a finished game.
pub fn learn_record(f: &FinishedGame) -> GameRecord {
    let book_exit_ply = f
        .searches
        .iter()
        .find(|(_, s)| s.is_some())
        .map(|(ply, _)| *ply);
    let searches = f
        .searches
        .iter()
        .filter_map(|(ply, s)| {
            s.map(|(score, depth)| SearchRecord {
                ply: *ply,
                score,
                depth: depth as i32,
                best: None,
            })
        })
        .collect();
    let reason = match f.kind {
        EndKind::Checkmate => "checkmate".to_string(),
        EndKind::Resignation => "resignation".to_string(),
        EndKind::Time => "time".to_string(),
        EndKind::Disconnection => "disconnection".to_string(),
        EndKind::Adjourned => "adjourned".to_string(),
        EndKind::Aborted => "abort".to_string(),
        EndKind::Adjudication => "adjudication".to_string(),
        EndKind::Draw | EndKind::Other => f.record.end_text.to_ascii_lowercase(),
    };
    GameRecord {
        start_fen: f.record.start_fen.clone(),
        moves: f.moves.clone(),
        wily_color: f.wily_color,
        book_exit_ply,
        searches,
        opponent: f.opponent.clone(),
        wily_rating: f.wily_rating.map(|r| r as i32),
        opponent_rating: f.opponent_rating.map(|r| r as i32),
        time_control: f.record.time_control.clone(),
        outcome: GameOutcome::from_pgn(&f.record.result),
        reason,
    }
}

impl LearnSink for LearnHook {
    fn game_finished(&mut self, f: &FinishedGame) {
        let Ok(mut g) = self.0.lock() else {
            return;
        };
        let BookAndLearning {
            book,
            learner,
            positions,
            writes,
            ..
        } = &mut *g;
        if let Some(path) = positions.as_deref() {
            match crate::play::positions::append_game(path, f) {
                Ok(n) => tracing::info!("{n} training positions appended to {}", path.display()),
                Err(e) => tracing::error!("training positions: {e}"),
            }
        }
        let Some(learner) = learner.as_mut() else {
            return;
        };
        let rec = learn_record(f);
        match learner.after_game(&rec, book.as_ref()) {
            Ok(r) => {
                writes.0 += 1;
                tracing::info!("learned from the game against {}: {r:?}", f.opponent)
            }
            Err(e) => {
                writes.1 += 1;
                tracing::error!("learning after the game against {}: {e}", f.opponent)
            }
        }
    }

    fn store_writes(&self) -> (u64, u64) {
        self.0.lock().map(|g| g.writes).unwrap_or_default()
    }

    fn learned_positions(&self) -> Vec<LearnedPosition> {
        let Ok(g) = self.0.lock() else {
            return Vec::new();
        };
        g.learner
            .as_ref()
            .map(Learner::learned_positions)
            .unwrap_or_default()
    }
}
