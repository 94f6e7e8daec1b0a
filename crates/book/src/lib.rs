//! The opening book: wily's own book files (a big one built from master games and a small
//! hand-edited one), Polyglot books as an extra source, merged at probe time, and the
//! choice of a book move (`book random`, `bookw`, `book width`, `show book`).
//!
//! Submodules: [`format`] (the book file), [`polyglot`] (Polyglot `.bin` reader),
//! [`create`] (`book create` / `books create`), [`select`] (choosing a move),
//! [`console`] (the `book`, `books`, `bookw` and `show book` commands), [`atomic`]
//! (atomic file replacement), [`error`]. The `wily book`/`wily books` command lines are
//! in `wily_learn::cli::book`.
//!
//! May depend on: `chess`, `engine`, `datadir`. Its `Cargo.toml` lists them and the
//! compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod atomic;
pub mod console;
pub mod create;
pub mod error;
pub mod format;
pub mod polyglot;
pub mod select;

pub use error::BookError;
pub use format::{BookEntry, BookFile, BookHeader, BookKind};
pub use polyglot::PolyglotBook;
pub use select::{
    BookChoice, BookSettings, BookTable, BookWeights, ChooseHooks, LearnedValues, NoLearning,
};

use chess::polyglot::{decode_move, polyglot_key};
use cozy_chess::{Board, Move};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::{Path, PathBuf};

/// Where the book files live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPaths {
    pub big: PathBuf,
    pub small: PathBuf,
    /// An optional Polyglot `.bin` book, probed when wily's own books have no move.
    pub polyglot: Option<PathBuf>,
}

impl Default for BookPaths {
    fn default() -> Self {
        BookPaths::in_dir(&datadir::book_dir())
    }
}

impl BookPaths {
    /// Paths inside a directory (`DIR/book.wbk`, `DIR/books.wbk`).
    pub fn in_dir(dir: &Path) -> BookPaths {
        BookPaths {
            big: dir.join("book.wbk"),
            small: dir.join("books.wbk"),
            polyglot: None,
        }
    }
}

/// Where a candidate's data came from (several may apply).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sources {
    pub big: bool,
    pub small: bool,
    pub polyglot: bool,
}

/// One book move for a position, merged from every source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    /// Results after this move from the mover's side (big book when it has the move,
    /// otherwise the small book's own games).
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// `!` in the small book.
    pub good: bool,
    /// `?` in the small book.
    pub bad: bool,
    /// `{play NN%}` in the small book.
    pub play: Option<u8>,
    /// Polyglot weight, when the move came from a Polyglot book.
    pub polyglot_weight: Option<u16>,
    pub sources: Sources,
}

impl Candidate {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn new(mv: Move) -> Candidate {
        Candidate {
            mv,
            wins: 0,
            draws: 0,
            losses: 0,
            good: false,
            bad: false,
            play: None,
            polyglot_weight: None,
            sources: Sources::default(),
        }
    }
}

/// The loaded books plus the selection settings and the random generator.
#[derive(Debug)]
pub struct Book {
    paths: BookPaths,
    big: Option<BookFile>,
    small: Option<BookFile>,
    polyglot: Option<PolyglotBook>,
    pub settings: BookSettings,
    rng: StdRng,
}

impl Book {
    /// A book with no files (every probe is empty).
    pub fn empty() -> Book {
        Book {
            paths: BookPaths::default(),
            big: None,
            small: None,
            polyglot: None,
            settings: BookSettings::default(),
            rng: StdRng::from_entropy(),
        }
    }

    /// Loads every book file that exists. A missing small book or Polyglot book is
    /// normal; a missing big book, or any file that is damaged, is reported in the
    /// returned list (each message names the file and how to rebuild it) and left out,
    /// so wily plays on without it.
    pub fn load(paths: BookPaths) -> (Book, Vec<BookError>) {
        let mut book = Book::empty();
        let errors = book.reload_from(paths);
        (book, errors)
    }

    /// Loads the books strictly: any file that is present but unreadable is an error.
    pub fn open(paths: BookPaths) -> Result<Book, BookError> {
        let mut book = Book::empty();
        book.paths = paths;
        if book.paths.big.exists() {
            book.big = Some(BookFile::open(&book.paths.big)?);
        }
        if book.paths.small.exists() {
            book.small = Some(BookFile::open(&book.paths.small)?);
        }
        if let Some(p) = book.paths.polyglot.clone() {
            book.polyglot = Some(PolyglotBook::open(&p)?);
        }
        Ok(book)
    }

    /// Re-reads the files at `paths` (after `book create`, or a path change).
    pub fn reload_from(&mut self, paths: BookPaths) -> Vec<BookError> {
        let mut errors = Vec::new();
        self.paths = paths;
        self.big = None;
        self.small = None;
        self.polyglot = None;
        if self.paths.big.exists() {
            match BookFile::open(&self.paths.big) {
                Ok(b) => self.big = Some(b),
                Err(e) => errors.push(e),
            }
        } else {
            errors.push(BookError::Usage(format!(
                "no book at {}: build one with `wily book create FILE.pgn M [N] [WPCT]`",
                self.paths.big.display()
            )));
        }
        if self.paths.small.exists() {
            match BookFile::open(&self.paths.small) {
                Ok(b) => self.small = Some(b),
                Err(e) => errors.push(e),
            }
        }
        if let Some(p) = self.paths.polyglot.clone() {
            match PolyglotBook::open(&p) {
                Ok(b) => self.polyglot = Some(b),
                Err(e) => errors.push(e),
            }
        }
        errors
    }

    /// Re-reads the current files.
    pub fn reload(&mut self) -> Vec<BookError> {
        self.reload_from(self.paths.clone())
    }

    /// Sets (or with `None` removes) the Polyglot book.
    pub fn set_polyglot(&mut self, path: Option<PathBuf>) -> Result<(), BookError> {
        match path {
            None => {
                self.polyglot = None;
                self.paths.polyglot = None;
            }
            Some(p) => {
                self.polyglot = Some(PolyglotBook::open(&p)?);
                self.paths.polyglot = Some(p);
            }
        }
        Ok(())
    }

    pub fn paths(&self) -> &BookPaths {
        &self.paths
    }

    pub fn big(&self) -> Option<&BookFile> {
        self.big.as_ref()
    }

    pub fn small(&self) -> Option<&BookFile> {
        self.small.as_ref()
    }

    pub fn polyglot(&self) -> Option<&PolyglotBook> {
        self.polyglot.as_ref()
    }

    /// Makes the random choices reproducible from now on.
    pub fn set_seed(&mut self, seed: u64) {
        self.settings.seed = Some(seed);
        self.rng = StdRng::seed_from_u64(seed);
    }

    pub(crate) fn rng(&mut self) -> &mut StdRng {
        &mut self.rng
    }

    /// Every legal book move for `board`, merged from the big and the small book (the
    /// small book adds its flags; its counts are used only for moves the big book lacks)
    /// and, when neither has a move, from the Polyglot book. Sorted by games, most first.
    pub fn probe(&self, board: &Board) -> Vec<Candidate> {
        let key = polyglot_key(board);
        let mut out: Vec<Candidate> = Vec::new();
        if let Some(big) = &self.big {
            for e in big.probe(key) {
                let Some(mv) = decode_move(board, e.mv) else {
                    continue;
                };
                let mut c = Candidate::new(mv);
                c.wins = u64::from(e.wins);
                c.draws = u64::from(e.draws);
                c.losses = u64::from(e.losses);
                c.sources.big = true;
                out.push(c);
            }
        }
        if let Some(small) = &self.small {
            for e in small.probe(key) {
                let Some(mv) = decode_move(board, e.mv) else {
                    continue;
                };
                let idx = match out.iter().position(|c| c.mv == mv) {
                    Some(i) => i,
                    None => {
                        let mut c = Candidate::new(mv);
                        c.wins = u64::from(e.wins);
                        c.draws = u64::from(e.draws);
                        c.losses = u64::from(e.losses);
                        out.push(c);
                        out.len() - 1
                    }
                };
                let c = &mut out[idx];
                c.sources.small = true;
                c.good |= e.flags & format::FLAG_GOOD != 0;
                c.bad |= e.flags & format::FLAG_BAD != 0;
                if e.flags & format::FLAG_PLAY != 0 {
                    c.play = Some(e.play.min(100));
                }
            }
        }
        if out.is_empty() {
            if let Some(pg) = &self.polyglot {
                for m in pg.probe(board) {
                    let mut c = Candidate::new(m.mv);
                    c.polyglot_weight = Some(m.weight);
                    c.sources.polyglot = true;
                    out.push(c);
                }
            }
        }
        out.sort_by(|a, b| {
            b.games()
                .cmp(&a.games())
                .then(b.polyglot_weight.cmp(&a.polyglot_weight))
        });
        out
    }

    /// Whether any source has a move for `board`.
    pub fn contains(&self, board: &Board) -> bool {
        !self.probe(board).is_empty()
    }

    /// Short description of the loaded books (for `book` with no argument and `info`).
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let line = |name: &str, path: &Path, f: Option<&BookFile>| match f {
            Some(b) => format!(
                "{name}: {} ({} entries from {} games, first {} plies, min {} games, wpct {})\n",
                path.display(),
                b.len(),
                b.header().games,
                b.header().max_plies,
                b.header().min_games,
                b.header().wpct
            ),
            None => format!("{name}: {} (not loaded)\n", path.display()),
        };
        s.push_str(&line("book", &self.paths.big, self.big.as_ref()));
        s.push_str(&line("books", &self.paths.small, self.small.as_ref()));
        match (&self.paths.polyglot, &self.polyglot) {
            (Some(p), Some(b)) => s.push_str(&format!(
                "polyglot: {} ({} entries)\n",
                p.display(),
                b.len()
            )),
            (Some(p), None) => s.push_str(&format!("polyglot: {} (not loaded)\n", p.display())),
            _ => s.push_str("polyglot: none\n"),
        }
        s.push_str(&self.settings.describe());
        s
    }
}

/// SAN of a book move, for listings.
pub(crate) fn move_text(board: &Board, mv: Move) -> String {
    chess::san::to_san(board, mv)
}
