//! `annotatet`: annotated games as a LaTeX document (`FILE.tex`). The moves are set as
//! text, a move that fell short in bold with its mark (`?!`, `?`, `??`), wily's comment and
//! better lines after it, and a board diagram of the position the comment is about drawn
//! with the `skak` package (`\fenboard{FEN}\showboard`); the game's own variations, nested
//! to any depth, in parentheses with wily's notes on their moves (diagrams only for the
//! main line's). The moves come from the walk of `line.rs`, written through `markup.rs` as the HTML is.
//! `pdflatex FILE.tex` prints it.

use super::line::AnnotatedGame;
use super::markup::{render, Heading, Markup};
use super::options::AnnotateOptions;
use chess::fen::to_fen;
use cozy_chess::Board;

/// Text with LaTeX's special characters escaped.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '#' | '$' | '%' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            _ => out.push(ch),
        }
    }
    out
}

/// LaTeX with the `skak` package.
struct Latex;

impl Markup for Latex {
    fn esc(&self, s: &str) -> String {
        esc(s)
    }

    fn begin(&self, opts: &AnnotateOptions) -> String {
        format!(
            "\\documentclass[a4paper]{{article}}\n\\usepackage[utf8]{{inputenc}}\n\
             \\usepackage{{skak}}\n\\begin{{document}}\n\
             \\noindent Annotated by wily {} ({}, moves {}--{}, margin {:.2}, {:.1}s per move)\n\n",
            env!("CARGO_PKG_VERSION"),
            esc(&opts.colors.describe()),
            opts.first_move,
            opts.last_move,
            f64::from(opts.margin_cp) / 100.0,
            opts.time.as_secs_f64()
        )
    }

    fn heading(&self, h: &Heading<'_>) -> String {
        format!(
            "\\section*{{{} -- {}}}\n{}, {}, {} \\hfill \\textbf{{{}}}\n\n\\noindent ",
            h.white, h.black, h.event, h.site, h.date, h.result
        )
    }

    fn number(&self, number: u16, black: bool) -> String {
        format!("{number}{}", if black { "\\ldots~" } else { ".~" })
    }

    fn noted(&self, san: &str, mark: &str, comment: &str) -> String {
        format!("\\textbf{{{san}{mark}}} \\emph{{{comment}}} ")
    }

    fn better(&self, line: &str, score: &str) -> String {
        format!("({line} {score}) ")
    }

    fn diagram(&self, before: &Board) -> String {
        format!(
            "\n\n\\fenboard{{{}}}\n\\begin{{center}}\\showboard\\end{{center}}\n\n\\noindent ",
            to_fen(before)
        )
    }

    fn open(&self) -> &'static str {
        "("
    }

    fn close(&self) -> &'static str {
        ") "
    }

    fn result(&self, result: &str) -> String {
        format!("\\textbf{{{result}}}\n\n")
    }

    fn end(&self) -> &'static str {
        "\\end{document}\n"
    }
}

/// All annotated games as one LaTeX document.
pub fn latex(games: &[AnnotatedGame], opts: &AnnotateOptions) -> String {
    render(games, opts, &Latex)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::{MoveNote, UserLine};
    use chess::san::parse_san;
    use cozy_chess::Board;
    use engine::Score;

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(esc("a_b & 50% #1 {x}"), "a\\_b \\& 50\\% \\#1 \\{x\\}");
        assert_eq!(esc("\\"), "\\textbackslash{}");
    }

    #[test]
    fn comments_lines_and_diagrams() {
        let start = Board::default();
        let mut b = start.clone();
        let mut moves = Vec::new();
        for m in ["e4", "e5", "Qh5", "Ke7"] {
            let mv = parse_san(&b, m).unwrap();
            b.play_unchecked(mv);
            moves.push(mv);
        }
        let mut before = start.clone();
        for &m in &moves[..3] {
            before.play_unchecked(m);
        }
        let better = vec![parse_san(&before, "Nc6").unwrap()];
        // After 1. e4 the game gives 1... c5 2. Nf3, and inside it 2. c3 (with a note,
        // but no diagram: only the main line's notes get one).
        let mut after_e4 = start.clone();
        after_e4.play_unchecked(moves[0]);
        let c5 = parse_san(&after_e4, "c5").unwrap();
        let mut after_c5 = after_e4.clone();
        after_c5.play_unchecked(c5);
        let nf3 = parse_san(&after_c5, "Nf3").unwrap();
        let c3 = parse_san(&after_c5, "c3").unwrap();
        let note = |loss| MoveNote {
            played: Score::Cp(0),
            better: Vec::new(),
            loss,
        };
        let inner = UserLine::flat(vec![c3], vec![Some(note(60))]);
        let variation = UserLine {
            moves: vec![c5, nf3],
            notes: Vec::new(),
            variations: vec![Vec::new(), vec![inner]],
        };
        let g = AnnotatedGame {
            tags: vec![("White".into(), "A_1".into()), ("Black".into(), "B".into())],
            start,
            line: UserLine {
                moves,
                notes: vec![
                    None,
                    None,
                    None,
                    Some(MoveNote {
                        played: Score::Cp(900),
                        better: vec![(Score::Cp(30), better)],
                        loss: 870,
                    }),
                ],
                variations: vec![Vec::new(), vec![variation]],
            },
            result: "*".into(),
        };
        let opts = super::super::parse_options(&["wb", "1-99", "0.5", "1"]).unwrap();
        let doc = latex(&[g], &opts);
        assert!(doc.starts_with("\\documentclass"), "{doc}");
        assert!(doc.contains("\\usepackage{skak}"));
        assert!(doc.contains("\\section*{A\\_1 -- B}"), "{doc}");
        assert!(
            doc.contains(
                "1.~e4 e5 (1\\ldots~c5 2.~Nf3 (2.~\\textbf{c3?!} \\emph{played 0.00, wily })) \
                 2.~Qh5 \\textbf{Ke7??}"
            ),
            "{doc}"
        );
        assert!(
            doc.contains("\\emph{played 9.00, wily 0.30} (2... Nc6 0.30)"),
            "{doc}"
        );
        assert!(doc.contains(&format!("\\fenboard{{{}}}", to_fen(&before))));
        assert_eq!(doc.matches("\\showboard").count(), 1);
        assert!(doc.trim_end().ends_with("\\end{document}"));
    }
}
