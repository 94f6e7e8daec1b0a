//! Castling rights from per-wing flags, the form a chess server's style-12 board gives
//! them (1 or 0 for each side and wing, no rook files), and the rooks they refer to.
//!
//! In Chess960 a flag alone does not say which rook castles. [`CastlingRooks`] answers
//! it: the castling rook of a wing is the outermost rook on that side of the king in the
//! game's first position, and it keeps that file for the whole game (a server clears the
//! flag once that rook or the king moves, so while the flag stays set the rook is still
//! on its square). For standard chess this gives the a- and h-file rooks, as plain FEN
//! does.

use cozy_chess::{Board, BoardBuilder, CastleRights, Color, File, Piece, Rank, Square};

/// The four castling flags of a style-12 board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CastleFlags {
    pub white_short: bool,
    pub white_long: bool,
    pub black_short: bool,
    pub black_long: bool,
}

impl CastleFlags {
    /// The flags a server shows for `board`: set where a castling right remains.
    pub fn of_board(board: &Board) -> Self {
        let w = board.castle_rights(Color::White);
        let b = board.castle_rights(Color::Black);
        CastleFlags {
            white_short: w.short.is_some(),
            white_long: w.long.is_some(),
            black_short: b.short.is_some(),
            black_long: b.long.is_some(),
        }
    }

    /// `(short, long)` for `color`.
    pub fn of(&self, color: Color) -> (bool, bool) {
        match color {
            Color::White => (self.white_short, self.white_long),
            Color::Black => (self.black_short, self.black_long),
        }
    }
}

/// The file of each side's castling rook on each wing, `None` where there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastlingRooks {
    /// Indexed by colour (White first): `(short, long)`.
    files: [(Option<File>, Option<File>); 2],
}

impl Default for CastlingRooks {
    /// The standard rooks: h-file for the short castling, a-file for the long one.
    fn default() -> Self {
        CastlingRooks {
            files: [(Some(File::H), Some(File::A)); 2],
        }
    }
}

/// The outermost rook of `color` on its back rank between `files` (king side or queen
/// side of the king, searched from the board's edge inwards).
fn outermost(board: &Board, color: Color, files: impl Iterator<Item = File>) -> Option<File> {
    let back = Rank::First.relative_to(color);
    let rooks = board.colored_pieces(color, Piece::Rook);
    let mut files = files;
    files.find(|&f| rooks.has(Square::new(f, back)))
}

impl CastlingRooks {
    /// The castling rooks of a game whose first known position is `start`: for each side
    /// whose king stands on its back rank, the outermost rook on either wing.
    pub fn of_start(start: &Board) -> Self {
        let mut files = [(None, None); 2];
        for color in Color::ALL {
            let king = start.king(color);
            if king.rank() != Rank::First.relative_to(color) {
                continue;
            }
            let k = king.file() as usize;
            let short = outermost(start, color, File::ALL[k + 1..].iter().rev().copied());
            let long = outermost(start, color, File::ALL[..k].iter().copied());
            files[color as usize] = (short, long);
        }
        CastlingRooks { files }
    }

    /// `(short, long)` rook files of `color`.
    pub fn of(&self, color: Color) -> (Option<File>, Option<File>) {
        self.files[color as usize]
    }

    /// `board` with the castling rights the flags grant: a set flag gives the right to
    /// castle with that wing's rook while the king and that rook stand on their back
    /// rank; anything else gives none. Counters and en passant are kept.
    pub fn apply(&self, board: &Board, flags: CastleFlags) -> Board {
        let mut b = BoardBuilder::from_board(board);
        for color in Color::ALL {
            let back = Rank::First.relative_to(color);
            let king = board.king(color);
            let rooks = board.colored_pieces(color, Piece::Rook);
            let (short_flag, long_flag) = flags.of(color);
            let (short_file, long_file) = self.of(color);
            let usable = |flag: bool, file: Option<File>, short: bool| {
                let f = file.filter(|_| flag && king.rank() == back)?;
                let on_wing = if short {
                    f > king.file()
                } else {
                    f < king.file()
                };
                (on_wing && rooks.has(Square::new(f, back))).then_some(f)
            };
            *b.castle_rights_mut(color) = CastleRights {
                short: usable(short_flag, short_file, true),
                long: usable(long_flag, long_file, false),
            };
        }
        b.build().unwrap_or_else(|_| {
            // Rights the board library refuses are dropped rather than losing the board.
            for color in Color::ALL {
                *b.castle_rights_mut(color) = CastleRights::EMPTY;
            }
            b.build().unwrap_or_else(|_| board.clone())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::{parse_fen, to_shredder_fen};

    fn fen(s: &str) -> Board {
        parse_fen(s).unwrap()
    }

    const ALL: CastleFlags = CastleFlags {
        white_short: true,
        white_long: true,
        black_short: true,
        black_long: true,
    };

    #[test]
    fn standard_rooks() {
        let r = CastlingRooks::of_start(&Board::default());
        assert_eq!(r, CastlingRooks::default());
        assert_eq!(CastleFlags::of_board(&Board::default()), ALL);
        let b = r.apply(&fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"), ALL);
        assert_eq!(to_shredder_fen(&b), "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    }

    #[test]
    fn chess960_outermost_rooks_of_the_start_are_kept() {
        // King on d1, rooks on b1 and f1.
        let start = fen("qrbknrnb/pppppppp/8/8/8/8/PPPPPPPP/QRBKNRNB w KQkq - 0 1");
        let r = CastlingRooks::of_start(&start);
        assert_eq!(r.of(Color::White), (Some(File::F), Some(File::B)));
        // Later a second rook reaches h1 (outermost now) while the f1 rook still has its
        // right: the flag means the f rook, not the h rook X-FEN's `K` would name.
        let later = fen("qrbk1rnb/pppppppp/8/8/8/8/PPPPPPPP/Q1BK1R1R w - - 0 20");
        let b = r.apply(
            &later,
            CastleFlags {
                white_short: true,
                ..CastleFlags::default()
            },
        );
        assert_eq!(b.castle_rights(Color::White).short, Some(File::F));
        assert_eq!(b.castle_rights(Color::White).long, None);
        assert_eq!(b.castle_rights(Color::Black), &CastleRights::EMPTY);
    }

    #[test]
    fn a_flag_without_its_rook_or_king_gives_nothing() {
        let start = fen("rbbnkrqn/pppppppp/8/8/8/8/PPPPPPPP/RBBNKRQN w KQkq - 0 1");
        let r = CastlingRooks::of_start(&start);
        assert_eq!(r.of(Color::Black), (Some(File::F), Some(File::A)));
        // The f-rook has gone and the king has left the back rank.
        let b = r.apply(
            &fen("rbbn1rqn/ppppkppp/8/8/8/8/PPPPPPPP/RBBNK1QN w - - 0 9"),
            ALL,
        );
        assert_eq!(b.castle_rights(Color::White).short, None);
        assert_eq!(b.castle_rights(Color::White).long, Some(File::A));
        assert_eq!(b.castle_rights(Color::Black), &CastleRights::EMPTY);
        // Castling is then a legal move with the tracked rook.
        let kq = fen("r3k2r/8/8/8/8/8/8/1R2K1R1 w - - 0 1");
        let b = CastlingRooks::of_start(&kq).apply(&kq, ALL);
        assert_eq!(
            to_shredder_fen(&b),
            "r3k2r/8/8/8/8/8/8/1R2K1R1 w GBha - 0 1"
        );
        assert!(b.is_legal(cozy_chess::Move {
            from: Square::E1,
            to: Square::G1,
            promotion: None
        }));
    }

    #[test]
    fn no_king_on_the_back_rank_at_the_start() {
        let start = fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
        let r = CastlingRooks::of_start(&start);
        assert_eq!(r.of(Color::White), (None, None));
        assert_eq!(r.of(Color::Black), (None, None));
        let b = r.apply(&start, ALL);
        assert_eq!(b.castle_rights(Color::White), &CastleRights::EMPTY);
    }
}
