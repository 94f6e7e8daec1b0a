//! Training samples (`-sample [freq=F] [decay=D] [resolve=y|n] [file=PATH]
//! [format=csv|bin]`, c-chess-cli's syntax; wily adds `srand=N`, `quiet=on` and
//! `format=wily`): positions from the finished games with the mover's score and the
//! game's result.
//!
//! Every position an engine moved from is a candidate; it is kept with probability
//! `freq * exp(-decay * rule50)` (`rule50` the position's half-move clock), drawn from a
//! generator seeded by `srand` and the game's number (the same match gives the same
//! samples whatever order its games finish in). `resolve=y` replaces the position by the
//! first quiet one along the engine's principal variation (see [`resolve`]). Games ended
//! by a crash, a hang or an illegal move give no samples; the file is appended to, one
//! game at a time.
//!
//! - `csv` (the default): `FEN,Eval,Result` lines without a header; `Eval` the engine's
//!   score in centipawns from the side to move's point of view, a mate as `32767 - dtm`
//!   (mating) or `-32768 + dtm` (mated), dtm in plies; `Result` `0` loss, `1` draw, `2`
//!   win for the side to move. Positions without a score are skipped.
//! - `bin`: the same fields in c-chess-cli's variable-length record ([`encode_bin`]).
//! - `wily`: the tuner's older CSV, header `fen,score,result`, score empty for a mate or
//!   none, result `1`/`0.5`/`0`.
//!
//! wily's `quiet=on` also skips positions in check and positions whose played move
//! captures.

pub mod resolve;

use super::draft::{parse_bool, parse_num, split_kv};
use super::engine::Score;
use super::game::GameRecord;
use chess::fen::to_fen;
use cozy_chess::{Board, Color, Piece, Rank, Square};
use rand::{Rng, SeedableRng};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// How the sample file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleFormat {
    /// c-chess-cli's `FEN,Eval,Result`.
    Csv,
    /// c-chess-cli's binary records.
    Bin,
    /// wily's older CSV for the tuner (`fen,score,result`, results 1/0.5/0).
    Wily,
}

/// `-sample` settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleSpec {
    pub path: PathBuf,
    /// Probability of keeping a position at rule50 = 0, in [0, 1].
    pub freq: f64,
    /// The keep probability falls as `exp(-decay * rule50)`.
    pub decay: f64,
    /// Tactical resolution along the principal variation.
    pub resolve: bool,
    pub format: SampleFormat,
    pub seed: u64,
    /// wily's filter: no positions in check, none whose played move captures.
    pub quiet: bool,
}

impl SampleSpec {
    /// Reads `-sample`'s values; `srand=N` goes to `seed` (the match's `-srand` fills it
    /// otherwise).
    pub fn parse(values: &[String], seed: &mut Option<u64>) -> Result<SampleSpec, String> {
        let mut spec = SampleSpec {
            path: PathBuf::new(),
            freq: 1.0,
            decay: 0.0,
            resolve: false,
            format: SampleFormat::Csv,
            seed: 0,
            quiet: false,
        };
        for v in values {
            let (k, val) = split_kv(v);
            match k {
                "file" => spec.path = PathBuf::from(val),
                "freq" => spec.freq = parse_num("sample freq", val)?,
                "decay" => spec.decay = parse_num("sample decay", val)?,
                "resolve" => {
                    spec.resolve = match val {
                        "y" => true,
                        "n" => false,
                        _ => parse_bool("sample resolve (y or n)", val)?,
                    }
                }
                "format" => {
                    spec.format = match val {
                        "csv" => SampleFormat::Csv,
                        "bin" => SampleFormat::Bin,
                        "wily" => SampleFormat::Wily,
                        _ => return Err(format!("sample format '{val}': use csv, bin or wily")),
                    }
                }
                "srand" => *seed = Some(parse_num("sample srand", val)?),
                "quiet" => spec.quiet = parse_bool("sample quiet", val)?,
                _ => return Err(format!("unknown -sample setting '{v}'")),
            }
        }
        if spec.path.as_os_str().is_empty() {
            spec.path = PathBuf::from(match spec.format {
                SampleFormat::Bin => "sample.bin",
                _ => "sample.csv",
            });
        }
        if !(0.0..=1.0).contains(&spec.freq) {
            return Err(format!("sample freq={} must be in [0, 1]", spec.freq));
        }
        if !(spec.decay >= 0.0 && spec.decay.is_finite()) {
            return Err(format!("sample decay={} must be 0 or more", spec.decay));
        }
        Ok(spec)
    }
}

/// Scores of this size or more are some engines' mate encodings, not centipawns.
const MATE_LIKE: i32 = 20_000;

/// True when `mv` on `board` captures something (en passant included).
pub(crate) fn is_capture(board: &Board, mv: cozy_chess::Move) -> bool {
    let us = board.side_to_move();
    match board.color_on(mv.to) {
        Some(c) => c != us,
        None => board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file(),
    }
}

/// c-chess-cli's `Eval`: centipawns (clamped to the 16-bit range short of the mate
/// encodings), a mate in N moves as `i16::MAX - dtm` or `i16::MIN + dtm`, dtm in plies.
pub fn eval_i16(score: Score) -> i16 {
    match score {
        Score::Cp(c) => c.clamp(-30_000, 30_000) as i16,
        Score::Mate(n) if n > 0 => i16::MAX - (2 * n - 1).min(1000) as i16,
        Score::Mate(n) => i16::MIN + (-2 * n).min(1000) as i16,
    }
}

/// One sampled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub board: Board,
    /// The engine's score from the side to move's point of view.
    pub score: Option<Score>,
    /// The game's result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

/// The samples of one game.
pub fn game_positions(record: &GameRecord, game_number: usize, spec: &SampleSpec) -> Vec<Sample> {
    let mut out = Vec::new();
    if record.end.kind.is_fault() {
        return out;
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(
        spec.seed ^ (game_number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut board = record.start.clone();
    for m in &record.moves {
        if let Some(e) = &m.engine {
            let quiet_ok =
                !spec.quiet || (board.checkers().is_empty() && !is_capture(&board, m.mv));
            let p = spec.freq * (-spec.decay * board.halfmove_clock() as f64).exp();
            if quiet_ok && rng.gen::<f64>() < p {
                let found = if spec.resolve {
                    resolve::resolve(&board, m.mv, &e.pv, e.score)
                } else {
                    Some((board.clone(), e.score))
                };
                if let Some((b, score)) = found {
                    let result = record.end.outcome.half_points(b.side_to_move()) as u8;
                    out.push(Sample {
                        board: b,
                        score,
                        result,
                    });
                }
            }
        }
        if !board.is_legal(m.mv) {
            break;
        }
        board.play_unchecked(m.mv);
    }
    out
}

/// The text lines of one game's samples (csv and wily formats).
pub fn game_samples(record: &GameRecord, game_number: usize, spec: &SampleSpec) -> Vec<String> {
    game_positions(record, game_number, spec)
        .into_iter()
        .filter_map(|s| match spec.format {
            SampleFormat::Wily => {
                let score = match s.score {
                    Some(Score::Cp(c)) if c.abs() < MATE_LIKE => c.to_string(),
                    _ => String::new(),
                };
                let result = ["0", "0.5", "1"][s.result as usize];
                Some(format!("{},{score},{result}", to_fen(&s.board)))
            }
            _ => {
                let eval = eval_i16(s.score?);
                Some(format!("{},{eval},{}", to_fen(&s.board), s.result))
            }
        })
        .collect()
}

/// The 4-bit code of the piece on `sq`: c-chess-cli's 0 knight, 1 bishop, 2 rook,
/// 3 queen, 4 king, 5 pawn, 6 rook that may still castle, 7 pawn that may be taken en
/// passant; plus 8 for a black piece.
fn piece_code(board: &Board, sq: Square) -> u8 {
    let color = board.color_on(sq).unwrap_or(Color::White);
    let piece = board.piece_on(sq).unwrap_or(Piece::Pawn);
    let back = Rank::First.relative_to(color);
    let rights = board.castle_rights(color);
    let castling_rook = piece == Piece::Rook
        && sq.rank() == back
        && (rights.short == Some(sq.file()) || rights.long == Some(sq.file()));
    let ep_pawn = piece == Piece::Pawn
        && board.en_passant().is_some_and(|f| {
            // The pawn that just made a double step stands on its fourth rank.
            sq.file() == f && sq.rank() == Rank::Fourth.relative_to(color)
        });
    let code = match piece {
        Piece::Knight => 0,
        Piece::Bishop => 1,
        Piece::Rook if castling_rook => 6,
        Piece::Rook => 2,
        Piece::Queen => 3,
        Piece::King => 4,
        Piece::Pawn if ep_pawn => 7,
        Piece::Pawn => 5,
    };
    code | if color == Color::Black { 8 } else { 0 }
}

/// One record of c-chess-cli's binary format, little-endian: `occ` (u64, bit 0 = a1),
/// one byte `turn | rule50 << 1` (turn 0 White, 1 Black), the pieces of `occ` in square
/// order, two to a byte (the first in the low nibble), the score (i16, [`eval_i16`]) and
/// the result (u8: 0 loss, 1 draw, 2 win for the side to move). 28 bytes at most.
pub fn encode_bin(board: &Board, eval: i16, result: u8) -> Vec<u8> {
    let occ = board.occupied();
    let mut out = Vec::with_capacity(28);
    out.extend_from_slice(&occ.0.to_le_bytes());
    let turn = (board.side_to_move() == Color::Black) as u8;
    out.push(turn | (board.halfmove_clock().min(127) << 1));
    let squares: Vec<Square> = occ.iter().collect();
    for pair in squares.chunks(2) {
        let lo = piece_code(board, pair[0]);
        let hi = pair.get(1).map_or(0, |&sq| piece_code(board, sq));
        out.push(lo | (hi << 4));
    }
    out.extend_from_slice(&eval.to_le_bytes());
    out.push(result);
    out
}

/// The open sample file.
pub struct SampleWriter {
    out: BufWriter<File>,
    spec: SampleSpec,
    /// Samples written so far.
    pub written: u64,
}

impl SampleWriter {
    /// Opens (appending) the file; the `wily` format gets its header when the file is new
    /// or empty.
    pub fn open(spec: &SampleSpec) -> Result<SampleWriter, String> {
        let f = File::options()
            .create(true)
            .append(true)
            .open(&spec.path)
            .map_err(|e| format!("cannot open sample file {}: {e}", spec.path.display()))?;
        let empty = f.metadata().map(|m| m.len() == 0).unwrap_or(true);
        let mut out = BufWriter::new(f);
        if empty && spec.format == SampleFormat::Wily {
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
        if self.spec.format == SampleFormat::Bin {
            for s in game_positions(record, game_number, &self.spec) {
                if let Some(score) = s.score {
                    self.out
                        .write_all(&encode_bin(&s.board, eval_i16(score), s.result))?;
                    self.written += 1;
                }
            }
        } else {
            for line in game_samples(record, game_number, &self.spec) {
                writeln!(self.out, "{line}")?;
                self.written += 1;
            }
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
                    pv: String::new(),
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

    fn spec(words: &str) -> SampleSpec {
        let values: Vec<String> = words.split_whitespace().map(str::to_string).collect();
        SampleSpec::parse(&values, &mut None).unwrap()
    }

    /// 1. e4 d5 2. exd5 Qxd5 3. Bb5+ c6, White winning.
    fn short_game(kind: EndKind) -> GameRecord {
        record(
            &["e4", "d5", "exd5", "Qxd5", "Bb5+", "c6"],
            &[
                Some(Score::Cp(30)),
                Some(Score::Cp(-20)),
                None,
                Some(Score::Mate(3)),
                Some(Score::Mate(-2)),
                Some(Score::Cp(-5)),
            ],
            Outcome::WhiteWins,
            kind,
        )
    }

    #[test]
    fn the_readme_syntax_and_defaults() {
        // All optional: freq 1, decay 0, resolve n, csv to sample.csv.
        let s = spec("");
        assert_eq!((s.freq, s.decay, s.resolve), (1.0, 0.0, false));
        assert_eq!(
            (s.format, s.path.clone()),
            (SampleFormat::Csv, PathBuf::from("sample.csv"))
        );
        assert_eq!(spec("format=bin").path, PathBuf::from("sample.bin"));
        let s = spec("freq=0.25 decay=0.05 resolve=y file=out.csv format=csv");
        assert_eq!((s.freq, s.decay, s.resolve), (0.25, 0.05, true));
        assert_eq!(s.path, PathBuf::from("out.csv"));
        assert!(!spec("resolve=n").resolve);
        for bad in [
            "freq=1.5",
            "decay=-1",
            "format=txt",
            "resolve=maybe",
            "bogus=1",
        ] {
            let values = vec![bad.to_string()];
            assert!(SampleSpec::parse(&values, &mut None).is_err(), "{bad}");
        }
    }

    #[test]
    fn csv_is_fen_eval_result_with_results_0_1_2() {
        let r = short_game(EndKind::Normal);
        let lines = game_samples(&r, 0, &spec(""));
        // Every position an engine moved from, checks and captures included; the one
        // without a score is skipped; results 2 = win, 0 = loss for the side to move;
        // mates as 32767 - dtm / -32768 + dtm (mate in 3 = 5 plies, mated in 2 = 4).
        assert_eq!(
            lines,
            vec![
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,30,2",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1,-20,0",
                "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2,32762,0",
                "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3,-32764,2",
                "rnb1kbnr/ppp1pppp/8/1B1q4/8/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3,-5,0",
            ]
        );
        let draw = record(
            &["e4"],
            &[Some(Score::Cp(3))],
            Outcome::Draw,
            EndKind::Adjudication,
        );
        assert_eq!(
            game_samples(&draw, 0, &spec("")),
            vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,3,1"]
        );
        assert!(game_samples(&short_game(EndKind::Abandoned), 0, &spec("")).is_empty());
    }

    #[test]
    fn wily_format_and_quiet_filter() {
        let r = short_game(EndKind::Normal);
        let lines = game_samples(&r, 0, &spec("format=wily quiet=on"));
        assert_eq!(
            lines,
            vec![
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,30,1",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1,-20,0",
                "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3,,1",
            ]
        );
    }

    #[test]
    fn frequency_decay_and_seed() {
        let sans = [
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6",
        ];
        let r = record(
            &sans,
            &[Some(Score::Cp(1)); 10],
            Outcome::Draw,
            EndKind::Normal,
        );
        let half = SampleSpec {
            seed: 42,
            ..spec("freq=0.5")
        };
        let a = game_samples(&r, 3, &half);
        assert_eq!(a, game_samples(&r, 3, &half));
        assert!(a.len() < 10);
        assert!(a.iter().all(|l| l.ends_with(",1,1")));
        assert!(game_samples(&r, 3, &spec("freq=0")).is_empty());
        // decay: freq * exp(-decay * rule50). Positions at rule50 = 0 are always kept
        // at freq=1; a huge decay drops every other one (Nf3 ... Nf6 are quiet moves).
        let kept = game_positions(&r, 3, &spec("decay=1000"));
        assert!(!kept.is_empty());
        assert!(kept.iter().all(|s| s.board.halfmove_clock() == 0));
        assert_eq!(game_positions(&r, 3, &spec("decay=0")).len(), 10);
    }

    /// Decodes one binary record as the README lays it out.
    fn decode(bytes: &[u8]) -> (u64, u8, u8, Vec<u8>, i16, u8, usize) {
        let occ = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        let (turn, rule50) = (bytes[8] & 1, bytes[8] >> 1);
        let n = occ.count_ones() as usize;
        let packed = &bytes[9..9 + n.div_ceil(2)];
        let pieces = (0..n)
            .map(|i| (packed[i / 2] >> (4 * (i % 2))) & 15)
            .collect();
        let at = 9 + n.div_ceil(2);
        let score = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
        (occ, turn, rule50, pieces, score, bytes[at + 2], at + 3)
    }

    #[test]
    fn binary_records() {
        // The start position: 32 pieces, 28 bytes (the maximum); rooks may castle (6).
        let b = Board::default();
        let rec = encode_bin(&b, 15, 1);
        let (occ, turn, rule50, pieces, score, result, len) = decode(&rec);
        assert_eq!((len, rec.len()), (28, 28));
        assert_eq!(occ, 0xFFFF_0000_0000_FFFF);
        assert_eq!((turn, rule50, score, result), (0, 0, 15, 1));
        // a1..h1: R N B Q K B N R (castling rooks), a2..h2 pawns; black adds 8.
        assert_eq!(&pieces[..8], &[6, 0, 1, 3, 4, 1, 0, 6]);
        assert_eq!(&pieces[8..16], &[5; 8]);
        assert_eq!(&pieces[16..24], &[13; 8]);
        assert_eq!(&pieces[24..], &[14, 8, 9, 11, 12, 9, 8, 14]);
        // A pawn that may be taken en passant (7), Black to move, rule50 in the turn byte;
        // a rook without castling rights is a plain rook (2); mate scores at the ends.
        let b = chess::parse_fen("4k3/8/8/8/3pP3/8/8/R3K3 b - e3 0 40").unwrap();
        let (occ, turn, rule50, pieces, score, result, len) =
            decode(&encode_bin(&b, eval_i16(Score::Mate(-1)), 0));
        assert_eq!(occ.count_ones(), 5);
        assert_eq!((turn, rule50, result, len), (1, 0, 0, 8 + 1 + 3 + 2 + 1));
        assert_eq!(pieces, vec![2, 4, 13, 7, 12]);
        assert_eq!(score, i16::MIN + 2);
        let b = chess::parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 37 60").unwrap();
        let (_, turn, rule50, pieces, ..) = decode(&encode_bin(&b, eval_i16(Score::Mate(1)), 2));
        assert_eq!((turn, rule50, pieces), (0, 37, vec![2, 4, 12]));
        assert_eq!(eval_i16(Score::Mate(1)), i16::MAX - 1);
    }

    #[test]
    fn files_are_appended_and_only_wily_has_a_header() {
        let dir = tempfile::tempdir().unwrap();
        let r = record(
            &["e4"],
            &[Some(Score::Cp(10))],
            Outcome::BlackWins,
            EndKind::Adjudication,
        );
        for (format, header) in [("csv", false), ("wily", true), ("bin", false)] {
            let path = dir.path().join(format!("s.{format}"));
            let spec = spec(&format!("format={format} file={}", path.display()));
            for _ in 0..2 {
                let mut w = SampleWriter::open(&spec).unwrap();
                w.write_game(&r, 0).unwrap();
                assert_eq!(w.written, 1);
            }
            let bytes = std::fs::read(&path).unwrap();
            if format == "bin" {
                assert_eq!(bytes.len(), 2 * 28);
                assert_eq!(decode(&bytes[28..]).5, 0, "White lost");
                continue;
            }
            let text = String::from_utf8(bytes).unwrap();
            let headers = text.lines().filter(|l| *l == "fen,score,result").count();
            assert_eq!(headers, header as usize, "{format}");
            assert_eq!(text.lines().count(), 2 + header as usize, "{format}");
        }
    }
}
