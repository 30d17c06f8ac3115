//! A correspondence game's time: days per move instead of a clock, and the moment the side to move runs out
//! (stored with each move, never counted down in memory).

use serde::Serialize;

/// A day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// A correspondence game's time: the days each move may take and when the side to move runs out (Unix ms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Correspondence {
    pub days_per_move: u32,
    pub deadline_ms: i64,
}

impl Correspondence {
    /// The first deadline of a game made at `now`: the first mover has the days of one move.
    pub fn starting(days_per_move: u32, now: i64) -> Correspondence {
        Correspondence {
            days_per_move,
            deadline_ms: now + i64::from(days_per_move) * DAY_MS,
        }
    }

    /// The time after a move made at `now`: the opponent has a full move's days.
    pub fn after_move(self, now: i64) -> Correspondence {
        Correspondence::starting(self.days_per_move, now)
    }

    /// Whether the side to move has run out at `now`.
    pub fn overdue(self, now: i64) -> bool {
        now >= self.deadline_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_move_gives_the_opponent_a_full_move_of_days() {
        let start = Correspondence::starting(3, 1000);
        assert_eq!(start.deadline_ms, 1000 + 3 * DAY_MS);
        assert!(!start.overdue(1000 + 3 * DAY_MS - 1));
        assert!(start.overdue(1000 + 3 * DAY_MS));
        let later = start.after_move(5000);
        assert_eq!(later.deadline_ms, 5000 + 3 * DAY_MS);
        assert_eq!(later.days_per_move, 3);
    }
}
