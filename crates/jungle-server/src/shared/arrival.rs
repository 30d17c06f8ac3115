//! When a frame from a client arrived, as far as its connection's loop can tell, and the wake-ups that let it
//! tell.
//!
//! A frame is read when the loop runs, not when it arrives: a server process that was stopped (`kill -STOP`,
//! a machine that froze) or starved of CPU finds, when it runs again, frames that came in any time since it
//! last ran — a move its player gave up on long ago, after reconnecting through another server. The loop wakes
//! at least every [`WAKE_EVERY`]; a wake much later than that shows it could not run, and a frame read soon
//! after is dated from the moment the loop last ran before, the earliest it may have arrived. The store then
//! refuses such a move if it is too old (`jungle_store::MOVE_MAX_AGE`).

use std::time::Duration;

use tokio::time::Instant;

/// How often a game connection's loop wakes when nothing else wakes it: to notice a stall (below), and to send
/// a heartbeat once one is due. A wake with no heartbeat due sends nothing: no work for the front door or the
/// client.
pub const WAKE_EVERY: Duration = Duration::from_secs(2);

/// How long a game connection may send its client nothing before it sends a heartbeat: nginx closes a
/// connection after 6 s without a byte from its node (deploy/nginx), and the game page takes one that stayed
/// silent for 6 s for dead, so a stopped server costs its players seconds (a heartbeat may come up to 2 s late
/// before either gives up). Four seconds, not two: at a 10 s pace, a heartbeat every 2 s of silence made about
/// nine for each move, each a send by the node, a relay by the front door and a read by the client, about
/// 33 µs of CPU in all on this project's machine (docs/deployment.md, "What stands between this machine and
/// the goal"). The page's reconnection asks the front door first which node answers (`/api/alive/ID`, a 1 s
/// wait), so the longer silence does not add a second wait for a hung node's upgrade.
pub const HEARTBEAT: Duration = Duration::from_secs(4);

/// The heartbeat's message: any message proves the server alive; this one says nothing else.
pub const HEARTBEAT_JSON: &str = r#"{"type":"heartbeat"}"#;

/// A wake this long after the loop's previous one means it could not run in between (its timer is due
/// [`WAKE_EVERY`] after the last thing it sent or woke for; the margin is for a busy machine).
const STALL: Duration = Duration::from_millis(3500);

/// A connection loop's record of when it ran.
#[derive(Debug)]
pub(crate) struct Arrivals {
    last_wake: Instant,
    /// The last moment the loop ran before a stall it noticed, until its timer fires on time again: the
    /// earliest a frame read meanwhile may have arrived.
    stalled_since: Option<Instant>,
}

impl Arrivals {
    pub fn new(now: Instant) -> Arrivals {
        Arrivals {
            last_wake: now,
            stalled_since: None,
        }
    }

    /// The loop woke at `now`; whether it had been kept from running since its previous wake.
    fn wake(&mut self, now: Instant) -> bool {
        let stalled = now.saturating_duration_since(self.last_wake) > STALL;
        if stalled {
            self.stalled_since.get_or_insert(self.last_wake);
        }
        self.last_wake = now;
        stalled
    }

    /// The loop's timer, due at `due`, fired at `now`: on time, it shows the loop runs normally again. (Its
    /// own lateness, not the time since the last wake: after a stop, a frame read first would make the late
    /// timer right after it look on time.)
    pub fn timer(&mut self, due: Instant, now: Instant) {
        let stalled = self.wake(now);
        if !stalled && now.saturating_duration_since(due) <= STALL - WAKE_EVERY {
            self.stalled_since = None;
        }
    }

    /// The loop woke at `now` for anything else than a frame (a state to send).
    pub fn other(&mut self, now: Instant) {
        self.wake(now);
    }

    /// A frame read at `now`: when it may have arrived at the earliest.
    pub fn frame(&mut self, now: Instant) -> Instant {
        self.wake(now);
        self.stalled_since.unwrap_or(now)
    }
}

/// `at` as milliseconds since the epoch (the store's time), from the wall clock now at `now`.
pub(crate) fn epoch_ms(at: Instant, now: Instant) -> i64 {
    let ago = now.saturating_duration_since(at).as_millis();
    jungle_platform::store::now_ms() - i64::try_from(ago).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_frame_read_while_the_loop_runs_normally_arrived_when_it_was_read() {
        let start = Instant::now();
        let mut arrivals = Arrivals::new(start);
        arrivals.timer(start + WAKE_EVERY, start + WAKE_EVERY);
        arrivals.other(start + WAKE_EVERY + SECOND / 2);
        let read = start + WAKE_EVERY + SECOND;
        assert_eq!(arrivals.frame(read), read);
    }

    #[test]
    fn a_frame_read_after_a_stop_is_dated_from_the_last_moment_the_loop_ran() {
        let start = Instant::now();
        let mut arrivals = Arrivals::new(start);
        arrivals.timer(start + WAKE_EVERY, start + WAKE_EVERY);
        let stopped = start + WAKE_EVERY;
        // 40 s stopped; on waking, the late timer may come before the frame or after it.
        let resumed = stopped + 40 * SECOND;
        arrivals.timer(stopped + WAKE_EVERY, resumed);
        assert_eq!(arrivals.frame(resumed), stopped);
        assert_eq!(arrivals.frame(resumed + SECOND / 10), stopped);
        // Once the timer fires on time again, frames are dated as they are read.
        arrivals.timer(resumed + WAKE_EVERY, resumed + WAKE_EVERY);
        let later = resumed + WAKE_EVERY + SECOND / 10;
        assert_eq!(arrivals.frame(later), later);
    }

    #[test]
    fn a_frame_read_first_after_a_stop_is_dated_from_before_it() {
        let start = Instant::now();
        let mut arrivals = Arrivals::new(start);
        let resumed = start + 40 * SECOND;
        assert_eq!(arrivals.frame(resumed), start);
        // The late timer, read just after the frame, does not end the stall: a second frame that waited
        // as long is dated as the first.
        arrivals.timer(start + WAKE_EVERY, resumed);
        assert_eq!(arrivals.frame(resumed), start);
    }

    #[test]
    fn epoch_milliseconds_count_back_from_now() {
        let now = Instant::now();
        let wall = jungle_platform::store::now_ms();
        let then = epoch_ms(now - 40 * SECOND, now);
        assert!((wall - 40_000 - then).abs() < 1_000, "{wall} {then}");
    }
}
