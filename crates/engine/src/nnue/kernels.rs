//! The network's two inner loops, each in a portable scalar form and in AVX2 and
//! AVX-512 forms chosen at run time by what the processor has ([`Path::detect`]): the
//! accumulator update (a vector of hidden sums plus some weight rows minus others) and
//! the output's dot product through the activation. Every form does the same integer
//! arithmetic, wrapping where the vector instructions wrap, so all give bit-identical
//! results (`tests.rs` compares every form this processor runs with the scalar one).
//!
//! Squared clipped ReLU uses the usual integer trick: with `v = clamp(x, 0, QA)` and an
//! output weight `w` small enough that `v * w` fits an `i16` (the trainer keeps
//! `|w| * QB <= 127`), `v * w` is one 16-bit multiply and `(v * w) * v` summed in pairs
//! is one multiply-add into 32-bit lanes.

use super::network::{Activation, QA};

/// Which form of the loops runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Plain loops, on every processor.
    Scalar,
    /// 256-bit vectors (x86-64 with AVX2).
    Avx2,
    /// 512-bit vectors (x86-64 with AVX-512 BW).
    Avx512,
}

impl Path {
    /// The fastest form this processor runs.
    pub fn detect() -> Path {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512f")
            {
                return Path::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Path::Avx2;
            }
        }
        Path::Scalar
    }

    /// Every form this processor runs, the scalar one first.
    pub fn available() -> Vec<Path> {
        let mut v = vec![Path::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(Path::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512f")
            {
                v.push(Path::Avx512);
            }
        }
        v
    }

    /// `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Path::Scalar => "scalar",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
        }
    }
}

/// `dst[..h] = src[..h] + Σ rows[a] - Σ rows[s]` for `a` in `adds`, `s` in `subs`, where
/// row `r` is `weights[r * h..(r + 1) * h]`. `dst` and `src` may be the same vector.
///
/// # Safety
/// `dst` and `src` point to `h` valid `i16`s each; every row index is inside `weights`;
/// `h` is a multiple of 32; `path` is one the processor runs ([`Path::available`]).
#[inline]
pub unsafe fn update(
    path: Path,
    dst: *mut i16,
    src: *const i16,
    h: usize,
    weights: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    debug_assert!(h.is_multiple_of(32));
    debug_assert!(adds
        .iter()
        .chain(subs)
        .all(|&r| (r + 1) * h <= weights.len()));
    match path {
        Path::Scalar => update_scalar(dst, src, h, weights, adds, subs),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => x86::update_avx2(dst, src, h, weights, adds, subs),
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => x86::update_avx512(dst, src, h, weights, adds, subs),
        #[cfg(not(target_arch = "x86_64"))]
        _ => update_scalar(dst, src, h, weights, adds, subs),
    }
}

unsafe fn update_scalar(
    dst: *mut i16,
    src: *const i16,
    h: usize,
    weights: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    for j in 0..h {
        let mut x = *src.add(j);
        for &r in adds {
            x = x.wrapping_add(*weights.get_unchecked(r * h + j));
        }
        for &r in subs {
            x = x.wrapping_sub(*weights.get_unchecked(r * h + j));
        }
        *dst.add(j) = x;
    }
}

/// Σ act(clamp(acc, 0, QA)) · w over the units (32-bit, wrapping); for squared clipped
/// ReLU the sum is `QA` times too large (the caller divides).
#[inline]
pub fn dot(path: Path, act: Activation, acc: &[i16], w: &[i16]) -> i32 {
    assert_eq!(acc.len(), w.len());
    debug_assert!(acc.len().is_multiple_of(32));
    match path {
        Path::Scalar => dot_scalar(act, acc, w),
        // SAFETY: `path` is only ever a form the processor runs (`Path::detect`,
        // `Path::available`), and the slices have equal lengths, multiples of 32.
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => unsafe { x86::dot_avx2(act, acc, w) },
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => unsafe { x86::dot_avx512(act, acc, w) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => dot_scalar(act, acc, w),
    }
}

fn dot_scalar(act: Activation, acc: &[i16], w: &[i16]) -> i32 {
    let mut s = 0i32;
    for (&a, &w) in acc.iter().zip(w) {
        let v = i32::from(a.clamp(0, QA as i16));
        let w = i32::from(w);
        let term = match act {
            Activation::CRelu => v * w,
            // The 16-bit product, as the vector multiply keeps it.
            Activation::SCRelu => i32::from((v * w) as i16) * v,
        };
        s = s.wrapping_add(term);
    }
    s
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Activation, QA};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update_avx2(
        dst: *mut i16,
        src: *const i16,
        h: usize,
        weights: &[i16],
        adds: &[usize],
        subs: &[usize],
    ) {
        let w = weights.as_ptr();
        let mut j = 0;
        while j < h {
            let mut x = _mm256_loadu_si256(src.add(j) as *const __m256i);
            for &r in adds {
                x = _mm256_add_epi16(x, _mm256_loadu_si256(w.add(r * h + j) as *const __m256i));
            }
            for &r in subs {
                x = _mm256_sub_epi16(x, _mm256_loadu_si256(w.add(r * h + j) as *const __m256i));
            }
            _mm256_storeu_si256(dst.add(j) as *mut __m256i, x);
            j += 16;
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn update_avx512(
        dst: *mut i16,
        src: *const i16,
        h: usize,
        weights: &[i16],
        adds: &[usize],
        subs: &[usize],
    ) {
        let w = weights.as_ptr();
        let mut j = 0;
        while j < h {
            let mut x = _mm512_loadu_si512(src.add(j) as *const __m512i);
            for &r in adds {
                x = _mm512_add_epi16(x, _mm512_loadu_si512(w.add(r * h + j) as *const __m512i));
            }
            for &r in subs {
                x = _mm512_sub_epi16(x, _mm512_loadu_si512(w.add(r * h + j) as *const __m512i));
            }
            _mm512_storeu_si512(dst.add(j) as *mut __m512i, x);
            j += 32;
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dot_avx2(act: Activation, acc: &[i16], w: &[i16]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let (a, wp) = (acc.as_ptr(), w.as_ptr());
        let mut j = 0;
        while j < acc.len() {
            let v = _mm256_loadu_si256(a.add(j) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
            let ww = _mm256_loadu_si256(wp.add(j) as *const __m256i);
            let term = match act {
                Activation::CRelu => _mm256_madd_epi16(v, ww),
                Activation::SCRelu => _mm256_madd_epi16(_mm256_mullo_epi16(v, ww), v),
            };
            sum = _mm256_add_epi32(sum, term);
            j += 16;
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn dot_avx512(act: Activation, acc: &[i16], w: &[i16]) -> i32 {
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        let (a, wp) = (acc.as_ptr(), w.as_ptr());
        let mut j = 0;
        while j < acc.len() {
            let v = _mm512_loadu_si512(a.add(j) as *const __m512i);
            let v = _mm512_min_epi16(_mm512_max_epi16(v, zero), qa);
            let ww = _mm512_loadu_si512(wp.add(j) as *const __m512i);
            let term = match act {
                Activation::CRelu => _mm512_madd_epi16(v, ww),
                Activation::SCRelu => _mm512_madd_epi16(_mm512_mullo_epi16(v, ww), v),
            };
            sum = _mm512_add_epi32(sum, term);
            j += 32;
        }
        _mm512_reduce_add_epi32(sum)
    }
}
