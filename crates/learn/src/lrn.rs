//! Text export and import of learned knowledge, for sharing between installations, in
//! two shapes modelled on Crafty's learning files:
//!
//! `book.lrn`: one PGN-like record per learned book move or forbidden move:
//!
//! ```text
//! [FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
//! [Learn "-53"]
//! [Depth "12"]
//! [Games "3"]
//! 1... c5 *
//! ```
//!
//! (a `[Forbidden "1"]` tag instead of Learn/Depth/Games marks a move result learning
//! forbade); a record without a `FEN` tag is read in Crafty's own `book.lrn` format
//! (`crafty_lrn`: the book line from the start and `{value, depth, rating_difference}`),
//! and `position.lrn`: blocks of `position FEN`, `move SAN`, `value CP`,
//! `depth N`. `import FILE [clear]` tells the two apart by the first line that is not a
//! comment (`;` or `#`) or blank.

use super::game::LineOrigin;
use super::store::{sql_err, trim_positions, upsert_position};
use super::{LearnError, Learner, LEARN_BOOK};
use book::atomic::write_atomically;
use chess::fen::{parse_fen, to_fen};
use chess::polyglot::polyglot_key;
use chess::san::{parse_san, to_san};
use cozy_chess::{Board, Color, Move};
use rusqlite::{params, TransactionBehavior};
use std::io::Write;
use std::path::Path;

/// Which kind of learning file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LrnKind {
    Book,
    Position,
}

/// Counts from an import.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    pub kind: Option<LrnKind>,
    pub book_values: usize,
    pub forbidden: usize,
    pub positions: usize,
    /// Records that could not be used (bad FEN or illegal move), with line numbers.
    pub skipped: Vec<String>,
}

impl ImportSummary {
    pub fn render(&self, path: &Path) -> String {
        let mut s = match self.kind {
            Some(LrnKind::Book) => format!(
                "imported {}: {} book values, {} forbidden moves",
                path.display(),
                self.book_values,
                self.forbidden
            ),
            Some(LrnKind::Position) => {
                format!("imported {}: {} positions", path.display(), self.positions)
            }
            None => format!("{}: nothing to import", path.display()),
        };
        if !self.skipped.is_empty() {
            s.push_str(&format!("; skipped {} bad record(s):", self.skipped.len()));
            for k in self.skipped.iter().take(10) {
                s.push_str("\n  ");
                s.push_str(k);
            }
        }
        s.push('\n');
        s
    }
}

/// A tag value without the characters that would end or break it.
fn clean_tag(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() && *c != '"' && *c != '\\')
        .collect()
}

fn move_number_prefix(board: &Board) -> String {
    let n = board.fullmove_number();
    if board.side_to_move() == Color::White {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

impl Learner {
    /// Writes `book.lrn` (book values and forbidden moves) and `position.lrn` into `dir`,
    /// each atomically. Returns the two paths.
    pub fn export(
        &self,
        dir: &Path,
    ) -> Result<(std::path::PathBuf, std::path::PathBuf), LearnError> {
        std::fs::create_dir_all(dir).map_err(|e| LearnError::Io {
            path: dir.to_path_buf(),
            op: "create directory",
            source: e,
        })?;
        let path = self.path().to_path_buf();
        let err = |op| {
            let path = path.clone();
            move |e| sql_err(&path, op, e)
        };
        let conn = &self.store.conn;
        let mut book = String::from("; wily book learning (book.lrn)\n\n");
        let mut q = conn
            .prepare(
                "SELECT fen, mv, value, depth, games, line, opponent, rating_diff, learned
                 FROM book_learn ORDER BY fen, mv",
            )
            .map_err(err("read book learning"))?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    (
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                    ),
                    [
                        ("Line", r.get::<_, Option<String>>(5)?),
                        ("Opponent", r.get::<_, Option<String>>(6)?),
                        (
                            "RatingDiff",
                            r.get::<_, Option<i64>>(7)?.map(|d| d.to_string()),
                        ),
                        ("Date", r.get::<_, Option<String>>(8)?),
                    ],
                ))
            })
            .map_err(err("read book learning"))?;
        for row in rows {
            let ((fen, mv, value, depth, games), origin) =
                row.map_err(err("read book learning"))?;
            let Ok(board) = parse_fen(&fen) else { continue };
            let Some(mv) = super::legal_move_on(&board, &mv) else {
                continue;
            };
            book.push_str(&format!(
                "[FEN \"{fen}\"]\n[Learn \"{value:+}\"]\n[Depth \"{depth}\"]\n[Games \"{games}\"]\n"
            ));
            for (name, v) in origin {
                if let Some(v) = v.filter(|v| !v.is_empty()) {
                    book.push_str(&format!("[{name} \"{}\"]\n", clean_tag(&v)));
                }
            }
            book.push_str(&format!(
                "{} {} *\n\n",
                move_number_prefix(&board),
                to_san(&board, mv)
            ));
        }
        let mut q = conn
            .prepare("SELECT fen, mv FROM forbidden ORDER BY fen, mv")
            .map_err(err("read result learning"))?;
        let rows = q
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(err("read result learning"))?;
        for row in rows {
            let (fen, mv) = row.map_err(err("read result learning"))?;
            let Ok(board) = parse_fen(&fen) else { continue };
            let Some(mv) = super::legal_move_on(&board, &mv) else {
                continue;
            };
            book.push_str(&format!(
                "[FEN \"{fen}\"]\n[Forbidden \"1\"]\n{} {} *\n\n",
                move_number_prefix(&board),
                to_san(&board, mv)
            ));
        }
        let pos = self.position_text()?;
        let book_path = dir.join("book.lrn");
        let pos_path = dir.join("position.lrn");
        for (p, text) in [(&book_path, &book), (&pos_path, &pos)] {
            write_atomically(p, |w| w.write_all(text.as_bytes())).map_err(|e| LearnError::Io {
                path: p.to_path_buf(),
                op: "write",
                source: e,
            })?;
        }
        Ok((book_path, pos_path))
    }

    /// `position.lrn`'s text: one block per learned position, oldest first.
    pub(super) fn position_text(&self) -> Result<String, LearnError> {
        let path = self.path().to_path_buf();
        let err = |op| {
            let path = path.clone();
            move |e| sql_err(&path, op, e)
        };
        let conn = &self.store.conn;
        let mut pos = String::from("; wily position learning (position.lrn)\n\n");
        let mut q = conn
            .prepare("SELECT fen, best, score, depth FROM positions ORDER BY ts, id")
            .map_err(err("read position learning"))?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            })
            .map_err(err("read position learning"))?;
        for row in rows {
            let (fen, best, score, depth) = row.map_err(err("read position learning"))?;
            let Ok(board) = parse_fen(&fen) else { continue };
            let Some(mv) = best.and_then(|b| super::legal_move_on(&board, &b)) else {
                continue;
            };
            pos.push_str(&format!(
                "position {fen}\nmove {}\nvalue {score}\ndepth {depth}\n\n",
                to_san(&board, mv)
            ));
        }
        Ok(pos)
    }

    /// Imports a `book.lrn` or `position.lrn` file (the kind is recognised from its
    /// content). With `clear`, what is known of that kind is dropped first. One
    /// transaction: an import that fails midway changes nothing.
    pub fn import(&mut self, file: &Path, clear: bool) -> Result<ImportSummary, LearnError> {
        let text = std::fs::read_to_string(file).map_err(|e| LearnError::Io {
            path: file.to_path_buf(),
            op: "read",
            source: e,
        })?;
        let kind = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with('#'))
            .and_then(|l| {
                if l.starts_with('[') {
                    Some(LrnKind::Book)
                } else if l.starts_with("position") {
                    Some(LrnKind::Position)
                } else {
                    None
                }
            });
        let Some(kind) = kind else {
            if text.trim().is_empty() {
                return Ok(ImportSummary::default());
            }
            return Err(LearnError::Parse {
                path: file.to_path_buf(),
                line: 1,
                detail: "neither a book.lrn file (starting with `[FEN ...]` tags) nor a \
                         position.lrn file (starting with `position FEN`)"
                    .to_string(),
            });
        };
        let mut summary = ImportSummary {
            kind: Some(kind),
            ..Default::default()
        };
        let records = match kind {
            LrnKind::Book => parse_book_lrn(&text, &mut summary),
            LrnKind::Position => parse_position_lrn(&text, &mut summary),
        };
        let path = self.path().to_path_buf();
        let err = |op| {
            let path = path.clone();
            move |e| sql_err(&path, op, e)
        };
        let ts = chrono::Utc::now().timestamp();
        let max_positions = self.settings.max_positions as i64;
        let tx = self
            .store
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err("begin"))?;
        if clear {
            let sql = match kind {
                LrnKind::Book => "DELETE FROM book_learn; DELETE FROM forbidden;",
                LrnKind::Position => "DELETE FROM positions;",
            };
            tx.execute_batch(sql).map_err(err("clear"))?;
        }
        for r in &records {
            let key = polyglot_key(&r.board) as i64;
            let fen = to_fen(&r.board);
            match &r.what {
                Record::Book {
                    value,
                    depth,
                    games,
                    origin,
                } => {
                    let o = origin.as_ref();
                    tx.execute(
                        "INSERT OR REPLACE INTO book_learn (key, mv, value, depth, games, fen,
                            updated, line, opponent, rating_diff, learned)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                        params![
                            key,
                            r.mv.to_string(),
                            value,
                            depth,
                            games,
                            fen,
                            ts,
                            o.map(|o| o.line.as_str()).filter(|l| !l.is_empty()),
                            o.map(|o| o.opponent.as_str()).filter(|n| !n.is_empty()),
                            o.and_then(|o| o.rating_diff),
                            o.map(|o| o.date.as_str()).filter(|d| !d.is_empty()),
                        ],
                    )
                    .map_err(err("import book learning"))?;
                    summary.book_values += 1;
                }
                Record::Forbidden => {
                    tx.execute(
                        "INSERT OR REPLACE INTO forbidden (key, mv, fen, game_id, ts)
                         VALUES (?1, ?2, ?3, NULL, ?4)",
                        params![key, r.mv.to_string(), fen, ts],
                    )
                    .map_err(err("import result learning"))?;
                    summary.forbidden += 1;
                }
                Record::Position { score, depth } => {
                    let best = r.mv.to_string();
                    let (score, depth) = (*score, *depth);
                    upsert_position(&tx, key, &fen, score, depth, &best, ts)
                        .map_err(err("import position learning"))?;
                    summary.positions += 1;
                }
            }
        }
        trim_positions(&tx, max_positions).map_err(err("trim positions"))?;
        tx.commit().map_err(err("commit"))?;
        self.load()?;
        Ok(summary)
    }

    /// `learn clear [book|position|result|all]`: forgets learned knowledge (games and
    /// samples are kept).
    pub fn clear(&mut self, what: u8) -> Result<(), LearnError> {
        let path = self.path().to_path_buf();
        let mut sql = String::from("BEGIN IMMEDIATE;");
        if what & LEARN_BOOK != 0 {
            sql.push_str("DELETE FROM book_learn;");
        }
        if what & super::LEARN_POSITION != 0 {
            sql.push_str("DELETE FROM positions;");
        }
        if what & super::LEARN_RESULT != 0 {
            sql.push_str("DELETE FROM forbidden;");
        }
        sql.push_str("COMMIT;");
        if let Err(e) = self.store.conn.execute_batch(&sql) {
            let _ = self.store.conn.execute_batch("ROLLBACK");
            return Err(sql_err(&path, "clear", e));
        }
        self.load()
    }
}

enum Record {
    Book {
        value: i64,
        depth: i64,
        games: i64,
        origin: Option<LineOrigin>,
    },
    Forbidden,
    Position {
        score: i64,
        depth: i64,
    },
}

struct Parsed {
    board: Board,
    mv: Move,
    what: Record,
}

fn tag(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name, value))
}

fn first_san(line: &str) -> Option<&str> {
    line.split_whitespace()
        .find(|t| {
            let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            !t.is_empty() && *t != *"*" && !t.starts_with('{')
        })
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
}

/// The learned move of a Crafty-format record (no `FEN` tag; movetext from the start
/// closed by `{value, depth, rating_difference}`).
/// The tags of a record are kept too: `White`, `Black` and `Date` name where the line
/// came from (the learner is the side that played its last move, the other side the
/// opponent), and wily's own `Learn` and `Games` tags, which its Crafty-format export
/// adds, give the stored value exactly (the comment's value is the one before the rating
/// weighting, as Crafty reads it).
fn crafty_record(movetext: &str, tags: &[(String, String)]) -> Result<Parsed, String> {
    let (moves, value, depth, rating_diff) = super::crafty_lrn::parse_movetext(movetext)?;
    let get = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
    let num = |n: &str| get(n).and_then(|v| v.trim_start_matches('+').parse::<i64>().ok());
    let learner_white = moves.len() % 2 == 1;
    let opponent = get(if learner_white { "Black" } else { "White" }).unwrap_or_default();
    let origin = LineOrigin {
        line: moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        opponent: opponent.to_string(),
        rating_diff,
        date: get("Date").unwrap_or_default().to_string(),
    };
    let line = super::crafty_lrn::CraftyLine {
        white: String::new(),
        black: String::new(),
        date: String::new(),
        moves,
        value,
        depth,
        rating_diff,
    };
    let (board, mv) = line
        .learned_move()
        .ok_or_else(|| "the line's moves are not legal".to_string())?;
    // Crafty's rating difference is the learner's rating minus the opponent's; the
    // value counts as wily's own book learning weighs it.
    let diff = rating_diff.map(|d| -(d.clamp(-10_000, 10_000) as i32));
    let value = match num("Learn") {
        Some(exact) => exact.clamp(-32_000, 32_000),
        None => super::game::scale_by_rating(value as f64, diff).round() as i64,
    };
    Ok(Parsed {
        board,
        mv,
        what: Record::Book {
            value,
            depth,
            games: num("Games").unwrap_or(1).clamp(1, 1_000_000),
            origin: Some(origin),
        },
    })
}

fn parse_book_lrn(text: &str, summary: &mut ImportSummary) -> Vec<Parsed> {
    let mut out = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut start_line = 0;
    // Crafty's records: movetext (possibly over several lines) up to the closing `}`.
    let mut movetext = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
            continue;
        }
        let has_fen = tags.iter().any(|(k, _)| k == "FEN");
        if !line.starts_with('[') && !has_fen {
            if tags.is_empty() && movetext.is_empty() {
                start_line = i + 1;
            }
            movetext.push_str(line);
            movetext.push(' ');
            if line.contains('}') {
                match crafty_record(&movetext, &tags) {
                    Ok(p) => out.push(p),
                    Err(why) => summary
                        .skipped
                        .push(format!("record at line {start_line}: {why}")),
                }
                movetext.clear();
                tags.clear();
            }
            continue;
        }
        if line.starts_with('[') {
            if !movetext.is_empty() {
                summary.skipped.push(format!(
                    "record at line {start_line}: no {{value, depth, rating_difference}} comment"
                ));
                movetext.clear();
                tags.clear();
            }
            if tags.is_empty() {
                start_line = i + 1;
            }
            match tag(line) {
                Some((n, v)) => tags.push((n.to_string(), v.to_string())),
                None => summary.skipped.push(format!("line {}: bad tag", i + 1)),
            }
            continue;
        }
        // A move line closes the record.
        let get = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
        let rec = (|| {
            let board = parse_fen(get("FEN").ok_or("no FEN tag")?).map_err(|_| "bad FEN")?;
            let san = first_san(line).ok_or("no move")?;
            let mv = parse_san(&board, san).map_err(|_| "illegal move")?;
            let what = if get("Forbidden").is_some() {
                Record::Forbidden
            } else {
                let num =
                    |n: &str| get(n).and_then(|v| v.trim_start_matches('+').parse::<i64>().ok());
                let text = |n: &str| get(n).unwrap_or_default().to_string();
                let origin = LineOrigin {
                    line: text("Line"),
                    opponent: text("Opponent"),
                    rating_diff: num("RatingDiff"),
                    date: text("Date"),
                };
                Record::Book {
                    value: num("Learn").ok_or("no Learn tag")?.clamp(-32_000, 32_000),
                    depth: num("Depth").unwrap_or(0).clamp(0, 1000),
                    games: num("Games").unwrap_or(1).clamp(1, 1_000_000),
                    origin: (origin != LineOrigin::default()).then_some(origin),
                }
            };
            Ok::<_, &str>(Parsed { board, mv, what })
        })();
        match rec {
            Ok(p) => out.push(p),
            Err(why) => summary
                .skipped
                .push(format!("record at line {start_line}: {why}")),
        }
        tags.clear();
    }
    if !movetext.is_empty() {
        summary.skipped.push(format!(
            "record at line {start_line}: no {{value, depth, rating_difference}} comment"
        ));
    }
    out
}

/// A `position.lrn` block being read.
#[derive(Default)]
struct PosBlock {
    line: usize,
    board: Option<Board>,
    mv: Option<String>,
    score: Option<i64>,
    depth: Option<i64>,
}

impl PosBlock {
    fn finish(self) -> Result<Parsed, &'static str> {
        let board = self.board.ok_or("bad or missing FEN")?;
        let san = self.mv.ok_or("no move")?;
        let mv = parse_san(&board, &san).map_err(|_| "illegal move")?;
        Ok(Parsed {
            board,
            mv,
            what: Record::Position {
                score: self.score.ok_or("no value")?.clamp(-32_000, 32_000),
                depth: self.depth.unwrap_or(0).clamp(0, 255),
            },
        })
    }
}

fn parse_position_lrn(text: &str, summary: &mut ImportSummary) -> Vec<Parsed> {
    let mut out = Vec::new();
    let mut cur: Option<PosBlock> = None;
    let mut finish = |c: Option<PosBlock>, out: &mut Vec<Parsed>| {
        let Some(c) = c else { return };
        let line = c.line;
        match c.finish() {
            Ok(p) => out.push(p),
            Err(why) => summary
                .skipped
                .push(format!("record at line {line}: {why}")),
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "position" => {
                finish(cur.take(), &mut out);
                cur = Some(PosBlock {
                    line: i + 1,
                    board: parse_fen(rest).ok(),
                    ..Default::default()
                });
            }
            "move" => {
                if let Some(c) = cur.as_mut() {
                    c.mv = Some(rest.to_string());
                }
            }
            "value" => {
                if let Some(c) = cur.as_mut() {
                    c.score = rest.trim_start_matches('+').parse().ok();
                }
            }
            "depth" => {
                if let Some(c) = cur.as_mut() {
                    c.depth = rest.parse().ok();
                }
            }
            _ => {}
        }
    }
    finish(cur.take(), &mut out);
    out
}
