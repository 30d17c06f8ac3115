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

#[inline]
pub fn sub(acc: &mut Row, row: &Row) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

/// `Σ clamp(acc[i], 0, QA) · weights[i]`.
#[inline]
pub fn crelu_dot(acc: &Row, weights: &Row) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA)) * i32::from(w))
        .fold(0i32, i32::wrapping_add)
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
    fn add_then_sub_restores() {
        let mut acc = [7i16; HIDDEN];
        let mut row = [0i16; HIDDEN];
        for (i, r) in row.iter_mut().enumerate() {
            *r = i as i16 - 64;
        }
        add(&mut acc, &row);
        assert_eq!(acc[0], 7 - 64);
        sub(&mut acc, &row);
        assert_eq!(acc, [7i16; HIDDEN]);
    }
}
