//! Time management: how long to think about a move.
//!
//! Two budgets: the *soft* one (do not start another iteration after it; stretched or shrunk by how stable
//! the best move is) and the *hard* one (stop the search at once). Both keep `Move Overhead` in reserve, and
//! the hard one never exceeds the time left minus the overhead, so with any increment ≥ 0 the engine does not
//! lose on time as long as the overhead covers the communication delay.

use std::time::Duration;

use jungle_rules::Side;

use crate::Limits;

/// The time budgets of one search; `None` means unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Budget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Moves assumed left in a sudden-death game (Jungle games between engines last 60–150 plies).
const MOVES_HORIZON: u32 = 30;

pub(crate) fn budget(limits: &Limits, side: Side, overhead: Duration) -> Budget {
    if limits.infinite {
        return Budget::default();
    }
    let mut result = Budget::default();
    if let Some(movetime) = limits.movetime {
        let t = movetime
            .saturating_sub(overhead)
            .max(Duration::from_millis(1));
        result = Budget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    if let Some(clock) = &limits.clock {
        let left = clock.time[side];
        let increment = clock.increment[side];
        let usable = left.saturating_sub(overhead);
        let horizon = clock
            .moves_to_go
            .unwrap_or(MOVES_HORIZON)
            .clamp(1, MOVES_HORIZON);
        // Spend an equal share of what is left plus most of the increment.
        let mut soft = usable / horizon + increment * 3 / 4;
        // Never plan to use more than a fraction of the clock on one move (all of it for the last move before
        // the time control).
        let cap = if horizon == 1 {
            usable * 9 / 10
        } else {
            usable / 2
        };
        soft = soft.min(cap);
        let hard = (soft * 4).min(if horizon == 1 {
            usable * 9 / 10
        } else {
            usable * 3 / 4
        });
        let soft = soft.min(hard);
        result = Budget {
            soft: Some(result.soft.map_or(soft, |s| s.min(soft))),
            hard: Some(result.hard.map_or(hard, |h| h.min(hard))),
        };
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;
    use jungle_rules::BySide;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: BySide::new(Duration::from_millis(ms), Duration::from_millis(ms)),
                increment: BySide::new(Duration::from_millis(inc), Duration::from_millis(inc)),
                moves_to_go: mtg,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn hard_limit_never_exceeds_time_left_minus_overhead() {
        let overhead = Duration::from_millis(30);
        for ms in [0, 1, 10, 31, 100, 1000, 60_000] {
            for inc in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(5)] {
                    let b = budget(&clock(ms, inc, mtg), Side::Blue, overhead);
                    let hard = b.hard.unwrap();
                    assert!(
                        hard <= Duration::from_millis(ms).saturating_sub(overhead),
                        "{ms} {inc} {mtg:?}"
                    );
                    assert!(b.soft.unwrap() <= hard);
                }
            }
        }
    }

    #[test]
    fn movetime_is_used_less_the_overhead() {
        let b = budget(
            &Limits::movetime(Duration::from_millis(100)),
            Side::Red,
            Duration::from_millis(30),
        );
        assert_eq!(b.hard, Some(Duration::from_millis(70)));
        assert_eq!(
            budget(&Limits::depth(3), Side::Red, Duration::ZERO),
            Budget::default()
        );
    }
}
