//! The opening books and the learning store as the console and xboard use them: loading
//! the books from their default places, and the selection hooks (learned values, the
//! static evaluation, a short search for `book random 0`) a book choice runs with.

use book::{Book, BookPaths, ChooseHooks, LearnedValues, NoLearning};
use cozy_chess::{Board, Move};
use engine::eval::Evaluator;
use engine::Engine;
use learn::Learner;
use std::time::Duration;

/// Time for a `book random 0` search among the book moves.
const BOOK_SEARCH_TIME: Duration = Duration::from_millis(500);

/// Loads the books from their default places; problems become messages.
pub fn load_books() -> (Book, Vec<String>) {
    let (book, errors) = Book::load(BookPaths::default());
    (book, errors.into_iter().map(|e| e.to_string()).collect())
}

/// Runs `f` with selection hooks: learned values from the store when it is open, the
/// static evaluation, and a short search for `book random 0`.
pub fn with_hooks<T>(
    engine: &mut Engine,
    learner: Option<&Learner>,
    f: impl FnOnce(&mut ChooseHooks) -> T,
) -> T {
    let learned: &dyn LearnedValues = match learner {
        Some(l) => l,
        None => &NoLearning,
    };
    let mut evaluator = Evaluator::new(engine.eval_params().clone());
    let mut eval = |b: &Board| evaluator.evaluate(b);
    let mut search = |b: &Board, moves: &[Move]| engine.best_of(b, moves, BOOK_SEARCH_TIME);
    let mut hooks = ChooseHooks::new(learned);
    hooks.eval = Some(&mut eval);
    hooks.search = Some(&mut search);
    f(&mut hooks)
}
