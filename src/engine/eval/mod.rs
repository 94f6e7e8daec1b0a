//! Static evaluation: wily's hand-crafted, tapered evaluation and the interface the search
//! calls.
//!
//! `Evaluator::evaluate` scores a position in centipawns from the side to move's point of
//! view. Every term produces a (middlegame, endgame) pair; the sum is blended by the game
//! phase (see [`phase`]) after endgame scale factors pull drawish endings towards zero.
//!
//! Terms: material; piece-square tables; mobility per piece kind over safe squares; pawn
//! structure (doubled, isolated, backward, supported, phalanx, candidates) and the passed-pawn
//! base bonus, cached in a per-evaluator pawn hash table; passed pawns' king distances,
//! blockade, free and safe paths and the rule of the square; blocked pawns; king safety
//! (king-zone attackers and attack weight, weak zone squares, safe checks, pawn shelter and
//! storm); king tropism; bishop pair and bishops hemmed in by own pawns; rooks on open and
//! half-open files and the 7th; knight and bishop outposts; threats and hanging pieces;
//! endgame scaling (insufficient material, KNN, pawnless small edges, rook pawns with the
//! wrong or no bishop, opposite-coloured bishops, one-pawn endings, exact KPK); tempo.
//!
//! All weights live in [`EvalParams`], including Crafty's percentage knobs (king safety and
//! its asymmetry between wily's side and the opponent's, tropism, pawn structure, passed
//! pawns, blocked pawns). [`trace`] explains an evaluation term by term.
//!
//! The evaluation allocates nothing and takes no locks, with one exception per process: the
//! first evaluation of a king-and-pawn-against-king ending builds the KPK bitbase (behind a
//! `OnceLock`, which later KPK probes only read). The pawn table is allocated once in
//! [`Evaluator::new`].

mod endgame;
mod evaluate;
mod king;
mod kpk;
mod params;
mod pawns;
mod pieces;
mod pst;
mod score;
mod shelter;
mod sink;
mod tables;
mod trace;

#[cfg(test)]
mod tests;

use cozy_chess::{Board, Color, Piece};

pub use endgame::{is_insufficient_material, phase};
pub use params::EvalParams;
pub use score::{s, S};
pub use sink::Term;
pub use trace::{trace, trace_for_side, EvalTrace, TraceTerm};

use evaluate::{evaluate_rest, king_squares};
use pawns::PawnTable;
use pieces::PieceTables;
use sink::{Sink, Sum};

/// log2 of the number of pawn hash entries per evaluator (8192 entries, the largest
/// table within the default `hashp` of 1 MB).
const PAWN_TABLE_BITS: u32 = 13;

/// Pawn hash size limits in bytes (`hashp`): 16 entries up to 1 GiB.
pub const PAWN_HASH_MIN_BYTES: usize = pawns::PAWN_ENTRY_BYTES << pawns::MIN_BITS;
pub const PAWN_HASH_MAX_BYTES: usize = pawns::MAX_BYTES;
/// The default pawn hash size (`hashp=1M`: 8192 entries).
pub const PAWN_HASH_DEFAULT_BYTES: usize = 1 << 20;
/// Bytes of one pawn hash entry.
pub const PAWN_ENTRY_BYTES: usize = pawns::PAWN_ENTRY_BYTES;

/// The pawn hash entries (a power of two) of the largest table that fits in `bytes`;
/// `None` outside `PAWN_HASH_MIN_BYTES..=PAWN_HASH_MAX_BYTES`.
pub fn pawn_hash_entries(bytes: usize) -> Option<usize> {
    PawnTable::bits_for_bytes(bytes).map(|b| 1usize << b)
}

/// log2 of the entries of the evaluation cache (16384 entries of 8 bytes: 128 KB, small
/// enough to stay in the processor's second-level cache).
const EVAL_CACHE_BITS: u32 = 14;

/// Per-thread evaluator: the weights plus caches (the pawn hash table and the evaluation
/// cache).
pub struct Evaluator {
    params: EvalParams,
    own_side: Option<Color>,
    pawns: PawnTable,
    tables: PieceTables,
    /// Recent evaluations by position key: the upper 48 bits of the key and the score
    /// (as `i16`) in the low 16 bits; 0 is an empty slot. Quiescence search meets the
    /// same position again through captures made in another order, and its deeper plies
    /// do not use the hash table, which would remember the evaluation.
    cache: Box<[u64]>,
}

/// The part of a position key an evaluation cache entry keeps (the slot index comes from
/// the low bits).
const CACHE_TAG: u64 = !0xFFFF;

impl Evaluator {
    /// A new evaluator with its own pawn hash table. The KPK bitbase is built later, by the
    /// first evaluation of a king-and-pawn-against-king ending in the process.
    pub fn new(params: EvalParams) -> Self {
        Evaluator {
            own_side: None,
            pawns: PawnTable::new(PAWN_TABLE_BITS),
            tables: PieceTables::new(&params),
            params,
            cache: vec![0; 1 << EVAL_CACHE_BITS].into_boxed_slice(),
        }
    }

    /// Resizes the pawn hash table to the largest power-of-two number of entries that
    /// fits in `bytes` (clamped to the limits; a new, empty table when the number of
    /// entries changes); returns the entries.
    pub fn set_pawn_hash_bytes(&mut self, bytes: usize) -> usize {
        let bytes = bytes.clamp(PAWN_HASH_MIN_BYTES, PAWN_HASH_MAX_BYTES);
        let bits = PawnTable::bits_for_bytes(bytes).unwrap_or(PAWN_TABLE_BITS);
        if 1usize << bits != self.pawns.len() {
            self.pawns = PawnTable::new(bits);
        }
        self.pawns.len()
    }

    /// Entries of the pawn hash table.
    pub fn pawn_hash_entries(&self) -> usize {
        self.pawns.len()
    }

    /// The weights in use.
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Replaces the weights (and forgets cached pawn scores computed with the old ones).
    pub fn set_params(&mut self, params: EvalParams) {
        self.tables = PieceTables::new(&params);
        self.params = params;
        self.pawns.clear();
        self.cache.fill(0);
    }

    /// Tells the evaluator which side wily plays, for asymmetric king safety
    /// (`king_safety_own` / `king_safety_opponent`). `None` makes it symmetric.
    pub fn set_own_side(&mut self, side: Option<Color>) {
        if side != self.own_side {
            // King safety depends on it: cached scores are stale.
            self.cache.fill(0);
        }
        self.own_side = side;
    }

    /// The side set by [`Evaluator::set_own_side`].
    pub fn own_side(&self) -> Option<Color> {
        self.own_side
    }

    /// Score of `board` in centipawns from the side to move's point of view.
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let key = board.hash();
        let slot = (key as usize) & (self.cache.len() - 1);
        let entry = self.cache[slot];
        if entry != 0 && entry & CACHE_TAG == key & CACHE_TAG {
            return i32::from(entry as u16 as i16);
        }
        let v = self.evaluate_uncached(board);
        if let Ok(v16) = i16::try_from(v) {
            self.cache[slot] = key & CACHE_TAG | u64::from(v16 as u16);
        }
        v
    }

    /// [`Evaluator::evaluate`] without the cache.
    fn evaluate_uncached(&mut self, board: &Board) -> i32 {
        if is_insufficient_material(board) {
            return 0;
        }
        let white_pawns = board.colored_pieces(Color::White, Piece::Pawn).0;
        let black_pawns = board.colored_pieces(Color::Black, Piece::Pawn).0;
        let entry = self.pawns.probe(white_pawns, black_pawns, &self.params);
        let kings = king_squares(board);
        let shelter = [
            entry.shelter(&self.params, board, Color::White, kings[0]),
            entry.shelter(&self.params, board, Color::Black, kings[1]),
        ];
        let mut sum = Sum { acc: entry.score };
        let blend = evaluate_rest(
            board,
            &self.params,
            &self.tables,
            self.own_side,
            entry,
            shelter,
            &mut sum,
        );
        let white = blend.apply(sum.total());
        if board.side_to_move() == Color::White {
            white
        } else {
            -white
        }
    }
}
