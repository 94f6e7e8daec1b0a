//! Learned positions (position learning): a small read-only table, separate from the
//! transposition table, that the search consults at every interior node, principal
//! variation nodes and the root's children included.
//!
//! Why not simply seed the transposition table (as Crafty does): wily takes hash cutoffs
//! only at non-PV nodes, and every search result for the same position overwrites the
//! seeded entry, so a learned position met on the principal variation, or first met by a
//! shallow iteration, was forgotten before it could change the move. Here a learned
//! entry is never overwritten during a search, survives `new_game`/`clear_hash`, and is
//! trusted wherever its depth covers the depth still to search: the node returns the
//! learned score at once. A deeper search of the same position ignores it (deeper knows
//! better). The table is built before a search and only read during it: no locks, no
//! allocation per node, and an empty table costs one comparison per node.

use super::tt::{decode_move, encode_move, score_from_tt};
use super::types::MATE;
use cozy_chess::Move;

/// One learned position as the engine takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnedPosition {
    /// `cozy_chess::Board::hash()` of the position.
    pub key: u64,
    /// The best move there according to the search that learned it.
    pub mv: Move,
    /// Centipawns (or a mate score in plies from this position) for the side to move.
    pub score: i32,
    /// Depth of the search that learned it.
    pub depth: i32,
}

/// A learned entry found by [`LearnedTable::probe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnedHit {
    pub mv: Option<Move>,
    /// Score for the side to move, mate scores adjusted to the probing ply.
    pub score: i32,
    pub depth: i32,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    used: bool,
    mv: u16,
    score: i16,
    depth: u8,
}

/// Open-addressed table of learned positions (power-of-two size, at most half full).
#[derive(Default)]
pub struct LearnedTable {
    slots: Vec<Slot>,
    len: usize,
}

impl LearnedTable {
    /// Builds the table; a later entry for the same key replaces an earlier one.
    pub fn new(entries: &[LearnedPosition]) -> LearnedTable {
        if entries.is_empty() {
            return LearnedTable::default();
        }
        let size = (entries.len() * 2).next_power_of_two().max(2);
        let mut t = LearnedTable {
            slots: vec![Slot::default(); size],
            len: 0,
        };
        for e in entries {
            let mask = size - 1;
            let mut i = (e.key as usize) & mask;
            while t.slots[i].used && t.slots[i].key != e.key {
                i = (i + 1) & mask;
            }
            if !t.slots[i].used {
                t.len += 1;
            }
            t.slots[i] = Slot {
                key: e.key,
                used: true,
                mv: encode_move(Some(e.mv)),
                score: e.score.clamp(-(MATE - 1), MATE - 1) as i16,
                depth: e.depth.clamp(0, 255) as u8,
            };
        }
        t
    }

    /// Number of learned positions.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Looks `key` up; `ply` adjusts mate scores (stored relative to the position).
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<LearnedHit> {
        if self.len == 0 {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            let s = &self.slots[i];
            if !s.used {
                return None;
            }
            if s.key == key {
                return Some(LearnedHit {
                    mv: decode_move(s.mv),
                    score: score_from_tt(i32::from(s.score), ply),
                    depth: i32::from(s.depth),
                });
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::MATE_BOUND;
    use cozy_chess::Square;

    fn mv(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
        }
    }

    #[test]
    fn finds_what_was_put_in_and_nothing_else() {
        let empty = LearnedTable::new(&[]);
        assert!(empty.is_empty());
        assert!(empty.probe(7, 0).is_none());
        // Colliding low bits exercise the linear probing.
        let entries: Vec<LearnedPosition> = (0..100u64)
            .map(|i| LearnedPosition {
                key: (i << 40) | 5,
                mv: mv(Square::E2, Square::E4),
                score: i as i32 - 50,
                depth: (i % 30) as i32,
            })
            .collect();
        let t = LearnedTable::new(&entries);
        assert_eq!(t.len(), 100);
        for e in &entries {
            let h = t.probe(e.key, 3).expect("present");
            assert_eq!(h.score, e.score);
            assert_eq!(h.depth, e.depth);
            assert_eq!(h.mv, Some(e.mv));
        }
        assert!(t.probe(6, 0).is_none());
        assert!(t.probe(101 << 40 | 5, 0).is_none());
    }

    #[test]
    fn later_entries_replace_and_mate_scores_shift_by_ply() {
        let a = LearnedPosition {
            key: 99,
            mv: mv(Square::G1, Square::F3),
            score: 10,
            depth: 4,
        };
        let b = LearnedPosition {
            score: MATE - 5,
            depth: 9,
            ..a
        };
        let t = LearnedTable::new(&[a, b]);
        assert_eq!(t.len(), 1);
        let h = t.probe(99, 2).expect("present");
        assert_eq!(h.depth, 9);
        assert!(h.score >= MATE_BOUND);
        assert_eq!(
            h.score,
            MATE - 7,
            "mate in 5 plies from there, 2 plies deeper"
        );
    }
}
