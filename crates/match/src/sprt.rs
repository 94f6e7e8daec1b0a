//! The generalized sequential probability ratio test (GSPRT) as fishtest runs it: the
//! log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0), each hypothesis
//! taken at its maximum-likelihood distribution given the observed results, computed
//! over pentanomial game-pair counts (or trinomial counts when games are not paired).
//!
//! Two ways to state the bounds:
//! - `logistic` (the default): elo0/elo1 are ordinary Elo, the hypotheses fix the
//!   expected score s = 1/(1 + 10^(−elo/400)); the MLE under a fixed mean comes from the
//!   secular equation Σ pᵢ(aᵢ − s)/(1 + x(aᵢ − s)) = 0, qᵢ = pᵢ/(1 + x(aᵢ − s));
//! - `normalized`: elo0/elo1 are normalized Elo, the hypotheses fix the t-value
//!   (μ − ½)/σ = nElo/(800/ln 10) (times √2 for pentanomial counts); the MLE under a
//!   fixed t-value is found by the same secular equation iterated to a fixed point.
//!
//! LLR = N·Σ pᵢ ln(q1ᵢ/q0ᵢ); the test stops below ln(β/(1−α)) (H0 accepted) or above
//! ln((1−β)/α) (H1 accepted).

use super::stats::{mean_var, results_to_pdf, score_from_elo, NELO_PER_T};

/// How elo0 and elo1 are meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    Logistic,
    Normalized,
}

/// `-sprt elo0=.. elo1=.. alpha=.. beta=.. model=..`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

/// Where the test ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// LLR fell below the lower bound: the change is not elo1 better (H0 accepted).
    H0,
    /// LLR rose above the upper bound: the change is elo1 better (H1 accepted).
    H1,
}

impl Default for SprtSpec {
    fn default() -> Self {
        SprtSpec {
            elo0: 0.0,
            elo1: 4.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        }
    }
}

impl SprtSpec {
    /// Checks the parameters make a test.
    pub fn validate(&self) -> Result<(), String> {
        if self.elo1 <= self.elo0 || self.elo1.is_nan() || self.elo0.is_nan() {
            return Err(format!(
                "sprt needs elo1 > elo0 (got {} and {})",
                self.elo1, self.elo0
            ));
        }
        for (n, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("sprt {n}={v} must be between 0 and 0.5"));
            }
        }
        Ok(())
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR for trinomial (L, D, W) or pentanomial (LL .. WW) counts.
    pub fn llr(&self, counts: &[u32]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let (n, pdf) = results_to_pdf(counts);
        let (q0, q1) = match self.model {
            EloModel::Logistic => (
                mle_expected(&pdf, score_from_elo(self.elo0)),
                mle_expected(&pdf, score_from_elo(self.elo1)),
            ),
            EloModel::Normalized => {
                let k = if counts.len() == 5 {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                (
                    mle_t_value(&pdf, 0.5, self.elo0 / NELO_PER_T * k),
                    mle_t_value(&pdf, 0.5, self.elo1 / NELO_PER_T * k),
                )
            }
        };
        match (q0, q1) {
            (Some(q0), Some(q1)) => {
                n * pdf
                    .iter()
                    .zip(q0.iter().zip(&q1))
                    .map(|((_, p), (a, b))| p * (b.1.ln() - a.1.ln()))
                    .sum::<f64>()
            }
            _ => 0.0,
        }
    }

    /// The decision for an LLR, if a bound is crossed.
    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (lo, hi) = self.bounds();
        if llr <= lo {
            Some(Decision::H0)
        } else if llr >= hi {
            Some(Decision::H1)
        } else {
            None
        }
    }
}

/// Solves Σ pᵢaᵢ/(1 + x·aᵢ) = 0 for x, between the poles −1/max(a) and −1/min(a); the
/// values must straddle zero. The function falls monotonically, so bisection is exact
/// to the last bit.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let v = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let w = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    if !(v < 0.0 && w > 0.0) {
        return None;
    }
    let f = |x: f64| pdf.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / w + eps, -1.0 / v - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The distribution closest (in likelihood) to `pdf` whose mean is `s`.
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Option<Vec<(f64, f64)>> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted)?;
    Some(
        pdf.iter()
            .map(|&(a, p)| (a, p / (1.0 + x * (a - s))))
            .collect(),
    )
}

/// The distribution closest (in likelihood) to `pdf` whose t-value (μ − r)/σ is `t`.
fn mle_t_value(pdf: &[(f64, f64)], r: f64, t: f64) -> Option<Vec<(f64, f64)>> {
    let n = pdf.len() as f64;
    let mut q: Vec<(f64, f64)> = pdf.iter().map(|&(a, _)| (a, 1.0 / n)).collect();
    for _ in 0..10 {
        let (mu, var) = mean_var(&q);
        let sigma = var.sqrt();
        let shifted: Vec<(f64, f64)> = pdf
            .iter()
            .map(|&(a, p)| {
                (
                    a - r - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0,
                    p,
                )
            })
            .collect();
        let x = secular(&shifted)?;
        let next: Vec<(f64, f64)> = pdf
            .iter()
            .zip(&shifted)
            .map(|(&(a, p), &(b, _))| (a, p / (1.0 + x * b)))
            .collect();
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a.1 - b.1).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-9 {
            break;
        }
    }
    Some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(elo0: f64, elo1: f64, model: EloModel) -> SprtSpec {
        SprtSpec {
            elo0,
            elo1,
            model,
            ..SprtSpec::default()
        }
    }

    #[test]
    fn bounds_for_five_percent() {
        let (lo, hi) = SprtSpec::default().bounds();
        assert!((lo + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((hi - 2.944_438_979_166_44).abs() < 1e-12);
    }

    /// LLRs printed by fastchess (normalized bounds) next to their pentanomial counts.
    #[test]
    fn normalized_matches_published_reports() {
        let s = spec(0.0, 5.0, EloModel::Normalized);
        let llr = s.llr(&[307, 619, 1202, 725, 353]);
        assert!((llr - 2.95).abs() < 0.005, "{llr}");
        assert_eq!(s.decide(llr), Some(Decision::H1));
        let llr = spec(0.0, 1.0, EloModel::Normalized).llr(&[84, 124, 343, 125, 164]);
        assert!((llr - 0.54).abs() < 0.005, "{llr}");
    }

    /// Reference values: the published fishtest formulas evaluated independently (plain
    /// bisection in double precision), to four decimals.
    #[test]
    fn logistic_reference_values() {
        let cases: [(&[u32], f64, f64, f64); 4] = [
            (&[307, 619, 1202, 725, 353], 0.0, 5.0, 3.5160),
            (&[84, 124, 343, 125, 164], 0.0, 1.0, 0.6245),
            (&[10789, 19328, 33806, 19402, 10543], -3.0, 1.0, 2.1311),
            (&[39, 2226, 31451, 2412, 40], 0.2, 0.9, 2.1625),
        ];
        for (counts, e0, e1, want) in cases {
            let llr = spec(e0, e1, EloModel::Logistic).llr(counts);
            assert!((llr - want).abs() < 5e-4, "{counts:?}: {llr}");
        }
        // Trinomial counts (L, D, W).
        let llr = spec(-3.0, 1.0, EloModel::Logistic).llr(&[65804, 56553, 65388]);
        assert!((llr - 2.0490).abs() < 5e-4, "{llr}");
    }

    /// fishtest converts logistic bounds [0.2, 0.9] to normalized ones [0.764, 3.439]
    /// for a test with these counts; both must give nearly the same LLR.
    #[test]
    fn logistic_and_normalized_agree_on_equivalent_bounds() {
        let counts = [39, 2226, 31451, 2412, 40];
        let a = spec(0.2, 0.9, EloModel::Logistic).llr(&counts);
        let b = spec(0.764, 3.439, EloModel::Normalized).llr(&counts);
        assert!((a - b).abs() < 0.01, "{a} {b}");
    }

    #[test]
    fn llr_sign_follows_the_results() {
        let s = SprtSpec::default();
        assert_eq!(s.llr(&[0, 0, 0, 0, 0]), 0.0);
        // Much better than elo1: positive; much worse than elo0: negative.
        assert!(s.llr(&[15, 60, 150, 120, 90]) > 3.0);
        assert!(s.llr(&[90, 120, 150, 60, 15]) < -3.0);
        assert_eq!(s.decide(-3.0), Some(Decision::H0));
        assert_eq!(s.decide(0.0), None);
        assert!(spec(5.0, 0.0, EloModel::Logistic).validate().is_err());
        assert!(SprtSpec { alpha: 0.7, ..s }.validate().is_err());
    }
}
