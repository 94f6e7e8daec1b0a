//! The trainer's floating-point network: the same shape as the engine's
//! (`engine/nnue/network.rs`), its forward pass, its gradient and its quantisation into
//! the engine's integer network.

use engine::nnue::{Network, HIDDEN, INPUTS, QA, QB};
use rand::rngs::StdRng;
use rand::Rng;

/// Offsets of the parameter blocks in [`FloatNet::params`].
pub const W1: usize = 0;
pub const B1: usize = INPUTS * HIDDEN;
pub const W2: usize = B1 + HIDDEN;
pub const B2: usize = W2 + 2 * HIDDEN;
/// Number of parameters.
pub const PARAMS: usize = B2 + 1;

/// Largest feature weight or bias: 32 pieces and the bias at this size stay inside an
/// `i16` once scaled by `QA`.
pub const W1_LIMIT: f32 = 1.98;
/// Largest output weight (inside an `i16` once scaled by `QB`).
pub const W2_LIMIT: f32 = 16.0;

/// One training position's inputs: the active features from the side to move's
/// perspective and from the other side's, and the target in 0..=1.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub us: [u16; 32],
    pub them: [u16; 32],
    pub n: u8,
    pub target: f32,
}

/// The parameters, one flat vector: feature weights (input-major), feature biases,
/// output weights (side to move's units first), output bias.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub params: Vec<f32>,
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The hidden sums of one perspective.
#[inline]
fn hidden(p: &[f32], features: &[u16]) -> [f32; HIDDEN] {
    let mut h = [0f32; HIDDEN];
    h.copy_from_slice(&p[B1..B1 + HIDDEN]);
    for &f in features {
        let row = &p[W1 + f as usize * HIDDEN..W1 + (f as usize + 1) * HIDDEN];
        for (a, w) in h.iter_mut().zip(row) {
            *a += w;
        }
    }
    h
}

impl FloatNet {
    /// Small random weights.
    pub fn random(rng: &mut StdRng) -> FloatNet {
        let mut params = vec![0f32; PARAMS];
        for w in &mut params[W1..B1] {
            *w = rng.gen_range(-0.1..0.1);
        }
        for w in &mut params[B1..W2] {
            *w = 0.1;
        }
        for w in &mut params[W2..B2] {
            *w = rng.gen_range(-0.06..0.06);
        }
        FloatNet { params }
    }

    /// The output (before the sigmoid; times `SCALE` it is centipawns).
    #[allow(clippy::needless_range_loop)]
    pub fn forward(&self, s: &Sample) -> f32 {
        let n = s.n as usize;
        let p = &self.params;
        let hu = hidden(p, &s.us[..n]);
        let ht = hidden(p, &s.them[..n]);
        let mut out = p[B2];
        for j in 0..HIDDEN {
            out += hu[j].clamp(0.0, 1.0) * p[W2 + j] + ht[j].clamp(0.0, 1.0) * p[W2 + HIDDEN + j];
        }
        out
    }

    /// Adds the gradient of the squared error (sigmoid space) of `s` to `grad`; returns
    /// the error.
    #[allow(clippy::needless_range_loop)]
    pub fn backward(&self, s: &Sample, grad: &mut [f32]) -> f32 {
        let n = s.n as usize;
        let p = &self.params;
        let hu = hidden(p, &s.us[..n]);
        let ht = hidden(p, &s.them[..n]);
        let mut out = p[B2];
        for j in 0..HIDDEN {
            out += hu[j].clamp(0.0, 1.0) * p[W2 + j] + ht[j].clamp(0.0, 1.0) * p[W2 + HIDDEN + j];
        }
        let y = sigmoid(out);
        let e = y - s.target;
        let g = 2.0 * e * y * (1.0 - y);
        grad[B2] += g;
        let mut du = [0f32; HIDDEN];
        let mut dt = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            grad[W2 + j] += g * hu[j].clamp(0.0, 1.0);
            grad[W2 + HIDDEN + j] += g * ht[j].clamp(0.0, 1.0);
            if hu[j] > 0.0 && hu[j] < 1.0 {
                du[j] = g * p[W2 + j];
            }
            if ht[j] > 0.0 && ht[j] < 1.0 {
                dt[j] = g * p[W2 + HIDDEN + j];
            }
            grad[B1 + j] += du[j] + dt[j];
        }
        for (features, d) in [(&s.us[..n], &du), (&s.them[..n], &dt)] {
            for &f in features {
                let row = &mut grad[W1 + f as usize * HIDDEN..W1 + (f as usize + 1) * HIDDEN];
                for (gw, dj) in row.iter_mut().zip(d.iter()) {
                    *gw += dj;
                }
            }
        }
        e * e
    }

    /// Keeps the weights inside what the integer network can hold.
    pub fn clip(&mut self) {
        for w in &mut self.params[W1..W2] {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for w in &mut self.params[W2..B2] {
            *w = w.clamp(-W2_LIMIT, W2_LIMIT);
        }
    }

    /// The engine's integer network.
    #[allow(clippy::needless_range_loop)]
    pub fn quantise(&self) -> Network {
        let p = &self.params;
        let q16 = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut net = Network::zeroed();
        for (i, row) in net.feature_weights.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = q16(p[W1 + i * HIDDEN + j], QA);
            }
        }
        for j in 0..HIDDEN {
            net.feature_bias[j] = q16(p[B1 + j], QA);
        }
        for j in 0..2 * HIDDEN {
            net.output_weights[j] = q16(p[W2 + j], QB);
        }
        net.output_bias = (p[B2] * (QA * QB) as f32).round() as i32;
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn sample(rng: &mut StdRng) -> Sample {
        let mut s = Sample {
            us: [0; 32],
            them: [0; 32],
            n: 20,
            target: rng.gen_range(0.0..1.0),
        };
        for i in 0..20 {
            s.us[i] = rng.gen_range(0..INPUTS as u16);
            s.them[i] = rng.gen_range(0..INPUTS as u16);
        }
        s
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let mut rng = StdRng::seed_from_u64(5);
        let net = FloatNet::random(&mut rng);
        let s = sample(&mut rng);
        let mut grad = vec![0f32; PARAMS];
        net.backward(&s, &mut grad);
        let loss = |n: &FloatNet| (sigmoid(n.forward(&s)) - s.target).powi(2);
        let mut checked = 0;
        for &i in &[
            W1 + s.us[0] as usize * HIDDEN + 3,
            W1 + s.them[1] as usize * HIDDEN + 7,
            B1 + 5,
            W2 + 2,
            W2 + HIDDEN + 9,
            B2,
        ] {
            let h = 1e-2;
            let mut a = net.clone();
            a.params[i] += h;
            let mut b = net.clone();
            b.params[i] -= h;
            let numeric = (loss(&a) - loss(&b)) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() < 1e-3 + 0.05 * numeric.abs(),
                "param {i}: numeric {numeric}, backward {}",
                grad[i]
            );
            checked += 1;
        }
        assert_eq!(checked, 6);
    }
}
