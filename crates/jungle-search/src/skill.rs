//! Skill levels for people: 1 (beatable by a beginner) to 8 (full strength).
//!
//! Each level below 8 is a mix of handicaps:
//! - a **depth cap** and a **node cap** per move (the search stops at whichever comes first, or earlier when the
//!   time runs out): the caps are counted in work, not in time, so a level is as strong on a loaded server or a
//!   slow phone as on a fast machine, and the ratings measured for it (docs/engine.md) hold everywhere;
//! - a **randomised choice among MultiPV lines**: the engine searches several lines and picks at random among
//!   those whose score is within `margin` of the best, so it makes human-like inaccuracies, not random moves.
//!   A line that wins by force is always taken when one exists, and a line that loses by force is never taken
//!   when another exists, from level 3 up;
//! - at levels 1 and 2, **carelessness**: on a share of its moves the engine does not look at forced results at
//!   all (a den entry, or a move that leaves a den threat unanswered, looks like its best ordinary move), so a
//!   beginner can win by walking into its den, and it sometimes misses its own den entry.
//!
//! | level | depth cap | node cap | lines | margin (cp) | careless |
//! |---|---|---|---|---|---|
//! | 1 | 1 | — | 8 | 400 | 50% |
//! | 2 | 2 | — | 6 | 250 | 35% |
//! | 3 | 3 | — | 5 | 160 | — |
//! | 4 | — | 1,800 | 4 | 90 | — |
//! | 5 | — | 3,500 | 3 | 60 | — |
//! | 6 | — | 10,000 | 3 | 30 | — |
//! | 7 | — | 30,000 | 3 | 25 | — |
//! | 8 | — | — | 1 | 0 | — |

use crate::scale::MATE_BOUND;

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 8;

/// The handicaps of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    pub level: u8,
    pub max_depth: Option<u32>,
    /// Nodes searched per move at most.
    pub max_nodes: Option<u64>,
    /// MultiPV lines searched to choose from.
    pub lines: usize,
    pub margin: i32,
    /// Whether forced wins are always taken and forced losses avoided.
    pub sees_mates: bool,
    /// Percent of moves on which forced results are not told apart from the best ordinary line.
    pub careless_percent: u64,
}

impl Skill {
    pub fn new(level: u8) -> Skill {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        let (max_depth, max_nodes, lines, margin, careless_percent) = match level {
            1 => (Some(1), None, 8, 400, 50),
            2 => (Some(2), None, 6, 250, 35),
            3 => (Some(3), None, 5, 160, 0),
            4 => (None, Some(1_800), 4, 90, 0),
            5 => (None, Some(3_500), 3, 60, 0),
            6 => (None, Some(10_000), 3, 30, 0),
            7 => (None, Some(30_000), 3, 25, 0),
            _ => (None, None, 1, 0, 0),
        };
        Skill {
            level,
            max_depth,
            max_nodes,
            lines,
            margin,
            sees_mates: level >= 3,
            careless_percent,
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
        // The low bits decide carelessness, the high bits the line, so the two draws are independent.
        let careless = random % 100 < self.careless_percent;
        let pick = random >> 32;
        // A careless engine cannot tell a forced result from the best ordinary line: it looks as good.
        let ordinary_best = scores
            .iter()
            .copied()
            .filter(|s| s.abs() < MATE_BOUND)
            .max();
        let seen = |score: i32| match ordinary_best {
            Some(ordinary) if careless && score.abs() >= MATE_BOUND => ordinary,
            _ => score,
        };
        let best = scores.iter().map(|&s| seen(s)).max().unwrap_or(0);
        if self.sees_mates && best >= MATE_BOUND {
            return 0;
        }
        let candidates: Vec<usize> = (0..scores.len())
            .filter(|&i| seen(scores[i]) >= best - self.margin)
            .filter(|&i| !(self.sees_mates && scores[i] <= -MATE_BOUND && best > -MATE_BOUND))
            .collect();
        if candidates.is_empty() {
            return 0;
        }
        candidates[(pick % candidates.len() as u64) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngCore, SeedableRng};

    /// Spread-out 64-bit values, as the engine's generator gives.
    fn randoms() -> impl Iterator<Item = u64> {
        let mut random = SmallRng::seed_from_u64(7);
        std::iter::repeat_with(move || random.next_u64())
    }

    #[test]
    fn full_strength_always_takes_the_best_line() {
        let s = Skill::new(8);
        for r in randoms().take(20) {
            assert_eq!(s.choose(&[50, 49, 48], r), 0);
        }
    }

    #[test]
    fn weak_levels_choose_within_the_margin_and_respect_mates() {
        let s = Skill::new(3);
        let scores = [100, 0, -100, -400];
        let mut chosen = [0; 4];
        for r in randoms().take(200) {
            chosen[s.choose(&scores, r)] += 1;
        }
        // Level 3's margin is 160: -100 and -400 are beyond it.
        assert!(
            chosen[0] > 0 && chosen[1] > 0,
            "both lines within the margin are played: {chosen:?}"
        );
        assert_eq!(chosen[2] + chosen[3], 0, "{chosen:?}");
        for level in 3..=7 {
            let s = Skill::new(level);
            for r in randoms().take(50) {
                assert_eq!(s.choose(&[MATE_BOUND + 5, 0], r), 0);
                assert_eq!(s.choose(&[10, -MATE_BOUND - 3], r), 0);
            }
        }
    }

    #[test]
    fn level_one_sometimes_misses_a_den_entry_and_sometimes_a_threat() {
        let s = Skill::new(1);
        let win = [MATE_BOUND + 999, 30, 20, 0];
        let misses = randoms()
            .take(400)
            .filter(|&r| s.choose(&win, r) != 0)
            .count();
        // Careless on half the moves, and then one of four lines: about 3/8 of the den entries are missed.
        assert!(
            (80..=220).contains(&misses),
            "den entries missed {misses} of 400 times"
        );
        let threat = [30, -MATE_BOUND - 1, -MATE_BOUND - 1];
        let blunders = randoms()
            .take(400)
            .filter(|&r| s.choose(&threat, r) != 0)
            .count();
        assert!(
            (80..=220).contains(&blunders),
            "den threats ignored {blunders} of 400 times"
        );
        // Level 2 misses fewer.
        let s2 = Skill::new(2);
        let misses2 = randoms()
            .take(400)
            .filter(|&r| s2.choose(&win, r) != 0)
            .count();
        assert!(
            misses2 > 0 && misses2 < misses,
            "level 2 missed {misses2}, level 1 {misses}"
        );
    }
}
