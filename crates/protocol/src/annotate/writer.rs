//! Writing annotated games as PGN text with comments, NAGs and variations (the `.can`
//! file), from the walk of `line.rs`; HTML and LaTeX are in `html.rs` and `latex.rs`.

use super::line::{walk, AnnotatedGame, MoveNote, Step};
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::html::html;
    use crate::annotate::UserLine;
    use chess::san::parse_san;
    use engine::Score;

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
