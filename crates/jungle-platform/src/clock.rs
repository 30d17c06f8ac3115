//! Game clocks: each side's remaining time, an increment per move, and which clock is running.
//!
//! The room presses the clock from the second ply on, and that first press charges nobody: each side's first
//! move is untimed (as on lichess), so nobody loses on time before the opponent has arrived and moved. A game that does not begin is
//! aborted instead (see `Room::abort_if_not_begun`).

use std::time::{Duration, Instant};

use jungle_rules::{BySide, Side};

#[derive(Clone, Debug)]
pub struct Clock {
    remaining: BySide<Duration>,
    increment: Duration,
    /// The side whose time is running and since when.
    running: Option<(Side, Instant)>,
}

impl Clock {
    pub fn new(initial: Duration, increment: Duration) -> Clock {
        Clock {
            remaining: BySide::new(initial, initial),
            increment,
            running: None,
        }
    }

    /// A clock restored from stored remaining times; `to_move` starts running now if the game has begun.
    pub fn restore(
        remaining: BySide<Duration>,
        increment: Duration,
        to_move: Option<Side>,
    ) -> Clock {
        Clock {
            remaining,
            increment,
            running: to_move.map(|side| (side, Instant::now())),
        }
    }

    pub fn increment(&self) -> Duration {
        self.increment
    }

    pub fn running_side(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// The time `side` has left at `now`.
    pub fn remaining(&self, side: Side, now: Instant) -> Duration {
        let stored = *self.remaining.get(side);
        match self.running {
            Some((running, since)) if running == side => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Whether `side`'s time has run out at `now`.
    pub fn flagged(&self, side: Side, now: Instant) -> bool {
        self.running_side() == Some(side) && self.remaining(side, now).is_zero()
    }

    /// When the running clock will reach zero.
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .map(|(side, since)| since + *self.remaining.get(side))
    }

    /// `mover` has moved at `now`: charge their time, add the increment, start the opponent's clock.
    /// The caller checks [`Clock::flagged`] first.
    pub fn press(&mut self, mover: Side, now: Instant) {
        let left = self.remaining(mover, now);
        let started = self.running.is_some();
        let slot = if mover == Side::Blue {
            &mut self.remaining.blue
        } else {
            &mut self.remaining.red
        };
        *slot = if started { left + self.increment } else { left };
        self.running = Some((mover.opponent(), now));
    }

    /// Does not charge `side` for its time before `from` (the engine's job waited in line for a thread).
    pub fn excuse_until(&mut self, side: Side, from: Instant) {
        if let Some((running, since)) = self.running.as_mut()
            && *running == side
            && *since < from
        {
            *since = from;
        }
    }

    /// Counts the running side's time from `since` (the move that started its clock was played then).
    pub fn backdate(&mut self, since: Instant) {
        if let Some((_, started)) = self.running.as_mut() {
            *started = since;
        }
    }

    /// Stops the running clock (the game ended), keeping the times shown.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            let left = self.remaining(side, now);
            if side == Side::Blue {
                self.remaining.blue = left;
            } else {
                self.remaining.red = left;
            }
        }
        self.running = None;
    }

    /// Replaces the stored times (a takeback restores the times of the earlier position).
    pub fn set(&mut self, remaining: BySide<Duration>, to_move: Option<Side>, now: Instant) {
        self.remaining = remaining;
        self.running = to_move.map(|side| (side, now));
    }

    /// Both remaining times in whole milliseconds at `now`.
    pub fn millis(&self, now: Instant) -> BySide<u64> {
        BySide::new(
            self.remaining(Side::Blue, now).as_millis() as u64,
            self.remaining(Side::Red, now).as_millis() as u64,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_move_is_untimed_then_clocks_alternate_with_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(Duration::from_secs(60), Duration::from_secs(2));
        clock.press(Side::Blue, t0 + Duration::from_secs(30));
        assert_eq!(clock.remaining(Side::Blue, t0), Duration::from_secs(60));
        assert_eq!(clock.running_side(), Some(Side::Red));
        let t1 = t0 + Duration::from_secs(40);
        assert_eq!(clock.remaining(Side::Red, t1), Duration::from_secs(50));
        clock.press(Side::Red, t1);
        assert_eq!(clock.remaining(Side::Red, t1), Duration::from_secs(52));
        assert!(!clock.flagged(Side::Blue, t1 + Duration::from_secs(59)));
        assert!(clock.flagged(Side::Blue, t1 + Duration::from_secs(60)));
        assert_eq!(clock.deadline(), Some(t1 + Duration::from_secs(60)));
    }

    #[test]
    fn excused_time_is_not_charged() {
        let t0 = Instant::now();
        let mut clock = Clock::new(Duration::from_secs(10), Duration::ZERO);
        clock.press(Side::Blue, t0);
        clock.excuse_until(Side::Red, t0 + Duration::from_secs(60));
        clock.excuse_until(Side::Blue, t0 + Duration::from_secs(90));
        let t1 = t0 + Duration::from_secs(65);
        assert!(!clock.flagged(Side::Red, t1));
        assert_eq!(clock.remaining(Side::Red, t1), Duration::from_secs(5));
    }

    #[test]
    fn stopping_freezes_the_times() {
        let t0 = Instant::now();
        let mut clock = Clock::new(Duration::from_secs(10), Duration::ZERO);
        clock.press(Side::Blue, t0);
        clock.stop(t0 + Duration::from_secs(3));
        assert_eq!(
            clock.remaining(Side::Red, t0 + Duration::from_secs(100)),
            Duration::from_secs(7)
        );
        assert_eq!(clock.deadline(), None);
    }
}
