//! The style-12 board update as a value: every field of the line, plus the position as
//! FEN and small helpers the bot needs (piece on a square, clock of a side), and the side
//! [`Color`] the other events share. It imports nothing of the protocol layer.

/// A side of the board.
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

/// The relation of the viewer to a style-12 board (field 20): the one type for it in wily,
/// read by the clients ([`Relation::from_code`]) and written by the local server
/// ([`Relation::code`]).
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    /// -4: the initial position of a game (some servers).
    InitialPosition,
    /// -3: an isolated position (`refresh`, `sposition`).
    IsolatedPosition,
    /// -2: observing a game being examined.
    ObservingExamined,
    /// -1: playing, opponent to move.
    OpponentToMove,
    /// 0: observing a game being played.
    Observing,
    /// 1: playing, my move.
    MyMove,
    /// 2: examining this game.
    Examining,
}

impl Relation {
    pub fn from_code(code: i32) -> Option<Relation> {
        Some(match code {
            -4 => Relation::InitialPosition,
            -3 => Relation::IsolatedPosition,
            -2 => Relation::ObservingExamined,
            -1 => Relation::OpponentToMove,
            0 => Relation::Observing,
            1 => Relation::MyMove,
            2 => Relation::Examining,
            _ => return None,
        })
    }

    /// The field's number (the inverse of [`Relation::from_code`]).
    pub fn code(self) -> i32 {
        match self {
            Relation::InitialPosition => -4,
            Relation::IsolatedPosition => -3,
            Relation::ObservingExamined => -2,
            Relation::OpponentToMove => -1,
            Relation::Observing => 0,
            Relation::MyMove => 1,
            Relation::Examining => 2,
        }
    }

    /// True when the viewer is one of the two players.
    pub fn is_playing(&self) -> bool {
        matches!(self, Relation::OpponentToMove | Relation::MyMove)
    }
}

/// One style-12 board update, all fields. Clocks are normalised to milliseconds (they may
/// be negative: a flagged player); `clocks_in_ms` records which unit the server used.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Style12 {
    /// The board as sent, rank 8 first, file a first; `b'-'` is an empty square.
    #[serde(serialize_with = "ranks_as_text")]
    pub ranks: [[u8; 8]; 8],
    pub side_to_move: Color,
    /// File (0 = a) of a double pawn push on the last move.
    pub ep_file: Option<u8>,
    pub white_castle_short: bool,
    pub white_castle_long: bool,
    pub black_castle_short: bool,
    pub black_castle_long: bool,
    /// Plies since the last irreversible move (50-move rule counter).
    pub halfmove_clock: u32,
    pub game: u32,
    pub white: String,
    pub black: String,
    pub relation: Relation,
    /// Initial time in minutes, as the servers send it.
    pub base_minutes: u32,
    pub increment_secs: u32,
    pub white_material: u32,
    pub black_material: u32,
    pub white_clock_ms: i64,
    pub black_clock_ms: i64,
    /// True when the server sent the clocks in milliseconds (`iset ms 1`).
    pub clocks_in_ms: bool,
    /// Number of the move about to be made (both sides' first moves are 1).
    pub move_number: u32,
    /// Last move in verbose notation (`P/e2-e4`, `o-o`, `N/g1-f3`), `None` for `none`.
    pub last_move_verbose: Option<String>,
    /// Time taken for the last move, milliseconds.
    pub last_move_time_ms: u64,
    /// Last move in SAN as the server printed it (`Nf3`, `exd8=Q+`), `None` for `none`.
    pub last_move_san: Option<String>,
    /// Board orientation: true = black at the bottom.
    pub flip: bool,
    /// Field 32 (lasker, FICS): whether the clock of the side to move is running.
    pub clock_ticking: Option<bool>,
    /// Field 33 (FICS): the lag of the last move, milliseconds.
    pub lag_ms: Option<u32>,
}

/// The ranks as eight strings (`rnbqkbnr`, `--------`, ...), as style 12 prints them.
fn ranks_as_text<S: serde::Serializer>(ranks: &[[u8; 8]; 8], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(8))?;
    for r in ranks {
        seq.serialize_element(&String::from_utf8_lossy(r))?;
    }
    seq.end()
}

impl Style12 {
    /// The piece letter on a square given as file 0..7 (a..h) and rank 0..7 (1..8), or
    /// `None` for an empty square.
    pub fn piece_at(&self, file: usize, rank: usize) -> Option<char> {
        let row = self.ranks.get(7usize.checked_sub(rank)?)?;
        match row.get(file)? {
            b'-' => None,
            &c => Some(c as char),
        }
    }

    /// The position as a FEN string (move counters from the update's fields; an
    /// en-passant square only where [`Style12::ep_plausible`]).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for (i, row) in self.ranks.iter().enumerate() {
            if i > 0 {
                fen.push('/');
            }
            let mut empty = 0u8;
            for &c in row {
                if c == b'-' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    fen.push(c as char);
                }
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
        }
        fen.push(' ');
        fen.push(match self.side_to_move {
            Color::White => 'w',
            Color::Black => 'b',
        });
        fen.push(' ');
        let before = fen.len();
        if self.white_castle_short {
            fen.push('K');
        }
        if self.white_castle_long {
            fen.push('Q');
        }
        if self.black_castle_short {
            fen.push('k');
        }
        if self.black_castle_long {
            fen.push('q');
        }
        if fen.len() == before {
            fen.push('-');
        }
        fen.push(' ');
        match self.ep_file.filter(|&f| self.ep_plausible(f)) {
            Some(f) => {
                fen.push((b'a' + f) as char);
                fen.push(match self.side_to_move {
                    Color::White => '6',
                    Color::Black => '3',
                });
            }
            _ => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock,
            self.move_number.max(1)
        ));
        fen
    }

    /// True when a pawn really stands where a double push on `file` would have put it,
    /// with the two squares behind it empty. Some servers send a file after other moves
    /// (one sends 0 after a castling); [`Style12::to_fen`] drops such an en-passant square.
    pub fn ep_plausible(&self, file: u8) -> bool {
        let f = usize::from(file);
        if f > 7 {
            return false;
        }
        // (pawn rank, the two ranks it passed), 0-based from rank 1.
        let (pawn, rank_pawn, passed) = match self.side_to_move {
            Color::White => ('p', 4, [5, 6]),
            Color::Black => ('P', 3, [2, 1]),
        };
        self.piece_at(f, rank_pawn) == Some(pawn)
            && passed.iter().all(|&r| self.piece_at(f, r).is_none())
    }

    /// The clock of the given side, milliseconds.
    pub fn clock_of(&self, color: Color) -> i64 {
        match color {
            Color::White => self.white_clock_ms,
            Color::Black => self.black_clock_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relation_codes() {
        for c in -4..=2 {
            let r = Relation::from_code(c).expect("a documented code");
            assert_eq!(r.code(), c, "{r:?}");
        }
        assert_eq!(Relation::OpponentToMove.code(), -1);
        assert_eq!(Relation::ObservingExamined.code(), -2);
        assert!(Relation::from_code(3).is_none());
        assert!(Relation::MyMove.is_playing());
        assert!(!Relation::Observing.is_playing());
    }
}
