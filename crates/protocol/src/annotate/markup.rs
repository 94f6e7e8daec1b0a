//! One walk for the marked-up formats of annotated games (HTML in `html.rs`, LaTeX in
//! `latex.rs`): a format says how it writes the document's opening, a game's heading, a
//! move number, a move that fell short with wily's comment, a better line, a diagram and
//! a variation's brackets, and [`render`] writes every game with them in the same order.

use super::line::{walk, AnnotatedGame, Step};
use super::options::AnnotateOptions;
use super::writer::{comment_text, mark, pgn_line, tag_value};
use crate::output::fmt_score;
use chess::san::to_san;
use cozy_chess::Board;

/// A game's heading: its tags, escaped, and its result.
pub struct Heading<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub result: &'a str,
}

/// How one format writes each piece of an annotated game.
pub trait Markup {
    /// Text with the format's special characters escaped.
    fn esc(&self, s: &str) -> String;
    /// The document up to the first game: its preamble and the "annotated by" line.
    fn begin(&self, opts: &AnnotateOptions) -> String;
    fn heading(&self, h: &Heading<'_>) -> String;
    /// `12.` before White's move, `12...` before Black's, with what follows it.
    fn number(&self, number: u16, black: bool) -> String;
    /// A move that fell short: its SAN and mark (`??`, `?`, `?!`) and wily's comment,
    /// each escaped.
    fn noted(&self, san: &str, mark: &str, comment: &str) -> String;
    /// One of wily's better lines with its score, each escaped.
    fn better(&self, line: &str, score: &str) -> String;
    /// The position a main-line comment is about.
    fn diagram(&self, before: &Board) -> String;
    /// A variation's opening bracket.
    fn open(&self) -> &'static str;
    /// A variation's closing bracket (written after trimming trailing spaces).
    fn close(&self) -> &'static str;
    /// A game's result (escaped) at the end of its moves.
    fn result(&self, result: &str) -> String;
    /// The end of the document.
    fn end(&self) -> &'static str;
}

/// All annotated games as one document of format `m`.
pub fn render(games: &[AnnotatedGame], opts: &AnnotateOptions, m: &impl Markup) -> String {
    let mut out = m.begin(opts);
    for g in games {
        let t = |n: &str| m.esc(tag_value(g, n).unwrap_or("?"));
        let result = m.esc(&g.result);
        out.push_str(&m.heading(&Heading {
            white: &t("White"),
            black: &t("Black"),
            event: &t("Event"),
            site: &t("Site"),
            date: &t("Date"),
            result: &result,
        }));
        walk(&g.start, &g.line, &mut |step| match step {
            Step::Number { number, black } => out.push_str(&m.number(number, black)),
            Step::Move {
                before,
                mv,
                note,
                depth,
            } => {
                let san = m.esc(&to_san(before, mv));
                let Some(note) = note else {
                    out.push_str(&format!("{san} "));
                    return;
                };
                out.push_str(&m.noted(&san, mark(note.loss), &m.esc(&comment_text(note))));
                for (score, line) in &note.better {
                    out.push_str(&m.better(
                        &m.esc(&pgn_line(before, line).join(" ")),
                        &m.esc(&fmt_score(*score)),
                    ));
                }
                if depth == 0 {
                    out.push_str(&m.diagram(before));
                }
            }
            Step::Open => out.push_str(m.open()),
            Step::Close => {
                let end = out.trim_end().len();
                out.truncate(end);
                out.push_str(m.close());
            }
        });
        out.push_str(&m.result(&result));
    }
    out.push_str(m.end());
    out
}
