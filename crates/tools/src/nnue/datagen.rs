//! `wily datagen`: self-play games at a fixed node count that write training positions
//! (the format is in `data.rs`).
//!
//! Each game starts from a line of an EPD opening file or from the initial position,
//! followed by a few random legal moves, and is then played out by single-threaded
//! searches of a fixed number of nodes. A game ends by mate, stalemate, repetition, the
//! 50-move rule, bare material, a tablebase position (its result is the tables' result),
//! a score beyond the adjudication bound (a win for the side it favours) or the ply cap
//! (a draw). Positions in check, positions whose best move captures or promotes, mate
//! scores and positions the tablebases decide are not written.
//!
//! Game `g` draws its opening from a generator seeded by the seed and `g` alone, and
//! every search starts from a cleared hash table, so the file's contents depend on the
//! seed, the settings and the number of games, not on the number of threads: games are
//! written in game order. A generation appends to its file and resumes at the game after
//! the last complete one.

use super::data::{open_for_append, worth_keeping, Outcome, Record, MATE_LIMIT};
use cozy_chess::{Board, Color, GameStatus, Move};
use engine::tablebase::{self, Tablebases, Wdl};
use engine::{Engine, EngineOptions, Limits, Score, SearchRequest};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc};

/// Which evaluation plays the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// The engine's default.
    Default,
    /// The hand-written evaluation.
    Hce,
    /// This network file.
    File(PathBuf),
}

/// What `wily datagen` does.
#[derive(Clone, Debug)]
pub struct DatagenSettings {
    pub out: PathBuf,
    /// Games in the file when the generation ends (those already there count).
    pub games: u32,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// EPD openings (one position a line); `None` starts from the initial position.
    pub book: Option<PathBuf>,
    /// Random legal moves played after the opening.
    pub random_plies: u32,
    /// Syzygy folders for adjudication and filtering.
    pub syzygy: Option<String>,
    pub hash_mb: usize,
    /// A game is a draw after this many plies.
    pub max_plies: u32,
    /// A score at least this large (centipawns) ends the game as a win.
    pub adjudicate_cp: i32,
    pub progress: bool,
    pub eval: EvalChoice,
}

impl Default for DatagenSettings {
    fn default() -> Self {
        DatagenSettings {
            out: PathBuf::from("data.wpos"),
            games: 100,
            nodes: 5000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            book: None,
            random_plies: 8,
            syzygy: None,
            hash_mb: 8,
            max_plies: 400,
            adjudicate_cp: 2500,
            progress: true,
            eval: EvalChoice::Default,
        }
    }
}

/// What a generation wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    pub games: u32,
    pub positions: u64,
    /// Games in the file before this run.
    pub resumed_at: u32,
}

/// The game-independent seed of game `g`.
fn game_seed(seed: u64, g: u32) -> u64 {
    let mut x = seed ^ (u64::from(g).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn legal_moves(board: &Board) -> Vec<Move> {
    let mut v = Vec::new();
    board.generate_moves(|ms| {
        v.extend(ms);
        false
    });
    v
}

/// Reads the openings of an EPD file (lines that do not parse are skipped with a
/// warning).
pub fn read_openings(path: &std::path::Path) -> Result<Vec<Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match chess::epd::parse_epd_line(line) {
            Ok(r) => out.push(r.board),
            Err(e) => eprintln!("warning: {}:{}: {e:?}", path.display(), i + 1),
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no opening position", path.display()));
    }
    Ok(out)
}

/// The starting position of a game: an opening and random moves, redrawn when the
/// random moves end the game.
pub(crate) fn opening(openings: &[Board], random_plies: u32, rng: &mut StdRng) -> Option<Board> {
    for _ in 0..32 {
        let mut board = if openings.is_empty() {
            Board::default()
        } else {
            openings[rng.gen_range(0..openings.len())].clone()
        };
        let mut ok = true;
        for _ in 0..random_plies {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                ok = false;
                break;
            }
            board.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        if ok && board.status() == GameStatus::Ongoing {
            return Some(board);
        }
    }
    None
}

fn tb_outcome(wdl: Wdl) -> Outcome {
    match wdl {
        Wdl::Win => Outcome::Win,
        Wdl::Loss => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// Plays game `g` and returns its records (empty when the game was not worth keeping).
pub fn play_game(
    engine: &mut Engine,
    tb: Option<&Tablebases>,
    openings: &[Board],
    s: &DatagenSettings,
    g: u32,
) -> Vec<Record> {
    let mut rng = StdRng::seed_from_u64(game_seed(s.seed, g));
    let Some(mut board) = opening(openings, s.random_plies, &mut rng) else {
        return Vec::new();
    };
    engine.new_game();
    let mut history: Vec<u64> = Vec::new();
    // (record, side to move) for positions kept; the outcome is filled in at the end.
    let mut kept: Vec<(Record, Color)> = Vec::new();
    let mut plies = 0;
    // The result from White's view.
    let white: Outcome = loop {
        match board.status() {
            GameStatus::Won => {
                break if board.side_to_move() == Color::White {
                    Outcome::Loss
                } else {
                    Outcome::Win
                }
            }
            GameStatus::Drawn => break Outcome::Draw,
            GameStatus::Ongoing => {}
        }
        let key = board.hash();
        let reps = history[history
            .len()
            .saturating_sub(board.halfmove_clock() as usize)..]
            .iter()
            .filter(|&&k| k == key)
            .count();
        if reps >= 2 || engine::eval::is_insufficient_material(&board) || plies >= s.max_plies {
            break Outcome::Draw;
        }
        if let Some(wdl) = tb.and_then(|t| t.probe_wdl(&board)) {
            let o = tb_outcome(wdl);
            break if board.side_to_move() == Color::White {
                o
            } else {
                o.flip()
            };
        }
        let mut req = SearchRequest::new(board.clone(), Limits::nodes(s.nodes));
        req.history = history.clone();
        let r = engine.search(req, Box::new(|_| {}));
        let Some(best) = r.best else {
            break Outcome::Draw;
        };
        let cp = match r.score {
            Score::Cp(v) => v,
            Score::Mate(m) if m > 0 => MATE_LIMIT + 1,
            Score::Mate(_) => -MATE_LIMIT - 1,
        };
        if plies == 0 && cp.abs() > 1000 {
            // A lopsided opening teaches little.
            return Vec::new();
        }
        if cp.abs() >= s.adjudicate_cp {
            let o = if cp > 0 { Outcome::Win } else { Outcome::Loss };
            break if board.side_to_move() == Color::White {
                o
            } else {
                o.flip()
            };
        }
        if worth_keeping(&board, best, cp) {
            kept.push((
                Record::from_board(&board, cp as i16, Outcome::Draw, g),
                board.side_to_move(),
            ));
        }
        history.push(key);
        board.play_unchecked(best);
        plies += 1;
    };
    let n = kept.len();
    kept.into_iter()
        .enumerate()
        .map(|(i, (mut r, side))| {
            r.outcome = if side == Color::White {
                white
            } else {
                white.flip()
            };
            r.last_of_game = i + 1 == n;
            r
        })
        .collect()
}

/// A one-thread engine evaluating as `s.eval` says.
fn make_engine(s: &DatagenSettings) -> Result<Engine, String> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: s.hash_mb,
        threads: 1,
        ..EngineOptions::default()
    });
    set_eval(&mut engine, &s.eval)?;
    Ok(engine)
}

/// Sets the engine's evaluation as `choice` says.
pub fn set_eval(engine: &mut Engine, choice: &EvalChoice) -> Result<(), String> {
    match choice {
        EvalChoice::Default => {}
        EvalChoice::Hce => engine.set_eval_nnue(false)?,
        EvalChoice::File(f) => {
            engine.set_eval_file(&f.to_string_lossy())?;
            engine.set_eval_nnue(true)?;
        }
    }
    Ok(())
}

/// Runs a generation; `stop` ends it early (after the games under way).
pub fn run(s: &DatagenSettings, stop: Arc<AtomicBool>) -> Result<DatagenSummary, String> {
    let openings = match &s.book {
        Some(p) => read_openings(p)?,
        None => Vec::new(),
    };
    let tb = match &s.syzygy {
        Some(p) => Some(tablebase::open(p)?),
        None => None,
    };
    // The evaluation is checked once, before any game: a bad network file is an error.
    make_engine(s)?;
    let (mut file, first) = open_for_append(&s.out)?;
    let mut summary = DatagenSummary {
        resumed_at: first,
        ..Default::default()
    };
    if first >= s.games {
        return Ok(summary);
    }
    let next = Arc::new(AtomicU32::new(first));
    let (tx, rx) = mpsc::channel::<(u32, Vec<u8>, usize)>();
    let threads = s.threads.max(1);
    let openings = Arc::new(openings);
    let mut joins = Vec::new();
    for _ in 0..threads {
        let (tx, next, stop, openings, tb) = (
            tx.clone(),
            Arc::clone(&next),
            Arc::clone(&stop),
            Arc::clone(&openings),
            tb.clone(),
        );
        let s = s.clone();
        joins.push(std::thread::spawn(move || {
            let Ok(mut engine) = make_engine(&s) else {
                return;
            };
            loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= s.games {
                    break;
                }
                let recs = play_game(&mut engine, tb.as_deref(), &openings, &s, g);
                let mut bytes = Vec::with_capacity(recs.len() * super::data::RECORD_BYTES);
                for r in &recs {
                    bytes.extend_from_slice(&r.encode());
                }
                if tx.send((g, bytes, recs.len())).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let bar = if s.progress {
        indicatif::ProgressBar::new(u64::from(s.games - first))
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} games {msg} (eta {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // Games arrive in any order and are written in game order.
    let mut pending: BTreeMap<u32, (Vec<u8>, usize)> = BTreeMap::new();
    let mut want = first;
    let mut error = None;
    for (g, bytes, n) in rx {
        pending.insert(g, (bytes, n));
        while let Some((bytes, n)) = pending.remove(&want) {
            if error.is_none() {
                if let Err(e) = file.write_all(&bytes).and_then(|_| file.flush()) {
                    error = Some(format!("{}: {e}", s.out.display()));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            summary.games += 1;
            summary.positions += n as u64;
            want += 1;
            bar.inc(1);
            bar.set_message(format!("{} positions", summary.positions));
        }
    }
    for j in joins {
        let _ = j.join();
    }
    bar.finish();
    match error {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::read_records;
    use super::*;

    fn settings(out: PathBuf, games: u32, threads: usize) -> DatagenSettings {
        DatagenSettings {
            out,
            games,
            nodes: 300,
            threads,
            seed: 7,
            hash_mb: 1,
            max_plies: 60,
            progress: false,
            ..DatagenSettings::default()
        }
    }

    #[test]
    fn generation_is_deterministic_resumable_and_filtered() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.wpos");
        let b = dir.path().join("b.wpos");
        let stop = Arc::new(AtomicBool::new(false));
        let sa = run(&settings(a.clone(), 4, 1), stop.clone()).unwrap();
        assert_eq!(sa.games, 4);
        // Two threads, in two runs (the second resumes): the same bytes.
        let s1 = run(&settings(b.clone(), 2, 2), stop.clone()).unwrap();
        assert_eq!(s1.resumed_at, 0);
        let s2 = run(&settings(b.clone(), 4, 2), stop.clone()).unwrap();
        assert_eq!(s2.resumed_at, s1.games);
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        let recs = read_records(&a).unwrap();
        assert_eq!(recs.len() as u64, sa.positions);
        assert!(!recs.is_empty());
        for r in &recs {
            assert!(i32::from(r.score).abs() < 2500);
        }
        // A different seed plays different games.
        let c = dir.path().join("c.wpos");
        let mut sc = settings(c.clone(), 4, 1);
        sc.seed = 8;
        run(&sc, stop).unwrap();
        assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());
    }

    #[test]
    fn records_are_quiet_and_carry_the_game_result() {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            ..EngineOptions::default()
        });
        let s = settings(PathBuf::from("unused"), 1, 1);
        let mut seen = 0;
        for g in 0..3 {
            let recs = play_game(&mut engine, None, &[], &s, g);
            seen += recs.len();
            for (i, r) in recs.iter().enumerate() {
                assert_eq!(r.game, g);
                assert_eq!(r.last_of_game, i + 1 == recs.len());
                let mut b = cozy_chess::BoardBuilder::empty();
                for (c, p, sq) in r.placements() {
                    *b.square_mut(cozy_chess::Square::index(sq)) =
                        Some((super::super::data::piece_of(p), Color::ALL[c]));
                }
                b.side_to_move = r.side_to_move();
                let board = b.build().expect("a legal position");
                assert!(board.checkers().is_empty());
                // One result per game, seen from each side to move.
                let white = if r.black_to_move {
                    r.outcome.flip()
                } else {
                    r.outcome
                };
                let first = &recs[0];
                let first_white = if first.black_to_move {
                    first.outcome.flip()
                } else {
                    first.outcome
                };
                assert_eq!(white, first_white);
            }
        }
        assert!(seen > 0);
    }
}
