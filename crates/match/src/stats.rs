//! Match statistics from one side's point of view: win/draw/loss and pentanomial counts
//! ([`Tally`]), and from them the score, Elo with its 95% error, normalized Elo, LOS and
//! the draw ratio ([`Estimate`]).
//!
//! The formulas are the published ones (as fishtest and fastchess use them):
//! - results are a distribution over the scores of a game (0, ½, 1: trinomial) or of a
//!   game pair averaged per game (0, ¼, ½, ¾, 1: pentanomial, LL LD DD/WL WD WW); zero
//!   counts are replaced by 0.001 so that every estimate stays finite;
//! - score μ = the mean, σ² = the variance of one sample, error of μ = σ/√N (N samples);
//! - Elo = −400·log10(1/μ − 1) (the logistic model); the 95% error is half the Elo
//!   width of μ ± 1.959964·σ/√N;
//! - LOS = Φ((μ − ½)/(σ/√N)), the normal approximation;
//! - normalized Elo = (μ − ½)/σ_game · 800/ln 10 with σ_game = σ (trinomial) or √2·σ
//!   (pentanomial), and its 95% error 1.959964 · 800/ln 10 / √games.
//!
//! The pentanomial model counts pairs of games with the same opening and colours
//! reversed, which removes the opening's bias from the variance; it is used whenever
//! the match plays game pairs (`-repeat`).

use std::f64::consts::{LN_10, SQRT_2};

/// The 97.5% quantile of the standard normal distribution (two-sided 95%).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value: 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// What a zero count is replaced by.
const REGULARIZE: f64 = 1e-3;

/// The standard normal distribution function Φ.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / SQRT_2)
}

/// The logistic Elo difference for an expected score (clamped to 0.001..0.999).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Results from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Game pairs by points: LL, LD, DD + WL, WD, WW.
    pub penta: [u32; 5],
    /// The two kinds of one-point pairs, split.
    pub dd: u32,
    pub wl: u32,
}

impl Tally {
    /// Adds a game worth `half` half points (2 win, 1 draw, 0 loss).
    pub fn add_game(&mut self, half: u32) {
        match half {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Adds a completed game pair (its two games' half points).
    pub fn add_pair(&mut self, a: u32, b: u32) {
        let sum = (a + b).min(4) as usize;
        self.penta[sum] += 1;
        if sum == 2 {
            if a == 1 {
                self.dd += 1;
            } else {
                self.wl += 1;
            }
        }
    }

    /// The same results from the other side.
    pub fn reversed(&self) -> Tally {
        let mut p = self.penta;
        p.reverse();
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            penta: p,
            dd: self.dd,
            wl: self.wl,
        }
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, o: &Tally) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        for (a, b) in self.penta.iter_mut().zip(o.penta) {
            *a += b;
        }
        self.dd += o.dd;
        self.wl += o.wl;
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u32 {
        self.penta.iter().sum()
    }

    /// Points scored (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Draws per game.
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// Loss, draw and win counts (the trinomial distribution's order).
    pub fn trinomial(&self) -> [u32; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// The estimate from the pentanomial counts when `paired` and there is a pair,
    /// otherwise from the trinomial counts; `None` before the first game.
    pub fn estimate(&self, paired: bool) -> Option<Estimate> {
        if paired && self.pairs() > 0 {
            Estimate::from_counts(&self.penta)
        } else {
            Estimate::from_counts(&self.trinomial())
        }
    }
}

/// What a set of results says about the strength difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Expected score per game.
    pub score: f64,
    pub elo: f64,
    /// Half the 95% confidence interval, in Elo.
    pub elo_error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    /// Likelihood of superiority (0..1).
    pub los: f64,
}

/// A results distribution: each value (score per game) with its frequency, and the
/// number of samples; zero counts regularized.
pub fn results_to_pdf(counts: &[u32]) -> (f64, Vec<(f64, f64)>) {
    let regular: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
        .collect();
    let n: f64 = regular.iter().sum();
    let last = (counts.len() - 1) as f64;
    let pdf = regular
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / last, c / n))
        .collect();
    (n, pdf)
}

/// Mean and variance of a distribution.
pub fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var = pdf.iter().map(|(a, p)| p * (a - mu).powi(2)).sum();
    (mu, var)
}

impl Estimate {
    /// From trinomial (L, D, W) or pentanomial (LL .. WW) counts; `None` when empty.
    pub fn from_counts(counts: &[u32]) -> Option<Estimate> {
        if counts.iter().all(|&c| c == 0) || !(counts.len() == 3 || counts.len() == 5) {
            return None;
        }
        let (n, pdf) = results_to_pdf(counts);
        let (mu, var) = mean_var(&pdf);
        let se = (var / n).sqrt();
        let (elo_lo, elo_hi) = (elo_from_score(mu - Z95 * se), elo_from_score(mu + Z95 * se));
        let (sigma_game, games) = if counts.len() == 5 {
            ((2.0 * var).sqrt(), 2.0 * n)
        } else {
            (var.sqrt(), n)
        };
        Some(Estimate {
            score: mu,
            elo: elo_from_score(mu),
            elo_error: (elo_hi - elo_lo) / 2.0,
            nelo: (mu - 0.5) / sigma_game * NELO_PER_T,
            nelo_error: Z95 * NELO_PER_T / games.sqrt(),
            los: normal_cdf((mu - 0.5) / se),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_normal_by_hand() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 0.75 = 1/(1 + 10^(-d/400)) => d = 400·log10(3) = 190.848...
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_864_9), 0.75, 1e-12));
        assert!(close(normal_cdf(0.0), 0.5, 1e-15));
        assert!(close(normal_cdf(Z95), 0.975, 1e-12));
        assert!(close(normal_cdf(-1.0), 0.158_655_253_931_457_05, 1e-12));
    }

    #[test]
    fn trinomial_by_hand() {
        // 10 wins, 10 losses, 20 draws: score ½, variance (10·¼ + 10·¼)/40 = 1/8.
        let e = Estimate::from_counts(&[10, 20, 10]).unwrap();
        assert!(close(e.score, 0.5, 1e-12));
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.los, 0.5, 1e-12));
        let se = (0.125f64 / 40.0).sqrt();
        let want = (elo_from_score(0.5 + Z95 * se) - elo_from_score(0.5 - Z95 * se)) / 2.0;
        assert!(close(e.elo_error, want, 1e-9));
        assert!(close(e.nelo_error, Z95 * NELO_PER_T / 40f64.sqrt(), 1e-9));
        // 30 wins, 20 losses (the zero draw count becomes 0.001): μ ≈ 0.6, σ² ≈ 0.24.
        let e = Estimate::from_counts(&[20, 0, 30]).unwrap();
        assert!(close(e.score, 0.6, 1e-5));
        assert!(close(
            e.los,
            normal_cdf(0.1 / (0.24f64 / 50.0).sqrt()),
            1e-4
        ));
    }

    /// Results published by fastchess (pentanomial Elo, nElo and LOS).
    #[test]
    fn pentanomial_matches_published_reports() {
        // (ptnml, elo, ±, nelo, ±, los %)
        let cases: [([u32; 5], f64, f64, f64, f64, f64); 4] = [
            ([12, 6, 25, 8, 9], -11.59, 56.66, -12.83, 62.16, 34.29),
            ([11, 1, 32, 8, 48], 149.26, 55.24, 148.57, 48.15, 100.0),
            ([84, 124, 343, 125, 164], 33.40, 14.24, 39.23, 16.61, 100.0),
            ([307, 619, 1202, 725, 353], 10.73, 6.70, 13.63, 8.50, 99.92),
        ];
        for (p, elo, err, nelo, nerr, los) in cases {
            let e = Estimate::from_counts(&p).unwrap();
            assert!(close(e.elo, elo, 0.005), "{p:?} elo {}", e.elo);
            assert!(close(e.elo_error, err, 0.005), "{p:?} err {}", e.elo_error);
            assert!(close(e.nelo, nelo, 0.005), "{p:?} nelo {}", e.nelo);
            assert!(
                close(e.nelo_error, nerr, 0.005),
                "{p:?} nerr {}",
                e.nelo_error
            );
            assert!(close(e.los * 100.0, los, 0.005), "{p:?} los {}", e.los);
        }
    }

    #[test]
    fn tally_pairs_and_reversal() {
        let mut t = Tally::default();
        for (a, b) in [(2, 0), (1, 1), (2, 1), (0, 0)] {
            t.add_game(a);
            t.add_game(b);
            t.add_pair(a, b);
        }
        assert_eq!((t.wins, t.draws, t.losses), (2, 3, 3));
        assert_eq!(t.penta, [1, 0, 2, 1, 0]);
        assert_eq!((t.dd, t.wl), (1, 1));
        assert_eq!(t.points(), 3.5);
        let r = t.reversed();
        assert_eq!((r.wins, r.losses), (3, 2));
        assert_eq!(r.penta, [0, 1, 2, 0, 1]);
        let e = t.estimate(true).unwrap();
        let f = r.estimate(true).unwrap();
        assert!(close(e.elo, -f.elo, 1e-9));
        assert!(close(e.los + f.los, 1.0, 1e-9));
        assert!(Tally::default().estimate(true).is_none());
    }
}
