//! The bot's two outside collaborators, as traits so the session can be tested without
//! them: the opening book (a move for a position, within a book width) and the learning
//! hooks run after every game.

use crate::input::FinishedGame;
use cozy_chess::{Board, Move};
use engine::LearnedPosition;

/// A book move chosen for a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookPick {
    pub mv: Move,
    /// The candidates with their shares, for whisper level 4 (`e4 45%, d4 30%`).
    pub candidates: String,
    /// A search among the book moves chose it (`engine.book_search_ms`).
    pub searched: bool,
}

/// The opening book as the bot uses it.
pub trait BookSource: Send {
    /// A move for `board` among the first `width` candidates, or `None` out of book.
    fn pick(&mut self, board: &Board, width: u32) -> Option<BookPick>;

    /// The learning store's results, from wily's side: of every game (`None`) or of the
    /// games against one opponent; `None` without a store (the public `record`
    /// command). The book and the store are one collaborator (`learning.rs`).
    fn results(&mut self, _opponent: Option<&str>) -> Option<Results> {
        None
    }
}

/// Games, wins, draws and losses, from wily's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Results {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// No book at all.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoBook;

impl BookSource for NoBook {
    fn pick(&mut self, _: &Board, _: u32) -> Option<BookPick> {
        None
    }
}

/// Learning after each game (book, position and result learning; opponent statistics).
pub trait LearnSink: Send {
    /// Called once per finished game; errors are logged by the implementation.
    fn game_finished(&mut self, game: &FinishedGame);

    /// Position learning: the learned positions the engine consults in every search
    /// (see `Engine::set_learned`).
    fn learned_positions(&self) -> Vec<LearnedPosition> {
        Vec::new()
    }

    /// Games written to the learning store so far, and those it could not take (for
    /// `/metrics`).
    fn store_writes(&self) -> (u64, u64) {
        (0, 0)
    }
}

/// Learns nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoLearning;

impl LearnSink for NoLearning {
    fn game_finished(&mut self, _: &FinishedGame) {}
}
