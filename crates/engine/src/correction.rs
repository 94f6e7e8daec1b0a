//! Correction history: how far the search's results have come out from the static
//! evaluation, remembered per pawn structure and per side's piece placement, and added to
//! the evaluation of later positions that share them. One set of tables per thread, kept
//! for the whole game (cleared with the histories at a new game). No allocation per node.

use cozy_chess::{Board, Color, Piece};

/// Rows of each table (a power of two).
const ROWS: usize = 16_384;
/// Fractions of a centipawn an entry holds (entries are i16: up to about ±255 cp).
const GRAIN: i32 = 128;
/// The largest correction an entry may hold, in centipawns.
const MAX_CP: i32 = 240;
/// The weight a new result gets against the entry, out of this.
const WEIGHT_SCALE: i32 = 256;

/// Spreads a bitboard over 64 bits (a multiply and a shift-xor, enough for an index).
#[inline]
fn mix(x: u64, k: u64) -> u64 {
    let y = x.wrapping_mul(k);
    y ^ (y >> 31)
}

#[inline]
fn row(h: u64) -> usize {
    (h >> (64 - ROWS.trailing_zeros())) as usize
}

/// The rows a position reads and writes: its pawn structure, and each side's pieces.
#[derive(Clone, Copy)]
struct Rows {
    pawn: usize,
    pieces: [usize; 2],
}

impl Rows {
    #[inline]
    fn of(board: &Board) -> Rows {
        let pawns = board.pieces(Piece::Pawn);
        let w = board.colors(Color::White);
        let b = board.colors(Color::Black);
        let pawn = row(mix((pawns & w).0, 0x9E37_79B9_7F4A_7C15)
            ^ mix((pawns & b).0, 0xC2B2_AE3D_27D4_EB4F).rotate_left(23));
        let side = |c: cozy_chess::BitBoard| {
            let mut h = 0u64;
            for (i, p) in [
                Piece::Knight,
                Piece::Bishop,
                Piece::Rook,
                Piece::Queen,
                Piece::King,
            ]
            .into_iter()
            .enumerate()
            {
                h = h.rotate_left(13) ^ mix((board.pieces(p) & c).0, KEYS[i]);
            }
            row(h)
        };
        Rows {
            pawn,
            pieces: [side(w), side(b)],
        }
    }
}

const KEYS: [u64; 5] = [
    0xFF51_AFD7_ED55_8CCD,
    0xC4CE_B9FE_1A85_EC53,
    0x94D0_49BB_1331_11EB,
    0xBF58_476D_1CE4_E5B9,
    0xD6E8_FEB8_6659_FD93,
];

/// The correction tables of one thread, by side to move.
pub struct Correction {
    /// [side to move][pawn row].
    pawn: Vec<i16>,
    /// [side to move][colour of the pieces][pieces row].
    pieces: Vec<i16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    pub fn new() -> Correction {
        Correction {
            pawn: vec![0; 2 * ROWS],
            pieces: vec![0; 4 * ROWS],
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.pawn.fill(0);
        self.pieces.fill(0);
    }

    /// The entries `board` reads and writes: work it out once per node and hand it to
    /// [`Correction::of_slots`] and [`Correction::update_slots`].
    #[inline]
    pub fn slots(board: &Board) -> [usize; 3] {
        let r = Rows::of(board);
        let stm = board.side_to_move() as usize;
        [
            stm * ROWS + r.pawn,
            (stm * 2) * ROWS + r.pieces[0],
            (stm * 2 + 1) * ROWS + r.pieces[1],
        ]
    }

    /// Starts loading the entries `slots` (see `engine/prefetch.rs`), which a later
    /// [`Correction::of_slots`] or [`Correction::update_slots`] reads.
    #[inline]
    pub fn prefetch(&self, [p, w, b]: [usize; 3]) {
        use super::prefetch::prefetch;
        prefetch(&self.pawn[p]);
        prefetch(&self.pieces[w]);
        prefetch(&self.pieces[b]);
    }

    /// The correction of the position whose entries are `slots` (see
    /// [`Correction::slots`]), in centipawns from the side to move's view: the pawn table
    /// counts half, each side's pieces a quarter.
    #[inline]
    pub fn of_slots(&self, [p, w, b]: [usize; 3]) -> i32 {
        let sum =
            2 * i32::from(self.pawn[p]) + i32::from(self.pieces[w]) + i32::from(self.pieces[b]);
        sum / (4 * GRAIN)
    }

    /// Moves the entries `slots` (see [`Correction::slots`]) towards `diff` (the search's
    /// score less the raw static evaluation, side to move's view), the more the deeper the
    /// search was.
    pub fn update_slots(&mut self, [p, w, b]: [usize; 3], diff: i32, depth: i32) {
        let target = diff.clamp(-MAX_CP, MAX_CP) * GRAIN;
        let weight = (depth * depth + 2 * depth + 1).min(128);
        let blend = |e: &mut i16| {
            let v = (i32::from(*e) * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *e = v.clamp(-MAX_CP * GRAIN, MAX_CP * GRAIN) as i16;
        };
        blend(&mut self.pawn[p]);
        blend(&mut self.pieces[w]);
        blend(&mut self.pieces[b]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_pull_the_correction_and_a_new_game_forgets_it() {
        let board = Board::default();
        let mut c = Correction::new();
        assert_eq!(c.of_slots(Correction::slots(&board)), 0);
        for _ in 0..20 {
            c.update_slots(Correction::slots(&board), 60, 8);
        }
        let v = c.of_slots(Correction::slots(&board));
        assert!((55..=60).contains(&v), "{v}");
        // The other side to move reads other rows.
        let black: Board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        assert_eq!(c.of_slots(Correction::slots(&black)), 0);
        for _ in 0..20 {
            c.update_slots(Correction::slots(&board), -1000, 8);
        }
        assert!(c.of_slots(Correction::slots(&board)) >= -MAX_CP, "capped");
        c.clear();
        assert_eq!(c.of_slots(Correction::slots(&board)), 0);
    }
}
