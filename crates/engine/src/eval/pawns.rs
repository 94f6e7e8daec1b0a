//! Pawn structure: the static pawn terms (doubled, isolated, backward, connected, candidates,
//! passed-pawn base bonus) and the per-evaluator pawn hash table that caches them.
//!
//! The cache key is a cheap mix of the two pawn bitboards; each entry also stores both
//! bitboards, so a hit is always exact. The table is allocated once when the evaluator is
//! created and never again.

use cozy_chess::{Board, Color, Piece};

use super::params::{psq_value, EvalParams};
use super::score::S;
use super::shelter::{best_shelter, shelter_key};
use super::sink::{Sink, Sum, Term};
use super::tables::{
    fill_forward, pawn_attacks, rank_bb, relative_rank, shift_forward, squares, ADJACENT_FILES,
    ATTACK_SPAN, FORWARD_FILE, FORWARD_RANKS, PASSED_MASK,
};

/// Everything the rest of the evaluation needs to know about the pawns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PawnEntry {
    /// White pawns (part of the key).
    white: u64,
    /// Black pawns (part of the key).
    black: u64,
    /// Cached static pawn score per colour (already scaled by the knobs), plus the pawns'
    /// material and placement (`pawn_material`) when filled by `PawnTable::probe`.
    pub score: [S; 2],
    /// Passed pawns per colour.
    pub passed: [u64; 2],
    /// Squares attacked by each colour's pawns.
    pub attacks: [u64; 2],
    /// Squares each colour's pawns attack now or could attack after advancing.
    pub span: [u64; 2],
    /// `shelter::shelter_key` of the two most recent shelters per colour, `[color][way]`, the
    /// most recently used first; `u32::MAX` when not yet computed.
    shelter_key: [[u32; 2]; 2],
    /// Cached king shelter/storm scores (see `shelter::best_shelter`) for those keys.
    shelter: [[S; 2]; 2],
}

impl PawnEntry {
    const EMPTY: PawnEntry = PawnEntry {
        // No legal position has pawns on every square; marks a never-filled slot.
        white: u64::MAX,
        black: u64::MAX,
        score: [S::ZERO; 2],
        passed: [0; 2],
        attacks: [0; 2],
        span: [0; 2],
        shelter_key: [[u32::MAX; 2]; 2],
        shelter: [[S::ZERO; 2]; 2],
    };

    /// The best shelter of `color`'s king (on `ksq`) in `board` (whose pawns are this
    /// entry's), from the two-way cache or computed and cached. The search often alternates
    /// between a few king squares over the same pawns, so two ways per colour save most
    /// recomputations.
    #[inline(always)]
    pub fn shelter(&mut self, p: &EvalParams, board: &Board, color: Color, ksq: usize) -> S {
        let c = color as usize;
        let key = shelter_key(board, color, ksq);
        let keys = &mut self.shelter_key[c];
        let values = &mut self.shelter[c];
        if keys[0] != key {
            if keys[1] == key {
                keys.swap(0, 1);
                values.swap(0, 1);
            } else {
                keys[1] = keys[0];
                values[1] = values[0];
                keys[0] = key;
                values[0] = best_shelter(p, board, color, ksq);
            }
        }
        values[0]
    }
}

/// Mixes the two pawn bitboards into a well-spread 64-bit key.
#[inline(always)]
fn pawn_key(white: u64, black: u64) -> u64 {
    let mut k = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.rotate_left(29);
    k ^= k >> 31;
    k = k.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    k ^ (k >> 32)
}

/// Cache of pawn structure evaluations (one per `Evaluator`); its size (a power of two
/// entries) is set by `hashp` / the pawn hash options.
pub(crate) struct PawnTable {
    entries: Box<[PawnEntry]>,
    shift: u32,
}

/// Bytes of one pawn hash entry (128: the default 1 MB holds 8192 entries).
pub(crate) const PAWN_ENTRY_BYTES: usize = std::mem::size_of::<PawnEntry>();
/// Smallest and largest table, as log2 of the entries.
pub(crate) const MIN_BITS: u32 = 4;
pub(crate) const MAX_BITS: u32 = 24;
/// Largest size `hashp` accepts, in bytes.
pub(crate) const MAX_BYTES: usize = 1 << 30;

impl PawnTable {
    /// A table of `1 << bits` entries (`bits` clamped to `MIN_BITS..=MAX_BITS`).
    pub fn new(bits: u32) -> Self {
        let bits = bits.clamp(MIN_BITS, MAX_BITS);
        PawnTable {
            entries: vec![PawnEntry::EMPTY; 1usize << bits].into_boxed_slice(),
            shift: 64 - bits,
        }
    }

    /// log2 of the entries of the largest table that fits in `bytes`, or `None` when not
    /// even the smallest fits or `bytes` is over `MAX_BYTES`.
    pub fn bits_for_bytes(bytes: usize) -> Option<u32> {
        let entries = bytes / PAWN_ENTRY_BYTES;
        if entries < 1 << MIN_BITS || bytes > MAX_BYTES {
            return None;
        }
        Some((usize::BITS - 1 - entries.leading_zeros()).min(MAX_BITS))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets every entry (needed when the weights change).
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::EMPTY);
    }

    /// The entry for these pawns, computed and stored on a miss.
    #[inline]
    pub fn probe(&mut self, white: u64, black: u64, params: &EvalParams) -> &mut PawnEntry {
        let idx = (pawn_key(white, black) >> self.shift) as usize;
        // `idx < len` always holds (the shift leaves `bits` bits); `get_mut` keeps it panic-free.
        let slot = idx & (self.entries.len() - 1);
        let hit = {
            let e = &self.entries[slot];
            e.white == white && e.black == black
        };
        if !hit {
            let mut sum = Sum::default();
            let entry = evaluate_pawns(white, black, params, &mut sum);
            // The pawns' material and placement depend on the pawns alone: cached here too,
            // so the fast path's piece pass skips the pawns.
            add_pawn_material(white, black, params, &mut sum);
            self.entries[slot] = PawnEntry {
                score: sum.acc,
                ..entry
            };
        }
        &mut self.entries[slot]
    }
}

/// Adds both colours' pawn material and placement to `sink` (as `Term::Material`).
fn add_pawn_material<K: Sink>(white: u64, black: u64, p: &EvalParams, sink: &mut K) {
    sink.add(
        Term::Material,
        Color::White,
        pawn_material(white, Color::White, p),
    );
    sink.add(
        Term::Material,
        Color::Black,
        pawn_material(black, Color::Black, p),
    );
}

/// Material and piece-square value of `color`'s `pawns` (Black's squares mirrored), the
/// pawn part of the evaluator's material and placement (the piece pass has the rest).
fn pawn_material(pawns: u64, color: Color, p: &EvalParams) -> S {
    let flip = if color == Color::White { 0 } else { 56 };
    let mut v = S::ZERO;
    for sq in squares(pawns) {
        v += psq_value(p, Piece::Pawn as usize, sq ^ flip)
    }
    v
}

/// Evaluates the static pawn structure, reporting terms to `sink`. The returned entry holds
/// everything but `score` (the caller's `Sum` sink has that).
pub(crate) fn evaluate_pawns<K: Sink>(
    white: u64,
    black: u64,
    p: &EvalParams,
    sink: &mut K,
) -> PawnEntry {
    let pawns = [white, black];
    let attacks = [
        pawn_attacks(white, Color::White),
        pawn_attacks(black, Color::Black),
    ];
    let mut entry = PawnEntry {
        white,
        black,
        score: [S::ZERO; 2],
        passed: [0; 2],
        attacks,
        span: [
            fill_forward(attacks[0], Color::White),
            fill_forward(attacks[1], Color::Black),
        ],
        shelter_key: [[u32::MAX; 2]; 2],
        shelter: [[S::ZERO; 2]; 2],
    };
    for color in [Color::White, Color::Black] {
        let us = color as usize;
        let own = pawns[us];
        let opp = pawns[us ^ 1];
        let opp_attacks = attacks[us ^ 1];
        let mut structure = S::ZERO;
        let mut passed = S::ZERO;
        let mut bb = own;
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let bit = 1u64 << sq;
            let file = sq & 7;
            let abs_rank = sq >> 3;
            let r = relative_rank(color, sq);
            let ahead = FORWARD_FILE[us][sq];
            let opposed = opp & ahead != 0;
            let doubled = own & ahead != 0;
            let neighbours = own & ADJACENT_FILES[file];
            let phalanx = neighbours & rank_bb(abs_rank) != 0;
            let supported = attacks[us] & bit != 0;
            // Own pawns on the neighbouring files that are level with or behind this one.
            let helpers = neighbours & !FORWARD_RANKS[us][abs_rank];

            if doubled {
                structure += sink.weigh(color, &p.pawn_doubled, 1);
            }
            if neighbours == 0 {
                structure += sink.weigh(color, &p.pawn_isolated, 1);
                if !opposed {
                    structure += sink.weigh(color, &p.pawn_isolated_open, 1);
                }
            } else if helpers == 0 && opp_attacks & shift_forward(bit, color) != 0 {
                structure += sink.weigh(color, &p.pawn_backward, 1);
                if !opposed {
                    structure += sink.weigh(color, &p.pawn_backward_open, 1);
                }
            }
            if supported {
                structure += sink.weigh(color, &p.pawn_supported[r], 1);
            }
            if phalanx {
                structure += sink.weigh(color, &p.pawn_phalanx[r], 1);
            }

            if opp & PASSED_MASK[us][sq] == 0 && !doubled {
                entry.passed[us] |= bit;
                passed += sink.weigh(color, &p.passed_rank[r], 1);
            } else if !opposed {
                let sentries = (opp & ATTACK_SPAN[us][sq]).count_ones();
                let support = helpers.count_ones();
                if support >= sentries {
                    structure += sink.weigh(color, &p.pawn_candidate[r], 1);
                }
            }
        }
        sink.add(
            Term::PawnStructure,
            color,
            structure.pct(p.pawn_structure_scale),
        );
        sink.add(Term::PassedPawns, color, passed.pct(p.passed_pawn_scale));
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::sink::Breakdown;

    fn sq(name: &str) -> u64 {
        let b = name.as_bytes();
        1u64 << ((b[1] - b'1') as u32 * 8 + (b[0] - b'a') as u32)
    }

    #[test]
    fn passed_isolated_doubled_detected() {
        let p = EvalParams::default();
        // White: a2, c4, c5 (doubled and isolated), h2. Black: h7.
        let white = sq("a2") | sq("c4") | sq("c5") | sq("h2");
        let black = sq("h7");
        let mut b = Breakdown::default();
        let e = evaluate_pawns(white, black, &p, &mut b);
        // The front c-pawn and the a-pawn are passed; the rear c-pawn is not; h2 is opposed.
        assert_eq!(e.passed[0], sq("a2") | sq("c5"));
        assert_eq!(e.passed[1], 0);
        let w = b.terms[Term::PawnStructure as usize][0];
        assert!(w.eg < 0, "doubled isolated c-pawns must cost White: {w:?}");
        let passed = b.terms[Term::PassedPawns as usize];
        assert!(passed[0].eg > 0 && passed[1] == S::ZERO);
    }

    #[test]
    fn table_hit_matches_fresh_evaluation() {
        let p = EvalParams::default();
        let mut t = PawnTable::new(8);
        let white = sq("a2") | sq("d4") | sq("e5");
        let black = sq("d5") | sq("g6") | sq("h7");
        let first = *t.probe(white, black, &p);
        let second = *t.probe(white, black, &p);
        assert_eq!(first.score, second.score);
        let mut sum = Sum::default();
        evaluate_pawns(white, black, &p, &mut sum);
        add_pawn_material(white, black, &p, &mut sum);
        assert_eq!(first.score, sum.acc);
        // e5 is passed for White (no black pawns on d-f files in front).
        assert_ne!(first.passed[0] & sq("e5"), 0);
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_bytes() {
        assert_eq!(PawnTable::bits_for_bytes(0), None);
        assert_eq!(PawnTable::bits_for_bytes(16 * PAWN_ENTRY_BYTES - 1), None);
        assert_eq!(PawnTable::bits_for_bytes(16 * PAWN_ENTRY_BYTES), Some(4));
        assert_eq!(PawnTable::bits_for_bytes(MAX_BYTES + 1), None);
        for bytes in [1usize << 20, 3 << 20, 5_000_000, MAX_BYTES] {
            let bits = PawnTable::bits_for_bytes(bytes).expect("in range");
            let used = PAWN_ENTRY_BYTES << bits;
            assert!(used <= bytes && 2 * used > bytes, "{bytes}: {bits} bits");
            assert_eq!(PawnTable::new(bits).len(), 1 << bits);
        }
    }
}
