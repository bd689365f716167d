//! The network's integer kernels: accumulator updates and the output's
//! dot product, written once portably and again with AVX2 and AVX-512
//! intrinsics, chosen at run time by what the CPU has. One binary runs on
//! any x86-64 and takes the fastest path there.
//!
//! Each kernel works on the first `n` lanes of its rows, `n` a multiple
//! of [`HIDDEN_STEP`]: the network's hidden size.
//!
//! Every path gives bit-identical results: the accumulators wrap in `i16`
//! on every path, and wrapping addition does not depend on order. The dot
//! product is exact: each SIMD lane's partial sum fits an `i32` (see
//! `MAX_LANE_SUM`) and the lanes are added in `i64`, as the portable
//! loop adds everything. The one product that could differ, `a · w` in
//! `i16` before the second `a` of SCReLU, is exact because the network
//! loader refuses output weights beyond ±[`MAX_SQUARED_WEIGHT`]. On other
//! architectures (aarch64, whose NEON is always there) the portable loops
//! are vectorised by the compiler.

use super::{HIDDEN_STEP, MAX_HIDDEN, QA};

/// One row of hidden weights, or one view's hidden sums, with room for the
/// largest hidden layer.
pub type Row = [i16; MAX_HIDDEN];

/// The largest output weight magnitude a SCReLU network may have, so that
/// `QA · w` fits an `i16`.
pub const MAX_SQUARED_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;

/// The largest partial sum one `i32` lane of the dot product can reach:
/// the AVX2 kernel's eight lanes take the most terms, `MAX_HIDDEN / 8`
/// each, every product at most QA · |`i16::MIN`| (CReLU; SCReLU's QA² ·
/// [`MAX_SQUARED_WEIGHT`] is smaller, as the second assertion says).
const MAX_LANE_SUM: i64 = (MAX_HIDDEN / 8) as i64 * QA as i64 * -(i16::MIN as i64);
const _: () = assert!(MAX_LANE_SUM <= i32::MAX as i64);
const _: () = assert!(QA * MAX_SQUARED_WEIGHT as i32 <= i16::MAX as i32);

// A block is a whole number of tiles: 8 AVX2 vectors or 4 AVX-512 ones.
const _: () = assert!(HIDDEN_STEP == 128);

/// Which implementation of the kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernels {
    /// The fastest kernels this CPU can run.
    pub fn detect() -> Kernels {
        *Kernels::available()
            .last()
            .expect("the portable kernels always run")
    }

    /// Every implementation this CPU can run, slowest first.
    pub fn available() -> Vec<Kernels> {
        #[allow(unused_mut)]
        let mut v = vec![Kernels::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") {
                v.push(Kernels::Avx2);
            }
            if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
                v.push(Kernels::Avx512);
            }
        }
        v
    }

    pub fn name(self) -> &'static str {
        match self {
            Kernels::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => "AVX2",
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx512 => "AVX-512",
        }
    }

    /// `out = base − Σ subs + Σ adds` over the first `n` lanes, wrapping.
    #[inline]
    pub fn update(self, out: &mut Row, base: &Row, subs: &[&Row], adds: &[&Row], n: usize) {
        // The SIMD loops stay within a row when n ≤ MAX_HIDDEN: the loader
        // only accepts such sizes, and the bound costs no branch here.
        debug_assert!(n.is_multiple_of(HIDDEN_STEP));
        let n = n.min(MAX_HIDDEN);
        match self {
            Kernels::Portable => portable::update(out, base, subs, adds, n),
            // SAFETY: `available` only offers these after the CPU said it
            // has the features they are compiled for, and n ≤ MAX_HIDDEN.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::update(out, base, subs, adds, n) },
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx512 => unsafe { avx512::update(out, base, subs, adds, n) },
        }
    }

    /// `Σ act(a) · w` over the first `n` lanes, where `act` clamps to
    /// 0..=QA and, when `squared`, squares (in units of QA²).
    #[inline]
    pub fn dot(self, acc: &Row, weights: &Row, squared: bool, n: usize) -> i64 {
        debug_assert!(n.is_multiple_of(HIDDEN_STEP));
        let n = n.min(MAX_HIDDEN);
        match self {
            Kernels::Portable => portable::dot(acc, weights, squared, n),
            // SAFETY: as in `update`.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::dot(acc, weights, squared, n) },
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx512 => unsafe { avx512::dot(acc, weights, squared, n) },
        }
    }
}

mod portable {
    use super::{Row, QA};

    #[inline(always)]
    pub fn update(out: &mut Row, base: &Row, subs: &[&Row], adds: &[&Row], n: usize) {
        let out = &mut out[..n];
        out.copy_from_slice(&base[..n]);
        for s in subs {
            for (o, w) in out.iter_mut().zip(s.iter()) {
                *o = o.wrapping_sub(*w);
            }
        }
        for a in adds {
            for (o, w) in out.iter_mut().zip(a.iter()) {
                *o = o.wrapping_add(*w);
            }
        }
    }

    #[inline(always)]
    pub fn dot(acc: &Row, weights: &Row, squared: bool, n: usize) -> i64 {
        let clamped = |a: i16| (a as i32).clamp(0, QA);
        let pairs = acc[..n].iter().zip(&weights[..n]);
        if squared {
            pairs.fold(0i64, |s, (&a, &w)| {
                let a = clamped(a);
                s + (a * a * w as i32) as i64
            })
        } else {
            pairs.fold(0i64, |s, (&a, &w)| s + (clamped(a) * w as i32) as i64)
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Row, HIDDEN_STEP, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 16;
    /// Vectors kept in registers at once: one block of the hidden layer.
    const TILE: usize = HIDDEN_STEP / LANES;

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(out: &mut Row, base: &Row, subs: &[&Row], adds: &[&Row], n: usize) {
        // SAFETY: every pointer is `(t + i) · LANES` lanes into a row,
        // (t + i) · LANES < n ≤ MAX_HIDDEN (the caller checked n), and the
        // loads and stores are unaligned.
        unsafe {
            // A tile of vectors stays in registers while every row is added.
            for t in (0..n / LANES).step_by(TILE) {
                let at = |r: &Row, i: usize| r.as_ptr().add((t + i) * LANES) as *const __m256i;
                let mut v: [__m256i; TILE] =
                    std::array::from_fn(|i| _mm256_loadu_si256(at(base, i)));
                for s in subs {
                    for (i, x) in v.iter_mut().enumerate() {
                        *x = _mm256_sub_epi16(*x, _mm256_loadu_si256(at(s, i)));
                    }
                }
                for a in adds {
                    for (i, x) in v.iter_mut().enumerate() {
                        *x = _mm256_add_epi16(*x, _mm256_loadu_si256(at(a, i)));
                    }
                }
                for (i, x) in v.iter().enumerate() {
                    _mm256_storeu_si256(out.as_mut_ptr().add((t + i) * LANES) as *mut __m256i, *x);
                }
            }
        }
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot(acc: &Row, weights: &Row, squared: bool, n: usize) -> i64 {
        // SAFETY: as in `update`.
        unsafe {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let mut sum = _mm256_setzero_si256();
            for i in 0..n / LANES {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i * LANES) as *const __m256i);
                let w = _mm256_loadu_si256(weights.as_ptr().add(i * LANES) as *const __m256i);
                let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let products = if squared {
                    // a · w fits an i16 (the loader bounds w), then · a.
                    _mm256_madd_epi16(_mm256_mullo_epi16(a, w), a)
                } else {
                    _mm256_madd_epi16(a, w)
                };
                sum = _mm256_add_epi32(sum, products);
            }
            // Each lane is within MAX_LANE_SUM; their total may not be.
            let wide = _mm256_add_epi64(
                _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum)),
                _mm256_cvtepi32_epi64(_mm256_extracti128_si256(sum, 1)),
            );
            let half = _mm_add_epi64(
                _mm256_castsi256_si128(wide),
                _mm256_extracti128_si256(wide, 1),
            );
            _mm_cvtsi128_si64(half) + _mm_extract_epi64(half, 1)
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Row, HIDDEN_STEP, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 32;
    /// Vectors kept in registers at once: one block of the hidden layer.
    const TILE: usize = HIDDEN_STEP / LANES;

    /// # Safety
    /// The CPU must have AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update(out: &mut Row, base: &Row, subs: &[&Row], adds: &[&Row], n: usize) {
        // SAFETY: every pointer is `(t + i) · LANES` lanes into a row,
        // (t + i) · LANES < n ≤ MAX_HIDDEN (the caller checked n), and the
        // loads and stores are unaligned.
        unsafe {
            // A tile of vectors stays in registers while every row is added.
            for t in (0..n / LANES).step_by(TILE) {
                let at = |r: &Row, i: usize| r.as_ptr().add((t + i) * LANES) as *const __m512i;
                let mut v: [__m512i; TILE] =
                    std::array::from_fn(|i| _mm512_loadu_si512(at(base, i)));
                for s in subs {
                    for (i, x) in v.iter_mut().enumerate() {
                        *x = _mm512_sub_epi16(*x, _mm512_loadu_si512(at(s, i)));
                    }
                }
                for a in adds {
                    for (i, x) in v.iter_mut().enumerate() {
                        *x = _mm512_add_epi16(*x, _mm512_loadu_si512(at(a, i)));
                    }
                }
                for (i, x) in v.iter().enumerate() {
                    _mm512_storeu_si512(out.as_mut_ptr().add((t + i) * LANES) as *mut __m512i, *x);
                }
            }
        }
    }

    /// # Safety
    /// The CPU must have AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn dot(acc: &Row, weights: &Row, squared: bool, n: usize) -> i64 {
        // SAFETY: as in `update`.
        unsafe {
            let zero = _mm512_setzero_si512();
            let qa = _mm512_set1_epi16(QA as i16);
            let mut sum = _mm512_setzero_si512();
            for i in 0..n / LANES {
                let a = _mm512_loadu_si512(acc.as_ptr().add(i * LANES) as *const __m512i);
                let w = _mm512_loadu_si512(weights.as_ptr().add(i * LANES) as *const __m512i);
                let a = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
                let products = if squared {
                    _mm512_madd_epi16(_mm512_mullo_epi16(a, w), a)
                } else {
                    _mm512_madd_epi16(a, w)
                };
                sum = _mm512_add_epi32(sum, products);
            }
            // Each lane is within MAX_LANE_SUM; their total may not be.
            _mm512_reduce_add_epi64(_mm512_add_epi64(
                _mm512_cvtepi32_epi64(_mm512_castsi512_si256(sum)),
                _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(sum, 1)),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random row with values in `-range..range`.
    fn row(seed: u64, range: i32) -> Row {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        std::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % (2 * range as u64)) as i32 - range) as i16
        })
    }

    /// Every kernel this CPU runs gives exactly the portable result, for
    /// updates (wrapping included) and both activations, at every hidden
    /// size; lanes past the size are left alone.
    #[test]
    fn simd_kernels_match_the_portable_ones() {
        let kernels = Kernels::available();
        eprintln!("kernels here: {kernels:?}");
        for n in (HIDDEN_STEP..=MAX_HIDDEN).step_by(HIDDEN_STEP) {
            for seed in 0..200u64 {
                let base = row(seed, 32768);
                let rows: Vec<Row> = (0..6).map(|k| row(seed * 7 + k, 600)).collect();
                let (subs, adds): (Vec<&Row>, Vec<&Row>) =
                    (rows[..2].iter().collect(), rows[2..].iter().collect());
                let acc = row(seed + 1000, 400);
                let weights = row(seed + 2000, MAX_SQUARED_WEIGHT as i32);
                let mut expected = [7; MAX_HIDDEN];
                Kernels::Portable.update(&mut expected, &base, &subs, &adds, n);
                assert!(expected[n..].iter().all(|&x| x == 7));
                for &k in &kernels {
                    let mut out = [7; MAX_HIDDEN];
                    k.update(&mut out, &base, &subs, &adds, n);
                    assert_eq!(out, expected, "{k:?} update, {n} lanes, seed {seed}");
                    for squared in [false, true] {
                        assert_eq!(
                            k.dot(&acc, &weights, squared, n),
                            Kernels::Portable.dot(&acc, &weights, squared, n),
                            "{k:?} dot (squared {squared}), {n} lanes, seed {seed}"
                        );
                    }
                }
            }
        }
    }

    /// At the bounds (every neuron saturated, every weight at the largest
    /// the loader accepts) each kernel's dot product is exact, though the
    /// largest network's totals pass `i32::MAX`.
    #[test]
    fn dot_products_are_exact_at_the_bounds() {
        let acc = [QA as i16; MAX_HIDDEN];
        let n = MAX_HIDDEN as i64;
        for (squared, w) in [
            (false, i16::MAX),
            (false, i16::MIN),
            (true, MAX_SQUARED_WEIGHT),
        ] {
            let weights = [w; MAX_HIDDEN];
            let per_neuron = if squared { (QA * QA) as i64 } else { QA as i64 };
            let exact = n * per_neuron * w as i64;
            if squared {
                // The bound this test is about: the total passes i32.
                assert!(exact > i32::MAX as i64);
            }
            for k in Kernels::available() {
                assert_eq!(
                    k.dot(&acc, &weights, squared, MAX_HIDDEN),
                    exact,
                    "{k:?}, {w}"
                );
            }
        }
    }
}
