//! What one finished game teaches: the game record the bot and the console hand in, the
//! learned book value, remembered positions, the move result learning forbids, and the
//! training samples, all written in one transaction by [`Learner::after_game`].

use super::store::{sql_err, trim_positions, upsert_position};
use super::{BookValue, LearnError, Learner, TtSeed, LEARN_BOOK, LEARN_POSITION, LEARN_RESULT};
use book::{Book, ChooseHooks};
use chess::fen::{parse_fen, to_fen};
use chess::polyglot::polyglot_key;
use chess::san::to_san;
use cozy_chess::{Board, Color, Move};
use rand::Rng;
use rusqlite::{params, OptionalExtension, TransactionBehavior};
use std::fmt::Write as _;

/// One of wily's searches during the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRecord {
    /// Index into [`GameRecord::moves`] of the move this search chose (the position
    /// searched is the one before that move; wily is to move there).
    pub ply: usize,
    /// Centipawns from wily's side (mates as large values, e.g. ±(32000 - plies)).
    pub score: i32,
    pub depth: i32,
    /// The search's best move; `None` means the move wily played (`moves[ply]`).
    pub best: Option<Move>,
}

/// How the game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    WhiteWins,
    BlackWins,
    Draw,
    /// Aborted, adjourned or otherwise without a result.
    Unfinished,
}

impl GameOutcome {
    pub fn pgn(self) -> &'static str {
        match self {
            GameOutcome::WhiteWins => "1-0",
            GameOutcome::BlackWins => "0-1",
            GameOutcome::Draw => "1/2-1/2",
            GameOutcome::Unfinished => "*",
        }
    }

    /// Parses `1-0`, `0-1`, `1/2-1/2`; anything else is unfinished.
    pub fn from_pgn(s: &str) -> GameOutcome {
        match s.trim() {
            "1-0" => GameOutcome::WhiteWins,
            "0-1" => GameOutcome::BlackWins,
            "1/2-1/2" | "½-½" => GameOutcome::Draw,
            _ => GameOutcome::Unfinished,
        }
    }

    /// 1, 0.5 or 0 from White's side; `None` when unfinished.
    pub fn white_score(self) -> Option<f64> {
        match self {
            GameOutcome::WhiteWins => Some(1.0),
            GameOutcome::BlackWins => Some(0.0),
            GameOutcome::Draw => Some(0.5),
            GameOutcome::Unfinished => None,
        }
    }

    /// Whether `color` lost.
    pub fn lost_by(self, color: Color) -> bool {
        matches!(
            (self, color),
            (GameOutcome::WhiteWins, Color::Black) | (GameOutcome::BlackWins, Color::White)
        )
    }
}

/// Everything the learner needs to know about a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The starting position when it was not the normal one (no book learning then).
    pub start_fen: Option<String>,
    /// Every move of the game, from the start.
    pub moves: Vec<Move>,
    pub wily_color: Color,
    /// Index into `moves` of wily's first move that did not come from the book; `None`
    /// when every move wily made came from the book.
    pub book_exit_ply: Option<usize>,
    /// wily's searches, in game order.
    pub searches: Vec<SearchRecord>,
    pub opponent: String,
    pub wily_rating: Option<i32>,
    pub opponent_rating: Option<i32>,
    /// e.g. "5+2" or "40/7200".
    pub time_control: String,
    pub outcome: GameOutcome,
    /// Why the game ended, in words: "checkmate", "resignation", "time", "agreement",
    /// "repetition", "50-move rule", "stalemate", "abort", ... (see [`is_mate_or_resign`]).
    pub reason: String,
}

impl GameRecord {
    /// A record with only the moves and the colour filled in (tests, console games).
    pub fn new(moves: Vec<Move>, wily_color: Color, outcome: GameOutcome, reason: &str) -> Self {
        GameRecord {
            start_fen: None,
            moves,
            wily_color,
            book_exit_ply: None,
            searches: Vec::new(),
            opponent: String::new(),
            wily_rating: None,
            opponent_rating: None,
            time_control: String::new(),
            outcome,
            reason: reason.to_string(),
        }
    }
}

/// Whether a game-end reason means checkmate or resignation (what result learning
/// reacts to).
pub fn is_mate_or_resign(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    r.contains("mate") && !r.contains("stalemate") || r.contains("resign")
}

/// What [`Learner::after_game`] learned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LearnReport {
    pub game_id: i64,
    /// (book move in SAN, value learned from this game, stored value after blending).
    pub book: Option<(String, i32, i32)>,
    pub positions: usize,
    /// (FEN, SAN) of the move result learning forbade.
    pub forbidden: Option<(String, String)>,
    pub samples: usize,
    /// Moves after an illegal one were ignored.
    pub illegal_from: Option<usize>,
}

impl LearnReport {
    pub fn render(&self) -> String {
        let mut s = format!("learning: game {} stored", self.game_id);
        if let Some((mv, v, stored)) = &self.book {
            let _ = write!(s, "; book move {mv} learned {v:+} (now {stored:+})");
        }
        if self.positions > 0 {
            let _ = write!(s, "; {} position(s) remembered", self.positions);
        }
        if let Some((fen, mv)) = &self.forbidden {
            let _ = write!(s, "; {mv} will not be played again in {fen}");
        }
        if self.samples > 0 {
            let _ = write!(s, "; {} training sample(s)", self.samples);
        }
        if let Some(p) = self.illegal_from {
            let _ = write!(s, "; moves from ply {p} were illegal and ignored");
        }
        s
    }
}

/// The learned value of a game: the first ten searches out of book, later and deeper ones
/// weighing more (weight = depth x (index + 1)), scores clamped to ±500; then scaled by
/// the rating difference: a gain against a stronger opponent or a loss against a weaker
/// one counts up to 1.5 times, the reverse as little as 0.5 times (difference clamped to
/// ±400 points). Returns (value, mean depth), or `None` without searches.
pub fn book_learn_value(searches: &[SearchRecord], rating_diff: Option<i32>) -> Option<(i32, i32)> {
    let first: Vec<&SearchRecord> = searches.iter().take(10).collect();
    if first.is_empty() {
        return None;
    }
    let mut num = 0.0;
    let mut den = 0.0;
    let mut depth_sum = 0i64;
    for (i, s) in first.iter().enumerate() {
        let w = f64::from(s.depth.max(1)) * (i as f64 + 1.0);
        num += w * f64::from(s.score.clamp(-500, 500));
        den += w;
        depth_sum += i64::from(s.depth.max(0));
    }
    let v = scale_by_rating(num / den, rating_diff);
    let depth = (depth_sum / first.len() as i64) as i32;
    Some((v.round() as i32, depth))
}

/// Scales a learned value by the rating difference (opponent minus learner): a gain
/// against a stronger opponent or a loss against a weaker one counts up to 1.5 times,
/// the reverse as little as 0.5 times (difference clamped to ±400 points).
pub fn scale_by_rating(v: f64, rating_diff: Option<i32>) -> f64 {
    let rd = f64::from(rating_diff.unwrap_or(0).clamp(-400, 400));
    if v > 0.0 {
        v * (1.0 + rd / 800.0)
    } else {
        v * (1.0 - rd / 800.0)
    }
}

/// Blends a new value into a stored one: a running mean over at most the last five
/// games, so old games fade.
pub fn blend(old: Option<BookValue>, value: i32, depth: i32) -> BookValue {
    match old {
        None => BookValue {
            value,
            depth,
            games: 1,
        },
        Some(o) => {
            let n = i64::from(o.games.min(4));
            BookValue {
                value: ((i64::from(o.value) * n + i64::from(value)) / (n + 1)) as i32,
                depth: ((i64::from(o.depth) * n + i64::from(depth)) / (n + 1)) as i32,
                games: o.games.saturating_add(1),
            }
        }
    }
}

struct PositionLearned {
    key: u64,
    fen: String,
    seed: TtSeed,
}

/// What a game teaches, computed before anything is written.
#[derive(Default)]
struct Plan {
    book: Option<(u64, Move, String, BookValue, i32, String)>,
    positions: Vec<PositionLearned>,
    forbid: Option<(u64, Move, String, String)>,
    /// For the learning log: the ply of the learned book move, this game's value and
    /// depth.
    book_line: Option<(usize, i32, i32)>,
    /// Where the book value came from (stored beside it for Crafty's format on export).
    origin: Option<LineOrigin>,
    samples: Vec<(usize, String, i32, f64)>,
    illegal_from: Option<usize>,
}

/// The game a learned book value came from: the line from the start up to the learned
/// move (coordinates), the opponent, the rating difference (the learner's rating minus
/// the opponent's, Crafty's sign) and the date (`YYYY.MM.DD`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineOrigin {
    pub line: String,
    pub opponent: String,
    pub rating_diff: Option<i64>,
    pub date: String,
}

/// Appends the game's learned book line to the learning log in Crafty's `book.lrn`
/// format (one write, so a record is never split between writers).
fn append_lrn(
    path: &std::path::Path,
    rec: &GameRecord,
    ply: usize,
    value: i32,
    depth: i32,
) -> std::io::Result<()> {
    use std::io::Write;
    let me = "wily".to_string();
    let (white, black) = if rec.wily_color == Color::White {
        (me, rec.opponent.clone())
    } else {
        (rec.opponent.clone(), me)
    };
    // Crafty's rating difference: the learning side's rating minus the opponent's.
    let rating_diff = match (rec.wily_rating, rec.opponent_rating) {
        (Some(w), Some(o)) => Some(i64::from(w - o)),
        _ => None,
    };
    let line = super::crafty_lrn::CraftyLine {
        white,
        black,
        date: chrono::Local::now().format("%Y.%m.%d").to_string(),
        moves: rec.moves[..=ply.min(rec.moves.len().saturating_sub(1))].to_vec(),
        value: i64::from(value),
        depth: i64::from(depth),
        rating_diff,
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(line.to_text().as_bytes())
}

/// Where the learning log's positions go: `position.lrn` in the folder of the book log
/// (Crafty keeps `book.lrn` and `position.lrn` side by side).
pub fn position_log_path(book_log: &std::path::Path) -> std::path::PathBuf {
    book_log.with_file_name("position.lrn")
}

/// Appends the positions a game taught to `position.lrn` in the blocks `learn export` and
/// `import` use (`position FEN`, `move SAN`, `value CP`, `depth N`), in one write.
fn append_positions(path: &std::path::Path, positions: &[PositionLearned]) -> std::io::Result<()> {
    use std::io::Write;
    let mut text = String::new();
    for p in positions {
        let Ok(board) = parse_fen(&p.fen) else {
            continue;
        };
        let _ = write!(
            text,
            "position {}\nmove {}\nvalue {}\ndepth {}\n\n",
            p.fen,
            to_san(&board, p.seed.mv),
            p.seed.score,
            p.seed.depth
        );
    }
    if text.is_empty() {
        return Ok(());
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(text.as_bytes())
}

impl Learner {
    /// Learns from a finished game: stores the game (opponent statistics), and, as the
    /// `learn` bits allow, book, position and result learning and training samples, all
    /// in one transaction. `book` is needed for result learning (to find where wily had
    /// a choice) and to check that book moves are still in the book.
    pub fn after_game(
        &mut self,
        rec: &GameRecord,
        book: Option<&Book>,
    ) -> Result<LearnReport, LearnError> {
        let plan = self.plan(rec, book);
        let report = self.write(rec, &plan)?;
        if let (Some(path), Some((ply, value, depth))) = (&self.settings.lrn_log, plan.book_line) {
            // The database holds what was learned; the log is for sharing, so a failure
            // to append is reported and learning goes on.
            if let Err(e) = append_lrn(path, rec, ply, value, depth) {
                tracing::warn!("learning log {}: {e}", path.display());
            }
        }
        if let Some(path) = &self.settings.lrn_log {
            let pos_path = position_log_path(path);
            if let Err(e) = append_positions(&pos_path, &plan.positions) {
                tracing::warn!("learning log {}: {e}", pos_path.display());
            }
        }
        // Only after the commit: mirror the changes in memory.
        if let Some((key, mv, _, bv, _, _)) = &plan.book {
            self.book_values.insert((*key, *mv), *bv);
        }
        for p in &plan.positions {
            self.positions.insert(p.key, p.seed);
        }
        if let Some((key, mv, _, _)) = &plan.forbid {
            self.forbidden.insert((*key, *mv));
        }
        if self.positions.len() > self.settings.max_positions {
            self.load()?;
        }
        Ok(report)
    }

    fn plan(&self, rec: &GameRecord, book: Option<&Book>) -> Plan {
        let mut plan = Plan::default();
        let start = match &rec.start_fen {
            Some(f) => match parse_fen(f) {
                Ok(b) => b,
                Err(_) => {
                    plan.illegal_from = Some(0);
                    return plan;
                }
            },
            None => Board::default(),
        };
        let mut boards = vec![start];
        for (i, &mv) in rec.moves.iter().enumerate() {
            let mut b = boards[i].clone();
            if b.try_play(mv).is_err() {
                plan.illegal_from = Some(i);
                break;
            }
            boards.push(b);
        }
        let played = boards.len() - 1;
        let mode = self.settings.mode;
        let exit = rec.book_exit_ply.unwrap_or(played).min(played);
        let wily_book_plies: Vec<usize> = (0..exit)
            .filter(|&p| boards[p].side_to_move() == rec.wily_color)
            .filter(|&p| {
                book.is_none_or(|b| b.probe(&boards[p]).iter().any(|c| c.mv == rec.moves[p]))
            })
            .collect();
        let mut searches: Vec<SearchRecord> = rec
            .searches
            .iter()
            .copied()
            .filter(|s| s.ply < played && boards[s.ply].side_to_move() == rec.wily_color)
            .collect();
        searches.sort_by_key(|s| s.ply);

        if mode & LEARN_BOOK != 0 && rec.start_fen.is_none() {
            if let Some(&p) = wily_book_plies.last() {
                let after: Vec<SearchRecord> =
                    searches.iter().copied().filter(|s| s.ply >= exit).collect();
                let diff = match (rec.opponent_rating, rec.wily_rating) {
                    (Some(o), Some(w)) => Some(o - w),
                    _ => None,
                };
                if let Some((value, depth)) = book_learn_value(&after, diff) {
                    let key = polyglot_key(&boards[p]);
                    let mv = rec.moves[p];
                    let bv = blend(self.book_value_raw(key, mv), value, depth);
                    let san = to_san(&boards[p], mv);
                    plan.book = Some((key, mv, to_fen(&boards[p]), bv, value, san));
                    // The log carries the value before the rating scaling, with the
                    // rating difference beside it (as Crafty's file does).
                    let raw = book_learn_value(&after, None).map_or(value, |(v, _)| v);
                    plan.book_line = Some((p, raw, depth));
                    plan.origin = Some(LineOrigin {
                        line: rec.moves[..=p]
                            .iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(" "),
                        opponent: rec.opponent.clone(),
                        rating_diff: diff.map(|d| -i64::from(d)),
                        date: chrono::Local::now().format("%Y.%m.%d").to_string(),
                    });
                }
            }
        }

        if mode & LEARN_POSITION != 0 {
            // As Crafty: the position stored is the one of the search that saw the drop
            // (`cur`), with its score, depth and best move. The search one move earlier
            // (`prev`), where the drop could have been avoided, meets it two plies down.
            for w in searches.windows(2) {
                let (prev, cur) = (w[0], w[1]);
                // Without a recorded best move, the move wily played is the one.
                let Some(best) = cur.best.or_else(|| rec.moves.get(cur.ply).copied()) else {
                    continue;
                };
                let board = &boards[cur.ply];
                if cur.score <= prev.score - self.settings.position_drop
                    && cur.depth >= self.settings.position_min_depth
                    && board.is_legal(best)
                {
                    plan.positions.push(PositionLearned {
                        key: polyglot_key(board),
                        fen: to_fen(board),
                        seed: TtSeed {
                            hash: board.hash(),
                            mv: best,
                            score: cur.score,
                            depth: cur.depth,
                        },
                    });
                }
            }
        }

        if mode & LEARN_RESULT != 0
            && rec.outcome.lost_by(rec.wily_color)
            && is_mate_or_resign(&rec.reason)
        {
            if let Some(book) = book {
                for &p in wily_book_plies.iter().rev() {
                    let board = &boards[p];
                    let mv = rec.moves[p];
                    let mut hooks = ChooseHooks::new(self);
                    let playable = book.table(board, &mut hooks).playable();
                    if playable.len() >= 2 && playable.contains(&mv) {
                        plan.forbid =
                            Some((polyglot_key(board), mv, to_fen(board), to_san(board, mv)));
                        break;
                    }
                }
            }
        }

        if let Some(result) = rec.outcome.white_score() {
            let rate = self.settings.sample_rate.clamp(0.0, 1.0);
            let mut rng = rand::thread_rng();
            for s in &searches {
                if rate > 0.0 && rng.gen::<f64>() < rate {
                    let white_score = if rec.wily_color == Color::White {
                        s.score
                    } else {
                        -s.score
                    };
                    plan.samples
                        .push((s.ply, to_fen(&boards[s.ply]), white_score, result));
                }
            }
        }
        plan
    }

    fn write(&mut self, rec: &GameRecord, plan: &Plan) -> Result<LearnReport, LearnError> {
        let path = self.store.path().to_path_buf();
        let err = |op| {
            let path = path.clone();
            move |e| sql_err(&path, op, e)
        };
        let now = chrono::Utc::now();
        let ts = now.timestamp();
        let max_positions = self.settings.max_positions as i64;
        let tx = self
            .store
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err("begin"))?;
        let moves: Vec<String> = rec.moves.iter().map(|m| m.to_string()).collect();
        tx.execute(
            "INSERT INTO games (ts, date, opponent, wily_color, wily_rating, opponent_rating,
                time_control, result, reason, plies, book_exit_ply, start_fen, moves)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                ts,
                now.format("%Y-%m-%d %H:%M:%S").to_string(),
                rec.opponent,
                if rec.wily_color == Color::White {
                    "white"
                } else {
                    "black"
                },
                rec.wily_rating,
                rec.opponent_rating,
                rec.time_control,
                rec.outcome.pgn(),
                rec.reason,
                rec.moves.len() as i64,
                rec.book_exit_ply.map(|p| p as i64),
                rec.start_fen,
                moves.join(" "),
            ],
        )
        .map_err(err("store the game"))?;
        let game_id = tx.last_insert_rowid();
        let mut report = LearnReport {
            game_id,
            illegal_from: plan.illegal_from,
            ..Default::default()
        };
        if let Some((key, mv, fen, bv, value, san)) = &plan.book {
            let o = plan.origin.clone().unwrap_or_default();
            tx.execute(
                "INSERT INTO book_learn (key, mv, value, depth, games, fen, updated,
                    line, opponent, rating_diff, learned)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                 ON CONFLICT (key, mv) DO UPDATE SET value = excluded.value,
                    depth = excluded.depth, games = excluded.games, fen = excluded.fen,
                    updated = excluded.updated, line = excluded.line,
                    opponent = excluded.opponent, rating_diff = excluded.rating_diff,
                    learned = excluded.learned",
                params![
                    *key as i64,
                    mv.to_string(),
                    bv.value,
                    bv.depth,
                    bv.games,
                    fen,
                    ts,
                    o.line,
                    o.opponent,
                    o.rating_diff,
                    o.date
                ],
            )
            .map_err(err("store book learning"))?;
            report.book = Some((san.clone(), *value, bv.value));
        }
        for p in &plan.positions {
            let best = p.seed.mv.to_string();
            let (score, depth) = (p.seed.score.into(), p.seed.depth.into());
            upsert_position(&tx, p.key as i64, &p.fen, score, depth, &best, ts)
                .map_err(err("store position learning"))?;
        }
        if !plan.positions.is_empty() {
            trim_positions(&tx, max_positions).map_err(err("trim positions"))?;
        }
        report.positions = plan.positions.len();
        if let Some((key, mv, fen, san)) = &plan.forbid {
            tx.execute(
                "INSERT OR REPLACE INTO forbidden (key, mv, fen, game_id, ts)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![*key as i64, mv.to_string(), fen, game_id, ts],
            )
            .map_err(err("store result learning"))?;
            report.forbidden = Some((fen.clone(), san.clone()));
        }
        {
            let mut ins = tx
                .prepare(
                    "INSERT INTO samples (game_id, ply, fen, score, result)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(err("store samples"))?;
            for (ply, fen, score, result) in &plan.samples {
                ins.execute(params![game_id, *ply as i64, fen, score, result])
                    .map_err(err("store samples"))?;
            }
        }
        report.samples = plan.samples.len();
        tx.commit().map_err(err("commit"))?;
        Ok(report)
    }

    /// Results of every game in the store (`None`), or of those against one opponent
    /// (its handle in any case), from wily's side.
    pub fn results(&self, opponent: Option<&str>) -> Result<OpponentStats, LearnError> {
        self.stats(
            "?1 IS NULL OR opponent = ?1 COLLATE NOCASE",
            opponent,
            "read results",
        )
    }

    /// Results against one opponent, from wily's side.
    pub fn opponent_stats(&self, opponent: &str) -> Result<OpponentStats, LearnError> {
        self.stats("opponent = ?1", Some(opponent), "read opponent statistics")
    }

    /// Wins, draws, losses and the last date of the games `filter` (an SQL condition on
    /// `?1`, the opponent) keeps.
    fn stats(
        &self,
        filter: &str,
        opponent: Option<&str>,
        what: &'static str,
    ) -> Result<OpponentStats, LearnError> {
        let path = self.store.path().to_path_buf();
        self.store
            .conn
            .query_row(
                &format!(
                    "SELECT count(*),
                    coalesce(sum((result = '1-0' AND wily_color = 'white')
                              OR (result = '0-1' AND wily_color = 'black')), 0),
                    coalesce(sum(result = '1/2-1/2'), 0),
                    coalesce(sum((result = '0-1' AND wily_color = 'white')
                              OR (result = '1-0' AND wily_color = 'black')), 0),
                    max(date)
                 FROM games WHERE {filter}"
                ),
                params![opponent],
                |r| {
                    Ok(OpponentStats {
                        games: r.get(0)?,
                        wins: r.get(1)?,
                        draws: r.get(2)?,
                        losses: r.get(3)?,
                        last: r.get(4)?,
                    })
                },
            )
            .optional()
            .map_err(|e| sql_err(&path, what, e))
            .map(|o| o.unwrap_or_default())
    }
}

/// wily's results against one opponent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpponentStats {
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// Date of the last game.
    pub last: Option<String>,
}
