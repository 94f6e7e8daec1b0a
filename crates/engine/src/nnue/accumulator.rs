//! The hidden layer's sums (one vector per perspective) and the output layer over them,
//! through the loops of `kernels.rs`.

use super::features::{feature_index, output_bucket};
use super::kernels::{self, Path};
use super::network::{Activation, Network, MAX_HIDDEN, QA, QB, SCALE};
use cozy_chess::{Board, Color, Piece};

/// The hidden-layer sums, white's perspective first; only the network's first `hidden`
/// units of each are used.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; MAX_HIDDEN]; 2],
}

/// The 12 piece bitboards of `board`, index colour * 6 + piece.
#[inline]
pub fn piece_sets(board: &Board) -> [u64; 12] {
    let mut out = [0u64; 12];
    for (c, &color) in Color::ALL.iter().enumerate() {
        let us = board.colors(color);
        for (p, &piece) in Piece::ALL.iter().enumerate() {
            out[c * 6 + p] = (us & board.pieces(piece)).0;
        }
    }
    out
}

/// The pieces that differ between two positions, as (colour, piece, square): those
/// gone and those new. At most 32 of each.
struct Changes {
    gone: [(u8, u8, u8); 32],
    new: [(u8, u8, u8); 32],
    n_gone: usize,
    n_new: usize,
}

impl Changes {
    #[inline]
    fn between(from: &[u64; 12], to: &[u64; 12]) -> Changes {
        let mut c = Changes {
            gone: [(0, 0, 0); 32],
            new: [(0, 0, 0); 32],
            n_gone: 0,
            n_new: 0,
        };
        for (i, (&f, &t)) in from.iter().zip(to).enumerate() {
            let (color, piece) = ((i / 6) as u8, (i % 6) as u8);
            let mut gone = f & !t;
            while gone != 0 && c.n_gone < 32 {
                c.gone[c.n_gone] = (color, piece, gone.trailing_zeros() as u8);
                c.n_gone += 1;
                gone &= gone - 1;
            }
            let mut new = t & !f;
            while new != 0 && c.n_new < 32 {
                c.new[c.n_new] = (color, piece, new.trailing_zeros() as u8);
                c.n_new += 1;
                new &= new - 1;
            }
        }
        c
    }

    /// The rows to add and to remove for `perspective`.
    #[inline]
    fn rows(&self, perspective: usize, adds: &mut [usize; 32], subs: &mut [usize; 32]) {
        for (k, &(c, p, sq)) in self.new[..self.n_new].iter().enumerate() {
            adds[k] = feature_index(perspective, c.into(), p.into(), sq.into());
        }
        for (k, &(c, p, sq)) in self.gone[..self.n_gone].iter().enumerate() {
            subs[k] = feature_index(perspective, c.into(), p.into(), sq.into());
        }
    }
}

impl Accumulator {
    /// An accumulator of zeros.
    pub fn zeroed() -> Accumulator {
        Accumulator {
            v: [[0; MAX_HIDDEN]; 2],
        }
    }

    /// The sums of the position with pieces `sets`, from nothing.
    pub fn refresh(net: &Network, sets: &[u64; 12], path: Path) -> Accumulator {
        let mut a = Accumulator::zeroed();
        let h = net.arch.hidden;
        let mut rows = [[0usize; 32]; 2];
        let mut n = 0;
        for (i, &set) in sets.iter().enumerate() {
            let mut bb = set;
            while bb != 0 && n < 32 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                for (p, r) in rows.iter_mut().enumerate() {
                    r[n] = feature_index(p, i / 6, i % 6, sq);
                }
                n += 1;
            }
        }
        for (p, r) in rows.iter().enumerate() {
            // SAFETY: both vectors hold MAX_HIDDEN >= h units, the rows are inputs of
            // `net`, `h` is a multiple of 32 (`Arch::check`), `path` runs here.
            unsafe {
                kernels::update(
                    path,
                    a.v[p].as_mut_ptr(),
                    net.feature_bias.as_ptr(),
                    h,
                    &net.feature_weights,
                    &r[..n],
                    &[],
                );
            }
        }
        a
    }

    /// Sets `self` to `src` moved from the position with pieces `from` to the one with
    /// pieces `to`.
    #[inline]
    pub fn update_from(
        &mut self,
        src: &Accumulator,
        net: &Network,
        from: &[u64; 12],
        to: &[u64; 12],
        path: Path,
    ) {
        let changes = Changes::between(from, to);
        let (mut adds, mut subs) = ([0usize; 32], [0usize; 32]);
        for p in 0..2 {
            changes.rows(p, &mut adds, &mut subs);
            // SAFETY: as in `refresh`; `src` and `self` are distinct here.
            unsafe {
                kernels::update(
                    path,
                    self.v[p].as_mut_ptr(),
                    src.v[p].as_ptr(),
                    net.arch.hidden,
                    &net.feature_weights,
                    &adds[..changes.n_new],
                    &subs[..changes.n_gone],
                );
            }
        }
    }

    /// Moves the sums in place from the position with pieces `from` to the one with
    /// pieces `to`.
    #[inline]
    pub fn update(&mut self, net: &Network, from: &[u64; 12], to: &[u64; 12], path: Path) {
        let changes = Changes::between(from, to);
        let (mut adds, mut subs) = ([0usize; 32], [0usize; 32]);
        for p in 0..2 {
            changes.rows(p, &mut adds, &mut subs);
            let v = self.v[p].as_mut_ptr();
            // SAFETY: as in `refresh`; the kernel reads each lane before writing it.
            unsafe {
                kernels::update(
                    path,
                    v,
                    v,
                    net.arch.hidden,
                    &net.feature_weights,
                    &adds[..changes.n_new],
                    &subs[..changes.n_gone],
                );
            }
        }
    }

    /// The output in centipawns for side to move `stm` (0 white, 1 black) in a position
    /// of `pieces` pieces.
    #[inline]
    pub fn output(&self, net: &Network, stm: usize, pieces: u32, path: Path) -> i32 {
        let h = net.arch.hidden;
        let b = output_bucket(pieces, net.arch.buckets);
        let w = net.output_row(b);
        let act = net.arch.activation;
        let ours = kernels::dot(path, act, &self.v[stm][..h], &w[..h]);
        let theirs = kernels::dot(path, act, &self.v[1 - stm][..h], &w[h..]);
        let sum = i64::from(ours.wrapping_add(theirs));
        let sum = match act {
            Activation::CRelu => sum,
            Activation::SCRelu => sum / i64::from(QA),
        };
        let raw = sum + i64::from(net.output_bias[b]);
        (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// Changed pieces between two positions (the cost of an update).
#[inline]
pub fn distance(a: &[u64; 12], b: &[u64; 12]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}
