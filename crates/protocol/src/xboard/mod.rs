//! xboard / WinBoard (CECP v2) front end: `wily xboard`, or `xboard` typed at the console.
//!
//! [`command`] parses lines, [`features`] answers `protover 2`, [`session`] reads the input
//! and handles commands, [`search`] runs thinking, pondering and analysis, [`notation`]
//! writes moves (Fischer random castling as `O-O`/`O-O-O`), [`opponent`] tunes for the
//! opponent xboard names in ICS mode and learns from each game, and [`state`] holds what
//! they share. The console hands over to [`run_continued`] with what carries over
//! ([`Carried`]); xboard itself imports nothing of the console.

pub mod command;
pub mod features;
pub mod notation;
pub mod opponent;
pub mod search;
pub mod session;
pub mod state;

use crate::gamefiles::GameFiles;
use crate::input;
use crate::runner::Runner;
use engine::{Engine, EngineOptions};
use state::{Session, XbConfig};
use std::path::PathBuf;

/// `wily xboard`: speaks CECP on stdin/stdout until `quit` or end of input. Game files go
/// to `log_dir` (default `logs`).
pub fn run(log_dir: Option<PathBuf>) -> Result<(), String> {
    let cfg = XbConfig::default();
    let engine = Engine::new(EngineOptions {
        hash_mb: cfg.hash_mb,
        threads: cfg.threads,
        draw_score: cfg.draw_score,
        ..EngineOptions::default()
    });
    let runner = Runner::new(engine);
    input::spawn_into(std::io::stdin(), runner.sender());
    let files = GameFiles::new(log_dir.unwrap_or_else(|| PathBuf::from("logs")), true);
    let mut s = Session::new(runner, files, cfg);
    let (book, problems) = crate::books::load_books();
    for p in problems {
        s.send(&format!("# book: {p}"));
    }
    s.book = book;
    open_learning(&mut s);
    s.run();
    Ok(())
}

/// Opens the learning store when one exists (the server bot's, or one the console made):
/// book choices then use learned values and forbidden moves, and the engine the learned
/// positions. A damaged store is reported as a `#` line and play goes on without it.
fn open_learning(s: &mut Session) {
    if s.learner.is_none() {
        let path = learn::Learner::default_path();
        if !path.exists() {
            return;
        }
        match learn::Learner::open(&path) {
            Ok(l) => s.learner = Some(l),
            Err(e) => {
                s.send(&format!("# learn: {e}"));
                return;
            }
        }
    }
    if let Some(l) = s.learner.as_ref() {
        s.runner.engine.set_learned(&l.learned_positions());
    }
}

/// What carries over when the console switches to xboard: its engine and input thread,
/// game files, books, learning store and the settings the two share.
pub struct Carried {
    pub runner: Runner,
    pub files: GameFiles,
    pub cfg: XbConfig,
    pub opponent: Option<String>,
    pub opponent_is_computer: bool,
    pub book: book::Book,
    pub learner: Option<learn::Learner>,
}

/// Continues in xboard mode after `xboard` was typed at the console (or sent as the first
/// line by an interface), with what the console carried over.
pub fn run_continued(c: Carried) -> Result<(), String> {
    let mut files = c.files;
    files.start_new_game();
    let mut s = Session::new(c.runner, files, c.cfg);
    s.opponent = c.opponent;
    s.opponent_is_computer = c.opponent_is_computer;
    s.book = c.book;
    s.learner = c.learner;
    open_learning(&mut s);
    // An interface sends `xboard` then `protover`; that first `xboard` line is answered by
    // the newline xboard expects after it.
    let _ = crate::stdout::line("");
    s.run();
    Ok(())
}
