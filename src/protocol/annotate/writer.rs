//! Writing annotated games: PGN text with comments, NAGs and variations (the `.can` file)
//! or an HTML page (`annotateh`).

use super::options::AnnotateOptions;
use crate::chess::fen::to_fen;
use crate::chess::san::to_san;
use crate::engine::Score;
use crate::protocol::output::fmt_score;
use crate::protocol::record::{wrap, ROSTER};
use cozy_chess::{Board, Color, Move};

/// wily's view of one move: the lines it preferred, when the move played fell short.
#[derive(Clone, Debug)]
pub struct MoveNote {
    /// Score of the move played, White's view.
    pub played: Score,
    /// Best lines found (best first), with their scores from White's view.
    pub better: Vec<(Score, Vec<Move>)>,
    /// The loss in centipawns from the mover's side.
    pub loss: i32,
}

/// A variation written in the game, with wily's notes on its moves.
#[derive(Clone, Debug)]
pub struct UserLine {
    pub moves: Vec<Move>,
    /// `notes[j]` belongs to `moves[j]`.
    pub notes: Vec<Option<MoveNote>>,
}

/// One annotated game.
pub struct AnnotatedGame {
    pub tags: Vec<(String, String)>,
    pub start: Board,
    pub moves: Vec<Move>,
    /// `notes[i]` belongs to move `i`.
    pub notes: Vec<Option<MoveNote>>,
    /// `variations[i]`: the game's own variations after move `i` (alternatives to it).
    pub variations: Vec<Vec<UserLine>>,
    pub result: String,
}

/// Wraps a run of tokens in parentheses, attached to its first and last token.
fn parenthesize(mut tokens: Vec<String>) -> Vec<String> {
    if let Some(first) = tokens.first_mut() {
        first.insert(0, '(');
    }
    if let Some(last) = tokens.last_mut() {
        last.push(')');
    }
    tokens
}

/// A variation of the game as tokens from `board` (the position before the move it
/// replaces), wily's notes on its moves included. `pgn`: NAGs, `{comments}` and wily's
/// lines as nested variations (`(5... Nf6 $2 {played 1.00, wily 0.20} (5... d6 {0.20})
/// 6. Nc3)`); otherwise the HTML/LaTeX text, marks instead of NAGs (`5... Nf6?`).
pub(crate) fn user_line_tokens(board: &Board, line: &UserLine, pgn: bool) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut b = board.clone();
    let mut need_number = true;
    for (j, &mv) in line.moves.iter().enumerate() {
        let n = b.fullmove_number();
        match b.side_to_move() {
            Color::White => tokens.push(format!("{n}.")),
            Color::Black if need_number => tokens.push(format!("{n}...")),
            Color::Black => {}
        }
        need_number = false;
        let san = to_san(&b, mv);
        match line.notes.get(j) {
            Some(Some(note)) => {
                if pgn {
                    tokens.push(san);
                    tokens.push(nag(note.loss).to_string());
                } else {
                    tokens.push(format!("{san}{}", mark(note.loss)));
                }
                tokens.push(format!("{{{}}}", comment_text(note)));
                for (score, better) in &note.better {
                    let mut v = pgn_line(&b, better);
                    v.push(if pgn {
                        format!("{{{}}}", fmt_score(*score))
                    } else {
                        fmt_score(*score)
                    });
                    tokens.extend(parenthesize(v));
                }
                need_number = true;
            }
            _ => tokens.push(san),
        }
        b.play_unchecked(mv);
    }
    parenthesize(tokens)
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
    let mut tokens = Vec::new();
    let mut b = g.start.clone();
    let mut need_number = true;
    for (i, &mv) in g.moves.iter().enumerate() {
        let n = b.fullmove_number();
        match b.side_to_move() {
            Color::White => tokens.push(format!("{n}.")),
            Color::Black if need_number => tokens.push(format!("{n}...")),
            Color::Black => {}
        }
        tokens.push(to_san(&b, mv));
        need_number = false;
        if let Some(Some(note)) = g.notes.get(i) {
            tokens.push(nag(note.loss).to_string());
            tokens.push(format!("{{{}}}", comment_text(note)));
            for (score, line) in &note.better {
                let mut v = pgn_line(&b, line);
                if let Some(first) = v.first_mut() {
                    first.insert(0, '(');
                }
                if let Some(last) = v.last_mut() {
                    last.push_str(&format!(" {{{}}})", fmt_score(*score)));
                }
                tokens.extend(v);
            }
            need_number = true;
        }
        for line in g.variations.get(i).map_or(&[][..], |v| &v[..]) {
            tokens.extend(user_line_tokens(&b, line, true));
            need_number = true;
        }
        b.play_unchecked(mv);
    }
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
        let mut b = g.start.clone();
        let mut need_number = true;
        for (i, &mv) in g.moves.iter().enumerate() {
            let n = b.fullmove_number();
            match b.side_to_move() {
                Color::White => out.push_str(&format!("{n}. ")),
                Color::Black if need_number => out.push_str(&format!("{n}... ")),
                Color::Black => {}
            }
            need_number = false;
            let san = esc(&to_san(&b, mv));
            match g.notes.get(i) {
                Some(Some(note)) => {
                    let mark = mark(note.loss);
                    out.push_str(&format!(
                        "<span class=\"bad\">{san}{mark}</span> <span class=\"c\">{{{}}}</span> ",
                        esc(&comment_text(note))
                    ));
                    for (score, line) in &note.better {
                        out.push_str(&format!(
                            "<span class=\"v\">({} {})</span> ",
                            esc(&pgn_line(&b, line).join(" ")),
                            esc(&fmt_score(*score))
                        ));
                    }
                    // The position the analysis is about, as a board diagram.
                    out.push_str("</p>\n");
                    out.push_str(&diagram(&b));
                    out.push_str("<p>");
                    need_number = true;
                }
                _ => out.push_str(&format!("{san} ")),
            }
            for line in g.variations.get(i).map_or(&[][..], |v| &v[..]) {
                out.push_str(&format!(
                    "<span class=\"v\">{}</span> ",
                    esc(&user_line_tokens(&b, line, false).join(" "))
                ));
                need_number = true;
            }
            b.play_unchecked(mv);
        }
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
    use crate::chess::san::parse_san;
    use crate::engine::Score;

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
        };
        let g = AnnotatedGame {
            tags: Vec::new(),
            start,
            moves: vec![e4, e5],
            notes: vec![None, None],
            variations: vec![Vec::new(), vec![line]],
            result: "*".into(),
        };
        let text = pgn(&g);
        assert!(
            text.contains(
                "1. e4 e5 (1... c5 $6 {played 0.40, wily 0.20} (1... e5 {0.20}) 2. Nf3) *"
            ),
            "{text}"
        );
        let opts = super::super::parse_options(&["wb", "1-99", "0.1", "1"]).unwrap();
        let page = html(&[g], &opts);
        assert!(
            page.contains("(1... c5?! {played 0.40, wily 0.20} (1... e5 0.20) 2. Nf3)"),
            "{page}"
        );
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
            variations: vec![Vec::new(); 4],
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
