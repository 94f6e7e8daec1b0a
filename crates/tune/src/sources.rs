//! Where the tuner's positions come from: games in a PGN file (positions sampled with a
//! seed), training samples in the CSV formats `wily match -sample` writes (c-chess-cli's
//! `FEN,Eval,Result` without a header, results 0/1/2 and mates as ±32767 less the
//! distance; or wily's older one with the header `fen,score,result`, results 1/0.5/0; both
//! from the side to move's view), and the samples the bot keeps in its
//! learning store (score and result from White's view). Every source yields [`Sample`]s
//! with the result and score from White's view; bad records are counted and skipped, never
//! fatal.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use cozy_chess::{Board, Color};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use chess::fen::parse_fen;
use chess::pgn::PgnReader;
use learn::Store;

/// A position with the result of its game.
#[derive(Clone, Debug)]
pub struct Sample {
    pub board: Board,
    /// The game's result from White's view: 1, 0.5 or 0.
    pub result: f32,
    /// A search score for the position in centipawns from White's view, when the source has
    /// one.
    pub score: Option<i32>,
}

/// What a source held and what was skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceStats {
    /// Records read: games for PGN, lines or rows for samples.
    pub records: u64,
    /// Records skipped as unreadable (a broken game, a bad line) or without a result.
    pub skipped: u64,
    /// Positions handed on.
    pub positions: u64,
    /// The first few problems, for the user.
    pub problems: Vec<String>,
}

/// Most problems kept for printing.
const MAX_PROBLEMS: usize = 5;

impl SourceStats {
    fn skip(&mut self, problem: impl FnOnce() -> String) {
        self.skipped += 1;
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(problem());
        }
    }
}

/// How positions are sampled from games.
#[derive(Clone, Debug)]
pub struct GameSampling {
    /// Plies skipped at the start of every game (the opening, mostly book).
    pub skip_plies: usize,
    /// Chance that each later position is kept.
    pub rate: f64,
    /// Seed of the sampling.
    pub seed: u64,
}

/// A PGN result token as White's score.
fn result_of(token: &str) -> Option<f32> {
    match token.trim() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Samples positions from the games of the PGN file `path` and hands each to `take`, until
/// the file ends or `take` returns false. Positions in check are not offered (they are not
/// quiet); games without a decisive or drawn result are skipped.
pub fn pgn_positions(
    path: &Path,
    sampling: &GameSampling,
    mut take: impl FnMut(Sample) -> bool,
) -> Result<SourceStats, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rng = StdRng::seed_from_u64(sampling.seed);
    let mut stats = SourceStats::default();
    for game in PgnReader::new(BufReader::new(file)) {
        stats.records += 1;
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                stats.skip(|| format!("{}: {e}", path.display()));
                continue;
            }
        };
        let Some(result) = result_of(&game.result) else {
            stats.skipped += 1;
            continue;
        };
        let (mut board, moves) = match game.replay_moves() {
            Ok(r) => r,
            Err(e) => {
                stats.skip(|| format!("{} line {}: {e}", path.display(), game.line));
                continue;
            }
        };
        for (ply, mv) in moves.iter().enumerate() {
            if ply >= sampling.skip_plies
                && board.checkers().is_empty()
                && rng.gen::<f64>() < sampling.rate
            {
                stats.positions += 1;
                let sample = Sample {
                    board: board.clone(),
                    result,
                    score: None,
                };
                if !take(sample) {
                    return Ok(stats);
                }
            }
            board.play_unchecked(*mv);
        }
    }
    Ok(stats)
}

/// The two CSV layouts of `wily match -sample`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CsvKind {
    /// c-chess-cli's `FEN,Eval,Result`: results 0 loss, 1 draw, 2 win; mate scores as
    /// `32767 - dtm` / `-32768 + dtm`.
    CChessCli,
    /// wily's `fen,score,result` (after that header): results 1, 0.5, 0; the score empty
    /// for a mate or none.
    Wily,
}

/// Scores this far from zero or more are c-chess-cli's mate encodings.
const CCC_MATE: i32 = 32767 - 1000;

/// One line of a sample CSV file: FEN, score (may be empty) and result from the side to
/// move's view, read as `kind`.
fn parse_csv_line(line: &str, kind: CsvKind) -> Result<Sample, String> {
    let mut fields = line.split(',');
    let (Some(fen), Some(score), Some(result), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected three fields: fen,score,result".into());
    };
    let board = parse_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?;
    let score = match score.trim() {
        "" => None,
        s => Some(
            s.parse::<i32>()
                .ok()
                .filter(|v| v.abs() < 100_000)
                .ok_or_else(|| format!("bad score '{s}'"))?,
        ),
    };
    let result = match (kind, result.trim()) {
        (CsvKind::Wily, "1") | (CsvKind::CChessCli, "2") => 1.0,
        (CsvKind::Wily, "0.5") | (CsvKind::CChessCli, "1") => 0.5,
        (_, "0") => 0.0,
        (CsvKind::Wily, r) => return Err(format!("bad result '{r}' (1, 0.5 or 0)")),
        (CsvKind::CChessCli, r) => return Err(format!("bad result '{r}' (2, 1 or 0)")),
    };
    let score = score.filter(|s| kind == CsvKind::Wily || s.abs() < CCC_MATE);
    let white = board.side_to_move() == Color::White;
    Ok(Sample {
        result: if white { result } else { 1.0 - result },
        score: score.map(|s| if white { s } else { -s }),
        board,
    })
}

/// Reads the sample CSV file `path` (one sample a line: wily's layout after a
/// `fen,score,result` header line, c-chess-cli's without one) and hands each sample to
/// `take` until it returns false.
pub fn csv_positions(
    path: &Path,
    mut take: impl FnMut(Sample) -> bool,
) -> Result<SourceStats, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut stats = SourceStats::default();
    let mut kind = CsvKind::CChessCli;
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let line = line.trim();
        if n == 0 && line.replace(' ', "") == "fen,score,result" {
            kind = CsvKind::Wily;
            continue;
        }
        if line.is_empty() {
            continue;
        }
        stats.records += 1;
        match parse_csv_line(line, kind) {
            Ok(sample) => {
                stats.positions += 1;
                if !take(sample) {
                    break;
                }
            }
            Err(e) => stats.skip(|| format!("{} line {}: {e}", path.display(), n + 1)),
        }
    }
    Ok(stats)
}

/// Reads the training samples of the learning store `path` (opened read-only) and hands
/// each to `take` until it returns false.
pub fn learn_positions(
    path: &Path,
    mut take: impl FnMut(Sample) -> bool,
) -> Result<SourceStats, String> {
    let store = Store::open_read_only(path).map_err(|e| e.to_string())?;
    let mut stats = SourceStats::default();
    let mut open = true;
    store
        .for_each_sample(|fen, score, result| {
            if !open {
                return;
            }
            stats.records += 1;
            let result = result as f32;
            match parse_fen(fen) {
                Ok(board) if [0.0, 0.5, 1.0].contains(&result) => {
                    stats.positions += 1;
                    open = take(Sample {
                        board,
                        result,
                        score: Some(score),
                    });
                }
                Ok(_) => stats.skip(|| format!("{}: bad result {result}", path.display())),
                Err(e) => stats.skip(|| format!("{}: bad FEN '{fen}': {e}", path.display())),
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_turn_to_whites_view() {
        let wily = |l| parse_csv_line(l, CsvKind::Wily);
        let w = wily("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,35,1").expect("good");
        assert_eq!((w.result, w.score), (1.0, Some(35)));
        let b = wily("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1,-35,0").expect("good");
        assert_eq!((b.result, b.score), (1.0, Some(35)));
        let d = wily("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1,,0.5").expect("good");
        assert_eq!((d.result, d.score), (0.5, None));
        // c-chess-cli's: 0 loss, 1 draw, 2 win for the side to move; mates are no score.
        let ccc = |l| parse_csv_line(l, CsvKind::CChessCli);
        let w = ccc("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,35,2").expect("good");
        assert_eq!((w.result, w.score), (1.0, Some(35)));
        let b = ccc("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1,-35,0").expect("good");
        assert_eq!((b.result, b.score), (1.0, Some(35)));
        let d = ccc("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1,32762,1").expect("good");
        assert_eq!((d.result, d.score), (0.5, None));
        assert!(ccc("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,0,0.5").is_err());
        assert!(wily("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,0,2").is_err());
        for bad in [
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,35",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,35,0.7",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,x,1",
            "not a fen,0,1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,1,1,1",
        ] {
            assert!(parse_csv_line(bad, CsvKind::Wily).is_err(), "{bad}");
        }
    }

    #[test]
    fn pgn_results() {
        assert_eq!(result_of("1-0"), Some(1.0));
        assert_eq!(result_of("1/2-1/2"), Some(0.5));
        assert_eq!(result_of("0-1"), Some(0.0));
        assert_eq!(result_of("*"), None);
    }
}
