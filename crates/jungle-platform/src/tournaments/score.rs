//! Swiss scores in half points: exact, ordered, and printed the way crosstables print them (`2½`).

use std::fmt;
use std::ops::{Add, AddAssign};

/// A Swiss score counted in half points, so that draws add exactly: `Score(3)` is 1½ points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub u32);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const DRAW: Score = Score(1);
    pub const WIN: Score = Score(2);

    pub const fn half_points(self) -> u32 {
        self.0
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.0 += other.0;
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (whole, 1) => write!(f, "{whole}½"),
            (whole, _) => write!(f, "{whole}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_with_a_half_sign() {
        assert_eq!(Score(0).to_string(), "0");
        assert_eq!(Score(1).to_string(), "½");
        assert_eq!(Score(5).to_string(), "2½");
        assert_eq!(Score(6).to_string(), "3");
    }
}
