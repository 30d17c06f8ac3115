//! The net's integer arithmetic, in one place: adding and removing a first-layer row, and the output layer's
//! clipped-ReLU dot product.
//!
//! Why this is sound and fast without `unsafe`: the loops run over fixed-size arrays (no bounds checks, no
//! aliasing: `&mut` and `&` cannot overlap), so the compiler turns them into SIMD adds and multiply-adds
//! (SSE2 `paddw`/`pmaddwd` on any x86-64, NEON on aarch64) with no target-specific code. Overflow cannot
//! happen because [`crate::nnue::Network::from_bytes`] refuses nets whose weights could overflow: every
//! first-layer weight and bias is within ±[`MAX_FIRST_LAYER`], so an accumulator of at most 16 pieces plus the
//! bias stays within ±17 × 1024 < `i16::MAX`; clipped values are at most [`QA`] and output weights within
//! ±[`MAX_OUTPUT_WEIGHT`], so each 128-term half stays within ±128 × 255 × 16384 < 2³⁰ (the halves and the bias are added as
//! `i64`). The adds still
//! use wrapping arithmetic so a debug build has no overflow check in the hot loop.

/// First-layer width per side.
pub const HIDDEN: usize = 128;
/// The first layer's quantisation: 1.0 is `QA`, and the clipped ReLU clips to `0..=QA`.
pub const QA: i16 = 255;
/// The output layer's quantisation: 1.0 is `QB`.
pub const QB: i32 = 1024;
/// The output's unit: a float output of 1.0 is `SCALE` centipawns.
pub const SCALE: i32 = 400;
/// Largest first-layer weight or bias a net may have (see the module comment).
pub const MAX_FIRST_LAYER: i16 = 1024;
/// Largest output weight a net may have.
pub const MAX_OUTPUT_WEIGHT: i16 = 16384;

/// One side's first-layer output.
pub type Row = [i16; HIDDEN];

#[inline]
pub fn add(acc: &mut Row, row: &Row) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

/// `out = base + entered − left`: a piece moved from one input to another, in one pass (no copy of `base`
/// first).
#[inline]
pub fn add_sub(out: &mut Row, base: &Row, entered: &Row, left: &Row) {
    for (((o, b), e), l) in out.iter_mut().zip(base).zip(entered).zip(left) {
        *o = b.wrapping_add(*e).wrapping_sub(*l);
    }
}

/// `out = base + entered − left − captured`: a capture, in one pass.
#[inline]
pub fn add_sub_sub(out: &mut Row, base: &Row, entered: &Row, left: &Row, captured: &Row) {
    for ((((o, b), e), l), c) in out
        .iter_mut()
        .zip(base)
        .zip(entered)
        .zip(left)
        .zip(captured)
    {
        *o = b.wrapping_add(*e).wrapping_sub(*l).wrapping_sub(*c);
    }
}

/// `Σ clamp(acc[i], 0, QA) · weights[i]`.
///
/// Written as clipping into a copy, then sums of adjacent pairs, odd element first: that is the shape of
/// SSE2's `pmaddwd` (eight `i16` products summed in pairs into four `i32`), and in this order the compiler
/// emits it with no shuffles — 16 multiply-adds for the 128 products. The plain `Σ a·w` over the clipped
/// values compiles to four products per `pmaddwd` (the compiler zero-extends the clipped values to `i32`
/// first), twice the work. The result is the same in any order: each pair is below 2 × 255 × 16384 and
/// the sum below 2³⁰ (module comment).
#[inline]
pub fn crelu_dot(acc: &Row, weights: &Row) -> i32 {
    let mut clipped = [0i16; HIDDEN];
    for (c, a) in clipped.iter_mut().zip(acc) {
        *c = (*a).clamp(0, QA);
    }
    let mut pairs = [0i32; HIDDEN / 2];
    for ((p, c), w) in pairs
        .iter_mut()
        .zip(clipped.chunks_exact(2))
        .zip(weights.chunks_exact(2))
    {
        *p = (i32::from(c[1]) * i32::from(w[1])).wrapping_add(i32::from(c[0]) * i32::from(w[0]));
    }
    pairs.iter().fold(0i32, |sum, p| sum.wrapping_add(*p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crelu_dot_clips_below_zero_and_above_qa() {
        let mut acc = [0i16; HIDDEN];
        acc[0] = -500;
        acc[1] = 1000;
        acc[2] = 10;
        let weights = [3i16; HIDDEN];
        assert_eq!(crelu_dot(&acc, &weights), 3 * (255 + 10));
    }

    #[test]
    fn crelu_dot_equals_the_plain_sum_for_extreme_values() {
        let mut acc = [0i16; HIDDEN];
        let mut weights = [0i16; HIDDEN];
        for i in 0..HIDDEN {
            acc[i] = [i16::MIN, -1, 0, 1, 254, 255, 256, i16::MAX][i % 8];
            weights[i] = [MAX_OUTPUT_WEIGHT, -MAX_OUTPUT_WEIGHT, 7, -3][i % 4];
        }
        let plain: i64 = acc
            .iter()
            .zip(&weights)
            .map(|(&a, &w)| i64::from(a.clamp(0, QA)) * i64::from(w))
            .sum();
        assert_eq!(i64::from(crelu_dot(&acc, &weights)), plain);
        let all_max = [MAX_OUTPUT_WEIGHT; HIDDEN];
        let all_on = [QA; HIDDEN];
        let most = HIDDEN as i64 * i64::from(QA) * i64::from(MAX_OUTPUT_WEIGHT);
        assert_eq!(i64::from(crelu_dot(&all_on, &all_max)), most);
    }

    #[test]
    fn one_pass_updates_equal_separate_adds_and_subtracts() {
        let row = |k: i16| -> Row { std::array::from_fn(|i| (i as i16 - 64) * k) };
        let (base, entered, left, captured) = (row(1), row(3), row(-5), row(7));
        let mut out = [0i16; HIDDEN];
        add_sub(&mut out, &base, &entered, &left);
        for i in 0..HIDDEN {
            assert_eq!(out[i], base[i] + entered[i] - left[i]);
        }
        add_sub_sub(&mut out, &base, &entered, &left, &captured);
        for i in 0..HIDDEN {
            assert_eq!(out[i], base[i] + entered[i] - left[i] - captured[i]);
        }
        let mut acc = base;
        add(&mut acc, &entered);
        assert_eq!(acc[0], base[0] + entered[0]);
    }
}
