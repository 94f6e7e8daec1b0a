//! The `wily book ...` and `wily books ...` command lines (argument definitions and their
//! actions; `src/main.rs` only routes to them). Here rather than in `book/` because
//! `book show --learn` opens the learning store, which sits above the book.

use crate::Learner;
use book::console::parse_create;
use book::create::{create_big_from_pgn, create_small_from_pgn};
use book::{Book, BookPaths, ChooseHooks, LearnedValues, NoLearning};
use chess::fen::parse_fen;
use chess::san::parse_any_move;
use clap::Subcommand;
use cozy_chess::Board;
use std::path::PathBuf;

/// `wily book ...`
#[derive(Subcommand, Debug)]
pub enum BookCmd {
    /// Build the big book from a PGN file of any size: keep the first M plies of each
    /// game, moves played in at least N games, and moves that won at least WPCT percent
    /// as often as they lost.
    Create {
        /// The PGN file.
        file: PathBuf,
        /// Plies kept from each game.
        m: u16,
        /// Least number of games a move needs (default 1).
        n: Option<u16>,
        /// Least wins as a percentage of losses (default 0: keep all).
        wpct: Option<u16>,
        /// Where to write the book (default book/book.wbk).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// List the book moves of a position with every number the choice uses.
    Show {
        /// The position (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from that position first (SAN or coordinates, space separated).
        #[arg(long)]
        moves: Option<String>,
        /// The big book (default book/book.wbk).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The small book (default book/books.wbk).
        #[arg(long)]
        small: Option<PathBuf>,
        /// A Polyglot .bin book as an extra source.
        #[arg(long)]
        polyglot: Option<PathBuf>,
        /// A learning store whose values and forbidden moves to apply.
        #[arg(long)]
        learn: Option<PathBuf>,
        /// `book width`.
        #[arg(long)]
        width: Option<usize>,
    },
    /// Check the book files and print what they hold.
    Info {
        #[arg(long)]
        book: Option<PathBuf>,
        #[arg(long)]
        small: Option<PathBuf>,
    },
}

/// `wily books ...`
#[derive(Subcommand, Debug)]
pub enum BooksCmd {
    /// Build the small hand-edited book (`!`, `?`, `{play NN%}` annotations) from a PGN.
    Create {
        file: PathBuf,
        /// Plies kept from each line.
        m: u16,
        /// Where to write it (default book/books.wbk).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
}

fn paths(book: Option<PathBuf>, small: Option<PathBuf>, polyglot: Option<PathBuf>) -> BookPaths {
    let default = BookPaths::default();
    BookPaths {
        big: book.unwrap_or(default.big),
        small: small.unwrap_or(default.small),
        polyglot,
    }
}

/// Runs `wily book ...`; the text to print or an error message.
pub fn run_book(cmd: BookCmd) -> Result<String, String> {
    match cmd {
        BookCmd::Create {
            file,
            m,
            n,
            wpct,
            out,
        } => {
            let mut args = vec![file.to_string_lossy().into_owned(), m.to_string()];
            if let Some(n) = n {
                args.push(n.to_string());
            }
            if let Some(w) = wpct {
                if n.is_none() {
                    args.push("1".to_string());
                }
                args.push(w.to_string());
            }
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let (_, mut opts, _) = parse_create(&refs).map_err(|e| e.to_string())?;
            opts.progress = true;
            let out = out.unwrap_or_else(|| BookPaths::default().big);
            let summary = create_big_from_pgn(&file, &out, &opts).map_err(|e| e.to_string())?;
            Ok(summary.render(&out))
        }
        BookCmd::Show {
            fen,
            moves,
            book,
            small,
            polyglot,
            learn,
            width,
        } => {
            let mut board = match fen {
                Some(f) => parse_fen(&f).map_err(|e| format!("bad --fen: {e}"))?,
                None => Board::default(),
            };
            for m in moves.as_deref().unwrap_or("").split_whitespace() {
                let mv = parse_any_move(&board, m).map_err(|e| format!("bad move {m}: {e}"))?;
                board.play_unchecked(mv);
            }
            let mut b = Book::open(paths(book, small, polyglot)).map_err(|e| e.to_string())?;
            if let Some(w) = width {
                b.settings.width = w.clamp(1, 99);
            }
            let learner = match learn {
                Some(p) if !p.exists() => {
                    return Err(format!("no learning store at {}", p.display()))
                }
                Some(p) => Some(Learner::open(&p).map_err(|e| e.to_string())?),
                None => None,
            };
            let none = NoLearning;
            let learned: &dyn LearnedValues = match &learner {
                Some(l) => l,
                None => &none,
            };
            let mut hooks = ChooseHooks::new(learned);
            Ok(b.table(&board, &mut hooks).render(&board))
        }
        BookCmd::Info { book, small } => {
            let b = Book::open(paths(book, small, None)).map_err(|e| e.to_string())?;
            Ok(b.describe())
        }
    }
}

/// Runs `wily books ...`.
pub fn run_books(cmd: BooksCmd) -> Result<String, String> {
    match cmd {
        BooksCmd::Create { file, m, out } => {
            if m == 0 {
                return Err("M (plies kept from each line) must be at least 1".to_string());
            }
            let out = out.unwrap_or_else(|| BookPaths::default().small);
            let summary = create_small_from_pgn(&file, &out, m).map_err(|e| e.to_string())?;
            Ok(summary.render(&out))
        }
    }
}
