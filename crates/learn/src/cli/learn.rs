//! The `wily learn ...` command line (argument definitions and actions; `src/main.rs`
//! only routes to them), including the hidden `stress-write` used by the crash test.

use crate::{GameOutcome, GameRecord, Learner, SearchRecord};
use clap::Subcommand;
use cozy_chess::{Board, Color, Move};
use std::io::Write;
use std::path::PathBuf;

/// `wily learn ...`
#[derive(Subcommand, Debug)]
pub enum LearnCmd {
    /// Show what the learning store holds.
    Status {
        /// The store (default book/learn.db).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Write book.lrn and position.lrn into DIR (default: beside the store).
    Export {
        dir: Option<PathBuf>,
        #[arg(long)]
        db: Option<PathBuf>,
        /// book.lrn in Crafty's format: the line from the start, the players, the date
        /// and {value, depth, rating difference} per learned move.
        #[arg(long)]
        crafty: bool,
    },
    /// Read a book.lrn or position.lrn file into the store.
    Import {
        file: PathBuf,
        /// Replace what is known of that kind instead of merging.
        #[arg(long)]
        clear: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Check the store's integrity (SQLite integrity_check).
    Check {
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Write synthetic games to the store as fast as possible, printing `committed N`
    /// after each (used to test that a kill -9 never damages the store).
    #[command(hide = true)]
    StressWrite {
        #[arg(long)]
        db: PathBuf,
        /// Stop after this many games (default: never).
        #[arg(long)]
        games: Option<u64>,
    },
}

fn open(db: Option<PathBuf>) -> Result<Learner, String> {
    Learner::open(&db.unwrap_or_else(Learner::default_path)).map_err(|e| e.to_string())
}

/// Opens a store that must already exist (reading commands never create one).
fn open_existing(db: Option<PathBuf>) -> Result<Learner, String> {
    let path = db.unwrap_or_else(Learner::default_path);
    if !path.exists() {
        return Err(format!(
            "no learning store at {} (wily creates it after its first game)",
            path.display()
        ));
    }
    Learner::open(&path).map_err(|e| e.to_string())
}

/// Number of searches (and so of training samples) in each stress-write game.
pub const STRESS_SEARCHES: usize = 40;

/// A synthetic game for the stress writer: a legal random-looking walk of 80 plies.
fn stress_game(n: u64) -> GameRecord {
    let mut board = Board::default();
    let mut moves = Vec::new();
    let mut searches = Vec::new();
    let mut x = n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for ply in 0..2 * STRESS_SEARCHES {
        let mut legal: Vec<Move> = Vec::new();
        board.generate_moves(|ms| {
            legal.extend(ms);
            false
        });
        if legal.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv = legal[(x % legal.len() as u64) as usize];
        if ply % 2 == 0 {
            searches.push(SearchRecord {
                ply,
                score: (x % 200) as i32 - 100,
                depth: 8,
                best: Some(mv),
            });
        }
        moves.push(mv);
        board.play_unchecked(mv);
    }
    let mut rec = GameRecord::new(moves, Color::White, GameOutcome::Draw, "agreement");
    rec.searches = searches;
    rec.opponent = format!("stress{}", n % 7);
    rec.time_control = "1+0".to_string();
    rec
}

/// Runs `wily learn ...`.
pub fn run_learn(cmd: LearnCmd) -> Result<String, String> {
    match cmd {
        LearnCmd::Status { db } => {
            let l = open_existing(db)?;
            crate::console::status(&l).map_err(|e| e.to_string())
        }
        LearnCmd::Export { dir, db, crafty } => {
            let l = open_existing(db)?;
            let dir = dir.unwrap_or_else(|| {
                l.path()
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .map(|p| p.to_path_buf())
                    .unwrap_or_else(|| PathBuf::from("."))
            });
            if crafty {
                return l
                    .export_crafty(&dir)
                    .map(|s| s.render())
                    .map_err(|e| e.to_string());
            }
            let (b, p) = l.export(&dir).map_err(|e| e.to_string())?;
            Ok(format!("wrote {} and {}\n", b.display(), p.display()))
        }
        LearnCmd::Import { file, clear, db } => {
            let mut l = open(db)?;
            let s = l.import(&file, clear).map_err(|e| e.to_string())?;
            Ok(s.render(&file))
        }
        LearnCmd::Check { db } => {
            let l = open_existing(db)?;
            l.store().integrity_check().map_err(|e| e.to_string())?;
            Ok(format!("{}: ok\n", l.path().display()))
        }
        LearnCmd::StressWrite { db, games } => {
            let mut l = Learner::open(&db).map_err(|e| e.to_string())?;
            l.settings.sample_rate = 1.0;
            let out = std::io::stdout();
            let mut n = 0u64;
            while games.is_none_or(|g| n < g) {
                let rec = stress_game(n);
                l.after_game(&rec, None).map_err(|e| e.to_string())?;
                n += 1;
                let mut o = out.lock();
                let _ = writeln!(o, "committed {n}");
                let _ = o.flush();
            }
            Ok(String::new())
        }
    }
}
