//! The gnuchess/xboard `edit` sub-mode: place pieces one line at a time.
//!
//! Lines: `#` clears the board, `c` switches the colour being placed (White first),
//! `white`/`black` pick it directly, `Pe2`/`Ke1`/... put a piece, `xe4` empties a square,
//! `.` leaves the mode. On leaving, castling rights are given where king and rook stand on
//! their original squares, and the board is checked for legality.

use cozy_chess::{Board, BoardBuilder, CastleRights, Color, File, Piece, Rank, Square};

/// What one edit line did.
#[derive(Debug, PartialEq, Eq)]
pub enum EditStep {
    /// The line was applied; stay in edit mode.
    Continue,
    /// `.`: leave edit mode with this board.
    Done(Board),
    /// `.` on an illegal setup: the message says why; still in edit mode.
    Invalid(String),
    /// The line was not understood; still in edit mode.
    Error(String),
}

/// Board editor state.
pub struct Editor {
    builder: BoardBuilder,
    color: Color,
}

impl Editor {
    /// Starts editing `board`; the side to move is kept.
    pub fn new(board: &Board) -> Self {
        let mut builder = BoardBuilder::from_board(board);
        builder.en_passant = None;
        Editor {
            builder,
            color: Color::White,
        }
    }

    /// Colour currently being placed.
    pub fn color(&self) -> Color {
        self.color
    }

    /// Applies one line of edit input. Input is free-form, as in Crafty: a line may hold
    /// several items separated by blanks or commas (`ra1 nb1 bc1`, `# c .`); they are
    /// applied in order up to the first one not understood or the closing `.`.
    pub fn step(&mut self, line: &str) -> EditStep {
        let items: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        if items.len() <= 1 {
            return self.item(line);
        }
        for item in items {
            match self.item(item) {
                EditStep::Continue => {}
                other => return other,
            }
        }
        EditStep::Continue
    }

    /// Applies one item (`Pe2`, `xe2`, `c`, `#`, `.`, `white`, `black`).
    fn item(&mut self, line: &str) -> EditStep {
        let line = line.trim();
        match line {
            "" => return EditStep::Continue,
            "." => return self.finish(),
            "#" => {
                self.builder.board = [None; Square::NUM];
                return EditStep::Continue;
            }
            "c" | "C" => {
                self.color = !self.color;
                return EditStep::Continue;
            }
            "white" => {
                self.color = Color::White;
                return EditStep::Continue;
            }
            "black" => {
                self.color = Color::Black;
                return EditStep::Continue;
            }
            _ => {}
        }
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != 3 {
            return EditStep::Error(format!(
                "edit: '{line}' is not understood (Pe2 places, xe2 clears, c colour, # clear, . done)"
            ));
        }
        let Some(square) = parse_square(chars[1], chars[2]) else {
            return EditStep::Error(format!("edit: '{line}' has no valid square"));
        };
        if chars[0] == 'x' || chars[0] == 'X' {
            *self.builder.square_mut(square) = None;
            return EditStep::Continue;
        }
        let piece = match chars[0].to_ascii_uppercase() {
            'P' => Piece::Pawn,
            'N' => Piece::Knight,
            'B' => Piece::Bishop,
            'R' => Piece::Rook,
            'Q' => Piece::Queen,
            'K' => Piece::King,
            _ => return EditStep::Error(format!("edit: '{}' is not a piece letter", chars[0])),
        };
        *self.builder.square_mut(square) = Some((piece, self.color));
        EditStep::Continue
    }

    fn finish(&mut self) -> EditStep {
        for color in [Color::White, Color::Black] {
            let back = Rank::First.relative_to(color);
            let home = |f: File| Square::new(f, back);
            let has = |sq: Square, p: Piece| self.builder.square(sq) == Some((p, color));
            let king_home = has(home(File::E), Piece::King);
            let rights = CastleRights {
                short: (king_home && has(home(File::H), Piece::Rook)).then_some(File::H),
                long: (king_home && has(home(File::A), Piece::Rook)).then_some(File::A),
            };
            *self.builder.castle_rights_mut(color) = rights;
        }
        self.builder.halfmove_clock = 0;
        match self.builder.build() {
            Ok(b) => EditStep::Done(b),
            Err(e) => EditStep::Invalid(format!(
                "edit: the position is not legal ({e:?}); fix it or '#' to clear"
            )),
        }
    }
}

fn parse_square(f: char, r: char) -> Option<Square> {
    let file = File::try_index((f as usize).checked_sub('a' as usize)?)?;
    let rank = Rank::try_index((r as usize).checked_sub('1' as usize)?)?;
    Some(Square::new(file, rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_form_lines() {
        let mut e = Editor::new(&Board::default());
        assert_eq!(
            e.step("# ra1 nb1 bc1 qd1 ke1 bf1 ng1 rh1"),
            EditStep::Continue
        );
        assert_eq!(
            e.step("pa2 pb2 pc2 pd2 pe4 pf2 pg2 ph2 c"),
            EditStep::Continue
        );
        e.step("ra8 nb8 bc8 qd8 ke8 bf8 ng8 rh8");
        e.step("pa7,pb7,pc7,pd7,pe7,pf7,pg7,ph7");
        let EditStep::Done(b) = e.step(".") else {
            panic!("not done");
        };
        assert_eq!(
            format!("{b}"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(matches!(e.step("ke1 zz9 ke2"), EditStep::Error(_)));
    }

    #[test]
    fn builds_a_position() {
        let mut e = Editor::new(&Board::default());
        for l in ["#", "Ke1", "Ra1", "Pe2", "c", "Ke8", "xe2"] {
            assert_eq!(e.step(l), EditStep::Continue, "{l}");
        }
        match e.step(".") {
            EditStep::Done(b) => {
                assert_eq!(b.piece_on(Square::A1), Some(Piece::Rook));
                assert_eq!(b.piece_on(Square::E2), None);
                assert_eq!(b.castle_rights(Color::White).long, Some(File::A));
                assert_eq!(b.castle_rights(Color::White).short, None);
                assert_eq!(b.castle_rights(Color::Black).long, None);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rejects_bad_lines_and_illegal_boards() {
        let mut e = Editor::new(&Board::default());
        assert!(matches!(e.step("Zz9"), EditStep::Error(_)));
        assert!(matches!(e.step("Qe9"), EditStep::Error(_)));
        assert!(matches!(e.step("hello world"), EditStep::Error(_)));
        assert_eq!(e.step("#"), EditStep::Continue);
        assert!(matches!(e.step("."), EditStep::Invalid(_)));
    }
}
