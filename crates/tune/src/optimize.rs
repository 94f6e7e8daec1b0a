//! Fitting: the scaling constant K (golden-section search on the error of the current
//! weights), then every fitted weight at once by full-batch gradient descent with Adam on
//! the mean squared error plus a weak pull towards the current weights (a ridge, so that
//! weights seen in few positions do not chase noise), then the weights made whole again:
//! the directions in which the evaluation does not change (a constant moved between a
//! piece's value and its square or mobility table) set back to the current weights'
//! convention, and everything rounded and kept in range.

use super::dataset::{Dataset, Position};
use super::model::{sigmoid, Model};
use engine::eval::layout::Role;
use engine::eval::EvalParams;

/// How to fit.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Full passes over the set.
    pub iterations: usize,
    /// Adam's step size (centipawns for most weights).
    pub rate: f64,
    /// Strength of the pull of every weight towards its starting value, in positions: as
    /// strong as that many typical positions that use the weight once.
    pub prior: f64,
    pub threads: usize,
    /// The weights to fit, by flat index (`false`: kept as they are).
    pub only: Vec<bool>,
}

/// Adam's moment decay rates and the guard against dividing by zero.
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

/// The step size of `king_danger_eg_divisor` relative to the others (its value is small).
const EG_DIVISOR_RATE: f64 = 0.05;

/// The targets of `positions`: each one's result, blended with the expectation of its
/// search score (when it has one) by `lambda`.
pub fn targets(positions: &[Position], k: f64, lambda: f64) -> Vec<f32> {
    positions
        .iter()
        .map(|p| {
            if lambda > 0.0 && p.score.is_finite() {
                let e = sigmoid(k, f64::from(p.score));
                ((1.0 - lambda) * f64::from(p.result) + lambda * e) as f32
            } else {
                p.result
            }
        })
        .collect()
}

/// The K in 0.05..=5 that minimises the error of the weights `th` over `positions`
/// (golden-section search; the targets move with K when `lambda` > 0).
pub fn fit_k(
    model: &Model,
    data: &Dataset,
    positions: &[Position],
    th: &[f64],
    lambda: f64,
) -> f64 {
    let scores: Vec<f64> = positions.iter().map(|p| model.score(data, p, th)).collect();
    let error = |k: f64| {
        let t = targets(positions, k, lambda);
        scores
            .iter()
            .zip(&t)
            .map(|(s, t)| (f64::from(*t) - sigmoid(k, *s)).powi(2))
            .sum::<f64>()
            / scores.len().max(1) as f64
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.05, 5.0);
    let mut x1 = hi - ratio * (hi - lo);
    let mut x2 = lo + ratio * (hi - lo);
    let (mut e1, mut e2) = (error(x1), error(x2));
    for _ in 0..60 {
        if e1 < e2 {
            hi = x2;
            x2 = x1;
            e2 = e1;
            x1 = hi - ratio * (hi - lo);
            e1 = error(x1);
        } else {
            lo = x1;
            x1 = x2;
            e1 = e2;
            x2 = lo + ratio * (hi - lo);
            e2 = error(x2);
        }
    }
    (lo + hi) / 2.0
}

/// The ridge coefficient that makes the pull towards the starting weights as strong as
/// `prior` positions: the error's curvature in a weight used once in one typical position
/// (2·(∂expectation/∂score)², averaged over `positions` at the weights `th`), times
/// `prior`, over the number of positions.
pub fn ridge(
    model: &Model,
    data: &Dataset,
    positions: &[Position],
    th: &[f64],
    k: f64,
    prior: f64,
) -> f64 {
    let slope = k * std::f64::consts::LN_10 / 400.0;
    let curvature: f64 = positions
        .iter()
        .map(|p| {
            let e = sigmoid(k, model.score(data, p, th));
            2.0 * (slope * e * (1.0 - e)).powi(2)
        })
        .sum();
    let n = positions.len().max(1) as f64;
    prior * curvature / n / n
}

/// Adam on the weights `th` (only those not [`Role::Fixed`]) for `settings.iterations`
/// passes over `positions`, with the ridge `ridge` towards `start`; `progress` is told
/// the iteration and the error (without the ridge) before it, every pass.
#[allow(clippy::too_many_arguments)]
pub fn descend(
    model: &Model,
    data: &Dataset,
    positions: &[Position],
    targets: &[f32],
    k: f64,
    ridge: f64,
    th: &mut [f64],
    settings: &Settings,
    mut progress: impl FnMut(usize, f64),
) {
    let roles = model.roles();
    let start = th.to_vec();
    let rate: Vec<f64> = roles
        .iter()
        .enumerate()
        .map(|(i, r)| match r {
            _ if !settings.only.get(i).copied().unwrap_or(true) => 0.0,
            Role::Fixed => 0.0,
            Role::DangerEgDivisor => settings.rate * EG_DIVISOR_RATE,
            _ => settings.rate,
        })
        .collect();
    let mut m = vec![0.0; th.len()];
    let mut v = vec![0.0; th.len()];
    for t in 1..=settings.iterations {
        let (error, grad) = model.error(data, positions, targets, th, k, settings.threads, true);
        progress(t, error);
        let (c1, c2) = (1.0 - BETA1.powi(t as i32), 1.0 - BETA2.powi(t as i32));
        for i in 0..th.len() {
            if rate[i] == 0.0 || grad[i] == 0.0 && m[i] == 0.0 {
                continue;
            }
            let g = grad[i] + ridge * (th[i] - start[i]);
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
            th[i] -= rate[i] * (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
            th[i] = keep_in_range(roles[i], th[i]);
        }
    }
}

/// The range a weight of `role` must stay in.
fn keep_in_range(role: Role, x: f64) -> f64 {
    match role {
        Role::ScaleFactor => x.clamp(0.0, 128.0),
        Role::DangerEgDivisor => x.max(1.0),
        Role::Danger => x.max(0.0),
        _ => x,
    }
}

/// How often each flat index is used over `positions`: the sum of its coefficients' sizes.
pub fn usage(data: &Dataset, positions: &[Position], len: usize) -> Vec<f64> {
    let mut out = vec![0.0; len];
    for p in positions {
        let [linear, white, black] = data.parts(p);
        for &(i, c) in linear.iter().chain(white).chain(black) {
            out[i as usize] += f64::from(c.unsigned_abs());
        }
    }
    out
}

/// Takes out of `th` what the evaluation cannot see, relative to the starting weights
/// `base`: a constant added to a piece's square table (or to a knight's, bishop's, rook's or
/// queen's mobility table) and taken off its value changes no score, so each table's mean
/// change, weighted by how often each entry is used (`usage`), moves into the piece's value
/// (the king's, which cancels between the sides, is dropped). No score changes; common
/// entries keep their meaning, and the diff shows real changes only.
pub fn center(base: &EvalParams, usage: &[f64], th: &mut [f64]) {
    let b = base.to_flat();
    let at = |w: &i32| base.flat_index(w).expect("a field of base");
    let mobility: [&[_]; 4] = [
        &base.mobility_knight,
        &base.mobility_bishop,
        &base.mobility_rook,
        &base.mobility_queen,
    ];
    for piece in 0..6 {
        // Pawns never stand on the first or last rank: those entries stay as they are.
        let squares = if piece == 0 { 8..56 } else { 0..64 };
        let mut tables = vec![squares
            .map(|sq| at(&base.pst[piece][sq].mg))
            .collect::<Vec<_>>()];
        if (1..5).contains(&piece) {
            tables.push(mobility[piece - 1].iter().map(|w| at(&w.mg)).collect());
        }
        for table in tables {
            let weight: f64 = table.iter().map(|&i| usage[i]).sum();
            if weight == 0.0 {
                continue;
            }
            for half in 0..2 {
                let shift = table
                    .iter()
                    .map(|&i| usage[i] * (th[i + half] - f64::from(b[i + half])))
                    .sum::<f64>()
                    / weight;
                for &i in &table {
                    th[i + half] -= shift;
                }
                if piece != 5 {
                    th[at(&base.piece_value[piece].mg) + half] += shift;
                }
            }
        }
    }
}

/// The fitted weights as a parameter set: rounded, in range, the fixed ones as in `base`.
pub fn rounded(base: &EvalParams, roles: &[Role], th: &[f64]) -> EvalParams {
    let flat: Vec<i32> = base
        .to_flat()
        .into_iter()
        .zip(th)
        .zip(roles)
        .map(|((b, &x), &role)| match role {
            Role::Fixed => b,
            _ => keep_in_range(role, x).round() as i32,
        })
        .collect();
    EvalParams::from_flat(&flat).expect("the flat run of base")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::Sample;
    use cozy_chess::{Board, Color, Piece};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Positions from seeded random games whose "result" is decided by a hidden
    /// evaluation: material counted with a pawn worth `pawn` centipawns.
    fn synthetic(n: usize, pawn: i32) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(7);
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Board::default();
            for _ in 0..rng.gen_range(10..80) {
                let mut moves = Vec::new();
                b.generate_moves(|ms| {
                    moves.extend(ms);
                    false
                });
                if moves.is_empty() {
                    break;
                }
                b.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
            let count = |p: Piece, c: Color| b.colored_pieces(c, p).len() as i32;
            let values = [
                (Piece::Pawn, pawn),
                (Piece::Knight, 300),
                (Piece::Bishop, 300),
                (Piece::Rook, 500),
                (Piece::Queen, 900),
            ];
            let hidden: i32 = values
                .iter()
                .map(|&(p, v)| v * (count(p, Color::White) - count(p, Color::Black)))
                .sum();
            let win = 1.0 / (1.0 + 10f64.powf(-f64::from(hidden) / 400.0));
            let result = if rng.gen::<f64>() < win { 1.0 } else { 0.0 };
            out.push(Sample {
                board: b,
                result,
                score: None,
            });
        }
        out
    }

    #[test]
    fn descent_lowers_the_error_and_centering_keeps_scores() {
        let base = EvalParams::default();
        let mut data = Dataset::default();
        data.extend(&synthetic(600, 250), &base, 2);
        let model = Model::new(&base);
        let mut th: Vec<f64> = base.to_flat().into_iter().map(f64::from).collect();
        let all = &data.positions;
        let k = fit_k(&model, &data, all, &th, 0.0);
        assert!((0.05..5.0).contains(&k), "K = {k}");
        let t = targets(all, k, 0.0);
        let before = model.error(&data, all, &t, &th, k, 2, false).0;
        let settings = Settings {
            iterations: 60,
            rate: 2.0,
            prior: 0.0,
            threads: 2,
            only: Vec::new(),
        };
        let mut seen = Vec::new();
        descend(
            &model,
            &data,
            all,
            &t,
            k,
            0.0,
            &mut th,
            &settings,
            |i, e| seen.push((i, e)),
        );
        assert_eq!(seen.len(), 60);
        let after = model.error(&data, all, &t, &th, k, 2, false).0;
        assert!(after < before, "error {before} -> {after}");
        // The hidden pawn is worth far more than the defaults' 63/136: it must go up.
        let i = base.flat_index(&base.piece_value[0].mg).expect("inside");
        assert!(th[i] > 63.0 + 10.0, "pawn mg {}", th[i]);
        // Centering moves table means into values without changing any score.
        let scores: Vec<f64> = data
            .positions
            .iter()
            .map(|p| model.score(&data, p, &th))
            .collect();
        let used = usage(&data, all, th.len());
        center(&base, &used, &mut th);
        for (p, s) in data.positions.iter().zip(scores) {
            assert!((model.score(&data, p, &th) - s).abs() < 1e-6);
        }
        let q = rounded(&base, model.roles(), &th);
        assert_eq!(q.king_danger_divisor, base.king_danger_divisor);
        assert_eq!(q.king_safety_scale, 100);
        assert!((0..=128).contains(&q.scale_ocb));
    }

    #[test]
    fn the_ridge_holds_weights_seen_rarely() {
        let base = EvalParams::default();
        let mut data = Dataset::default();
        data.extend(&synthetic(400, 250), &base, 2);
        let model = Model::new(&base);
        let th0: Vec<f64> = base.to_flat().into_iter().map(f64::from).collect();
        let all = &data.positions;
        let k = fit_k(&model, &data, all, &th0, 0.0);
        let t = targets(all, k, 0.0);
        let settings = Settings {
            iterations: 80,
            rate: 2.0,
            prior: 0.0,
            threads: 1,
            only: Vec::new(),
        };
        let moved = |ridge: f64| {
            let mut th = th0.clone();
            descend(
                &model,
                &data,
                all,
                &t,
                k,
                ridge,
                &mut th,
                &settings,
                |_, _| (),
            );
            th.iter().zip(&th0).map(|(a, b)| (a - b).abs()).sum::<f64>()
        };
        let strong = ridge(&model, &data, all, &th0, k, 1e6);
        assert!(strong > 0.0);
        assert!(moved(strong) < moved(0.0) / 2.0);
    }

    #[test]
    fn k_fit_finds_the_generating_constant() {
        // Results drawn from sigmoid(1.0, score) of the evaluation itself: K comes out near 1.
        let base = EvalParams::default();
        let samples = synthetic(1500, 100);
        let mut data = Dataset::default();
        data.extend(&samples, &base, 2);
        let model = Model::new(&base);
        let th: Vec<f64> = base.to_flat().into_iter().map(f64::from).collect();
        let mut rng = StdRng::seed_from_u64(3);
        let scores: Vec<f64> = data
            .positions
            .iter()
            .map(|p| model.score(&data, p, &th))
            .collect();
        for (p, s) in data.positions.iter_mut().zip(scores) {
            p.result = if rng.gen::<f64>() < sigmoid(1.0, s) {
                1.0
            } else {
                0.0
            };
        }
        let k = fit_k(&model, &data, &data.positions, &th, 0.0);
        assert!((0.7..1.4).contains(&k), "K = {k}");
    }
}
