//! The hidden layer's sums (one vector per perspective) and the output layer, each with
//! a plain scalar loop and a lane-wise loop the compiler vectorises; both are integer
//! arithmetic and give identical results (a test checks).

use super::features::feature_index;
use super::network::{Network, HIDDEN, QA, QB, SCALE};
use cozy_chess::{Board, Color, Piece};

/// Lanes of the vectorisable loops.
const LANES: usize = 16;

/// Which loops to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    Scalar,
    Lanes,
}

/// The hidden-layer sums, white's perspective first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
}

// The lane loops index lane by lane on purpose: that shape is what the compiler turns into
// vector instructions.
#[inline]
#[allow(clippy::needless_range_loop)]
fn add_row(path: Path, acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    match path {
        Path::Scalar => {
            for (a, r) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(*r);
            }
        }
        Path::Lanes => {
            for (a, r) in acc.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
                for l in 0..LANES {
                    a[l] = a[l].wrapping_add(r[l]);
                }
            }
        }
    }
}

#[inline]
#[allow(clippy::needless_range_loop)]
fn sub_row(path: Path, acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    match path {
        Path::Scalar => {
            for (a, r) in acc.iter_mut().zip(row) {
                *a = a.wrapping_sub(*r);
            }
        }
        Path::Lanes => {
            for (a, r) in acc.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
                for l in 0..LANES {
                    a[l] = a[l].wrapping_sub(r[l]);
                }
            }
        }
    }
}

/// Σ clamp(acc, 0, QA) · w.
#[inline]
#[allow(clippy::needless_range_loop)]
fn crelu_dot(path: Path, acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    match path {
        Path::Scalar => {
            let mut s = 0i32;
            for (a, w) in acc.iter().zip(w) {
                s += i32::from(*a).clamp(0, QA) * i32::from(*w);
            }
            s
        }
        Path::Lanes => {
            let mut lanes = [0i32; LANES];
            for (a, w) in acc.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
                for l in 0..LANES {
                    lanes[l] += i32::from(a[l]).clamp(0, QA) * i32::from(w[l]);
                }
            }
            lanes.iter().sum()
        }
    }
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

impl Accumulator {
    /// The sums of the position with pieces `sets`, from nothing.
    pub fn refresh(net: &Network, sets: &[u64; 12], path: Path) -> Accumulator {
        let mut a = Accumulator {
            v: [net.feature_bias; 2],
        };
        for (i, &set) in sets.iter().enumerate() {
            let mut bb = set;
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                a.add(net, i / 6, i % 6, sq, path);
            }
        }
        a
    }

    /// Adds a piece.
    #[inline]
    pub fn add(&mut self, net: &Network, color: usize, piece: usize, sq: usize, path: Path) {
        for p in 0..2 {
            add_row(
                path,
                &mut self.v[p],
                &net.feature_weights[feature_index(p, color, piece, sq)],
            );
        }
    }

    /// Removes a piece.
    #[inline]
    pub fn remove(&mut self, net: &Network, color: usize, piece: usize, sq: usize, path: Path) {
        for p in 0..2 {
            sub_row(
                path,
                &mut self.v[p],
                &net.feature_weights[feature_index(p, color, piece, sq)],
            );
        }
    }

    /// Moves the sums from the position with pieces `from` to the one with pieces `to`.
    #[inline]
    pub fn update(&mut self, net: &Network, from: &[u64; 12], to: &[u64; 12], path: Path) {
        for (i, (&f, &t)) in from.iter().zip(to).enumerate() {
            let mut gone = f & !t;
            while gone != 0 {
                let sq = gone.trailing_zeros() as usize;
                gone &= gone - 1;
                self.remove(net, i / 6, i % 6, sq, path);
            }
            let mut new = t & !f;
            while new != 0 {
                let sq = new.trailing_zeros() as usize;
                new &= new - 1;
                self.add(net, i / 6, i % 6, sq, path);
            }
        }
    }

    /// The output in centipawns for side to move `stm` (0 white, 1 black).
    #[inline]
    pub fn output(&self, net: &Network, stm: usize, path: Path) -> i32 {
        let ours = crelu_dot(path, &self.v[stm], &net.output_weights[..HIDDEN]);
        let theirs = crelu_dot(path, &self.v[1 - stm], &net.output_weights[HIDDEN..]);
        let raw = i64::from(ours) + i64::from(theirs) + i64::from(net.output_bias);
        (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// Changed pieces between two positions (the cost of an update).
#[inline]
pub fn distance(a: &[u64; 12], b: &[u64; 12]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}
