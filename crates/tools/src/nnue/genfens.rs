//! `genfens`: opening positions for OpenBench's data-generation workloads.
//!
//! OpenBench's client runs the engine with each argument one command, as it runs
//! `./engine bench`:
//!
//! ```text
//! ./wily "setoption name EvalFile value NET" "genfens N seed S book <None|FILE> [extra]" "quit"
//! ```
//!
//! (the `setoption` argument is optional) and reads every `info string genfens FEN` line
//! as an opening for the games it then plays. wily answers with exactly `N` positions:
//! each is a random line of the book (an EPD or FEN file), or the initial position when
//! the book is `None`, followed by random legal moves (`plies`, default 8 without a book
//! and 2 with one), kept when the game goes on and a short search (`nodes`, default
//! 1000, from a cleared hash table) scores it within `maxcp` (default 400) centipawns.
//! The same `N`, seed, book, extra words and network give the same positions. Extra
//! words: `plies K`, `nodes K`, `maxcp K`, in any order.

use super::datagen::{opening, read_openings};
use cozy_chess::Board;
use engine::{Engine, EngineOptions, Limits, Score, SearchRequest};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::PathBuf;

/// One `genfens` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genfens {
    pub n: usize,
    pub seed: u64,
    pub book: Option<PathBuf>,
    pub plies: Option<u32>,
    pub nodes: u64,
    pub max_cp: i32,
}

impl Genfens {
    /// Parses the words after `genfens`: `N seed S book <None|FILE> [extra]`.
    pub fn parse(words: &[&str]) -> Result<Genfens, String> {
        let usage = "usage: genfens N seed S book <None|FILE> [plies K] [nodes K] [maxcp K]";
        let [n, "seed", seed, "book", book, extra @ ..] = words else {
            return Err(usage.into());
        };
        let number = |what: &str, s: &str| -> Result<u64, String> {
            s.parse()
                .map_err(|_| format!("genfens: {what} {s:?} is not a number ({usage})"))
        };
        let mut g = Genfens {
            n: number("N", n)? as usize,
            seed: number("seed", seed)?,
            book: (!book.eq_ignore_ascii_case("none")).then(|| PathBuf::from(book)),
            plies: None,
            nodes: 1000,
            max_cp: 400,
        };
        let mut rest = extra.iter();
        while let Some(&word) = rest.next() {
            let value = rest
                .next()
                .ok_or_else(|| format!("genfens: {word} needs a value ({usage})"))?;
            match word {
                "plies" => g.plies = Some(number("plies", value)?.min(100) as u32),
                "nodes" => g.nodes = number("nodes", value)?.max(1),
                "maxcp" => g.max_cp = number("maxcp", value)?.min(30_000) as i32,
                _ => return Err(format!("genfens: unknown word {word:?} ({usage})")),
            }
        }
        Ok(g)
    }

    /// The positions, as FEN; `found` is called with each as soon as it is found.
    pub fn run(&self, engine: &mut Engine, found: &mut dyn FnMut(&str)) -> Result<(), String> {
        let openings = match &self.book {
            Some(p) => read_openings(p)?,
            None => Vec::new(),
        };
        let plies = self
            .plies
            .unwrap_or(if openings.is_empty() { 8 } else { 2 });
        let mut rng = StdRng::seed_from_u64(self.seed);
        let mut made = 0;
        let mut tries = 0u64;
        while made < self.n {
            tries += 1;
            if tries > 1000 * (self.n as u64 + 10) {
                return Err(format!(
                    "genfens: only {made} of {} positions within {} cp after {} tries",
                    self.n,
                    self.max_cp,
                    tries - 1
                ));
            }
            let Some(board) = opening(&openings, plies, &mut rng) else {
                continue;
            };
            if self.balanced(engine, &board) {
                found(&format!("{board}"));
                made += 1;
            }
        }
        Ok(())
    }

    fn balanced(&self, engine: &mut Engine, board: &Board) -> bool {
        engine.new_game();
        let r = engine.search(
            SearchRequest::new(board.clone(), Limits::nodes(self.nodes)),
            Box::new(|_| {}),
        );
        matches!(r.score, Score::Cp(v) if v.abs() <= self.max_cp)
    }
}

/// True when the command line is OpenBench's one-command-per-argument call holding a
/// `genfens` command.
pub fn is_genfens_call(args: &[String]) -> bool {
    args.iter().any(|a| a.trim_start().starts_with("genfens "))
}

/// Runs the commands of a one-command-per-argument call (`setoption name EvalFile value
/// NET`, `setoption name Eval value hce|nnue`, `genfens ...`, `quit`), printing
/// `info string genfens FEN` lines to `out`.
pub fn run_commands(args: &[String], out: &mut dyn std::io::Write) -> Result<(), String> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        ..EngineOptions::default()
    });
    for arg in args {
        let words: Vec<&str> = arg.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["quit"] => break,
            ["genfens", rest @ ..] => {
                let g = Genfens::parse(rest)?;
                let mut error = None;
                g.run(&mut engine, &mut |fen| {
                    if error.is_none() {
                        if let Err(e) =
                            writeln!(out, "info string genfens {fen}").and_then(|_| out.flush())
                        {
                            error = Some(e.to_string());
                        }
                    }
                })?;
                if let Some(e) = error {
                    return Err(format!("genfens: writing: {e}"));
                }
            }
            ["setoption", "name", name, "value", value @ ..] => {
                let value = value.join(" ");
                match name.to_ascii_lowercase().as_str() {
                    "evalfile" => {
                        engine.set_eval_file(&value)?;
                        engine.set_eval_nnue(true)?;
                    }
                    "eval" => engine.set_eval_nnue(value.eq_ignore_ascii_case("nnue"))?,
                    "hash" | "threads" => {}
                    _ => return Err(format!("genfens call: unknown option {name}")),
                }
            }
            _ => return Err(format!("genfens call: unknown command {arg:?}")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Vec<String>, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let mut out = Vec::new();
        run_commands(&args, &mut out)?;
        Ok(String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect())
    }

    #[test]
    fn genfens_prints_n_legal_positions_the_same_for_the_same_seed() {
        let a = run(&["genfens 6 seed 7 book None", "quit"]).unwrap();
        assert_eq!(a.len(), 6);
        for line in &a {
            let fen = line.strip_prefix("info string genfens ").unwrap();
            let board: Board = fen.parse().unwrap();
            assert_eq!(board.status(), cozy_chess::GameStatus::Ongoing);
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        }
        assert_eq!(run(&["genfens 6 seed 7 book None", "quit"]).unwrap(), a);
        assert_ne!(run(&["genfens 6 seed 8 book None", "quit"]).unwrap(), a);
        // Nothing after quit runs.
        assert!(run(&["quit", "genfens 2 seed 1 book None"])
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_book_and_extra_words_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("b.epd");
        std::fs::write(
            &book,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\nnot a position\n",
        )
        .unwrap();
        let cmd = format!("genfens 3 seed 1 book {} plies 1 nodes 200", book.display());
        let lines = run(&[&cmd, "quit"]).unwrap();
        assert_eq!(lines.len(), 3);
        for l in lines {
            // One black move after 1. e4: White to move at move 2.
            assert!(l.contains(" w ") && l.ends_with(" 2"), "{l}");
        }
    }

    #[test]
    fn bad_calls_are_refused_with_a_reason() {
        assert!(run(&["genfens x seed 1 book None"])
            .unwrap_err()
            .contains("not a number"));
        assert!(run(&["genfens 1 seed 1"]).unwrap_err().contains("usage"));
        assert!(run(&["genfens 1 seed 1 book None wobble 3"])
            .unwrap_err()
            .contains("wobble"));
        assert!(run(&["genfens 1 seed 1 book /nonexistent.epd"])
            .unwrap_err()
            .contains("nonexistent"));
        assert!(run(&["setoption name EvalFile value /nonexistent.wnn"])
            .unwrap_err()
            .contains("nonexistent"));
        assert!(is_genfens_call(&["genfens 1 seed 2 book None".into()]));
        assert!(!is_genfens_call(&["bench".into()]));
    }
}
