//! xboard / WinBoard (CECP v2) front end: `wily xboard`, or `xboard` typed at the console.
//!
//! [`command`] parses lines, [`features`] answers `protover 2`, [`session`] holds the state
//! and handles commands, [`search`] runs thinking, pondering and analysis, [`notation`]
//! writes moves (Fischer random castling as `O-O`/`O-O-O`).

pub mod command;
pub mod features;
pub mod notation;
pub mod search;
pub mod session;

use crate::engine::{Engine, EngineOptions};
use crate::protocol::console::Console;
use crate::protocol::gamefiles::GameFiles;
use crate::protocol::input;
use crate::protocol::runner::Runner;
use session::{Session, XbConfig};
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
    let (book, problems) = crate::protocol::console::book::load_books();
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
        let path = crate::learn::Learner::default_path();
        if !path.exists() {
            return;
        }
        match crate::learn::Learner::open(&path) {
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

/// Continues in xboard mode after `xboard` was typed at the console (or sent as the first
/// line by an interface): the console's engine, input thread, game files and settings
/// carry over.
pub fn run_from_console(c: Console) -> Result<(), String> {
    let st = &c.settings;
    let cfg = XbConfig {
        hash_mb: (st.hash_bytes >> 20).max(1),
        threads: st.threads,
        ponder: st.ponder,
        draw_score: st.draw_score,
        resign: st.resign,
        resign_count: st.resign_count,
        whisper: st.whisper,
        kibitz: st.kibitz,
        noise: st.noise,
    };
    let mut files = c.files;
    files.start_new_game();
    let mut s = Session::new(c.runner, files, cfg);
    s.opponent = c.settings.opponent_name.clone();
    s.opponent_is_computer = c.settings.opponent_is_computer;
    s.book = c.book;
    s.learner = c.learner;
    open_learning(&mut s);
    // An interface sends `xboard` then `protover`; that first `xboard` line is answered by
    // the newline xboard expects after it.
    let _ = crate::protocol::stdout::line("");
    s.run();
    Ok(())
}
