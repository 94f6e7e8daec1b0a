//! The tuner's model of the evaluation: the score of a recorded position as a function of
//! every weight (in `f64`, without the evaluation's integer truncations), the logistic
//! expectation of a score, and the mean squared error over the set with its gradient,
//! computed on several threads.
//!
//! Per position, from White's view: `mg` and `eg` sum the linear coefficients times the
//! weights (times their percentage knob), minus each king's danger penalty (the danger `d`,
//! a capped linear sum of the danger weights, gives `d² / king_danger_divisor` and
//! `d / king_danger_eg_divisor`); the scale rule for the side ahead in `eg` gives the
//! factors `fm`, `fe` (a fitted scale factor / 128, or 1 or 0); the score is
//! `(fm·mg·phase + fe·eg·(24 − phase)) / 24`.

use super::dataset::{Dataset, Position};
use engine::eval::layout::{roles, Group, Role};
use engine::eval::{EvalParams, ScaleRule, SCALE_NORMAL};

/// The logistic expectation of a score `s` (centipawns) with scaling constant `k`.
#[inline]
pub fn sigmoid(k: f64, s: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * s / 400.0))
}

/// The fixed quantities of the model and where the special weights are.
#[derive(Clone, Debug)]
pub struct Model {
    roles: Vec<Role>,
    /// Per flat index: the percentage knob of its group / 100.
    factor: Vec<f64>,
    /// `king_safety_scale` / 100.
    king_safety: f64,
    /// `king_danger_divisor` and `king_danger_max` (fixed).
    danger_divisor: f64,
    danger_max: f64,
    /// Flat index of `king_danger_eg_divisor`.
    eg_divisor: usize,
    /// Flat indices of the scale factors: two knights against pawns, pawnless, opposite
    /// bishops alone and with pieces, one pawn.
    knn: usize,
    pawnless: usize,
    ocb: usize,
    ocb_pieces: usize,
    one_pawn: usize,
}

/// What the gradient of one position needs from its score's computation.
struct Parts {
    mg: f64,
    eg: f64,
    /// ∂score/∂mg and ∂score/∂eg.
    a: f64,
    b: f64,
    /// Per king: the danger and whether it is inside its cap (so the weights move it).
    danger: [(f64, bool); 2],
    /// The scale factor in use, if fitted: its index and whether it scales both halves.
    knob: Option<(usize, bool)>,
}

impl Model {
    /// The model of the evaluation with the fixed quantities (knobs, danger unit and cap) of
    /// `base`.
    pub fn new(base: &EvalParams) -> Model {
        let roles = roles();
        let factor = roles
            .iter()
            .map(|r| match r {
                Role::Linear(g) | Role::EndgameLinear(g) => f64::from(g.percent(base)) / 100.0,
                _ => 1.0,
            })
            .collect();
        let at = |w: &i32| base.flat_index(w).expect("a field of base");
        Model {
            roles,
            factor,
            king_safety: f64::from(Group::KingSafety.percent(base)) / 100.0,
            danger_divisor: f64::from(base.king_danger_divisor.max(1)),
            danger_max: f64::from(base.king_danger_max.max(0)),
            eg_divisor: at(&base.king_danger_eg_divisor),
            knn: at(&base.scale_knn_vs_pawns),
            pawnless: at(&base.scale_pawnless),
            ocb: at(&base.scale_ocb),
            ocb_pieces: at(&base.scale_ocb_pieces),
            one_pawn: at(&base.scale_one_pawn),
        }
    }

    /// The role of every flat index.
    pub fn roles(&self) -> &[Role] {
        &self.roles
    }

    /// The factors `(fm, fe)` of `rule` with the weights `th`, and the fitted factor used.
    fn factors(&self, rule: ScaleRule, th: &[f64]) -> (f64, f64, Option<(usize, bool)>) {
        let fitted = |i: usize| th[i] / f64::from(SCALE_NORMAL);
        match rule {
            ScaleRule::Normal | ScaleRule::KpkWin(_) => (1.0, 1.0, None),
            ScaleRule::Draw => (0.0, 0.0, None),
            ScaleRule::KnnVsPawns => (fitted(self.knn), fitted(self.knn), Some((self.knn, true))),
            ScaleRule::Pawnless => (
                fitted(self.pawnless),
                fitted(self.pawnless),
                Some((self.pawnless, true)),
            ),
            ScaleRule::Ocb => (1.0, fitted(self.ocb), Some((self.ocb, false))),
            ScaleRule::OcbPieces => (1.0, fitted(self.ocb_pieces), Some((self.ocb_pieces, false))),
            ScaleRule::OnePawn => (1.0, fitted(self.one_pawn), Some((self.one_pawn, false))),
        }
    }

    /// The sign and king-safety factor of a king's danger penalty in White's score.
    fn danger_side(&self, king: usize) -> f64 {
        if king == 0 {
            -self.king_safety
        } else {
            self.king_safety
        }
    }

    /// The score of `p` (White's view) with the weights `th`, and what its gradient needs.
    fn parts(&self, data: &Dataset, p: &Position, th: &[f64]) -> (f64, Parts) {
        let [linear, white_danger, black_danger] = data.parts(p);
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in linear {
            let i = i as usize;
            let c = f64::from(c) * self.factor[i];
            if let Role::Linear(_) = self.roles[i] {
                mg += c * th[i];
                eg += c * th[i + 1];
            } else {
                eg += c * th[i];
            }
        }
        let mut danger = [(0.0, false); 2];
        for (k, inputs) in [white_danger, black_danger].into_iter().enumerate() {
            if inputs.is_empty() {
                continue;
            }
            let raw: f64 = inputs
                .iter()
                .map(|&(i, c)| f64::from(c) * th[i as usize])
                .sum();
            let d = raw.clamp(0.0, self.danger_max);
            let side = self.danger_side(k);
            mg += side * d * d / self.danger_divisor;
            eg += side * d / th[self.eg_divisor];
            danger[k] = (d, raw > 0.0 && raw < self.danger_max);
        }
        let rule = p.rules[if eg > 0.0 {
            0
        } else if eg < 0.0 {
            1
        } else {
            2
        }];
        let (fm, fe, knob) = self.factors(rule, th);
        let phase = f64::from(p.phase);
        let a = fm * phase / 24.0;
        let b = fe * (24.0 - phase) / 24.0;
        let parts = Parts {
            mg,
            eg,
            a,
            b,
            danger,
            knob,
        };
        (a * mg + b * eg, parts)
    }

    /// The score of `p` (centipawns, White's view) with the weights `th`.
    pub fn score(&self, data: &Dataset, p: &Position, th: &[f64]) -> f64 {
        self.parts(data, p, th).0
    }

    /// Adds `g` × ∂score/∂weight of `p` to `grad`.
    fn backprop(
        &self,
        data: &Dataset,
        p: &Position,
        th: &[f64],
        parts: &Parts,
        g: f64,
        grad: &mut [f64],
    ) {
        let [linear, white_danger, black_danger] = data.parts(p);
        let (ga, gb) = (g * parts.a, g * parts.b);
        for &(i, c) in linear {
            let i = i as usize;
            let c = f64::from(c) * self.factor[i];
            if let Role::Linear(_) = self.roles[i] {
                grad[i] += ga * c;
                grad[i + 1] += gb * c;
            } else {
                grad[i] += gb * c;
            }
        }
        let eg_divisor = th[self.eg_divisor];
        for (k, inputs) in [white_danger, black_danger].into_iter().enumerate() {
            let (d, moves) = parts.danger[k];
            let side = self.danger_side(k);
            if moves {
                let per_unit = side * (ga * 2.0 * d / self.danger_divisor + gb / eg_divisor);
                for &(i, c) in inputs {
                    grad[i as usize] += per_unit * f64::from(c);
                }
            }
            if d > 0.0 {
                grad[self.eg_divisor] -= gb * side * d / (eg_divisor * eg_divisor);
            }
        }
        if let Some((i, both)) = parts.knob {
            let phase = f64::from(p.phase);
            let mut d = parts.eg * (24.0 - phase) / 24.0;
            if both {
                d += parts.mg * phase / 24.0;
            }
            grad[i] += g * d / f64::from(SCALE_NORMAL);
        }
    }

    /// Mean squared error between `targets` and the expectation of the score of each of
    /// `positions` (of `data`) with the weights `th`, and (when `want_gradient`) its
    /// gradient, on `threads` threads.
    #[allow(clippy::too_many_arguments)]
    pub fn error(
        &self,
        data: &Dataset,
        positions: &[Position],
        targets: &[f32],
        th: &[f64],
        k: f64,
        threads: usize,
        want_gradient: bool,
    ) -> (f64, Vec<f64>) {
        let n = positions.len().max(1);
        let chunk = positions.len().div_ceil(threads.max(1)).max(1);
        let slope = k * std::f64::consts::LN_10 / 400.0;
        let results: Vec<(f64, Vec<f64>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = positions
                .chunks(chunk)
                .zip(targets.chunks(chunk))
                .map(|(positions, targets)| {
                    scope.spawn(move || {
                        let mut grad = vec![0.0; if want_gradient { th.len() } else { 0 }];
                        let mut sum = 0.0;
                        for (p, &t) in positions.iter().zip(targets) {
                            let (s, parts) = self.parts(data, p, th);
                            let e = sigmoid(k, s);
                            let diff = f64::from(t) - e;
                            sum += diff * diff;
                            if want_gradient {
                                let g = -2.0 * diff * e * (1.0 - e) * slope;
                                self.backprop(data, p, th, &parts, g, &mut grad);
                            }
                        }
                        (sum, grad)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a tuning worker panicked"))
                .collect()
        });
        let mut total = 0.0;
        let mut grad = vec![0.0; if want_gradient { th.len() } else { 0 }];
        for (sum, g) in results {
            total += sum;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
        }
        let scale = 1.0 / n as f64;
        grad.iter_mut().for_each(|g| *g *= scale);
        (total * scale, grad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiet::resolve;
    use crate::sources::Sample;
    use cozy_chess::{Board, Color};
    use engine::eval::{coefficients, Evaluator};

    const FENS: [&str; 10] = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r6k/6pp/8/6NQ/8/8/5PPP/6K1 w - - 0 1",
        "8/pp3k2/2p1b3/2P2p2/1P1B1P2/4K3/8/8 w - - 0 40",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        "8/8/3bk3/8/8/p1N5/4K3/8 b - - 0 1",
        "8/7p/4k3/8/8/2NN4/4K3/8 w - - 0 1",
        "8/8/4k3/3b4/8/8/4K3/R7 w - - 0 1",
    ];

    fn samples() -> Vec<Sample> {
        FENS.iter()
            .enumerate()
            .map(|(i, f)| Sample {
                board: Board::from_fen(f, false).expect("test FEN"),
                result: [1.0, 0.5, 0.0][i % 3],
                score: None,
            })
            .collect()
    }

    fn data(params: &EvalParams) -> Dataset {
        let mut d = Dataset::default();
        d.extend(&samples(), params, 1);
        d
    }

    #[test]
    fn the_model_scores_like_the_evaluation() {
        let params = EvalParams::default();
        let d = data(&params);
        let model = Model::new(&params);
        let th: Vec<f64> = params.to_flat().into_iter().map(f64::from).collect();
        let mut ev = Evaluator::new(params.clone());
        // The evaluation of each quiet position, White's view, in the set's order.
        let real: Vec<i32> = samples()
            .iter()
            .filter_map(|s| {
                let quiet = resolve(&mut ev, &s.board)?;
                coefficients(&quiet, &params)?;
                let v = ev.evaluate(&quiet);
                Some(if quiet.side_to_move() == Color::White {
                    v
                } else {
                    -v
                })
            })
            .collect();
        assert_eq!(real.len(), d.positions.len());
        assert!(real.len() >= 7);
        for (p, r) in d.positions.iter().zip(real) {
            let s = model.score(&d, p, &th);
            // The evaluation truncates its divisions; the model does not.
            assert!((s - f64::from(r)).abs() <= 4.0, "model {s}, evaluation {r}");
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let params = EvalParams::default();
        let d = data(&params);
        let model = Model::new(&params);
        let th: Vec<f64> = params.to_flat().into_iter().map(f64::from).collect();
        let targets: Vec<f32> = d.positions.iter().map(|p| p.result).collect();
        let k = 1.3;
        let all = &d.positions;
        let (_, grad) = model.error(&d, all, &targets, &th, k, 2, true);
        let mut checked = 0;
        for (i, role) in model.roles().iter().enumerate() {
            if *role == Role::Fixed {
                continue;
            }
            let h = 1e-3;
            let mut up = th.clone();
            up[i] += h;
            let mut down = th.clone();
            down[i] -= h;
            let numeric = (model.error(&d, all, &targets, &up, k, 1, false).0
                - model.error(&d, all, &targets, &down, k, 1, false).0)
                / (2.0 * h);
            let scale = numeric.abs().max(grad[i].abs()).max(1e-9);
            assert!(
                (numeric - grad[i]).abs() / scale < 1e-3 || (numeric - grad[i]).abs() < 1e-10,
                "weight {i} ({role:?}): analytic {} numeric {numeric}",
                grad[i]
            );
            if grad[i] != 0.0 {
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} weights with a gradient");
    }
}
