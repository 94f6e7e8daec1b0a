//! Writing annotated games: PGN text with comments, NAGs and variations (the `.can` file)
//! or an HTML page (`annotateh`), both from the walk of `line.rs`.

use super::line::{walk, AnnotatedGame, MoveNote, Step};
use super::options::AnnotateOptions;
use crate::output::fmt_score;
use crate::record::{wrap, ROSTER};
use chess::fen::to_fen;
use chess::san::to_san;
use cozy_chess::{Board, Color, Move};

/// Tokens of PGN-like text, where a variation's `(` sticks to its first token and `)` to
/// its last.
#[derive(Default)]
pub(crate) struct Tokens {
    pub out: Vec<String>,
    open: usize,
}

impl Tokens {
    pub fn push(&mut self, mut t: String) {
        for _ in 0..std::mem::take(&mut self.open) {
            t.insert(0, '(');
        }
        self.out.push(t);
    }

    pub fn open(&mut self) {
        self.open += 1;
    }

    pub fn close(&mut self) {
        // An empty variation (never written by the walk) leaves no stray parenthesis.
        if self.open > 0 {
            self.open -= 1;
        } else if let Some(last) = self.out.last_mut() {
            last.push(')');
        }
    }

    /// A whole parenthesized run (wily's better line).
    pub fn group(&mut self, tokens: Vec<String>) {
        self.open();
        for t in tokens {
            self.push(t);
        }
        self.close();
    }
}

/// A line of moves in PGN form from `board`: `12. Nf3 Nc6 13. Bb5` or `12... Nc6 13. Bb5`.
pub fn pgn_line(board: &Board, moves: &[Move]) -> Vec<String> {
    let mut b = board.clone();
    let mut out = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        if !b.is_legal(mv) {
            break;
        }
        let n = b.fullmove_number();
        match b.side_to_move() {
            Color::White => out.push(format!("{n}.")),
            Color::Black if i == 0 => out.push(format!("{n}...")),
            Color::Black => {}
        }
        out.push(to_san(&b, mv));
        b.play_unchecked(mv);
    }
    out
}

/// `12.` before White's move, `12...` before Black's.
pub(crate) fn number_text(number: u16, black: bool) -> String {
    if black {
        format!("{number}...")
    } else {
        format!("{number}.")
    }
}

/// `$4` (blunder, 3 pawns or more), `$2` (mistake, a pawn or more), `$6` (dubious).
fn nag(loss: i32) -> &'static str {
    if loss >= 300 {
        "$4"
    } else if loss >= 100 {
        "$2"
    } else {
        "$6"
    }
}

/// The mark a move that fell short gets in HTML and LaTeX: `??`, `?`, `?!`.
pub(crate) fn mark(loss: i32) -> &'static str {
    match nag(loss) {
        "$4" => "??",
        "$2" => "?",
        _ => "?!",
    }
}

pub(crate) fn comment_text(note: &MoveNote) -> String {
    let best = note
        .better
        .first()
        .map_or(String::new(), |(s, _)| fmt_score(*s));
    format!("played {}, wily {best}", fmt_score(note.played))
}

pub(crate) fn tag_value<'a>(g: &'a AnnotatedGame, name: &str) -> Option<&'a str> {
    g.tags
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// One annotated game as PGN.
pub fn pgn(g: &AnnotatedGame) -> String {
    let mut out = String::new();
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    for name in ROSTER {
        let v = if name == "Result" {
            g.result.clone()
        } else {
            tag_value(g, name).unwrap_or("?").to_string()
        };
        out.push_str(&format!("[{name} \"{}\"]\n", quote(&v)));
    }
    for (n, v) in &g.tags {
        if ROSTER.contains(&n.as_str()) || ["SetUp", "FEN", "Annotator"].contains(&n.as_str()) {
            continue;
        }
        out.push_str(&format!("[{n} \"{}\"]\n", quote(v)));
    }
    out.push_str(&format!(
        "[Annotator \"wily {}\"]\n",
        env!("CARGO_PKG_VERSION")
    ));
    if g.start != Board::default() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", to_fen(&g.start)));
    }
    out.push('\n');
    let mut tokens = Tokens::default();
    walk(&g.start, &g.line, &mut |step| match step {
        Step::Number { number, black } => tokens.push(number_text(number, black)),
        Step::Move {
            before, mv, note, ..
        } => {
            tokens.push(to_san(before, mv));
            if let Some(note) = note {
                tokens.push(nag(note.loss).to_string());
                tokens.push(format!("{{{}}}", comment_text(note)));
                for (score, line) in &note.better {
                    let mut v = pgn_line(before, line);
                    v.push(format!("{{{}}}", fmt_score(*score)));
                    tokens.group(v);
                }
            }
        }
        Step::Open => tokens.open(),
        Step::Close => tokens.close(),
    });
    let mut tokens = tokens.out;
    tokens.push(g.result.clone());
    out.push_str(&wrap(&tokens, 79));
    out.push_str("\n\n");
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// All annotated games as one HTML page.
pub fn html(games: &[AnnotatedGame], opts: &AnnotateOptions) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>wily annotations</title>\n\
         <style>body{font-family:serif;max-width:50em;margin:auto}\
         .c{color:#555;font-style:italic}.v{color:#036}.bad{color:#a00;font-weight:bold}\
         table.board{border-collapse:collapse;border:2px solid #444;margin:0.5em 0}\
         table.board td{width:2em;height:2em;text-align:center;font-size:1.5em;padding:0}\
         td.l{background:#eed8b5}td.d{background:#b58863}</style>\n\
         </head><body>\n",
    );
    let who = opts.colors.describe();
    out.push_str(&format!(
        "<p>Annotated by wily {} ({who}, moves {}-{}, margin {:.2}, {:.1}s per move)</p>\n",
        env!("CARGO_PKG_VERSION"),
        opts.first_move,
        opts.last_move,
        f64::from(opts.margin_cp) / 100.0,
        opts.time.as_secs_f64()
    ));
    for g in games {
        let t = |n: &str| esc(tag_value(g, n).unwrap_or("?"));
        out.push_str(&format!(
            "<h2>{} &ndash; {}</h2>\n<p>{}, {}, {} &nbsp; <b>{}</b></p>\n<p>",
            t("White"),
            t("Black"),
            t("Event"),
            t("Site"),
            t("Date"),
            esc(&g.result)
        ));
        walk(&g.start, &g.line, &mut |step| match step {
            Step::Number { number, black } => {
                out.push_str(&number_text(number, black));
                out.push(' ');
            }
            Step::Move {
                before,
                mv,
                note,
                depth,
            } => {
                let san = esc(&to_san(before, mv));
                let Some(note) = note else {
                    out.push_str(&format!("{san} "));
                    return;
                };
                out.push_str(&format!(
                    "<span class=\"bad\">{san}{}</span> <span class=\"c\">{{{}}}</span> ",
                    mark(note.loss),
                    esc(&comment_text(note))
                ));
                for (score, line) in &note.better {
                    out.push_str(&format!(
                        "<span class=\"v\">({} {})</span> ",
                        esc(&pgn_line(before, line).join(" ")),
                        esc(&fmt_score(*score))
                    ));
                }
                if depth == 0 {
                    // The position the analysis is about, as a board diagram.
                    out.push_str("</p>\n");
                    out.push_str(&diagram(before));
                    out.push_str("<p>");
                }
            }
            Step::Open => out.push_str("<span class=\"v\">("),
            Step::Close => {
                let end = out.trim_end().len();
                out.truncate(end);
                out.push_str(")</span> ");
            }
        });
        out.push_str(&format!("<b>{}</b></p>\n", esc(&g.result)));
    }
    out.push_str("</body></html>\n");
    out
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
    use crate::annotate::UserLine;
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

    #[test]
    fn writes_comments_and_variations() {
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
        let g = AnnotatedGame {
            tags: vec![
                ("White".into(), "A <b>".into()),
                ("Black".into(), "B".into()),
            ],
            start,
            line: UserLine::flat(
                moves,
                vec![
                    None,
                    None,
                    None,
                    Some(MoveNote {
                        played: Score::Cp(900),
                        better: vec![(Score::Cp(30), better)],
                        loss: 870,
                    }),
                ],
            ),
            result: "*".into(),
        };
        let text = pgn(&g);
        assert!(text.contains("[Annotator \"wily"), "{text}");
        assert!(
            text.contains("2. Qh5 Ke7 $4 {played 9.00, wily 0.30} (2... Nc6 {0.30}) *"),
            "{text}"
        );
        let opts = super::super::parse_options(&["wb", "1-99", "0.5", "1"]).unwrap();
        let page = html(&[g], &opts);
        assert!(page.contains("A &lt;b&gt;"));
        assert!(page.contains("Ke7??"));
    }
}
