//! The book commands as the console, xboard and operator tells type them: `book ...`,
//! `books create ...`, `bookw ...` and `show book`. Each takes the whole command line and
//! returns the text to print, or an error message.

use super::create::{create_big_from_pgn, create_small_from_pgn, CreateOptions};
use super::select::ChooseHooks;
use super::{Book, BookError};
use cozy_chess::Board;
use std::path::PathBuf;

/// Help lines for the commands handled here.
pub const HELP: &str = "\
book                          show the loaded books and settings
book on|off                   use the book or not
book random 0|1               0: search the book moves briefly; 1: weighted random choice
book width N                  keep only the N best-weighted book moves
book seed N                   fixed random seed (reproducible choices)
book create FILE.pgn M [N] [WPCT] [-o OUT]
                              build the big book from a PGN file: first M plies, moves
                              played in at least N games, wins >= WPCT% of losses
book polyglot FILE|off        add (or drop) a Polyglot .bin book as an extra source
book moves                    list the book moves of the current position
books create FILE.pgn M       build the small hand-edited book (! ? {play NN%})
bookw [freq|ratio|eval|learn W]
                              weight of each term in the book move choice
show book                     toggle listing the candidates before each book move
";

/// Whether `line` is a command this module handles.
pub fn handles(line: &str) -> bool {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("book") | Some("books") | Some("bookw") => true,
        Some("show") => words.next() == Some("book"),
        _ => false,
    }
}

fn usage(msg: &str) -> BookError {
    BookError::Usage(format!("{msg}; type `help book` for the book commands"))
}

fn parse_num<T: std::str::FromStr>(s: Option<&str>, what: &str) -> Result<T, BookError> {
    let s = s.ok_or_else(|| usage(&format!("missing {what}")))?;
    s.parse()
        .map_err(|_| usage(&format!("`{s}` is not a valid {what}")))
}

/// Runs one book command. `board` is the current position (for `book moves` and
/// `show book`); `hooks` supplies learned values and the static evaluation.
pub fn command(
    book: &mut Book,
    line: &str,
    board: &Board,
    hooks: &mut ChooseHooks,
) -> Result<String, BookError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["show", "book", ..] => {
            book.settings.show = !book.settings.show;
            let mut s = format!(
                "show book {}\n",
                if book.settings.show { "on" } else { "off" }
            );
            if book.settings.show {
                s.push_str(&book.table(board, hooks).render(board));
            }
            Ok(s)
        }
        ["bookw"] => Ok(book.settings.describe()),
        ["bookw", term, value] => {
            let v: f64 = parse_num(Some(value), "weight")?;
            if !(v.is_finite() && (0.0..=1000.0).contains(&v)) {
                return Err(usage("a book weight is a number from 0 to 1000"));
            }
            let w = &mut book.settings.weights;
            match *term {
                "freq" | "frequency" => w.freq = v,
                "ratio" => w.ratio = v,
                "eval" | "evaluation" => w.eval = v,
                "learn" => w.learn = v,
                other => return Err(usage(&format!("unknown book weight `{other}`"))),
            }
            Ok(book.settings.describe())
        }
        ["bookw", ..] => Err(usage("usage: bookw freq|ratio|eval|learn W")),
        ["books", "create", rest @ ..] => {
            let (file, m) = match rest {
                [file, m] => (*file, *m),
                _ => return Err(usage("usage: books create FILE.pgn M")),
            };
            let m: u16 = parse_num(Some(m), "ply count M")?;
            let out = book.paths().small.clone();
            let summary = create_small_from_pgn(&PathBuf::from(file), &out, m)?;
            let mut s = summary.render(&out);
            for e in book.reload() {
                if !matches!(e, BookError::Usage(_)) {
                    s.push_str(&format!("warning: {e}\n"));
                }
            }
            Ok(s)
        }
        ["books", ..] => Err(usage("usage: books create FILE.pgn M")),
        ["book"] | ["book", "info"] => Ok(book.describe()),
        ["book", "on"] => {
            book.settings.enabled = true;
            Ok("book on\n".to_string())
        }
        ["book", "off"] => {
            book.settings.enabled = false;
            Ok("book off\n".to_string())
        }
        ["book", "random", v] => {
            book.settings.random = match *v {
                "0" => false,
                "1" => true,
                _ => return Err(usage("usage: book random 0|1")),
            };
            Ok(format!("book random {v}\n"))
        }
        ["book", "width", n] => {
            let n: usize = parse_num(Some(n), "width")?;
            if n == 0 || n > 99 {
                return Err(usage("book width is from 1 to 99"));
            }
            book.settings.width = n;
            Ok(format!("book width {n}\n"))
        }
        ["book", "seed", n] => {
            let n: u64 = parse_num(Some(n), "seed")?;
            book.set_seed(n);
            Ok(format!("book seed {n}\n"))
        }
        ["book", "moves"] | ["book", "show"] => Ok(book.table(board, hooks).render(board)),
        ["book", "polyglot", "off"] => {
            book.set_polyglot(None)?;
            Ok("polyglot book off\n".to_string())
        }
        ["book", "polyglot", file] => {
            book.set_polyglot(Some(PathBuf::from(file)))?;
            Ok(format!(
                "polyglot book {} ({} entries)\n",
                file,
                book.polyglot().map_or(0, |b| b.len())
            ))
        }
        ["book", "create", rest @ ..] => {
            let (file, mut opts, out) = parse_create(rest)?;
            opts.progress = true;
            let out = out.unwrap_or_else(|| book.paths().big.clone());
            let summary = create_big_from_pgn(&PathBuf::from(file), &out, &opts)?;
            let mut s = summary.render(&out);
            if out == book.paths().big {
                for e in book.reload() {
                    s.push_str(&format!("warning: {e}\n"));
                }
            }
            Ok(s)
        }
        ["book", other, ..] => Err(usage(&format!("unknown book command `{other}`"))),
        _ => Err(usage("not a book command")),
    }
}

/// Parses `FILE M [N] [WPCT] [-o OUT]` (the arguments after `book create`).
pub fn parse_create(args: &[&str]) -> Result<(String, CreateOptions, Option<PathBuf>), BookError> {
    let mut plain = Vec::new();
    let mut out = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if *a == "-o" || *a == "--out" {
            out = Some(PathBuf::from(
                it.next().ok_or_else(|| usage("-o needs a file name"))?,
            ));
        } else {
            plain.push(*a);
        }
    }
    if plain.len() < 2 || plain.len() > 4 {
        return Err(usage("usage: book create FILE.pgn M [N] [WPCT] [-o OUT]"));
    }
    let m: u16 = parse_num(plain.get(1).copied(), "ply count M")?;
    if m == 0 {
        return Err(usage("M (plies kept from each game) must be at least 1"));
    }
    let mut opts = CreateOptions::new(m);
    if let Some(n) = plain.get(2) {
        opts.min_games = parse_num(Some(n), "minimum game count N")?;
    }
    if let Some(w) = plain.get(3) {
        opts.wpct = parse_num(Some(w), "win percentage WPCT")?;
    }
    Ok((plain[0].to_string(), opts, out))
}
