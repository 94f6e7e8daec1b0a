//! King and pawn against king: an exact win/draw bitbase computed once per process, on the
//! first probe, by retrograde iteration over 64-bit sets of defending-king squares (about
//! 200,000 positions, 24 KiB of bits; a few million instructions).
//!
//! Positions are normalised so the pawn side is White and the pawn stands on files a-d.
//! A pawn reaching the 8th rank counts as a win when the new queen cannot be taken at once.

use std::sync::OnceLock;

use super::tables::{distance, pawn_attacks, squares};
use cozy_chess::Color;

const PAWN_SQUARES: usize = 24; // files a-d, ranks 2-7

/// The computed bitbase: one bit per position, set when the pawn side wins.
pub struct Kpk {
    bits: Box<[u64]>,
}

static KPK: OnceLock<Kpk> = OnceLock::new();

/// The shared bitbase, computed on first use.
pub fn kpk() -> &'static Kpk {
    KPK.get_or_init(Kpk::build)
}

#[inline(always)]
fn index(white_to_move: bool, wk: usize, bk: usize, pawn: usize) -> usize {
    // pawn is a square on files a-d, ranks 2-7.
    let p = ((pawn >> 3) - 1) * 4 + (pawn & 7);
    (((usize::from(!white_to_move) * PAWN_SQUARES + p) * 64) + wk) * 64 + bk
}

/// The square of pawn index `p` (files a-d, ranks 2-7).
fn pawn_square(p: usize) -> usize {
    (p / 4 + 1) * 8 + p % 4
}

/// Every square a king on one of `bb`'s squares attacks.
fn king_set(bb: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let sides = (bb << 1) & NOT_A | (bb >> 1) & NOT_H;
    let row = bb | sides;
    sides | row << 8 | row >> 8
}

fn king_moves(sq: usize) -> u64 {
    let f = (sq & 7) as i32;
    let r = (sq >> 3) as i32;
    let mut bb = 0;
    for df in -1..=1 {
        for dr in -1..=1 {
            let (nf, nr) = (f + df, r + dr);
            if (df, dr) != (0, 0) && (0..8).contains(&nf) && (0..8).contains(&nr) {
                bb |= 1u64 << (nr * 8 + nf);
            }
        }
    }
    bb
}

impl Kpk {
    /// Computes the bitbase over sets of defending-king squares: one word per (side to move,
    /// pawn, attacking king), bit `bk` set when the position is won, which is also the layout
    /// of [`Kpk::bits`]. Only won positions are ever added, so the fixed point reached does
    /// not depend on the order of the updates.
    fn build() -> Kpk {
        const WORDS: usize = PAWN_SQUARES * 64;
        // win[0 | 1][p * 64 + wk]: White / Black to move; undecided likewise.
        let mut win = [vec![0u64; WORDS], vec![0u64; WORDS]];
        let mut undecided = [vec![0u64; WORDS], vec![0u64; WORDS]];
        for p in 0..PAWN_SQUARES {
            let pawn = pawn_square(p);
            let pawn_bit = 1u64 << pawn;
            let pawn_att = pawn_attacks(pawn_bit, Color::White);
            for wk in 0..64 {
                if wk == pawn {
                    continue; // Every position is invalid.
                }
                let w = p * 64 + wk;
                let wk_moves = king_moves(wk);
                let valid = !(1u64 << wk | wk_moves | pawn_bit);
                // White to move: Black must not be in check.
                let valid_w = valid & !pawn_att;
                let mut won = 0;
                if pawn >> 3 == 6 {
                    // The pawn promotes at once unless blocked or taken on the spot.
                    let promo = pawn + 8;
                    if promo != wk {
                        won = if distance(wk, promo) == 1 {
                            valid_w & !(1u64 << promo)
                        } else {
                            valid_w & !(1u64 << promo | king_moves(promo))
                        };
                    }
                }
                win[0][w] = won;
                undecided[0][w] = valid_w & !won;
                // Black to move: taking an unprotected pawn draws; no move at all is mate
                // (in check) or stalemate.
                let free = !wk_moves & !pawn_att;
                let takes = if free & pawn_bit != 0 {
                    king_moves(pawn)
                } else {
                    0
                };
                let stuck = !king_set(free);
                win[1][w] = valid & !takes & stuck & pawn_att;
                undecided[1][w] = valid & !takes & !stuck;
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for p in 0..PAWN_SQUARES {
                let pawn = pawn_square(p);
                let pawn_bit = 1u64 << pawn;
                let pawn_att = pawn_attacks(pawn_bit, Color::White);
                for wk in 0..64 {
                    let w = p * 64 + wk;
                    // White to move wins with a king move or a pawn push into a win.
                    if undecided[0][w] != 0 {
                        let mut to_win = 0;
                        for to in squares(king_moves(wk) & !pawn_bit) {
                            to_win |= win[1][p * 64 + to];
                        }
                        let r = pawn >> 3;
                        if r < 6 {
                            to_win |= win[1][(p + 4) * 64 + wk];
                            if r == 1 && pawn + 8 != wk {
                                to_win |= win[1][(p + 8) * 64 + wk] & !(1u64 << (pawn + 8));
                            }
                        }
                        let new = undecided[0][w] & to_win;
                        if new != 0 {
                            win[0][w] |= new;
                            undecided[0][w] &= !new;
                            changed = true;
                        }
                    }
                    // Black to move loses when every king move reaches a won position.
                    if undecided[1][w] != 0 {
                        let escapes = !king_moves(wk) & !pawn_att & !win[0][w];
                        let new = undecided[1][w] & !king_set(escapes);
                        if new != 0 {
                            win[1][w] |= new;
                            undecided[1][w] &= !new;
                            changed = true;
                        }
                    }
                }
            }
        }
        let [white, black] = win;
        let mut bits = white;
        bits.extend_from_slice(&black);
        Kpk {
            bits: bits.into_boxed_slice(),
        }
    }

    /// Whether the side with the pawn wins. Squares are 0..64 (a1 = 0); `strong` owns the pawn.
    pub fn probe(
        &self,
        strong: Color,
        strong_king: usize,
        pawn: usize,
        weak_king: usize,
        strong_to_move: bool,
    ) -> bool {
        let (mut wk, mut bk, mut p) = (strong_king & 63, weak_king & 63, pawn & 63);
        if strong == Color::Black {
            wk ^= 56;
            bk ^= 56;
            p ^= 56;
        }
        if p & 7 > 3 {
            wk ^= 7;
            bk ^= 7;
            p ^= 7;
        }
        let r = p >> 3;
        if !(1..=6).contains(&r) {
            return false;
        }
        let i = index(strong_to_move, wk, bk, p);
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: usize = 2 * PAWN_SQUARES * 64 * 64;

    const UNKNOWN: u8 = 0;
    const INVALID: u8 = 1;
    const DRAW: u8 = 2;
    const WIN: u8 = 3;

    fn sq(name: &str) -> usize {
        let b = name.as_bytes();
        (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
    }

    /// The original scalar retrograde build, kept as the reference.
    fn build_reference() -> Kpk {
        let mut table = vec![UNKNOWN; SIZE];
        // Decode helper: iterate over every (stm, pawn, wk, bk).
        let all = || {
            (0..2).flat_map(move |stm| {
                (0..PAWN_SQUARES).flat_map(move |p| {
                    let pawn = (p / 4 + 1) * 8 + p % 4;
                    (0..64).flat_map(move |wk| (0..64).map(move |bk| (stm == 0, pawn, wk, bk)))
                })
            })
        };
        // Initial classification.
        for (wtm, pawn, wk, bk) in all() {
            let i = index(wtm, wk, bk, pawn);
            let pawn_att = pawn_attacks(1u64 << pawn, Color::White);
            if wk == bk || wk == pawn || bk == pawn || distance(wk, bk) <= 1 {
                table[i] = INVALID;
                continue;
            }
            if wtm {
                if pawn_att & (1u64 << bk) != 0 {
                    table[i] = INVALID; // Black in check with White to move.
                    continue;
                }
                let promo = pawn + 8;
                if pawn >> 3 == 6
                    && promo != wk
                    && promo != bk
                    && (distance(bk, promo) > 1 || distance(wk, promo) == 1)
                {
                    table[i] = WIN;
                }
            } else {
                let moves = king_moves(bk) & !king_moves(wk) & !pawn_att;
                let captures_pawn = moves & (1u64 << pawn) != 0;
                if captures_pawn {
                    table[i] = DRAW;
                } else if moves == 0 {
                    table[i] = if pawn_att & (1u64 << bk) != 0 {
                        WIN
                    } else {
                        DRAW
                    };
                }
            }
        }
        // Retrograde iteration until nothing changes.
        let mut changed = true;
        while changed {
            changed = false;
            for (wtm, pawn, wk, bk) in all() {
                let i = index(wtm, wk, bk, pawn);
                if table[i] != UNKNOWN {
                    continue;
                }
                let result = if wtm {
                    let mut win = false;
                    let king_to = king_moves(wk) & !king_moves(bk) & !(1u64 << pawn);
                    for to in squares(king_to) {
                        if table[index(false, to, bk, pawn)] == WIN {
                            win = true;
                            break;
                        }
                    }
                    let r = pawn >> 3;
                    if !win && r < 6 {
                        let one = pawn + 8;
                        if one != wk && one != bk {
                            if table[index(false, wk, bk, one)] == WIN {
                                win = true;
                            } else if r == 1 {
                                let two = pawn + 16;
                                if two != wk && two != bk && table[index(false, wk, bk, two)] == WIN
                                {
                                    win = true;
                                }
                            }
                        }
                    }
                    if win {
                        WIN
                    } else {
                        UNKNOWN
                    }
                } else {
                    let pawn_att = pawn_attacks(1u64 << pawn, Color::White);
                    let king_to = king_moves(bk) & !king_moves(wk) & !pawn_att;
                    let all_win =
                        squares(king_to).all(|to| table[index(true, wk, to, pawn)] == WIN);
                    if all_win {
                        WIN
                    } else {
                        UNKNOWN
                    }
                };
                if result != UNKNOWN {
                    table[i] = result;
                    changed = true;
                }
            }
        }
        let mut bits = vec![0u64; SIZE / 64].into_boxed_slice();
        for (i, v) in table.iter().enumerate() {
            if *v == WIN {
                bits[i / 64] |= 1u64 << (i % 64);
            }
        }
        Kpk { bits }
    }

    #[test]
    fn set_build_matches_the_reference() {
        assert!(kpk().bits == build_reference().bits);
    }

    #[test]
    fn known_kpk_results() {
        let k = kpk();
        // King on the 6th in front of its pawn wins whoever moves.
        assert!(k.probe(Color::White, sq("e6"), sq("e5"), sq("e8"), true));
        assert!(k.probe(Color::White, sq("e6"), sq("e5"), sq("e8"), false));
        // Rook pawn with the defending king in the corner is a draw.
        assert!(!k.probe(Color::White, sq("b1"), sq("a2"), sq("a8"), true));
        // Defending king in front with the opposition: draw.
        assert!(!k.probe(Color::White, sq("e1"), sq("e2"), sq("e3"), true));
        // The lone king is far away and the pawn runs: win.
        assert!(k.probe(Color::White, sq("a1"), sq("g4"), sq("a8"), true));
        // Same for Black, mirrored: Black pawn g5 running, White king on a1.
        assert!(k.probe(Color::Black, sq("a8"), sq("g5"), sq("a1"), true));
        // Opposition classic: White Kd5 Pd4 vs Kd7, Black to move loses opposition -> win;
        // White to move with the king on e5? Kd5/Pd4 vs Kd7, White to move: draw.
        assert!(!k.probe(Color::White, sq("d5"), sq("d4"), sq("d7"), true));
        assert!(k.probe(Color::White, sq("d5"), sq("d4"), sq("d7"), false));
    }
}
