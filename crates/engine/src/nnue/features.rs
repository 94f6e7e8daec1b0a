//! The network's inputs: one per (colour relative to the perspective, piece, square),
//! 768 per perspective. Black's perspective sees the board mirrored top to bottom, so
//! both perspectives share one set of weights.

use super::network::INPUTS;

/// The input of a piece of colour `color` (0 white, 1 black) and kind `piece` (0 pawn ..
/// 5 king) on square `sq` (a1 = 0 .. h8 = 63), seen from `perspective` (0 white, 1
/// black).
#[inline]
pub fn feature_index(perspective: usize, color: usize, piece: usize, sq: usize) -> usize {
    let relative = usize::from(color != perspective);
    let sq = if perspective == 1 { sq ^ 56 } else { sq };
    let i = relative * 384 + piece * 64 + sq;
    debug_assert!(i < INPUTS);
    i
}

/// The output bucket of a position with `pieces` pieces (kings included) when the
/// network has `buckets` buckets: equal slices of 2..=32 pieces, fewest pieces first.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let n = pieces.clamp(2, 32) as usize - 2;
    (n * buckets / 31).min(buckets - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspectives_mirror_each_other() {
        // White's king on e1 from White's view is Black's king on e8 from Black's view.
        assert_eq!(feature_index(0, 0, 5, 4), feature_index(1, 1, 5, 60));
        assert_eq!(feature_index(0, 1, 0, 52), feature_index(1, 0, 0, 12));
        let mut seen = vec![false; INPUTS];
        for c in 0..2 {
            for p in 0..6 {
                for sq in 0..64 {
                    let i = feature_index(0, c, p, sq);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn buckets_cover_every_piece_count_in_order() {
        assert_eq!(output_bucket(32, 1), 0);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(32, 8), 7);
        let mut last = 0;
        for n in 2..=32 {
            let b = output_bucket(n, 8);
            assert!(b >= last && b < 8);
            last = b;
        }
    }
}
