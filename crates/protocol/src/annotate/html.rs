//! `annotateh`: annotated games as one HTML page. A move that fell short is set in bold
//! red with its mark (`?!`, `?`, `??`), wily's comment in grey italics and its better lines
//! in blue after it, with a board diagram (a table of Unicode pieces) of the position the
//! comment is about; the game's own variations in parentheses. The moves come from the
//! walk of `line.rs`, written through `markup.rs` as the LaTeX is.

use super::line::AnnotatedGame;
use super::markup::{render, Heading, Markup};
use super::options::AnnotateOptions;
use super::writer::number_text;
use chess::fen::to_fen;
use cozy_chess::{Board, Color};

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page's markup.
struct Html;

impl Markup for Html {
    fn esc(&self, s: &str) -> String {
        esc(s)
    }

    fn begin(&self, opts: &AnnotateOptions) -> String {
        let mut out = String::from(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>wily annotations</title>\n\
             <style>body{font-family:serif;max-width:50em;margin:auto}\
             .c{color:#555;font-style:italic}.v{color:#036}.bad{color:#a00;font-weight:bold}\
             table.board{border-collapse:collapse;border:2px solid #444;margin:0.5em 0}\
             table.board td{width:2em;height:2em;text-align:center;font-size:1.5em;padding:0}\
             td.l{background:#eed8b5}td.d{background:#b58863}</style>\n\
             </head><body>\n",
        );
        out.push_str(&format!(
            "<p>Annotated by wily {} ({}, moves {}-{}, margin {:.2}, {:.1}s per move)</p>\n",
            env!("CARGO_PKG_VERSION"),
            opts.colors.describe(),
            opts.first_move,
            opts.last_move,
            f64::from(opts.margin_cp) / 100.0,
            opts.time.as_secs_f64()
        ));
        out
    }

    fn heading(&self, h: &Heading<'_>) -> String {
        format!(
            "<h2>{} &ndash; {}</h2>\n<p>{}, {}, {} &nbsp; <b>{}</b></p>\n<p>",
            h.white, h.black, h.event, h.site, h.date, h.result
        )
    }

    fn number(&self, number: u16, black: bool) -> String {
        format!("{} ", number_text(number, black))
    }

    fn noted(&self, san: &str, mark: &str, comment: &str) -> String {
        format!("<span class=\"bad\">{san}{mark}</span> <span class=\"c\">{{{comment}}}</span> ")
    }

    fn better(&self, line: &str, score: &str) -> String {
        format!("<span class=\"v\">({line} {score})</span> ")
    }

    fn diagram(&self, before: &Board) -> String {
        format!("</p>\n{}<p>", diagram(before))
    }

    fn open(&self) -> &'static str {
        "<span class=\"v\">("
    }

    fn close(&self) -> &'static str {
        ")</span> "
    }

    fn result(&self, result: &str) -> String {
        format!("<b>{result}</b></p>\n")
    }

    fn end(&self) -> &'static str {
        "</body></html>\n"
    }
}

/// All annotated games as one HTML page.
pub fn html(games: &[AnnotatedGame], opts: &AnnotateOptions) -> String {
    render(games, opts, &Html)
}

/// A board diagram (White at the bottom) as an HTML table of Unicode pieces on light
/// and dark squares, with the FEN as its title.
pub fn diagram(board: &Board) -> String {
    use cozy_chess::{File, Piece, Rank, Square};
    let glyph = |p: Piece, c: Color| {
        let white = [
            '\u{2659}', '\u{2658}', '\u{2657}', '\u{2656}', '\u{2655}', '\u{2654}',
        ];
        let black = [
            '\u{265f}', '\u{265e}', '\u{265d}', '\u{265c}', '\u{265b}', '\u{265a}',
        ];
        if c == Color::White {
            white[p as usize]
        } else {
            black[p as usize]
        }
    };
    let mut out = format!(
        "<table class=\"board\" title=\"{}\">\n",
        esc(&to_fen(board))
    );
    for rank in Rank::ALL.iter().rev() {
        out.push_str("<tr>");
        for file in File::ALL {
            let sq = Square::new(file, *rank);
            let shade = if (file as usize + *rank as usize).is_multiple_of(2) {
                "d"
            } else {
                "l"
            };
            let piece = match (board.piece_on(sq), board.color_on(sq)) {
                (Some(p), Some(c)) => glyph(p, c).to_string(),
                _ => "&nbsp;".to_string(),
            };
            out.push_str(&format!("<td class=\"{shade}\">{piece}</td>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::writer::pgn;
    use crate::annotate::{MoveNote, UserLine};
    use chess::san::parse_san;
    use engine::Score;

    #[test]
    fn diagrams_show_the_position() {
        let d = diagram(&Board::default());
        assert_eq!(d.matches("<tr>").count(), 8);
        assert_eq!(d.matches("<td").count(), 64);
        // a8 is a light square holding a black rook; a1 a dark one with a white rook.
        assert!(d.contains("<tr><td class=\"l\">\u{265c}</td>"), "{d}");
        assert!(d.contains("<tr><td class=\"d\">\u{2656}</td>"), "{d}");
        assert!(d.contains("title=\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\""));
    }

    #[test]
    fn writes_the_games_own_variations_with_notes() {
        let start = Board::default();
        let e4 = parse_san(&start, "e4").unwrap();
        let mut after_e4 = start.clone();
        after_e4.play_unchecked(e4);
        let e5 = parse_san(&after_e4, "e5").unwrap();
        let c5 = parse_san(&after_e4, "c5").unwrap();
        let mut after_c5 = after_e4.clone();
        after_c5.play_unchecked(c5);
        let nf3 = parse_san(&after_c5, "Nf3").unwrap();
        let c3 = parse_san(&after_c5, "c3").unwrap();
        let mut after_c3 = after_c5.clone();
        after_c3.play_unchecked(c3);
        let d5 = parse_san(&after_c3, "d5").unwrap();
        let e5_instead = parse_san(&after_c3, "e5").unwrap();
        // A variation inside the variation, an alternative to 2. Nf3, with its own note.
        let inner = UserLine::flat(
            vec![c3, d5],
            vec![
                None,
                Some(MoveNote {
                    played: Score::Cp(10),
                    better: vec![(Score::Cp(-110), vec![e5_instead])],
                    loss: 120,
                }),
            ],
        );
        let line = UserLine {
            moves: vec![c5, nf3],
            notes: vec![
                Some(MoveNote {
                    played: Score::Cp(40),
                    better: vec![(Score::Cp(20), vec![e5])],
                    loss: 20,
                }),
                None,
            ],
            variations: vec![Vec::new(), vec![inner]],
        };
        let g = AnnotatedGame {
            tags: Vec::new(),
            start,
            line: UserLine {
                moves: vec![e4, e5],
                notes: vec![None, None],
                variations: vec![Vec::new(), vec![line]],
            },
            result: "*".into(),
        };
        let text = pgn(&g).replace('\n', " ");
        assert!(
            text.contains(
                "1. e4 e5 (1... c5 $6 {played 0.40, wily 0.20} (1... e5 {0.20}) 2. Nf3 \
                 (2. c3 d5 $2 {played 0.10, wily -1.10} (2... e5 {-1.10}))) *"
            ),
            "{text}"
        );
        let opts = super::super::parse_options(&["wb", "1-99", "0.1", "1"]).unwrap();
        let page = html(&[g], &opts);
        assert!(
            page.contains(
                "<span class=\"v\">(1... <span class=\"bad\">c5?!</span> \
                 <span class=\"c\">{played 0.40, wily 0.20}</span> \
                 <span class=\"v\">(1... e5 0.20)</span> 2. Nf3 \
                 <span class=\"v\">(2. c3 <span class=\"bad\">d5?</span> \
                 <span class=\"c\">{played 0.10, wily -1.10}</span> \
                 <span class=\"v\">(2... e5 -1.10)</span>)</span>)</span> <b>*</b>"
            ),
            "{page}"
        );
        // Diagrams only for the main line's notes (none here).
        assert!(!page.contains("<table class=\"board\""), "{page}");
    }
}
