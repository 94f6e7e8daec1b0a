//! The trainer's floating-point network: the same shapes as the engine's
//! (`engine/nnue/network.rs`: any hidden size, clipped or squared clipped ReLU, output
//! buckets by piece count), its forward pass, its gradient and its quantisation into the
//! engine's integer network.

use engine::nnue::features::{feature_index, output_bucket};
use engine::nnue::{Activation, Arch, Network, INPUTS, MAX_HIDDEN, QA, QB};
use rand::rngs::StdRng;
use rand::Rng;

/// Largest feature weight or bias: 32 pieces and the bias at this size stay inside an
/// `i16` once scaled by `QA`.
pub const W1_LIMIT: f32 = 1.98;

/// Largest output weight for an activation: inside an `i16` once scaled by `QB`, and for
/// squared clipped ReLU small enough that `QA * w * QB` fits an `i16` (the engine's
/// 16-bit multiply, `engine/nnue/kernels.rs`).
pub fn w2_limit(act: Activation) -> f32 {
    match act {
        Activation::CRelu => 16.0,
        Activation::SCRelu => 127.0 / QB as f32,
    }
}

/// One training position, packed: the board, the side to move and the target in 0..=1.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub occupied: u64,
    /// One nibble per occupied square in ascending order: colour << 3 | piece.
    pub pieces: [u8; 16],
    pub black_to_move: bool,
    pub target: f32,
}

/// A sample's active inputs from both perspectives and its output bucket.
pub struct Inputs {
    pub us: [u16; 32],
    pub them: [u16; 32],
    pub n: usize,
    pub pieces: u32,
}

impl Sample {
    /// The active inputs (the side to move's perspective first); with `mirror` the board
    /// flipped left to right (files a and h swapped), the same position for the network,
    /// which sees no castling rights.
    #[inline]
    pub fn inputs(&self, mirror: bool) -> Inputs {
        let flip = if mirror { 7 } else { 0 };
        let stm = usize::from(self.black_to_move);
        let mut x = Inputs {
            us: [0; 32],
            them: [0; 32],
            n: 0,
            pieces: self.occupied.count_ones(),
        };
        let mut occ = self.occupied;
        while occ != 0 && x.n < 32 {
            let sq = occ.trailing_zeros() as usize ^ flip;
            occ &= occ - 1;
            let code = (self.pieces[x.n / 2] >> (4 * (x.n % 2))) & 15;
            let (c, p) = (usize::from(code >> 3), usize::from(code & 7).min(5));
            x.us[x.n] = feature_index(stm, c, p, sq) as u16;
            x.them[x.n] = feature_index(1 - stm, c, p, sq) as u16;
            x.n += 1;
        }
        x
    }
}

/// The parameters, one flat vector: feature weights (input-major), feature biases,
/// output weights (per bucket: side to move's units first), output biases.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub arch: Arch,
    pub params: Vec<f32>,
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Offsets of the parameter blocks.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub h: usize,
    pub b1: usize,
    pub w2: usize,
    pub b2: usize,
    pub len: usize,
}

impl Layout {
    pub fn of(a: &Arch) -> Layout {
        let h = a.hidden;
        let b1 = INPUTS * h;
        let w2 = b1 + h;
        let b2 = w2 + a.buckets * 2 * h;
        Layout {
            h,
            b1,
            w2,
            b2,
            len: b2 + a.buckets,
        }
    }
}

/// Hidden sums of one perspective into `out[..h]`.
#[inline]
fn hidden(p: &[f32], l: &Layout, features: &[u16], out: &mut [f32; MAX_HIDDEN]) {
    let h = l.h;
    out[..h].copy_from_slice(&p[l.b1..l.b1 + h]);
    for &f in features {
        let row = &p[f as usize * h..(f as usize + 1) * h];
        for (a, w) in out[..h].iter_mut().zip(row) {
            *a += w;
        }
    }
}

/// The activation and its slope.
#[inline]
fn activate(act: Activation, x: f32) -> (f32, f32) {
    let inside = x > 0.0 && x < 1.0;
    let c = x.clamp(0.0, 1.0);
    match act {
        Activation::CRelu => (c, if inside { 1.0 } else { 0.0 }),
        Activation::SCRelu => (c * c, if inside { 2.0 * c } else { 0.0 }),
    }
}

/// A thread's scratch for forward and backward passes.
pub struct Scratch {
    hu: [f32; MAX_HIDDEN],
    ht: [f32; MAX_HIDDEN],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            hu: [0.0; MAX_HIDDEN],
            ht: [0.0; MAX_HIDDEN],
        }
    }
}

impl FloatNet {
    /// Small random weights.
    pub fn random(arch: Arch, rng: &mut StdRng) -> FloatNet {
        let l = Layout::of(&arch);
        let mut params = vec![0f32; l.len];
        // Inputs are sparse (about 30 of 768 active): weights of this size put the
        // hidden sums mostly inside the activation's slope.
        for w in &mut params[..l.b1] {
            *w = rng.gen_range(-0.1..0.1);
        }
        for w in &mut params[l.b1..l.w2] {
            *w = 0.1;
        }
        let bound = (1.0 / (2.0 * l.h as f32)).sqrt();
        for w in &mut params[l.w2..l.b2] {
            *w = rng.gen_range(-bound..bound);
        }
        FloatNet { arch, params }
    }

    pub fn layout(&self) -> Layout {
        Layout::of(&self.arch)
    }

    /// The output (before the sigmoid; times `SCALE` it is centipawns).
    pub fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        let x = s.inputs(false);
        self.forward_inputs(&x, scratch)
    }

    fn forward_inputs(&self, x: &Inputs, sc: &mut Scratch) -> f32 {
        let l = self.layout();
        let p = &self.params;
        hidden(p, &l, &x.us[..x.n], &mut sc.hu);
        hidden(p, &l, &x.them[..x.n], &mut sc.ht);
        let b = output_bucket(x.pieces, self.arch.buckets);
        let w = &p[l.w2 + b * 2 * l.h..l.w2 + (b + 1) * 2 * l.h];
        let act = self.arch.activation;
        let mut out = p[l.b2 + b];
        for j in 0..l.h {
            out += activate(act, sc.hu[j]).0 * w[j] + activate(act, sc.ht[j]).0 * w[l.h + j];
        }
        out
    }

    /// Adds the gradient of the squared error (sigmoid space, the output times `k`
    /// through the sigmoid) of `s` (mirrored left to right with `mirror`) to `grad`;
    /// returns the error.
    pub fn backward(
        &self,
        s: &Sample,
        mirror: bool,
        k: f32,
        grad: &mut [f32],
        sc: &mut Scratch,
    ) -> f32 {
        let x = s.inputs(mirror);
        let out = self.forward_inputs(&x, sc);
        let l = self.layout();
        let p = &self.params;
        let act = self.arch.activation;
        let y = sigmoid(out * k);
        let e = y - s.target;
        let g = 2.0 * e * y * (1.0 - y) * k;
        let b = output_bucket(x.pieces, self.arch.buckets);
        let w2 = l.w2 + b * 2 * l.h;
        grad[l.b2 + b] += g;
        // The hidden sums become their gradients in place.
        for j in 0..l.h {
            let (fu, du) = activate(act, sc.hu[j]);
            let (ft, dt) = activate(act, sc.ht[j]);
            grad[w2 + j] += g * fu;
            grad[w2 + l.h + j] += g * ft;
            sc.hu[j] = g * p[w2 + j] * du;
            sc.ht[j] = g * p[w2 + l.h + j] * dt;
            grad[l.b1 + j] += sc.hu[j] + sc.ht[j];
        }
        for (features, d) in [(&x.us[..x.n], &sc.hu), (&x.them[..x.n], &sc.ht)] {
            for &f in features {
                let row = &mut grad[f as usize * l.h..(f as usize + 1) * l.h];
                for (gw, dj) in row.iter_mut().zip(&d[..l.h]) {
                    *gw += dj;
                }
            }
        }
        e * e
    }

    /// Keeps the weights inside what the integer network can hold.
    pub fn clip(&mut self) {
        let l = self.layout();
        let w2 = w2_limit(self.arch.activation);
        for w in &mut self.params[..l.w2] {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for w in &mut self.params[l.w2..l.b2] {
            *w = w.clamp(-w2, w2);
        }
    }

    /// True when every parameter is a finite number.
    pub fn is_finite(&self) -> bool {
        self.params.iter().all(|w| w.is_finite())
    }

    /// The engine's integer network.
    pub fn quantise(&self) -> Network {
        let l = self.layout();
        let p = &self.params;
        let q16 = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut net = Network::zeroed(self.arch);
        for (w, x) in net.feature_weights.iter_mut().zip(&p[..l.b1]) {
            *w = q16(*x, QA);
        }
        for (w, x) in net.feature_bias.iter_mut().zip(&p[l.b1..l.w2]) {
            *w = q16(*x, QA);
        }
        for (w, x) in net.output_weights.iter_mut().zip(&p[l.w2..l.b2]) {
            *w = q16(*x, QB);
        }
        for (w, x) in net.output_bias.iter_mut().zip(&p[l.b2..]) {
            *w = (x * (QA * QB) as f32).round() as i32;
        }
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn sample(rng: &mut StdRng) -> Sample {
        // A real position's packing: 20 random squares with random non-king pieces.
        let mut occupied = 0u64;
        while occupied.count_ones() < 20 {
            occupied |= 1 << rng.gen_range(0..64);
        }
        let mut pieces = [0u8; 16];
        for i in 0..20 {
            let code = (rng.gen_range(0..2) << 3) | rng.gen_range(0..5);
            pieces[i / 2] |= code << (4 * (i % 2));
        }
        Sample {
            occupied,
            pieces,
            black_to_move: rng.gen_bool(0.5),
            target: rng.gen_range(0.0..1.0),
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for activation in [Activation::CRelu, Activation::SCRelu] {
            let arch = Arch {
                hidden: 32,
                activation,
                buckets: 4,
            };
            let mut rng = StdRng::seed_from_u64(5);
            let net = FloatNet::random(arch, &mut rng);
            let s = sample(&mut rng);
            let l = net.layout();
            let mut grad = vec![0f32; l.len];
            let mut sc = Scratch::default();
            // The loss's sigmoid at a scale other than the output's (k != 1).
            let k = 2.5;
            net.backward(&s, false, k, &mut grad, &mut sc);
            let loss = |n: &FloatNet| {
                (sigmoid(k * n.forward(&s, &mut Scratch::default())) - s.target).powi(2)
            };
            let x = s.inputs(false);
            let b = output_bucket(x.pieces, 4);
            let mut checked = 0;
            for &i in &[
                x.us[0] as usize * l.h + 3,
                x.them[1] as usize * l.h + 7,
                l.b1 + 5,
                l.w2 + b * 2 * l.h + 2,
                l.w2 + b * 2 * l.h + l.h + 9,
                l.b2 + b,
            ] {
                let h = 1e-2;
                let mut a = net.clone();
                a.params[i] += h;
                let mut c = net.clone();
                c.params[i] -= h;
                let numeric = (loss(&a) - loss(&c)) / (2.0 * h);
                assert!(
                    (numeric - grad[i]).abs() < 1e-3 + 0.05 * numeric.abs(),
                    "{activation:?} param {i}: numeric {numeric}, backward {}",
                    grad[i]
                );
                checked += 1;
            }
            assert_eq!(checked, 6);
        }
    }
}
