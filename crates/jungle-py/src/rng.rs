//! `GameRng`: each batched game's own random stream (SplitMix64). Its whole state is one `u64`, so a pickled
//! `VectorEnv` carries its games' streams and goes on exactly where it stopped; `rand`'s generators keep their
//! state private. SplitMix64 passes BigCrush and is what `rand` itself uses to seed its small generators.

/// A SplitMix64 generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRng(pub u64);

impl GameRng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by Lemire's multiply-shift: its bias is below `n / 2^64`.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
