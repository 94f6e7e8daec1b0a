//! The shared transposition table: lock-free, bucketed, with depth/age replacement.
//!
//! Each entry is two `AtomicU64`s: `key ^ data` and `data`. A reader accepts an entry only
//! when `stored_key ^ data == key`, so a torn write by another thread (one word from each
//! writer) is detected and treated as a miss: no lock anywhere. Four entries make a 64-byte
//! bucket (one cache line). Mate and tablebase scores are stored relative to the node
//! (adjusted by ply).

use super::tablemem::{Zeroable, ZeroedSlice};
use super::types::{NO_EVAL, TB_WIN_BOUND};
use cozy_chess::{Move, Piece, Square};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

const ENTRIES_PER_BUCKET: usize = 4;

/// Bound kind of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    None = 0,
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Option<Move>,
    /// Score adjusted back to the probing node's ply.
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: TtBound,
}

impl TtHit {
    /// Whether the stored score alone settles a node searched with the window
    /// (`alpha`, `beta`): exact, a lower bound at or above `beta`, or an upper bound at or
    /// below `alpha` (the caller checks the depth).
    #[inline]
    pub fn settles(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            TtBound::Exact => true,
            TtBound::Lower => self.score >= beta,
            TtBound::Upper => self.score <= alpha,
            TtBound::None => false,
        }
    }

    /// A static evaluation `eval` sharpened by the stored score where its bound says the
    /// score is the better estimate: a lower bound above it, an upper bound below it, or
    /// an exact score (tablebase and mate scores are left out).
    #[inline]
    pub fn refine(&self, eval: i32) -> i32 {
        let better = self.score.abs() < TB_WIN_BOUND
            && match self.bound {
                TtBound::Lower => self.score > eval,
                TtBound::Upper => self.score < eval,
                TtBound::Exact => true,
                TtBound::None => false,
            };
        if better {
            self.score
        } else {
            eval
        }
    }
}

struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

// SAFETY: a bucket is atomics only; all-zero is the empty bucket.
unsafe impl Zeroable for Bucket {}

/// The table. Shared between search threads through an `Arc`.
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    age: AtomicU8,
}

/// Packs a move in 16 bits (0 = none): from 6, to 6, promotion 3.
pub fn encode_move(mv: Option<Move>) -> u16 {
    match mv {
        None => 0,
        Some(m) => {
            let promo = match m.promotion {
                None => 0,
                Some(Piece::Knight) => 1,
                Some(Piece::Bishop) => 2,
                Some(Piece::Rook) => 3,
                Some(_) => 4,
            };
            ((m.from as u16) | ((m.to as u16) << 6) | (promo << 12)) + 1
        }
    }
}

/// Inverse of [`encode_move`].
pub fn decode_move(v: u16) -> Option<Move> {
    if v == 0 {
        return None;
    }
    let v = v - 1;
    let from = Square::index((v & 63) as usize);
    let to = Square::index(((v >> 6) & 63) as usize);
    let promotion = match (v >> 12) & 7 {
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => None,
    };
    Some(Move {
        from,
        to,
        promotion,
    })
}

fn pack(mv: u16, score: i16, eval: i16, depth: u8, bound: TtBound, age: u8) -> u64 {
    (mv as u64)
        | ((score as u16 as u64) << 16)
        | ((eval as u16 as u64) << 32)
        | ((depth as u64) << 48)
        | ((bound as u64) << 56)
        | (((age & 63) as u64) << 58)
}

struct Unpacked {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    bound: TtBound,
    age: u8,
}

fn unpack(d: u64) -> Unpacked {
    Unpacked {
        mv: d as u16,
        score: (d >> 16) as u16 as i16,
        eval: (d >> 32) as u16 as i16,
        depth: (d >> 48) as u8,
        bound: match (d >> 56) & 3 {
            1 => TtBound::Exact,
            2 => TtBound::Lower,
            3 => TtBound::Upper,
            _ => TtBound::None,
        },
        age: ((d >> 58) & 63) as u8,
    }
}

/// Converts a score at `ply` to the node-relative form stored in the table (mate and
/// tablebase scores count their distance from the root).
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`score_to_tt`].
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: ZeroedSlice::new(n),
            age: AtomicU8::new(0),
        }
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// Empties the table (not while a search runs).
    pub fn clear(&self) {
        self.buckets.zero();
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search (older entries become preferred victims).
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Hints the processor to load the bucket of `key` (see `engine/prefetch.rs`; the
    /// search calls it as soon as it picks a move, from the child's key worked out ahead,
    /// so the probe in the child node finds the bucket in cache).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(self.bucket(key));
    }

    /// Looks `key` up; `ply` adjusts mate scores.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let bucket = self.bucket(key);
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            if k ^ data == key && data != 0 {
                let u = unpack(data);
                return Some(TtHit {
                    mv: decode_move(u.mv),
                    score: score_from_tt(u.score as i32, ply),
                    eval: if u.eval as i32 == i16::MIN as i32 {
                        NO_EVAL
                    } else {
                        u.eval as i32
                    },
                    depth: u.depth as i32,
                    bound: u.bound,
                });
            }
        }
        None
    }

    /// Stores a search result for `key`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
        ply: usize,
    ) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in bucket.entries.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let u = unpack(data);
            if k ^ data == key {
                // Same position: keep a deeper non-exact result unless this one is exact.
                if bound != TtBound::Exact && (depth + 3) < u.depth as i32 && u.age == age {
                    return;
                }
                let keep_mv = if mv.is_some() { encode_move(mv) } else { u.mv };
                self.write(e, key, keep_mv, score, eval, depth, bound, ply, age);
                return;
            }
            let age_diff = ((age as i32 - u.age as i32) + 64) & 63;
            let worth = u.depth as i32 - 8 * age_diff;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let e = &bucket.entries[victim];
        self.write(e, key, encode_move(mv), score, eval, depth, bound, ply, age);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn write(
        &self,
        e: &Entry,
        key: u64,
        mv: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
        ply: usize,
        age: u8,
    ) {
        let s = score_to_tt(score, ply).clamp(-32_767, 32_767) as i16;
        let ev = if eval == NO_EVAL {
            i16::MIN
        } else {
            eval.clamp(-32_000, 32_000) as i16
        };
        let data = pack(mv, s, ev, depth.clamp(0, 255) as u8, bound, age);
        e.key.store(key ^ data, Ordering::Relaxed);
        e.data.store(data, Ordering::Relaxed);
    }

    /// Permill of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = self.buckets.len().min(250);
        if n == 0 {
            return 0;
        }
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in &b.entries {
                let d = e.data.load(Ordering::Relaxed);
                if d != 0 && unpack(d).age == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * ENTRIES_PER_BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_through_encoding() {
        let mv = Move {
            from: Square::G7,
            to: Square::H8,
            promotion: Some(Piece::Knight),
        };
        assert_eq!(decode_move(encode_move(Some(mv))), Some(mv));
        assert_eq!(decode_move(encode_move(None)), None);
        let a1 = Move {
            from: Square::A1,
            to: Square::A2,
            promotion: None,
        };
        assert_eq!(decode_move(encode_move(Some(a1))), Some(a1));
    }

    #[test]
    fn store_then_probe_returns_the_entry_and_mate_scores_shift_by_ply() {
        let tt = TranspositionTable::new(1);
        let mv = Move {
            from: Square::E2,
            to: Square::E4,
            promotion: None,
        };
        tt.store(0xDEAD_BEEF, Some(mv), 31_990, 15, 7, TtBound::Exact, 4);
        let hit = tt.probe(0xDEAD_BEEF, 6).expect("entry present");
        assert_eq!(hit.mv, Some(mv));
        assert_eq!(hit.depth, 7);
        assert_eq!(hit.eval, 15);
        assert_eq!(hit.bound, TtBound::Exact);
        // stored at ply 4 as mate-in-(10 from root) -> seen from ply 6 two plies closer.
        assert_eq!(hit.score, 31_988);
        assert!(tt.probe(0xDEAD_BEEF ^ 1, 0).is_none());
        tt.store(42, None, -120, NO_EVAL, 3, TtBound::Upper, 0);
        let h = tt.probe(42, 0).expect("entry present");
        assert_eq!(h.score, -120);
        assert_eq!(h.eval, NO_EVAL);
        assert!(h.mv.is_none());
    }

    #[test]
    fn replacement_keeps_the_bucket_usable_when_full() {
        let tt = TranspositionTable::new(1);
        for k in 0..100_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, None, 1, 1, (k % 20) as i32, TtBound::Lower, 0);
        }
        let last = 99_999u64.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert!(tt.probe(last, 0).is_some());
        assert!(tt.hashfull() > 0);
    }
}
