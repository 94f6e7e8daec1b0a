//! Choosing a book move.
//!
//! Filters, in order: `?` moves, moves result learning forbade and moves whose learned
//! value is below -100 are never played; when any move is marked `!` (or has a learned
//! value above 100), only those moves stay; moves the big book saw with zero wins are
//! culled (hand-edited and Polyglot moves are exempt). What stays is scored:
//!
//! - freq  = 1000 * games / most games of any remaining move
//! - ratio = 1000 * (wins + draws/2 + 1) / (games + 2)  (win ratio, shrunk toward 50%)
//! - eval  = 500 + static evaluation after the move in centipawns, clamped to 0..1000
//! - learn = 500 + learned value, clamped to 0..1000 (500 when nothing was learned)
//!
//! and weighted by `bookw freq|ratio|eval|learn W`:
//!
//! weight = Wfreq x freq + Wratio x (ratio - 500) + Weval x (eval - 500)
//!          + Wlearn x (learn - 500), at least 0
//!
//! (500 is each term's neutral value, so a term that is equal for all moves changes
//! nothing). The `book width` best-weighted moves are kept (moves with `{play NN%}`
//! always stay). `book random 1` then draws a move:
//! `{play NN%}` moves get exactly NN percent, the others share the rest in proportion to
//! their weight. `book random 0` hands the remaining moves to a short search instead.

use super::{move_text, Book, Candidate};
use chess::polyglot::polyglot_key;
use cozy_chess::{Board, Move};
use rand::Rng;
use std::fmt::Write as _;

/// Learned knowledge the selection consults (implemented by the learning store).
pub trait LearnedValues {
    /// The learned value (centipawns, mover's view) of `mv` in the position with
    /// Polyglot key `key`.
    fn book_value(&self, key: u64, mv: Move) -> Option<i32>;
    /// Whether result learning forbade `mv` in that position.
    fn is_forbidden(&self, key: u64, mv: Move) -> bool;
}

/// No learned data.
pub struct NoLearning;

impl LearnedValues for NoLearning {
    fn book_value(&self, _: u64, _: Move) -> Option<i32> {
        None
    }
    fn is_forbidden(&self, _: u64, _: Move) -> bool {
        false
    }
}

/// `bookw` weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookWeights {
    pub freq: f64,
    pub ratio: f64,
    pub eval: f64,
    pub learn: f64,
}

impl Default for BookWeights {
    fn default() -> Self {
        BookWeights {
            freq: 1.0,
            ratio: 0.5,
            eval: 0.1,
            learn: 1.0,
        }
    }
}

/// Book settings changed by the console (`book`, `bookw`, `show book`) and the bot
/// (width from the opponent lists).
#[derive(Clone, Debug, PartialEq)]
pub struct BookSettings {
    /// `book on|off`.
    pub enabled: bool,
    /// `book random 1` (weighted random) or `book random 0` (search the book moves).
    pub random: bool,
    /// `book width N`: how many of the best-weighted moves stay.
    pub width: usize,
    pub weights: BookWeights,
    /// `show book`: print the candidate table before each book move.
    pub show: bool,
    /// A fixed seed (reproducible choices), if set.
    pub seed: Option<u64>,
}

impl Default for BookSettings {
    fn default() -> Self {
        BookSettings {
            enabled: true,
            random: true,
            width: 5,
            weights: BookWeights::default(),
            show: false,
            seed: None,
        }
    }
}

impl BookSettings {
    pub fn describe(&self) -> String {
        let w = &self.weights;
        format!(
            "book {}, random {}, width {}, bookw freq {} ratio {} eval {} learn {}, show book {}{}\n",
            if self.enabled { "on" } else { "off" },
            u8::from(self.random),
            self.width,
            w.freq,
            w.ratio,
            w.eval,
            w.learn,
            if self.show { "on" } else { "off" },
            self.seed.map(|s| format!(", seed {s}")).unwrap_or_default()
        )
    }
}

/// Callbacks the selection needs from its caller: learned values, a static evaluation
/// (side to move, centipawns) and, for `book random 0`, a short search restricted to the
/// given moves. Missing callbacks leave their term neutral (eval) or fall back to the
/// weighted draw (search).
pub struct ChooseHooks<'a> {
    pub learned: &'a dyn LearnedValues,
    pub eval: Option<EvalHook<'a>>,
    pub search: Option<SearchHook<'a>>,
}

/// Static evaluation of a position, centipawns from the side to move.
pub type EvalHook<'a> = &'a mut dyn FnMut(&Board) -> i32;
/// A short search of `board` restricted to the given moves; returns the best of them.
pub type SearchHook<'a> = &'a mut dyn FnMut(&Board, &[Move]) -> Option<Move>;

impl<'a> ChooseHooks<'a> {
    pub fn new(learned: &'a dyn LearnedValues) -> Self {
        ChooseHooks {
            learned,
            eval: None,
            search: None,
        }
    }
}

/// Why a candidate is not in the final draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Kept; may be chosen.
    Kept,
    /// `?` in the small book.
    Questionable,
    /// Result learning forbade it.
    Forbidden,
    /// Learned value below -100.
    LearnedBad,
    /// Another move is `!` (or learned above 100).
    NotGood,
    /// The big book saw no win with it.
    NoWins,
    /// Beyond `book width`.
    Width,
}

impl Status {
    fn note(self) -> &'static str {
        match self {
            Status::Kept => "",
            Status::Questionable => "? never played",
            Status::Forbidden => "lost with it (result learning)",
            Status::LearnedBad => "learned < -100",
            Status::NotGood => "not ! (another move is)",
            Status::NoWins => "no wins",
            Status::Width => "beyond book width",
        }
    }
}

/// One line of the `show book` table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub cand: Candidate,
    pub learned: Option<i32>,
    /// freq, ratio, eval, learn terms (0..1000).
    pub terms: [i32; 4],
    pub weight: f64,
    pub probability: f64,
    pub status: Status,
}

/// All candidates with their numbers, in weight order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BookTable {
    pub rows: Vec<Row>,
    pub width: usize,
    pub random: bool,
}

impl BookTable {
    /// The moves that survived the filters (before `book width`): wily "has a choice"
    /// when there are two or more.
    pub fn playable(&self) -> Vec<Move> {
        self.rows
            .iter()
            .filter(|r| matches!(r.status, Status::Kept | Status::Width))
            .map(|r| r.cand.mv)
            .collect()
    }

    /// The moves that take part in the draw.
    pub fn kept(&self) -> Vec<Move> {
        self.rows
            .iter()
            .filter(|r| r.status == Status::Kept)
            .map(|r| r.cand.mv)
            .collect()
    }

    /// The kept moves with their chances, best first, e.g. `e4 45%, d4 30%, c4 25%`
    /// (whisper/kibitz level 4).
    pub fn shares(&self, board: &Board) -> String {
        let mut rows: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.status == Status::Kept && r.probability > 0.0)
            .collect();
        rows.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        rows.iter()
            .map(|r| {
                format!(
                    "{} {:.0}%",
                    move_text(board, r.cand.mv),
                    100.0 * r.probability
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The `show book` text.
    pub fn render(&self, board: &Board) -> String {
        let mut s = String::new();
        if self.rows.is_empty() {
            s.push_str("no book moves\n");
            return s;
        }
        let _ = writeln!(
            s,
            "book moves: {} in book, {} kept (width {}, random {})",
            self.rows.len(),
            self.kept().len(),
            self.width,
            u8::from(self.random)
        );
        let _ =
            writeln!(
            s,
            "  {:<7} {:>7} {:>6} {:>6} {:>6} {:>5} {:>7} {:>5} {:>5} {:>5} {:>5} {:>8} {:>6}  note",
            "move", "games", "won", "drawn", "lost", "flags", "learned", "freq", "ratio", "eval",
            "learn", "weight", "chance"
        );
        for r in &self.rows {
            let c = &r.cand;
            let g = c.games();
            let pct = |n: u64| {
                if g == 0 {
                    "-".to_string()
                } else {
                    format!("{:.1}%", 100.0 * n as f64 / g as f64)
                }
            };
            let mut flags = String::new();
            if c.good {
                flags.push('!');
            }
            if c.bad {
                flags.push('?');
            }
            if let Some(p) = c.play {
                let _ = write!(flags, "{p}%");
            }
            if flags.is_empty() {
                flags.push('-');
            }
            let games = match c.polyglot_weight {
                Some(w) if g == 0 => format!("w{w}"),
                _ => g.to_string(),
            };
            let learned = r
                .learned
                .map(|v| format!("{v:+}"))
                .unwrap_or_else(|| "-".to_string());
            let chance = if r.status == Status::Kept {
                format!("{:.1}%", 100.0 * r.probability)
            } else {
                "-".to_string()
            };
            let _ = writeln!(
                s,
                "  {:<7} {:>7} {:>6} {:>6} {:>6} {:>5} {:>7} {:>5} {:>5} {:>5} {:>5} {:>8.1} {:>6}  {}",
                move_text(board, c.mv),
                games,
                pct(c.wins),
                pct(c.draws),
                pct(c.losses),
                flags,
                learned,
                r.terms[0],
                r.terms[1],
                r.terms[2],
                r.terms[3],
                r.weight,
                chance,
                r.status.note()
            );
        }
        s
    }
}

/// What [`Book::choose`] decided.
#[derive(Clone, Debug, PartialEq)]
pub struct BookChoice {
    /// The move to play, or `None` when the book has nothing to offer here.
    pub mv: Option<Move>,
    /// Whether a search (`book random 0`) picked it.
    pub searched: bool,
    pub table: BookTable,
}

impl Book {
    /// Scores every candidate and applies the filters, without drawing.
    pub fn table(&self, board: &Board, hooks: &mut ChooseHooks) -> BookTable {
        let key = polyglot_key(board);
        let candidates = self.probe(board);
        let w = self.settings.weights;
        let mut rows: Vec<Row> = candidates
            .into_iter()
            .map(|cand| {
                let learned = hooks.learned.book_value(key, cand.mv);
                let status = if cand.bad {
                    Status::Questionable
                } else if hooks.learned.is_forbidden(key, cand.mv) {
                    Status::Forbidden
                } else if learned.is_some_and(|v| v < -100) {
                    Status::LearnedBad
                } else {
                    Status::Kept
                };
                Row {
                    cand,
                    learned,
                    terms: [0; 4],
                    weight: 0.0,
                    probability: 0.0,
                    status,
                }
            })
            .collect();
        let is_good = |r: &Row| r.cand.good || r.learned.is_some_and(|v| v > 100);
        if rows.iter().any(|r| r.status == Status::Kept && is_good(r)) {
            for r in rows.iter_mut() {
                if r.status == Status::Kept && !is_good(r) {
                    r.status = Status::NotGood;
                }
            }
        }
        for r in rows.iter_mut() {
            let c = &r.cand;
            let exempt = c.sources.small || c.sources.polyglot || c.good || c.play.is_some();
            if r.status == Status::Kept && !exempt && c.wins == 0 {
                r.status = Status::NoWins;
            }
        }
        let max_games = rows
            .iter()
            .filter(|r| r.status == Status::Kept)
            .map(|r| {
                r.cand
                    .games()
                    .max(u64::from(r.cand.polyglot_weight.unwrap_or(0)))
            })
            .max()
            .unwrap_or(0)
            .max(1);
        for r in rows.iter_mut().filter(|r| r.status == Status::Kept) {
            let c = &r.cand;
            let g = c.games().max(u64::from(c.polyglot_weight.unwrap_or(0)));
            let freq = (1000 * g / max_games) as i32;
            let ratio = if c.games() == 0 {
                500
            } else {
                let num = 2 * c.wins + c.draws + 2;
                (1000 * num / (2 * (c.games() + 2))) as i32
            };
            let eval = match hooks.eval.as_mut() {
                Some(f) => {
                    let mut after = board.clone();
                    after.play_unchecked(c.mv);
                    500 + (-f(&after)).clamp(-500, 500)
                }
                None => 500,
            };
            let learn = 500 + r.learned.unwrap_or(0).clamp(-500, 500);
            r.terms = [freq, ratio, eval, learn];
            // Frequency counts from 0; the other terms from their neutral 500, so a term
            // that is the same for every move (nothing learned, no evaluation) changes
            // nothing.
            r.weight = w.freq * f64::from(freq)
                + w.ratio * f64::from(ratio - 500)
                + w.eval * f64::from(eval - 500)
                + w.learn * f64::from(learn - 500);
            if !(r.weight.is_finite() && r.weight >= 0.0) {
                r.weight = 0.0;
            }
        }
        rows.sort_by(|a, b| {
            let rank = |r: &Row| u8::from(r.status != Status::Kept);
            rank(a)
                .cmp(&rank(b))
                .then(b.weight.total_cmp(&a.weight))
                .then(b.cand.games().cmp(&a.cand.games()))
        });
        let width = self.settings.width.max(1);
        let mut seen = 0;
        for r in rows.iter_mut().filter(|r| r.status == Status::Kept) {
            if r.cand.play.is_some() {
                continue;
            }
            seen += 1;
            if seen > width {
                r.status = Status::Width;
            }
        }
        assign_probabilities(&mut rows);
        // List the kept moves by their chance (then weight), the others after them.
        rows.sort_by(|a, b| {
            let rank = |r: &Row| match r.status {
                Status::Kept => 0u8,
                Status::Width => 1,
                _ => 2,
            };
            rank(a)
                .cmp(&rank(b))
                .then(b.probability.total_cmp(&a.probability))
                .then(b.weight.total_cmp(&a.weight))
                .then(b.cand.games().cmp(&a.cand.games()))
        });
        BookTable {
            rows,
            width,
            random: self.settings.random,
        }
    }

    /// Chooses a book move for `board` (or `None` when out of book or the book is off).
    pub fn choose(&mut self, board: &Board, hooks: &mut ChooseHooks) -> BookChoice {
        let table = self.table(board, hooks);
        if !self.settings.enabled {
            return BookChoice {
                mv: None,
                searched: false,
                table,
            };
        }
        let kept = table.kept();
        let total: f64 = table
            .rows
            .iter()
            .filter(|r| r.status == Status::Kept)
            .map(|r| r.probability)
            .sum();
        if kept.is_empty() || total <= 0.0 {
            return BookChoice {
                mv: None,
                searched: false,
                table,
            };
        }
        if !self.settings.random && kept.len() > 1 {
            if let Some(search) = hooks.search.as_mut() {
                if let Some(mv) = search(board, &kept).filter(|m| kept.contains(m)) {
                    return BookChoice {
                        mv: Some(mv),
                        searched: true,
                        table,
                    };
                }
            }
        }
        let r: f64 = self.rng().gen::<f64>() * total;
        let mut acc = 0.0;
        let mut pick = None;
        for row in table
            .rows
            .iter()
            .filter(|r| r.status == Status::Kept && r.probability > 0.0)
        {
            acc += row.probability;
            pick = Some(row.cand.mv);
            if r < acc {
                break;
            }
        }
        BookChoice {
            mv: pick,
            searched: false,
            table,
        }
    }
}

impl Book {
    /// The bot's entry point: a book move for `board` with `width` from the opponent
    /// lists and the caller's `hooks` (learned values, evaluation, search), plus the kept
    /// moves with their chances (`e4 45%, d4 30%`) for whisper level 4 and whether a
    /// search (`book random 0`) chose it. `None` when out of book or the book is off.
    pub fn pick(
        &mut self,
        board: &Board,
        width: usize,
        hooks: &mut ChooseHooks,
    ) -> Option<(Move, String, bool)> {
        self.settings.width = width.clamp(1, 99);
        let choice = self.choose(board, hooks);
        let mv = choice.mv?;
        Some((mv, choice.table.shares(board), choice.searched))
    }
}

/// `{play NN%}` moves get NN percent; the rest is shared by weight.
fn assign_probabilities(rows: &mut [Row]) {
    let kept = |r: &&mut Row| r.status == Status::Kept;
    let forced: f64 = rows
        .iter_mut()
        .filter(kept)
        .filter_map(|r| r.cand.play)
        .map(|p| f64::from(p) / 100.0)
        .sum();
    let free_weight: f64 = rows
        .iter_mut()
        .filter(kept)
        .filter(|r| r.cand.play.is_none())
        .map(|r| r.weight)
        .sum();
    let n_free = rows
        .iter_mut()
        .filter(kept)
        .filter(|r| r.cand.play.is_none())
        .count();
    // Share left for the moves without a forced percentage; when the forced ones add up
    // to 100% or more, or there are no others, the forced ones are scaled to fill 100%.
    let (forced_scale, rest) = if forced >= 1.0 || n_free == 0 {
        (if forced > 0.0 { 1.0 / forced } else { 0.0 }, 0.0)
    } else {
        (1.0, 1.0 - forced)
    };
    for r in rows.iter_mut().filter(|r| r.status == Status::Kept) {
        r.probability = match r.cand.play {
            Some(p) => f64::from(p) / 100.0 * forced_scale,
            None if rest <= 0.0 => 0.0,
            None if free_weight > 0.0 => rest * r.weight / free_weight,
            None => rest / n_free as f64,
        };
    }
}
