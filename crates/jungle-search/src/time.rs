//! Time management: how long to think about a move.
//!
//! Two budgets: the *soft* one (do not start another iteration after it; stretched or shrunk by how stable
//! the best move is) and the *hard* one (stop the search at once).
//!
//! Whoever keeps the clock measures from sending `go` to reading `bestmove`, so every move costs its thinking
//! time *plus* a delay the engine cannot see (pipes, process scheduling: `Move Overhead` is the estimate of it).
//! Two rules keep the engine from losing on time with any increment ≥ 0:
//!
//! - the clock is shared among the moves of the horizon *after* paying the overhead of each of them (and one
//!   spare), counting the increments still to come. When the clock is short next to the increment this spends
//!   about the increment less the overhead, so the clock settles at a safe level instead of draining away; when
//!   the clock cannot pay the overheads ahead the engine moves after depth 1;
//! - the hard limit never plans on the tail of the clock: at most half of the time left less the overhead
//!   (¾ for the last move before the time control), so a search thread descheduled on a loaded machine still
//!   answers in time.
//!
//! A fixed `movetime` is not a clock that can run out: the overhead is taken from it, but never more than
//! half of it ([`MOVETIME_KEPT_DIVISOR`]), so `go movetime 10` still searches 5 ms with the default 30 ms
//! overhead (a runner that enforces the move time must forgive that much lateness; `jungle match` forgives
//! 100 ms).

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

/// The hard limit is at most this many times the soft one (a changing best move may use the extra time).
const HARD_PER_SOFT: u32 = 4;

/// The engine thinks at least `movetime / MOVETIME_KEPT_DIVISOR` of a fixed `movetime` whatever the Move
/// Overhead: the overhead may take at most half of it.
pub(crate) const MOVETIME_KEPT_DIVISOR: u32 = 2;

pub(crate) fn budget(limits: &Limits, side: Side, overhead: Duration) -> Budget {
    if limits.infinite {
        return Budget::default();
    }
    let mut result = Budget::default();
    if let Some(movetime) = limits.movetime {
        let t = movetime_budget(movetime, overhead);
        result = Budget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    if let Some(clock) = &limits.clock {
        let (soft, hard) = clock_budget(
            clock.time[side],
            clock.increment[side],
            clock.moves_to_go,
            overhead,
        );
        result = Budget {
            soft: Some(result.soft.map_or(soft, |s| s.min(soft))),
            hard: Some(result.hard.map_or(hard, |h| h.min(hard))),
        };
    }
    result
}

/// The thinking time of `go movetime`: the move time less the overhead, but at least the share of it the
/// overhead may not take (`movetime / `[`MOVETIME_KEPT_DIVISOR`]), and at least 1 ms.
pub(crate) fn movetime_budget(movetime: Duration, overhead: Duration) -> Duration {
    let kept = movetime / MOVETIME_KEPT_DIVISOR;
    movetime
        .saturating_sub(overhead)
        .max(kept)
        .max(Duration::from_millis(1))
}

/// The (soft, hard) budgets for `left` on the clock, `increment` per move and `moves_to_go` until the next
/// time control (`None`: sudden death). A pure function: every operation saturates, so any clock, including
/// 0 ms or centuries, gives budgets with `soft ≤ hard ≤ (left − overhead) / 2` (¾ for the last move).
pub(crate) fn clock_budget(
    left: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
    overhead: Duration,
) -> (Duration, Duration) {
    let horizon = moves_to_go.unwrap_or(MOVES_HORIZON).clamp(1, MOVES_HORIZON);
    // What the horizon's moves may think in all: the clock plus the increments earned by the moves after this
    // one, less the overhead each of these moves will cost and one spare.
    let pool = left
        .saturating_add(increment.saturating_mul(horizon - 1))
        .saturating_sub(overhead.saturating_mul(horizon + 1));
    let share = pool / horizon;
    let usable = left.saturating_sub(overhead);
    let cap = if horizon == 1 {
        usable / 4 * 3
    } else {
        usable / 2
    };
    let hard = share.saturating_mul(HARD_PER_SOFT).min(cap);
    (share.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;
    use jungle_rules::BySide;

    const MS: Duration = Duration::from_millis(1);

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

    const CLOCKS_MS: [u64; 16] = [
        0,
        1,
        2,
        9,
        29,
        30,
        31,
        50,
        100,
        150,
        999,
        2_000,
        60_000,
        3_600_000,
        1 << 40,
        u64::MAX,
    ];
    const INCREMENTS_MS: [u64; 9] = [0, 1, 10, 20, 30, 100, 1_000, 60_000, u64::MAX];
    const MOVES_TO_GO: [Option<u32>; 7] = [
        None,
        Some(0),
        Some(1),
        Some(2),
        Some(30),
        Some(40),
        Some(u32::MAX),
    ];
    const OVERHEADS_MS: [u64; 5] = [0, 1, 10, 30, 10_000];

    #[test]
    fn hard_limit_stays_inside_the_clock_for_every_clock() {
        for left in CLOCKS_MS.map(Duration::from_millis) {
            for inc in INCREMENTS_MS.map(Duration::from_millis) {
                for mtg in MOVES_TO_GO {
                    for overhead in OVERHEADS_MS.map(Duration::from_millis) {
                        let (soft, hard) = clock_budget(left, inc, mtg, overhead);
                        let usable = left.saturating_sub(overhead);
                        let case = format!("{left:?} +{inc:?} mtg {mtg:?} overhead {overhead:?}");
                        assert!(soft <= hard, "{case}: soft {soft:?} > hard {hard:?}");
                        // Half the usable time at most (¾ for the last move before the control): the rest
                        // is the cushion against a descheduled thread.
                        let limit = if mtg.is_some_and(|m| m <= 1) {
                            usable * 3 / 4
                        } else {
                            usable / 2
                        };
                        assert!(hard <= limit, "{case}: hard {hard:?} > {limit:?}");
                        if usable.is_zero() {
                            assert_eq!(hard, Duration::ZERO, "{case}");
                        } else {
                            assert!(hard < usable, "{case}: hard {hard:?} ≥ usable {usable:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn budget_takes_the_side_to_moves_clock_and_never_exceeds_its_hard_limit() {
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
        let mut limits = clock(1_000, 0, None);
        if let Some(c) = limits.clock.as_mut() {
            c.time = BySide::new(Duration::from_millis(1_000), Duration::from_millis(10));
        }
        assert!(budget(&limits, Side::Blue, MS).hard.unwrap() > Duration::from_millis(10));
        assert!(budget(&limits, Side::Red, MS).hard.unwrap() < Duration::from_millis(10));
    }

    #[test]
    fn a_clock_that_cannot_pay_the_overheads_ahead_moves_at_once() {
        // The reported loss: 2 s + 20 ms, the clock down to 50 ms, 30 ms overhead.
        assert_eq!(
            clock_budget(50 * MS, 20 * MS, None, 30 * MS),
            (Duration::ZERO, Duration::ZERO)
        );
        // Below the overhead nothing is planned at all, whatever the increment.
        for inc in [0, 20, 1_000, 60_000] {
            assert_eq!(
                clock_budget(30 * MS, inc * MS, None, 30 * MS),
                (Duration::ZERO, Duration::ZERO)
            );
        }
    }

    #[test]
    fn a_short_clock_with_a_long_increment_spends_about_the_increment() {
        // Half the clock or the increment less the overhead, whichever is smaller.
        let (soft, hard) = clock_budget(200 * MS, 100 * MS, None, 30 * MS);
        assert!(soft >= 50 * MS && soft <= 85 * MS, "{soft:?}");
        assert_eq!(hard, 85 * MS);
        let (soft, hard) = clock_budget(5_000 * MS, 1_000 * MS, None, 30 * MS);
        assert!(soft >= 900 * MS && soft <= 1_200 * MS, "{soft:?}");
        assert!(hard <= 2_485 * MS, "{hard:?}");
        // A large increment does not make a tiny clock spend it.
        let (_, hard) = clock_budget(50 * MS, 60_000 * MS, None, 30 * MS);
        assert_eq!(hard, 10 * MS);
    }

    #[test]
    fn a_long_clock_is_shared_over_the_horizon() {
        let (soft, hard) = clock_budget(60_000 * MS, Duration::ZERO, None, 30 * MS);
        assert!(soft >= 1_900 * MS && soft <= 2_000 * MS, "{soft:?}");
        assert_eq!(hard, soft * HARD_PER_SOFT);
        // The last move before the time control may use most of the clock.
        let (soft, hard) = clock_budget(1_000 * MS, Duration::ZERO, Some(1), 30 * MS);
        assert_eq!(hard, 727 * MS + Duration::from_micros(500));
        assert_eq!(soft, hard);
        // Ten moves to go: about a tenth each.
        let (soft, _) = clock_budget(10_000 * MS, Duration::ZERO, Some(10), 30 * MS);
        assert!(soft >= 900 * MS && soft <= 1_000 * MS, "{soft:?}");
    }

    /// Plays `moves` moves against the clock, each taking `spend(soft, hard)` of thinking plus `delay` of
    /// communication, and returns the lowest clock seen after a move, or `None` if the clock ran out.
    fn simulate(
        start: Duration,
        inc: Duration,
        overhead: Duration,
        delay: Duration,
        moves: usize,
        spend: impl Fn(Duration, Duration) -> Duration,
    ) -> Option<Duration> {
        let mut left = start;
        let mut lowest = start;
        for _ in 0..moves {
            let (soft, hard) = clock_budget(left, inc, None, overhead);
            let used = spend(soft, hard) + delay;
            left = left.checked_sub(used)? + inc;
            lowest = lowest.min(left);
        }
        Some(lowest)
    }

    #[test]
    fn spending_the_whole_hard_limit_every_move_never_runs_out() {
        // The worst case the engine controls: every search runs to its hard limit, and the delay is what the
        // overhead announced, if the increment can pay it (a delay above the increment drains any clock).
        for (start, inc) in [
            (2_000, 20),
            (2_000, 0),
            (100, 0),
            (50, 20),
            (10_000, 100),
            (300, 1_000),
        ] {
            for overhead in [0, 10, 30] {
                let lowest = simulate(
                    start * MS,
                    inc * MS,
                    overhead * MS,
                    overhead.min(inc) * MS,
                    300,
                    |_, hard| hard,
                );
                assert!(lowest.is_some(), "{start}+{inc} overhead {overhead}");
            }
        }
    }

    #[test]
    fn at_two_seconds_and_twenty_ms_the_clock_settles_well_above_the_overhead() {
        // The typical search: iterations overshoot the soft limit by half. With a 10 ms delay per move the
        // clock must stop draining far above the point where one slow move loses.
        let lowest = simulate(2_000 * MS, 20 * MS, 30 * MS, 10 * MS, 300, |soft, hard| {
            (soft * 3 / 2).min(hard)
        })
        .expect("clock ran out");
        assert!(lowest >= 500 * MS, "lowest clock {lowest:?}");
    }

    #[test]
    fn a_short_movetime_keeps_half_of_itself_whatever_the_overhead() {
        // The cases: with the default 30 ms overhead, movetime 10 and 30 used to leave 1 ms.
        assert_eq!(movetime_budget(10 * MS, 30 * MS), 5 * MS);
        assert_eq!(movetime_budget(30 * MS, 30 * MS), 15 * MS);
        assert_eq!(movetime_budget(60 * MS, 30 * MS), 30 * MS);
        // A long move time pays the whole overhead.
        assert_eq!(movetime_budget(1_000 * MS, 30 * MS), 970 * MS);
        assert_eq!(movetime_budget(100 * MS, Duration::ZERO), 100 * MS);
        // Never nothing, never more than the move time (above 1 ms).
        assert_eq!(movetime_budget(Duration::ZERO, 30 * MS), MS);
        for movetime in [1, 2, 9, 10, 29, 30, 31, 59, 60, 61, 100, 1_000, 60_000].map(|m| m * MS) {
            for overhead in OVERHEADS_MS.map(Duration::from_millis) {
                let t = movetime_budget(movetime, overhead);
                let case = format!("movetime {movetime:?} overhead {overhead:?}");
                assert!(t <= movetime.max(MS), "{case}: {t:?}");
                assert!(
                    t >= movetime / MOVETIME_KEPT_DIVISOR,
                    "{case}: {t:?} below half"
                );
                assert!(
                    t >= movetime.saturating_sub(overhead),
                    "{case}: {t:?} pays more than the overhead"
                );
            }
        }
        // The search's budget is this one, soft and hard alike.
        let b = budget(&Limits::movetime(10 * MS), Side::Blue, 30 * MS);
        assert_eq!((b.soft, b.hard), (Some(5 * MS), Some(5 * MS)));
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
        assert_eq!(
            budget(
                &Limits {
                    infinite: true,
                    ..clock(1_000, 0, None)
                },
                Side::Red,
                Duration::ZERO
            ),
            Budget::default()
        );
    }
}
