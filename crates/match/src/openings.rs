//! Openings: positions from an EPD file, lines from a PGN file (its `FEN` tag and moves,
//! cut at `plies`), or Chess960 start positions by their standard number (0-959), in
//! file order or shuffled with a seed. Lines that cannot be read are skipped with a
//! warning; a file with none left is an error.

use chess::{chess960, EpdReader, PgnReader};
use cozy_chess::{Board, Move};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// The order openings are used in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

/// `-openings file=... order=... srand=... plies=... start=...` or `frc=...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSpec {
    /// An `.epd` or `.pgn` file (format by extension; `format=` overrides).
    pub file: Option<PathBuf>,
    /// `true` for PGN, `false` for EPD.
    pub pgn: bool,
    pub order: Order,
    pub seed: u64,
    /// Keep at most this many plies of each PGN line.
    pub plies: Option<usize>,
    /// Begin with this opening (1-based, after shuffling).
    pub start: usize,
    /// Chess960 start positions by number, first to last (inclusive).
    pub frc: Option<(u32, u32)>,
    /// True when `seed` was drawn from the clock (random order without a seed, as
    /// c-chess-cli's `srand=0`); the resume file records it with `-autoseed`.
    pub drawn: bool,
}

impl Default for OpeningSpec {
    fn default() -> Self {
        OpeningSpec {
            file: None,
            pgn: false,
            order: Order::Sequential,
            seed: 0,
            drawn: false,
            plies: None,
            start: 1,
            frc: None,
        }
    }
}

/// One opening: a start position and moves to play from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub board: Board,
    pub moves: Vec<Move>,
    /// Where it came from (`file.epd:12`, `chess960 #518`), for the PGN.
    pub name: String,
}

impl Opening {
    /// The standard start position.
    pub fn startpos() -> Opening {
        Opening {
            board: Board::default(),
            moves: Vec::new(),
            name: String::new(),
        }
    }
}

/// The openings of a match, in the order they are used.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    list: Vec<Opening>,
    offset: usize,
}

/// True when `board`'s castling rights need Chess960 rules: a king with a right that is
/// not on its e-file, or a castling rook not on the a- or h-file (c-chess-cli detects
/// Chess960 position by position this way; X-FEN and Shredder-FEN castling both read).
pub fn is_chess960(board: &Board) -> bool {
    use cozy_chess::{File, Piece};
    [cozy_chess::Color::White, cozy_chess::Color::Black]
        .into_iter()
        .any(|c| {
            let r = board.castle_rights(c);
            if r.short.is_none() && r.long.is_none() {
                return false;
            }
            let king_e = (board.colored_pieces(c, Piece::King))
                .into_iter()
                .all(|k| k.file() == File::E);
            !king_e || r.short.is_some_and(|f| f != File::H) || r.long.is_some_and(|f| f != File::A)
        })
}

/// The variant a game from `start` is played in: the match's, or Chess960 when the
/// position needs it.
pub fn game_variant(variant: super::config::Variant, start: &Board) -> super::config::Variant {
    if is_chess960(start) {
        super::config::Variant::Chess960
    } else {
        variant
    }
}

/// Parses `N` or `N-M` (Chess960 numbers 0-959).
pub fn parse_frc_range(text: &str) -> Result<(u32, u32), String> {
    let num = |s: &str| -> Result<u32, String> {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n < 960)
            .ok_or_else(|| format!("'{s}' is not a Chess960 position number (0-959)"))
    };
    if text == "all" {
        return Ok((0, 959));
    }
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(text)?, num(text)?),
    };
    if a > b {
        return Err(format!("empty Chess960 range '{text}'"));
    }
    Ok((a, b))
}

fn file_label(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn read_epd(path: &Path, warnings: &mut Vec<String>) -> Result<Vec<Opening>, String> {
    let f =
        File::open(path).map_err(|e| format!("cannot open openings {}: {e}", path.display()))?;
    let label = file_label(path);
    let mut out = Vec::new();
    let mut bad = 0usize;
    for (line, rec) in EpdReader::new(BufReader::new(f)) {
        match rec {
            Ok(r) => out.push(Opening {
                name: r
                    .id()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{label}:{line}")),
                board: r.board,
                moves: Vec::new(),
            }),
            Err(e) => {
                bad += 1;
                if bad <= 3 {
                    warnings.push(format!("{label} line {line} skipped: {e}"));
                }
            }
        }
    }
    if bad > 3 {
        warnings.push(format!("{label}: {bad} unreadable lines skipped in all"));
    }
    Ok(out)
}

fn read_pgn(
    path: &Path,
    plies: Option<usize>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Opening>, String> {
    let f =
        File::open(path).map_err(|e| format!("cannot open openings {}: {e}", path.display()))?;
    let label = file_label(path);
    let mut out = Vec::new();
    let mut bad = 0usize;
    let mut note = |msg: String, bad: &mut usize| {
        *bad += 1;
        if *bad <= 3 {
            warnings.push(msg);
        }
    };
    for game in PgnReader::new(BufReader::new(f)) {
        let g = match game {
            Ok(g) => g,
            Err(e) => {
                note(format!("{label}: {e}"), &mut bad);
                continue;
            }
        };
        let mut cut = g.clone();
        if let Some(n) = plies {
            cut.moves.truncate(n);
        }
        match cut.replay_moves() {
            Ok((board, moves)) => {
                let name = g
                    .tag("Opening")
                    .or(g.tag("ECO"))
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{label}:{}", g.line));
                out.push(Opening { board, moves, name });
            }
            Err(e) => note(
                format!("{label} game at line {} skipped: {e}", g.line),
                &mut bad,
            ),
        }
    }
    if bad > 3 {
        warnings.push(format!("{label}: {bad} unreadable games skipped in all"));
    }
    Ok(out)
}

impl OpeningBook {
    /// Loads the openings `spec` names (none: the standard start position only).
    /// Warnings about skipped lines are added to `warnings`.
    pub fn load(
        spec: Option<&OpeningSpec>,
        warnings: &mut Vec<String>,
    ) -> Result<OpeningBook, String> {
        let Some(spec) = spec else {
            return Ok(OpeningBook {
                list: vec![Opening::startpos()],
                offset: 0,
            });
        };
        let mut list = match (&spec.file, spec.frc) {
            (Some(path), _) if spec.pgn => read_pgn(path, spec.plies, warnings)?,
            (Some(path), _) => read_epd(path, warnings)?,
            (None, Some((a, b))) => (a..=b)
                .map(|n| Opening {
                    board: chess960::start_position(n).unwrap_or_default(),
                    moves: Vec::new(),
                    name: format!("chess960 #{n}"),
                })
                .collect(),
            (None, None) => vec![Opening::startpos()],
        };
        if list.is_empty() {
            return Err(match &spec.file {
                Some(p) => format!("no usable opening in {}", p.display()),
                None => "no openings".into(),
            });
        }
        if spec.order == Order::Random {
            let mut rng = rand::rngs::StdRng::seed_from_u64(spec.seed);
            list.shuffle(&mut rng);
        }
        let offset = (spec.start.max(1) - 1) % list.len();
        Ok(OpeningBook { list, offset })
    }

    /// The `n`th opening used (0-based), cycling through the list.
    pub fn get(&self, n: usize) -> &Opening {
        &self.list[(self.offset + n) % self.list.len()]
    }

    /// How many distinct openings there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Never true: a book holds at least one opening.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::fen::to_fen;
    use std::io::Write;

    #[test]
    fn frc_ranges() {
        assert_eq!(parse_frc_range("518"), Ok((518, 518)));
        assert_eq!(parse_frc_range("0-959"), Ok((0, 959)));
        assert_eq!(parse_frc_range("all"), Ok((0, 959)));
        assert!(parse_frc_range("960").is_err());
        assert!(parse_frc_range("5-2").is_err());
        // Number 518 is the standard position (Scharnagl numbering).
        assert_eq!(Board::chess960_startpos(518), Board::default());
    }

    #[test]
    fn epd_and_pgn_files() {
        let dir = tempfile::tempdir().unwrap();
        let epd = dir.path().join("o.epd");
        let mut f = File::create(&epd).unwrap();
        writeln!(
            f,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";"
        )
        .unwrap();
        writeln!(f, "this is not a position").unwrap();
        writeln!(f, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -").unwrap();
        drop(f);
        let spec = OpeningSpec {
            file: Some(epd),
            ..OpeningSpec::default()
        };
        let mut w = Vec::new();
        let book = OpeningBook::load(Some(&spec), &mut w).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(w.len(), 1);
        assert_eq!(book.get(0).name, "e4");
        assert_eq!(book.get(1).name, "o.epd:3");
        assert_eq!(book.get(2).name, "e4");

        let pgn = dir.path().join("o.pgn");
        std::fs::write(
            &pgn,
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e3 Kd7 *\n",
        )
        .unwrap();
        let spec = OpeningSpec {
            file: Some(pgn),
            pgn: true,
            plies: Some(3),
            ..OpeningSpec::default()
        };
        let book = OpeningBook::load(Some(&spec), &mut w).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.get(0).moves.len(), 3);
        assert_eq!(
            to_fen(&book.get(1).board),
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        );
        assert_eq!(book.get(1).moves.len(), 2);
    }

    #[test]
    fn chess960_is_seen_position_by_position() {
        let fen = |f| chess::parse_fen(f).unwrap();
        assert!(!is_chess960(&Board::default()));
        assert!(!is_chess960(&fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")));
        // Shredder-FEN and X-FEN of Chess960 start position 0 (BBQNNRKR).
        for f in [
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        ] {
            assert!(is_chess960(&fen(f)), "{f}");
        }
        // The standard array written in Shredder-FEN is still standard chess.
        assert!(!is_chess960(&fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        )));
    }

    #[test]
    fn random_order_is_seeded() {
        let spec = OpeningSpec {
            frc: Some((0, 959)),
            order: Order::Random,
            seed: 7,
            ..OpeningSpec::default()
        };
        let a = OpeningBook::load(Some(&spec), &mut Vec::new()).unwrap();
        let b = OpeningBook::load(Some(&spec), &mut Vec::new()).unwrap();
        let names = |x: &OpeningBook| (0..10).map(|i| x.get(i).name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&a), names(&b));
        assert_ne!(
            names(&a)[..3],
            ["chess960 #0", "chess960 #1", "chess960 #2"]
        );
        let c = OpeningBook::load(Some(&OpeningSpec { seed: 8, ..spec }), &mut Vec::new()).unwrap();
        assert_ne!(names(&a), names(&c));
    }
}
