//! Time controls and the clocks that run them: `tc=40/60+0.6` (moves/seconds+increment), `tc=10+0.1`,
//! `tc=inf`, `st=` fixed seconds per move, plus `depth=` and `nodes=` limits.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time-control text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("time control \"{0}\" should look like 40/60+0.6, 10+0.1, 1:30+1 or inf")]
    Shape(String),
    #[error("time control \"{text}\": \"{part}\" is not a non-negative number of {what}")]
    Number {
        text: String,
        part: String,
        what: &'static str,
    },
}

/// How much time a player has: `moves` moves in `base` (then `base` again), plus `increment` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockControl {
    /// Moves per period; `None` for the whole game (sudden death).
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

/// The `tc=` setting of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Clock(ClockControl),
    /// No clock: only depth or node limits (or none) bound the search.
    Infinite,
}

pub(crate) fn parse_seconds(text: &str, part: &str) -> Result<Duration, TimeControlError> {
    let bad = || TimeControlError::Number {
        text: text.to_string(),
        part: part.to_string(),
        what: "seconds",
    };
    // `m:ss` as cutechess allows, or plain (fractional) seconds.
    let seconds = match part.split_once(':') {
        Some((m, s)) => {
            let m: f64 = m.parse().map_err(|_| bad())?;
            let s: f64 = s.parse().map_err(|_| bad())?;
            m * 60.0 + s
        }
        None => part.parse().map_err(|_| bad())?,
    };
    if !seconds.is_finite() || !(0.0..=1e9).contains(&seconds) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let t = text.trim();
        if t == "inf" || t == "infinite" {
            return Ok(TimeControl::Infinite);
        }
        if t.is_empty() {
            return Err(TimeControlError::Shape(text.to_string()));
        }
        let (moves, rest) = match t.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m.parse().map_err(|_| TimeControlError::Number {
                    text: text.to_string(),
                    part: m.to_string(),
                    what: "moves",
                })?;
                (if moves == 0 { None } else { Some(moves) }, rest)
            }
            None => (None, t),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (parse_seconds(text, b)?, parse_seconds(text, i)?),
            None => (parse_seconds(text, rest)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return Err(TimeControlError::Shape(text.to_string()));
        }
        Ok(TimeControl::Clock(ClockControl {
            moves,
            base,
            increment,
        }))
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `40/60+0.6`, `10+0.1`, `-` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Infinite => f.write_str("-"),
            TimeControl::Clock(c) => {
                if let Some(m) = c.moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", c.base.as_secs_f64())?;
                if !c.increment.is_zero() {
                    write!(f, "+{}", c.increment.as_secs_f64())?;
                }
                Ok(())
            }
        }
    }
}

/// Everything that limits one engine's thinking: its clock or fixed move time, and depth or node caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    pub time_control: TimeControl,
    /// `st=`: a fixed time per move (sent as `go movetime`), instead of a clock.
    pub move_time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// How far past its time an engine may answer before it loses on time (`timemargin=` in ms).
    pub time_margin: Duration,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            time_control: TimeControl::Infinite,
            move_time: None,
            depth: None,
            nodes: None,
            time_margin: Duration::from_millis(100),
        }
    }
}

impl SearchLimits {
    /// True when something bounds the search (otherwise an engine could think forever).
    pub fn is_bounded(&self) -> bool {
        matches!(self.time_control, TimeControl::Clock(_))
            || self.move_time.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
    }

    /// The PGN `TimeControl` tag for these limits.
    pub fn pgn_tag(&self) -> String {
        match (self.time_control, self.move_time) {
            (TimeControl::Clock(_), _) => self.time_control.to_string(),
            (TimeControl::Infinite, Some(st)) => format!("{}/move", st.as_secs_f64()),
            (TimeControl::Infinite, None) => "-".to_string(),
        }
    }
}

/// One player's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    control: Option<ClockControl>,
    remaining: Duration,
    moves_made: u32,
}

/// The result of charging a move's time to a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    InTime,
    /// The move came after the time (plus margin) ran out.
    Overrun {
        over_by: Duration,
    },
}

impl Clock {
    pub fn new(limits: &SearchLimits) -> Clock {
        match limits.time_control {
            TimeControl::Clock(c) => Clock {
                control: Some(c),
                remaining: c.base,
                moves_made: 0,
            },
            TimeControl::Infinite => Clock {
                control: None,
                remaining: Duration::ZERO,
                moves_made: 0,
            },
        }
    }

    pub fn is_running(&self) -> bool {
        self.control.is_some()
    }

    /// Time left on the clock (zero without a clock).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    pub fn increment(&self) -> Duration {
        self.control.map_or(Duration::ZERO, |c| c.increment)
    }

    /// Moves left until the next time control, for `go movestogo`.
    pub fn moves_to_go(&self) -> Option<u32> {
        let period = self.control?.moves?;
        Some(period - self.moves_made % period)
    }

    /// Takes a move's thinking time off the clock, then adds the increment and, at the end of a period,
    /// the next period's time.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Charge {
        let Some(control) = self.control else {
            return Charge::InTime;
        };
        if elapsed > self.remaining + margin {
            let over_by = elapsed - self.remaining;
            self.remaining = Duration::ZERO;
            return Charge::Overrun { over_by };
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + control.increment;
        self.moves_made += 1;
        if let Some(period) = control.moves
            && self.moves_made.is_multiple_of(period)
        {
            self.remaining += control.base;
        }
        Charge::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn reads_cutechess_time_controls() {
        assert_eq!(
            "40/60+0.6".parse::<TimeControl>().unwrap(),
            TimeControl::Clock(ClockControl {
                moves: Some(40),
                base: secs(60.0),
                increment: secs(0.6)
            })
        );
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap(),
            TimeControl::Clock(ClockControl {
                moves: None,
                base: secs(10.0),
                increment: secs(0.1)
            })
        );
        assert_eq!(
            "1:30".parse::<TimeControl>().unwrap(),
            TimeControl::Clock(ClockControl {
                moves: None,
                base: secs(90.0),
                increment: Duration::ZERO
            })
        );
        assert_eq!("inf".parse::<TimeControl>().unwrap(), TimeControl::Infinite);
        assert_eq!(
            "40/60+0.6".parse::<TimeControl>().unwrap().to_string(),
            "40/60+0.6"
        );
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap().to_string(),
            "10+0.1"
        );
    }

    #[test]
    fn bad_time_controls_say_what_is_wrong() {
        for bad in ["", "x/60", "40/abc", "10+", "-5", "0+0", "nan"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad} accepted");
        }
        let e = "40/six".parse::<TimeControl>().unwrap_err().to_string();
        assert!(e.contains("six"), "{e}");
    }

    #[test]
    fn clocks_add_increment_and_new_periods() {
        let limits = SearchLimits {
            time_control: "2/10+1".parse().unwrap(),
            ..SearchLimits::default()
        };
        let mut clock = Clock::new(&limits);
        assert_eq!(clock.moves_to_go(), Some(2));
        assert_eq!(clock.charge(secs(3.0), Duration::ZERO), Charge::InTime);
        assert_eq!(clock.remaining(), secs(8.0));
        assert_eq!(clock.moves_to_go(), Some(1));
        assert_eq!(clock.charge(secs(4.0), Duration::ZERO), Charge::InTime);
        // 8 − 4 + 1 increment + 10 for the new period.
        assert_eq!(clock.remaining(), secs(15.0));
        assert_eq!(clock.moves_to_go(), Some(2));
        assert!(matches!(
            clock.charge(secs(15.5), secs(0.2)),
            Charge::Overrun { .. }
        ));
    }

    #[test]
    fn margin_forgives_small_overruns() {
        let limits = SearchLimits {
            time_control: "1".parse().unwrap(),
            ..SearchLimits::default()
        };
        let mut clock = Clock::new(&limits);
        assert_eq!(clock.charge(secs(1.05), secs(0.1)), Charge::InTime);
        assert_eq!(clock.remaining(), Duration::ZERO);
        let mut free = Clock::new(&SearchLimits::default());
        assert_eq!(free.charge(secs(1e6), Duration::ZERO), Charge::InTime);
    }
}
