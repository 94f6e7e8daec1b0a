//! Training samples (`-sample freq=F file=PATH format=csv srand=N`): positions from the
//! finished games with the mover's score and the game's result, for the tuner.
//!
//! The file is CSV with the header `fen,score,result`: `fen` is the position before an
//! engine's move, `score` that engine's last reported score in centipawns from the side
//! to move's point of view (empty when it reported a mate or nothing), `result` 1, 0.5
//! or 0 from the side to move's point of view. Positions in check and positions whose
//! played move captures are skipped; of the rest, each is kept with probability `freq`,
//! drawn from a generator seeded by `srand` and the game's number (the same match gives
//! the same samples whatever order its games finish in). Games ended by a crash, a hang
//! or an illegal move give no samples; the file is appended to, one game at a time.

use super::engine::Score;
use super::game::GameRecord;
use chess::fen::to_fen;
use cozy_chess::{Board, Piece};
use rand::{Rng, SeedableRng};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// `-sample` settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleSpec {
    pub path: PathBuf,
    /// Probability of keeping an eligible position (0..1].
    pub freq: f64,
    pub seed: u64,
}

/// Scores of this size or more are some engines' mate encodings, not centipawns.
const MATE_LIKE: i32 = 20_000;

/// True when `mv` on `board` captures something (en passant included).
fn is_capture(board: &Board, mv: cozy_chess::Move) -> bool {
    let us = board.side_to_move();
    match board.color_on(mv.to) {
        Some(c) => c != us,
        None => board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file(),
    }
}

/// The sample lines of one game (without the header).
pub fn game_samples(record: &GameRecord, game_number: usize, spec: &SampleSpec) -> Vec<String> {
    let mut out = Vec::new();
    if record.end.kind.is_fault() {
        return out;
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(
        spec.seed ^ (game_number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut board = record.start.clone();
    for m in &record.moves {
        let stm = board.side_to_move();
        if let Some(e) = &m.engine {
            let eligible = board.checkers().is_empty() && !is_capture(&board, m.mv);
            if eligible && rng.gen::<f64>() < spec.freq {
                let score = match e.score {
                    Some(Score::Cp(c)) if c.abs() < MATE_LIKE => c.to_string(),
                    _ => String::new(),
                };
                let result = match record.end.outcome.half_points(stm) {
                    2 => "1",
                    1 => "0.5",
                    _ => "0",
                };
                out.push(format!("{},{score},{result}", to_fen(&board)));
            }
        }
        if !board.is_legal(m.mv) {
            break;
        }
        board.play_unchecked(m.mv);
    }
    out
}

/// The open sample file.
pub struct SampleWriter {
    out: BufWriter<File>,
    spec: SampleSpec,
    /// Lines written so far.
    pub written: u64,
}

impl SampleWriter {
    /// Opens (appending) the file, writing the header when it is new or empty.
    pub fn open(spec: &SampleSpec) -> Result<SampleWriter, String> {
        let f = File::options()
            .create(true)
            .append(true)
            .open(&spec.path)
            .map_err(|e| format!("cannot open sample file {}: {e}", spec.path.display()))?;
        let empty = f.metadata().map(|m| m.len() == 0).unwrap_or(true);
        let mut out = BufWriter::new(f);
        if empty {
            writeln!(out, "fen,score,result")
                .and_then(|_| out.flush())
                .map_err(|e| format!("cannot write {}: {e}", spec.path.display()))?;
        }
        Ok(SampleWriter {
            out,
            spec: spec.clone(),
            written: 0,
        })
    }

    /// Flushes the file to disk.
    pub fn sync(&mut self) {
        let _ = self.out.flush();
        let _ = self.out.get_ref().sync_data();
    }

    /// Appends one game's samples and flushes.
    pub fn write_game(&mut self, record: &GameRecord, game_number: usize) -> std::io::Result<()> {
        for line in game_samples(record, game_number, &self.spec) {
            writeln!(self.out, "{line}")?;
            self.written += 1;
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndKind, EngineMove, GameEnd, MoveRecord, Outcome};
    use std::time::Duration;

    fn record(
        sans: &[&str],
        scores: &[Option<Score>],
        outcome: Outcome,
        kind: EndKind,
    ) -> GameRecord {
        let start = Board::default();
        let mut b = start.clone();
        let mut moves = Vec::new();
        for (i, s) in sans.iter().enumerate() {
            let mv = chess::parse_san(&b, s).unwrap();
            b.play_unchecked(mv);
            moves.push(MoveRecord {
                mv,
                book: false,
                engine: Some(EngineMove {
                    score: scores[i],
                    depth: Some(1),
                    used: Duration::ZERO,
                    nodes: None,
                    extra: Default::default(),
                    left: None,
                }),
            });
        }
        GameRecord {
            start,
            moves,
            end: GameEnd {
                outcome,
                kind,
                reason: String::new(),
            },
        }
    }

    #[test]
    fn every_eligible_position_at_frequency_one() {
        let spec = SampleSpec {
            path: PathBuf::new(),
            freq: 1.0,
            seed: 1,
        };
        // 1. e4 d5 2. exd5 Qxd5 (captures: skipped) 3. Bb5+ (a mate-like score: no
        // score) c6 (Black in check: skipped).
        let r = record(
            &["e4", "d5", "exd5", "Qxd5", "Bb5+", "c6"],
            &[
                Some(Score::Cp(30)),
                Some(Score::Cp(-20)),
                None,
                Some(Score::Mate(3)),
                Some(Score::Cp(25_000)),
                Some(Score::Cp(-5)),
            ],
            Outcome::WhiteWins,
            EndKind::Normal,
        );
        let lines = game_samples(&r, 0, &spec);
        assert_eq!(
            lines,
            vec![
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,30,1",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1,-20,0",
                "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3,,1",
            ]
        );
        let crashed = GameRecord {
            end: GameEnd {
                kind: EndKind::Abandoned,
                ..r.end.clone()
            },
            ..r.clone()
        };
        assert!(game_samples(&crashed, 0, &spec).is_empty());
    }

    #[test]
    fn frequency_and_seed() {
        let sans = [
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6",
        ];
        let r = record(
            &sans,
            &[Some(Score::Cp(1)); 10],
            Outcome::Draw,
            EndKind::Normal,
        );
        let spec = SampleSpec {
            path: PathBuf::new(),
            freq: 0.5,
            seed: 42,
        };
        let a = game_samples(&r, 3, &spec);
        assert_eq!(a, game_samples(&r, 3, &spec));
        assert!(a.len() < 10);
        assert!(a.iter().all(|l| l.ends_with(",1,0.5")));
        let spec0 = SampleSpec { freq: 0.0, ..spec };
        assert!(game_samples(&r, 3, &spec0).is_empty());
    }

    #[test]
    fn header_once() {
        let dir = tempfile::tempdir().unwrap();
        let spec = SampleSpec {
            path: dir.path().join("s.csv"),
            freq: 1.0,
            seed: 0,
        };
        let r = record(
            &["e4"],
            &[Some(Score::Cp(10))],
            Outcome::BlackWins,
            EndKind::Adjudication,
        );
        for _ in 0..2 {
            let mut w = SampleWriter::open(&spec).unwrap();
            w.write_game(&r, 0).unwrap();
        }
        let text = std::fs::read_to_string(&spec.path).unwrap();
        assert_eq!(text.lines().filter(|l| *l == "fen,score,result").count(), 1);
        assert_eq!(text.lines().count(), 3);
    }
}
