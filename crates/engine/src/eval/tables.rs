//! Bitboard masks and small lookup tables the evaluation uses, all built at compile time, and
//! the bitboard helpers (shifts, fills, iterating the squares).
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (as in cozy-chess). Tables indexed by
//! colour use `Color as usize` (White = 0, Black = 1).

use cozy_chess::{get_between_rays, BitBoard, Color, Square};

/// All squares of the a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// All squares of the h-file.
pub const FILE_H: u64 = FILE_A << 7;
/// All squares of the first rank.
pub const RANK_1: u64 = 0xFF;
/// Dark squares (a1 is dark).
pub const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

/// The squares of file `f` (0 = a).
#[inline(always)]
pub const fn file_bb(f: usize) -> u64 {
    FILE_A << f
}

/// The squares of rank `r` (0 = first rank).
#[inline(always)]
pub const fn rank_bb(r: usize) -> u64 {
    RANK_1 << (8 * r)
}

/// Rank of `sq` as seen from `color` (0 = that side's first rank).
#[inline(always)]
pub const fn relative_rank(color: Color, sq: usize) -> usize {
    match color {
        Color::White => sq >> 3,
        Color::Black => 7 - (sq >> 3),
    }
}

/// Chebyshev (king-step) distance between two squares.
#[inline(always)]
pub fn distance(a: usize, b: usize) -> i32 {
    DISTANCE[a & 63][b & 63] as i32
}

/// The square of index `sq` (taken modulo 64).
#[inline(always)]
pub(crate) fn square(sq: usize) -> Square {
    Square::index_const(sq & 63)
}

/// How many of the sliders `snipers` (each on a line with `target`) have exactly one piece
/// of `occ` between them and `target`: pins to it and discovered attacks on it.
#[inline]
pub(crate) fn lone_blockers(target: Square, snipers: BitBoard, occ: BitBoard) -> i32 {
    snipers
        .into_iter()
        .filter(|&s| (get_between_rays(target, s) & occ).len() == 1)
        .count() as i32
}

/// The squares of a raw bitboard as indices, lowest first (see [`squares`]).
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

/// Iterates the squares of `bb` as indices, lowest first.
#[inline(always)]
pub const fn squares(bb: u64) -> Squares {
    Squares(bb)
}

impl Iterator for Squares {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

/// Moves every square of `bb` one rank towards the opponent of `color`.
#[inline(always)]
pub const fn shift_forward(bb: u64, color: Color) -> u64 {
    match color {
        Color::White => bb << 8,
        Color::Black => bb >> 8,
    }
}

/// Every square attacked by the pawns in `pawns` of `color`.
#[inline(always)]
pub const fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// Every square attacked by two pawns in `pawns` of `color`.
#[inline(always)]
pub const fn pawn_double_attacks(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) & ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) & ((pawns & !FILE_H) >> 7),
    }
}

/// `bb` together with every square in front of it (from `color`'s point of view).
#[inline(always)]
pub const fn fill_forward(mut bb: u64, color: Color) -> u64 {
    match color {
        Color::White => {
            bb |= bb << 8;
            bb |= bb << 16;
            bb |= bb << 32;
        }
        Color::Black => {
            bb |= bb >> 8;
            bb |= bb >> 16;
            bb |= bb >> 32;
        }
    }
    bb
}

const fn build_adjacent() -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= file_bb(f - 1);
        }
        if f < 7 {
            t[f] |= file_bb(f + 1);
        }
        f += 1;
    }
    t
}

/// The files next to file `f`.
pub const ADJACENT_FILES: [u64; 8] = build_adjacent();

const fn build_forward_ranks() -> [[u64; 8]; 2] {
    let mut t = [[0u64; 8]; 2];
    let mut r = 0;
    while r < 8 {
        let mut x = 0;
        while x < 8 {
            if x > r {
                t[0][r] |= rank_bb(x);
            }
            if x < r {
                t[1][r] |= rank_bb(x);
            }
            x += 1;
        }
        r += 1;
    }
    t
}

/// Ranks strictly in front of absolute rank `r` for each colour: `[color][rank]`.
pub const FORWARD_RANKS: [[u64; 8]; 2] = build_forward_ranks();

const fn build_forward_file() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = file_bb(sq & 7);
        t[0][sq] = f & FORWARD_RANKS[0][sq >> 3];
        t[1][sq] = f & FORWARD_RANKS[1][sq >> 3];
        sq += 1;
    }
    t
}

/// Squares in front of `sq` on its file, up to the last rank: `[color][square]`.
pub const FORWARD_FILE: [[u64; 64]; 2] = build_forward_file();

const fn build_attack_span() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let adj = ADJACENT_FILES[sq & 7];
        t[0][sq] = adj & FORWARD_RANKS[0][sq >> 3];
        t[1][sq] = adj & FORWARD_RANKS[1][sq >> 3];
        sq += 1;
    }
    t
}

/// Squares a pawn on `sq` could attack as it advances: `[color][square]`.
pub const ATTACK_SPAN: [[u64; 64]; 2] = build_attack_span();

const fn build_passed_mask() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = FORWARD_FILE[0][sq] | ATTACK_SPAN[0][sq];
        t[1][sq] = FORWARD_FILE[1][sq] | ATTACK_SPAN[1][sq];
        sq += 1;
    }
    t
}

/// Squares that must hold no enemy pawn for a pawn on `sq` to be passed: `[color][square]`.
pub const PASSED_MASK: [[u64; 64]; 2] = build_passed_mask();

const fn king_steps(sq: usize) -> u64 {
    let f = (sq & 7) as i32;
    let r = (sq >> 3) as i32;
    let mut bb = 0u64;
    let mut df = -1;
    while df <= 1 {
        let mut dr = -1;
        while dr <= 1 {
            let nf = f + df;
            let nr = r + dr;
            if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bb |= 1u64 << (nr * 8 + nf);
            }
            dr += 1;
        }
        df += 1;
    }
    bb
}

const fn build_king_zone() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let near = king_steps(sq) | (1u64 << sq);
        t[0][sq] = near | shift_forward(near, Color::White);
        t[1][sq] = near | shift_forward(near, Color::Black);
        sq += 1;
    }
    t
}

/// The squares around a king that attacks are counted on: the king's square, its
/// neighbours and one more rank towards the enemy: `[color of the king][square]`.
pub const KING_ZONE: [[u64; 64]; 2] = build_king_zone();

const fn build_distance() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = ((a & 7) as i32 - (b & 7) as i32).abs();
            let dr = ((a >> 3) as i32 - (b >> 3) as i32).abs();
            t[a][b] = if df > dr { df as u8 } else { dr as u8 };
            b += 1;
        }
        a += 1;
    }
    t
}

/// Chebyshev distance between two squares.
pub const DISTANCE: [[u8; 64]; 64] = build_distance();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_hand_computed_squares() {
        // e4 = 28: forward file for White is e5..e8.
        assert_eq!(FORWARD_FILE[0][28], file_bb(4) & !0xFFFF_FFFF);
        // Black's forward file from e4 is e3..e1.
        assert_eq!(FORWARD_FILE[1][28], file_bb(4) & 0x00FF_FFFF);
        // Passed mask of a White pawn on a2 covers a3..a8 and b3..b8.
        let m = PASSED_MASK[0][8];
        assert_eq!(m.count_ones(), 12);
        assert_eq!(ADJACENT_FILES[0], file_bb(1));
        assert_eq!(distance(0, 63), 7);
        assert_eq!(distance(28, 36), 1);
        assert_eq!(pawn_attacks(1 << 8, Color::White), 1 << 17);
        assert_eq!(pawn_attacks(1 << 52, Color::Black), (1 << 43) | (1 << 45));
        // King on g1: zone is f1..h1, f2..h2, f3..h3.
        assert_eq!(KING_ZONE[0][6].count_ones(), 9);
    }
}
