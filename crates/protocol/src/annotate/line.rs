//! An annotated game as a tree of lines: the main line and the variations written in the
//! game, nested to any depth, each move with wily's note when it fell short; and the one
//! walk through it ([`walk`]) that every output format (`.can`, `.html`, `.tex`) renders:
//! move numbers where PGN wants them, each move with its note, and each variation in
//! place after the move it replaces.

use cozy_chess::{Board, Color, Move};
use engine::Score;

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

/// A line of moves (the main line, or a variation written in the game) with wily's notes
/// on its moves and the variations written after each of them.
#[derive(Clone, Debug, Default)]
pub struct UserLine {
    pub moves: Vec<Move>,
    /// `notes[j]` belongs to `moves[j]`.
    pub notes: Vec<Option<MoveNote>>,
    /// `variations[j]`: the lines written after `moves[j]`, alternatives to it (played
    /// from the position before it). Missing entries mean none.
    pub variations: Vec<Vec<UserLine>>,
}

impl UserLine {
    /// A line without variations.
    pub fn flat(moves: Vec<Move>, notes: Vec<Option<MoveNote>>) -> UserLine {
        UserLine {
            moves,
            notes,
            variations: Vec::new(),
        }
    }

    /// wily's notes in the line and in all its variations.
    pub fn note_count(&self) -> usize {
        self.notes.iter().filter(|n| n.is_some()).count()
            + self
                .variations
                .iter()
                .flatten()
                .map(UserLine::note_count)
                .sum::<usize>()
    }
}

/// One annotated game.
pub struct AnnotatedGame {
    pub tags: Vec<(String, String)>,
    pub start: Board,
    /// The main line, with the game's variations inside it.
    pub line: UserLine,
    pub result: String,
}

/// What the walk meets, in text order.
pub enum Step<'a> {
    /// The number before a move: `12.` for White's, `12...` for Black's (only where PGN
    /// needs one: a line's first move, after a comment or a variation).
    Number { number: u16, black: bool },
    /// A move from `before`, with wily's note on it; `depth` is 0 on the main line.
    Move {
        before: &'a Board,
        mv: Move,
        note: Option<&'a MoveNote>,
        depth: usize,
    },
    /// A variation of the game opens (`(`).
    Open,
    /// The variation closes (`)`).
    Close,
}

/// Walks `line` from `board` (the position before its first move), telling `out` each
/// step; the variations are walked in place, after the move they replace.
pub fn walk(board: &Board, line: &UserLine, out: &mut dyn FnMut(Step<'_>)) {
    walk_at(board, line, 0, out);
}

fn walk_at(board: &Board, line: &UserLine, depth: usize, out: &mut dyn FnMut(Step<'_>)) {
    let mut b = board.clone();
    let mut need_number = true;
    for (j, &mv) in line.moves.iter().enumerate() {
        let black = b.side_to_move() == Color::Black;
        if !black || need_number {
            out(Step::Number {
                number: b.fullmove_number(),
                black,
            });
        }
        let note = line.notes.get(j).and_then(Option::as_ref);
        out(Step::Move {
            before: &b,
            mv,
            note,
            depth,
        });
        need_number = note.is_some();
        for v in line.variations.get(j).map_or(&[][..], |v| &v[..]) {
            out(Step::Open);
            walk_at(&b, v, depth + 1, out);
            out(Step::Close);
            need_number = true;
        }
        b.play_unchecked(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::san::{parse_san, to_san};

    fn moves(board: &Board, sans: &[&str]) -> Vec<Move> {
        let mut b = board.clone();
        sans.iter()
            .map(|s| {
                let mv = parse_san(&b, s).unwrap();
                b.play_unchecked(mv);
                mv
            })
            .collect()
    }

    /// The walk as plain PGN-like text.
    fn text(board: &Board, line: &UserLine) -> String {
        let mut out: Vec<String> = Vec::new();
        walk(board, line, &mut |s| match s {
            Step::Number { number, black } => {
                out.push(format!("{number}{}", if black { "..." } else { "." }))
            }
            Step::Move {
                before,
                mv,
                note,
                depth,
            } => out.push(format!(
                "{}{}@{depth}",
                to_san(before, mv),
                if note.is_some() { "?" } else { "" }
            )),
            Step::Open => out.push("(".into()),
            Step::Close => out.push(")".into()),
        });
        out.join(" ")
    }

    #[test]
    fn variations_are_walked_in_place_at_any_depth() {
        let start = Board::default();
        let main = moves(&start, &["e4", "e5", "Nf3"]);
        let mut after_e4 = start.clone();
        after_e4.play_unchecked(main[0]);
        let c5 = moves(&after_e4, &["c5", "Nf3", "d6"]);
        let mut after_c5 = after_e4.clone();
        after_c5.play_unchecked(c5[0]);
        let c3 = moves(&after_c5, &["c3", "d5"]);
        let note = MoveNote {
            played: Score::Cp(0),
            better: Vec::new(),
            loss: 50,
        };
        let inner = UserLine {
            moves: c5,
            notes: vec![None, None, Some(note.clone())],
            variations: vec![Vec::new(), vec![UserLine::flat(c3, vec![Some(note)])]],
        };
        let line = UserLine {
            moves: main,
            notes: Vec::new(),
            variations: vec![Vec::new(), vec![inner]],
        };
        assert_eq!(
            text(&start, &line),
            "1. e4@0 e5@0 ( 1... c5@1 2. Nf3@1 ( 2. c3?@2 2... d5@2 ) 2... d6?@1 ) 2. Nf3@0"
        );
        assert_eq!(line.note_count(), 2);
    }
}
