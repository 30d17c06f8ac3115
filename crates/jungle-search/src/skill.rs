//! Skill levels for people: 1 (beatable by a beginner) to 8 (full strength).
//!
//! Each level below 8 is a mix of three handicaps:
//! - a **depth cap** (the search stops at that depth),
//! - a **time share** (the fraction of the allotted time it may use),
//! - a **randomised choice among MultiPV lines**: the engine searches several lines and picks at random among
//!   those whose score is within `margin` of the best, so it makes human-like inaccuracies, not random moves.
//!   A line that wins by force is always taken when one exists, and a line that loses by force is never taken
//!   when another exists, from level 3 up.
//!
//! | level | depth cap | time share | lines | margin (cp) |
//! |---|---|---|---|---|
//! | 1 | 1 | 10% | 8 | 400 |
//! | 2 | 2 | 15% | 6 | 250 |
//! | 3 | 3 | 20% | 5 | 160 |
//! | 4 | 4 | 30% | 4 | 100 |
//! | 5 | 6 | 40% | 3 | 60 |
//! | 6 | 8 | 60% | 3 | 30 |
//! | 7 | 12 | 80% | 2 | 12 |
//! | 8 | — | 100% | 1 | 0 |

use crate::search::MATE_BOUND;

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 8;

/// The handicaps of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    pub level: u8,
    pub max_depth: Option<u32>,
    /// Percent of the time budget used.
    pub time_percent: u32,
    /// MultiPV lines searched to choose from.
    pub lines: usize,
    pub margin: i32,
    /// Whether forced wins are always taken and forced losses avoided.
    pub sees_mates: bool,
}

impl Skill {
    pub fn new(level: u8) -> Skill {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        let (max_depth, time_percent, lines, margin) = match level {
            1 => (Some(1), 10, 8, 400),
            2 => (Some(2), 15, 6, 250),
            3 => (Some(3), 20, 5, 160),
            4 => (Some(4), 30, 4, 100),
            5 => (Some(6), 40, 3, 60),
            6 => (Some(8), 60, 3, 30),
            7 => (Some(12), 80, 2, 12),
            _ => (None, 100, 1, 0),
        };
        Skill {
            level,
            max_depth,
            time_percent,
            lines,
            margin,
            sees_mates: level >= 3,
        }
    }

    pub fn is_full_strength(&self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// Picks the index of a line among `(score)`s sorted best first, with `random` a uniform 64-bit value.
    pub fn choose(&self, scores: &[i32], random: u64) -> usize {
        if scores.len() <= 1 || self.is_full_strength() {
            return 0;
        }
        let best = scores[0];
        if self.sees_mates && best >= MATE_BOUND {
            return 0;
        }
        let candidates: Vec<usize> = (0..scores.len())
            .filter(|&i| scores[i] >= best - self.margin)
            .filter(|&i| !(self.sees_mates && scores[i] <= -MATE_BOUND && best > -MATE_BOUND))
            .collect();
        if candidates.is_empty() {
            return 0;
        }
        candidates[(random % candidates.len() as u64) as usize]
    }
}

/// A small random number generator (SplitMix64), seeded from the clock: only skill choices use it.
#[derive(Clone, Debug)]
pub(crate) struct Random(u64);

impl Random {
    pub fn from_time() -> Random {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Random(nanos ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_always_takes_the_best_line() {
        let s = Skill::new(8);
        for r in 0..20 {
            assert_eq!(s.choose(&[50, 49, 48], r), 0);
        }
    }

    #[test]
    fn weak_levels_choose_within_the_margin_and_respect_mates() {
        let s = Skill::new(2);
        let scores = [100, 0, -100, -400];
        for r in 0..50 {
            assert!(s.choose(&scores, r) <= 2, "-400 is beyond the margin");
        }
        let s = Skill::new(4);
        assert_eq!(s.choose(&[MATE_BOUND + 5, 0], 1), 0);
        for r in 0..20 {
            assert_eq!(s.choose(&[10, -MATE_BOUND - 3], r), 0);
        }
    }
}
