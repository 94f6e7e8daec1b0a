//! `learn export --crafty`: the learned book values as Crafty's own `book.lrn`, one
//! record per learned move: the players (wily, as the side that played the line's last
//! move, and the opponent of the game it was learned from), the date, and the line from
//! the start closed by `{value, depth, rating_difference}` (see `crafty_lrn`).
//!
//! The store keeps the line, the opponent, the rating difference and the date beside each
//! value it learned (schema version 2); a value learned before that is matched to the
//! newest stored game that played its move out of the book. The comment's value is the
//! one before the rating weighting, as Crafty reads it (the stored value divided by the
//! weighting the rating difference gives, `game::scale_by_rating`); wily's own `Learn`
//! and `Games` tags beside the three Crafty reads carry the stored value exactly, so that
//! importing the file gives back what was exported. Values with no known line (imported
//! from records with a position and no line) and forbidden moves have no place in
//! Crafty's format and are counted as left out; the plain export keeps them.

use super::game::LineOrigin;
use super::store::sql_err;
use super::{LearnError, Learner};
use book::atomic::write_atomically;
use chess::polyglot::polyglot_key;
use cozy_chess::{Board, Move};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `export_crafty` wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CraftyExport {
    pub book: PathBuf,
    pub positions: PathBuf,
    /// Records written.
    pub lines: usize,
    /// ... of which the line was found in the stored games (values learned before the
    /// store kept lines).
    pub from_games: usize,
    /// Learned values with no known line, and forbidden moves: not in the file.
    pub left_out: usize,
    pub forbidden_left_out: usize,
}

impl CraftyExport {
    pub fn render(&self) -> String {
        let mut s = format!(
            "wrote {} ({} lines in Crafty's format",
            self.book.display(),
            self.lines
        );
        if self.from_games > 0 {
            s.push_str(&format!(", {} found in the stored games", self.from_games));
        }
        s.push_str(&format!(") and {}\n", self.positions.display()));
        if self.left_out + self.forbidden_left_out > 0 {
            s.push_str(&format!(
                "left out: {} learned values with no line from the start, {} forbidden \
                 moves (Crafty's format has no place for them; `learn export` keeps them)\n",
                self.left_out, self.forbidden_left_out
            ));
        }
        s
    }
}

/// Undoes `game::scale_by_rating` for a stored value (rating difference: the learner's
/// rating minus the opponent's, Crafty's sign).
pub fn unscale_by_rating(v: i64, rating_diff: Option<i64>) -> i64 {
    // scale_by_rating takes the opponent's rating minus the learner's.
    let rd = -(rating_diff.unwrap_or(0).clamp(-400, 400)) as f64;
    let factor = if v > 0 {
        1.0 + rd / 800.0
    } else {
        1.0 - rd / 800.0
    };
    (v as f64 / factor).round() as i64
}

/// The moves of a stored line (coordinates), legal from the start position.
fn parse_line(line: &str) -> Option<Vec<Move>> {
    let mut board = Board::default();
    let mut moves = Vec::new();
    for t in line.split_whitespace() {
        let mv = super::legal_move_on(&board, t)?;
        board.play_unchecked(mv);
        moves.push(mv);
    }
    (!moves.is_empty()).then_some(moves)
}

impl Learner {
    /// For values learned before the store kept their line: the newest stored game from
    /// the start position that played each (position, move) within its book moves.
    fn lines_from_games(&self) -> Result<HashMap<(u64, String), LineOrigin>, LearnError> {
        let path = self.path().to_path_buf();
        let err = |e| sql_err(&path, "read games", e);
        let mut q = self
            .store
            .conn
            .prepare(
                "SELECT moves, opponent, wily_rating, opponent_rating, date, book_exit_ply
                 FROM games WHERE start_fen IS NULL ORDER BY id",
            )
            .map_err(err)?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<i64>>(5)?,
                ))
            })
            .map_err(err)?;
        let mut out = HashMap::new();
        for row in rows {
            let (moves, opponent, wily, opp, date, exit) = row.map_err(err)?;
            let rating_diff = wily.zip(opp).map(|(w, o)| w - o);
            let date = date.get(..10).unwrap_or_default().replace('-', ".");
            let mut board = Board::default();
            let mut played: Vec<&str> = Vec::new();
            for t in moves
                .split_whitespace()
                .take(exit.unwrap_or(0).max(0) as usize)
            {
                let Some(mv) = super::legal_move_on(&board, t) else {
                    break;
                };
                played.push(t);
                // Newer games come later and replace older ones.
                out.insert(
                    (polyglot_key(&board), mv.to_string()),
                    LineOrigin {
                        line: played.join(" "),
                        opponent: opponent.clone(),
                        rating_diff,
                        date: date.clone(),
                    },
                );
                board.play_unchecked(mv);
            }
        }
        Ok(out)
    }

    /// Writes `book.lrn` in Crafty's format and `position.lrn` (as `export` writes it)
    /// into `dir`, each atomically.
    pub fn export_crafty(&self, dir: &Path) -> Result<CraftyExport, LearnError> {
        std::fs::create_dir_all(dir).map_err(|e| LearnError::Io {
            path: dir.to_path_buf(),
            op: "create directory",
            source: e,
        })?;
        let path = self.path().to_path_buf();
        let err = |e| sql_err(&path, "read book learning", e);
        let conn = &self.store.conn;
        let mut q = conn
            .prepare(
                "SELECT key, mv, value, depth, games, line, opponent, rating_diff, learned
                 FROM book_learn ORDER BY coalesce(line, ''), fen, mv",
            )
            .map_err(err)?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)? as u64,
                    r.get::<_, String>(1)?,
                    (
                        r.get::<_, i64>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                    ),
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, Option<i64>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                ))
            })
            .map_err(err)?;
        let mut games: Option<HashMap<(u64, String), LineOrigin>> = None;
        let mut summary = CraftyExport::default();
        let mut text = String::from("; wily book learning in Crafty's book.lrn format\n\n");
        for row in rows {
            let (key, mv, (value, depth, n), line, opponent, rating_diff, learned) =
                row.map_err(err)?;
            let stored = line.and_then(|l| parse_line(&l)).map(|moves| {
                let o = LineOrigin {
                    line: String::new(),
                    opponent: opponent.unwrap_or_default(),
                    rating_diff,
                    date: learned.unwrap_or_default(),
                };
                (moves, o)
            });
            let found = match stored {
                Some(s) => Some(s),
                None => {
                    if games.is_none() {
                        games = Some(self.lines_from_games()?);
                    }
                    let hit = games.as_ref().and_then(|g| g.get(&(key, mv.clone())));
                    let hit = hit.and_then(|o| parse_line(&o.line).map(|m| (m, o.clone())));
                    if hit.is_some() {
                        summary.from_games += 1;
                    }
                    hit
                }
            };
            // The line must end in the stored move from the stored position.
            let Some((moves, origin)) = found.filter(|(moves, _)| {
                let mut b = Board::default();
                for &m in &moves[..moves.len() - 1] {
                    b.play_unchecked(m);
                }
                polyglot_key(&b) == key && moves[moves.len() - 1].to_string() == mv
            }) else {
                summary.left_out += 1;
                continue;
            };
            let opponent = if origin.opponent.is_empty() {
                "?".to_string()
            } else {
                origin.opponent.clone()
            };
            let (white, black) = if moves.len() % 2 == 1 {
                ("wily".to_string(), opponent)
            } else {
                (opponent, "wily".to_string())
            };
            let record = super::crafty_lrn::CraftyLine {
                white,
                black,
                date: if origin.date.is_empty() {
                    "????.??.??".to_string()
                } else {
                    origin.date.clone()
                },
                moves,
                value: unscale_by_rating(value, origin.rating_diff),
                depth,
                rating_diff: origin.rating_diff,
            }
            .to_text();
            // wily's tags go after Crafty's three, before the movetext.
            let (tags, movetext) = record
                .rsplit_once("]\n")
                .map(|(t, m)| (format!("{t}]\n"), m.to_string()))
                .unwrap_or_default();
            text.push_str(&tags);
            text.push_str(&format!(
                "[Learn \"{value:+}\"]\n[Games \"{n}\"]\n{movetext}"
            ));
            summary.lines += 1;
        }
        summary.forbidden_left_out = self.store().count("forbidden")? as usize;
        let pos = self.position_text()?;
        summary.book = dir.join("book.lrn");
        summary.positions = dir.join("position.lrn");
        for (p, t) in [(&summary.book, &text), (&summary.positions, &pos)] {
            write_atomically(p, |w| w.write_all(t.as_bytes())).map_err(|e| LearnError::Io {
                path: p.to_path_buf(),
                op: "write",
                source: e,
            })?;
        }
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::scale_by_rating;

    #[test]
    fn unscaling_undoes_the_rating_weighting() {
        for v in [-500i64, -120, -37, -1, 0, 1, 42, 333, 500] {
            for rd in [None, Some(-400), Some(-150), Some(0), Some(90), Some(400)] {
                let raw = unscale_by_rating(v, rd);
                let back = scale_by_rating(raw as f64, rd.map(|d| -(d as i32))).round() as i64;
                assert!((back - v).abs() <= 1, "{v} {rd:?}: raw {raw}, back {back}");
                assert_eq!(raw.signum(), v.signum());
            }
        }
        assert_eq!(unscale_by_rating(-53, None), -53);
    }

    #[test]
    fn stored_lines_parse_from_the_start() {
        assert_eq!(parse_line("e2e4 c7c5 g1f3").map(|m| m.len()), Some(3));
        assert_eq!(parse_line("e2e4 e2e4"), None);
        assert_eq!(parse_line(""), None);
    }
}
