//! The bot's link to the opening book and the learning store: one shared
//! [`BookAndLearning`] behind the session's [`BookSource`] (book moves within the
//! opponent's book width, consulting learned values) and the driver's [`LearnSink`]
//! (book, position and result learning and opponent statistics after every game, in one
//! transaction). A missing or damaged book or store is logged and the bot plays on
//! without it.

use super::hooks::{BookPick, BookSource, LearnSink};
use super::input::{EndKind, FinishedGame};
use crate::book::{Book, BookPaths, NoLearning};
use crate::config::Config;
use crate::engine::LearnedPosition;
use crate::learn::{GameOutcome, GameRecord, Learner, SearchRecord};
use cozy_chess::Board;
use std::sync::{Arc, Mutex};

/// The book and the learner, shared by the two hooks.
pub struct BookAndLearning {
    pub book: Option<Book>,
    pub learner: Option<Learner>,
}

type Shared = Arc<Mutex<BookAndLearning>>;

/// Opens the book (`paths.book`) and the learning store (`paths.learning`) named in the
/// settings; problems are logged, never fatal.
pub fn open(cfg: &Config) -> (BookHook, LearnHook) {
    let book = if cfg.engine.book {
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
    let shared = Arc::new(Mutex::new(BookAndLearning { book, learner }));
    (BookHook(shared.clone()), LearnHook(shared))
}

/// The session's book.
pub struct BookHook(Shared);

impl BookSource for BookHook {
    fn pick(&mut self, board: &Board, width: u32) -> Option<BookPick> {
        let mut g = self.0.lock().ok()?;
        let BookAndLearning { book, learner } = &mut *g;
        let book = book.as_mut()?;
        let (mv, candidates) = match learner {
            Some(l) => book.pick(board, width as usize, &*l)?,
            None => book.pick(board, width as usize, &NoLearning)?,
        };
        Some(BookPick { mv, candidates })
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
        let BookAndLearning { book, learner } = &mut *g;
        let Some(learner) = learner.as_mut() else {
            return;
        };
        let rec = learn_record(f);
        match learner.after_game(&rec, book.as_ref()) {
            Ok(r) => tracing::info!("learned from the game against {}: {r:?}", f.opponent),
            Err(e) => tracing::error!("learning after the game against {}: {e}", f.opponent),
        }
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
