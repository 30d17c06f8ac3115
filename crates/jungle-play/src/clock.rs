//! Game clocks: each side's remaining time, run down for the side to move and topped up by the increment.
//! The caller says how much time passed ([`Clocks::run`]), so the clocks are exact in tests.

use std::time::Duration;

use jungle_rules::{BySide, Side};

use crate::config::TimeControl;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub control: TimeControl,
    remaining: BySide<Duration>,
}

impl Clocks {
    pub fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            remaining: BySide::new(control.base, control.base),
        }
    }

    pub fn remaining(&self, side: Side) -> Duration {
        self.remaining[side]
    }

    /// Runs `side`'s clock down by `elapsed`; true if it has now run out.
    pub fn run(&mut self, side: Side, elapsed: Duration) -> bool {
        self.remaining[side] = self.remaining[side].saturating_sub(elapsed);
        self.is_flagged(side)
    }

    /// `side` has just moved: it gains the increment.
    pub fn moved(&mut self, side: Side) {
        self.remaining[side] += self.control.increment;
    }

    pub fn is_flagged(&self, side: Side) -> bool {
        self.remaining[side].is_zero()
    }

    /// A time budget for an engine move: a slice of what is left plus most of the increment, never more
    /// than `cap` and never so much that the flag falls.
    pub fn engine_budget(&self, side: Side, cap: Duration) -> Duration {
        let left = self.remaining[side];
        let budget = left / 25 + self.control.increment * 3 / 4;
        budget.min(cap).min(left / 2).max(Duration::from_millis(10))
    }
}

/// `m:ss`, or `s.t` seconds under ten seconds (when every tenth counts).
pub fn format_clock(time: Duration) -> String {
    let tenths = time.as_millis() / 100;
    if tenths < 100 {
        format!("{}.{}", tenths / 10, tenths % 10)
    } else {
        let seconds = time.as_secs();
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_run_down_flag_and_gain_increments() {
        let mut clocks = Clocks::new("1+2".parse().unwrap());
        assert!(!clocks.run(Side::Blue, Duration::from_secs(59)));
        clocks.moved(Side::Blue);
        assert_eq!(clocks.remaining(Side::Blue), Duration::from_secs(3));
        assert_eq!(clocks.remaining(Side::Red), Duration::from_secs(60));
        assert!(clocks.run(Side::Blue, Duration::from_secs(4)));
        assert!(clocks.is_flagged(Side::Blue));
        assert!(!clocks.is_flagged(Side::Red));
    }

    #[test]
    fn clock_text_shows_tenths_only_when_short() {
        assert_eq!(format_clock(Duration::from_secs(300)), "5:00");
        assert_eq!(format_clock(Duration::from_millis(61_900)), "1:01");
        assert_eq!(format_clock(Duration::from_millis(9_450)), "9.4");
    }

    #[test]
    fn engine_budget_never_risks_the_flag() {
        let clocks = Clocks::new("0.1+0".parse().unwrap());
        let budget = clocks.engine_budget(Side::Red, Duration::from_secs(5));
        assert!(budget < clocks.remaining(Side::Red) / 2 + Duration::from_millis(1));
    }
}
