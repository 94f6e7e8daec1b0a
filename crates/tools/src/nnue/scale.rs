//! The scale of the training loss's sigmoid: how many centipawns of a position's score
//! make the same win probability as one unit of the network's output. The search's
//! scores and the games' results must agree on it for a blend of the two to mean
//! anything: when the sigmoid is wider than the scores' own (their evaluation turns a
//! 100-centipawn lead into a 65% score, say, where a 400-centipawn sigmoid promises
//! 56%), the results pull every target outwards and the network learns scores larger
//! than the search's, which the search's margins (futility, razoring, null move) were
//! not set for.
//!
//! [`fit_scale`] finds the scale that makes `sigmoid(score / scale)` predict the
//! games' results best (least squares, as the trainer's loss), by golden-section search
//! over 50..1000 centipawns.

use super::data::Record;

/// The smallest and largest scale [`fit_scale`] considers, centipawns.
pub const SCALE_RANGE: (f32, f32) = (50.0, 1000.0);

/// Records [`fit_scale`] looks at, at most (evenly spaced over the input).
const FIT_SAMPLE: usize = 1_000_000;

/// Mean squared error of `sigmoid(score / scale)` against the results.
fn error(points: &[(f32, f32)], scale: f32) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|&(score, result)| {
            let p = 1.0 / (1.0 + (-score / scale).exp());
            f64::from((p - result) * (p - result))
        })
        .sum();
    sum / points.len().max(1) as f64
}

/// The scale (centipawns) at which the records' scores predict their games' results
/// best; `None` when no record has a decisive or drawn result to fit to (no records).
pub fn fit_scale(records: &[Record]) -> Option<f32> {
    if records.is_empty() {
        return None;
    }
    let step = records.len().div_ceil(FIT_SAMPLE).max(1);
    let points: Vec<(f32, f32)> = records
        .iter()
        .step_by(step)
        .map(|r| (f32::from(r.score), r.outcome.value()))
        .collect();
    let (mut a, mut b) = SCALE_RANGE;
    let g = (5f32.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (error(&points, c), error(&points, d));
    while b - a > 0.5 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = error(&points, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = error(&points, d);
        }
    }
    Some((a + b) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::Outcome;
    use cozy_chess::Board;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Records whose results are drawn from `sigmoid(score / truth)`.
    fn records(truth: f32, n: usize) -> Vec<Record> {
        let mut rng = StdRng::seed_from_u64(7);
        let board = Board::default();
        (0..n)
            .map(|i| {
                let score: i16 = rng.gen_range(-800..=800);
                let p = 1.0 / (1.0 + (-f32::from(score) / truth).exp());
                let outcome = if rng.gen::<f32>() < p {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                Record::from_board(&board, score, outcome, i as u32)
            })
            .collect()
    }

    #[test]
    fn the_fit_finds_the_scale_the_results_were_drawn_with() {
        for truth in [150.0, 400.0] {
            let fitted = fit_scale(&records(truth, 60_000)).expect("records");
            assert!(
                (fitted - truth).abs() < 0.08 * truth,
                "drawn with {truth}, fitted {fitted}"
            );
        }
    }

    #[test]
    fn no_records_no_scale() {
        assert_eq!(fit_scale(&[]), None);
    }
}
