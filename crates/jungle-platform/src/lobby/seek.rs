//! A seek: an open challenge in the lobby — its time control, rules, rated or casual, the creator's colour, the
//! opponents' rating range, and for a direct challenge the one account it is meant for. The request a page
//! sends is checked here once; what is stored is valid.

use jungle_rules::Rules;
use serde::Deserialize;

use super::LobbyError;
pub use crate::store::{Colour, SEEK_GRACE_MS, Seek, TimeControl};

/// The days a correspondence player may take per move.
pub const DAYS_PER_MOVE: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// The quick-pairing time controls (minutes + seconds per move), one button each in the lobby.
pub const QUICK_PAIRINGS: [(u32, u32); 6] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 20)];

/// Open seeks one account may have at once (quick pairings and direct challenges included).
pub const MAX_OPEN_SEEKS: usize = 3;

/// The widest rating range a seek may name.
const RATINGS: std::ops::RangeInclusive<i32> = 0..=4000;

/// A new seek as a page sends it (`POST /api/seeks`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// Minutes per side and seconds added per move (a real-time game)…
    #[serde(default)]
    pub minutes: Option<f64>,
    #[serde(default)]
    pub increment: Option<u32>,
    /// …or days per move (correspondence): one of [`DAYS_PER_MOVE`].
    #[serde(default)]
    pub days: Option<u32>,
    /// A rule option string (docs/rules.md), default the standard rules.
    #[serde(default)]
    pub rules: Option<String>,
    #[serde(default)]
    pub rated: bool,
    /// The creator's colour, default random.
    #[serde(default)]
    pub colour: Option<Colour>,
    /// The opponents' rating range (either end may be left open).
    #[serde(default)]
    pub rating_min: Option<i32>,
    #[serde(default)]
    pub rating_max: Option<i32>,
    /// A direct challenge: the name of the only player who may accept.
    #[serde(default)]
    pub opponent: Option<String>,
}

/// A checked seek, before it is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekTerms {
    /// The canonical rule option string.
    pub rules: String,
    pub standard_rules: bool,
    pub time: TimeControl,
    pub rated: bool,
    pub colour: Colour,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
}

impl SeekRequest {
    /// Checks every field. `min_clock_ms` is the server's shortest clock.
    ///
    /// # Errors
    /// [`LobbyError::Bad`] naming the field.
    pub fn check(&self, min_clock_ms: u64) -> Result<SeekTerms, LobbyError> {
        let bad = |text: String| LobbyError::Bad(text);
        let rules_text = self.rules.as_deref().unwrap_or("").trim();
        if rules_text.len() > crate::hub::MAX_TEXT {
            return Err(bad("rules: option string too long".into()));
        }
        let rules: Rules = rules_text.parse().map_err(|e| bad(format!("rules: {e}")))?;
        let time = match (self.minutes, self.days) {
            (Some(_), Some(_)) => {
                return Err(bad(
                    "a seek has a clock (minutes) or days per move, not both".into(),
                ));
            }
            (None, None) => {
                return Err(bad("a seek needs a clock (minutes) or days per move".into()));
            }
            (None, Some(days)) => {
                if !DAYS_PER_MOVE.contains(&days) {
                    return Err(bad(format!(
                        "days {days} should be one of {}",
                        DAYS_PER_MOVE.map(|d| d.to_string()).join(", ")
                    )));
                }
                if self.increment.is_some() {
                    return Err(bad("a correspondence seek has no increment".into()));
                }
                TimeControl::Correspondence {
                    days_per_move: days,
                }
            }
            (Some(minutes), None) => {
                let min_minutes = min_clock_ms as f64 / 60_000.0;
                if !(min_minutes..=180.0).contains(&minutes) {
                    return Err(bad(format!(
                        "minutes {minutes} should be {min_minutes} to 180"
                    )));
                }
                let increment = self.increment.unwrap_or(0);
                if increment > 60 {
                    return Err(bad(format!(
                        "increment {increment} should be 0 to 60 seconds"
                    )));
                }
                TimeControl::Clock {
                    initial_ms: (minutes * 60_000.0).round() as u64,
                    increment_ms: u64::from(increment) * 1000,
                }
            }
        };
        if self.rated && !rules.is_standard() {
            return Err(bad(
                "only games under the standard rules are rated: make it casual or choose the standard rules"
                    .into(),
            ));
        }
        for (name, value) in [
            ("rating_min", self.rating_min),
            ("rating_max", self.rating_max),
        ] {
            if let Some(value) = value
                && !RATINGS.contains(&value)
            {
                return Err(bad(format!(
                    "{name} {value} should be {} to {}",
                    RATINGS.start(),
                    RATINGS.end()
                )));
            }
        }
        if let (Some(min), Some(max)) = (self.rating_min, self.rating_max)
            && min > max
        {
            return Err(bad(format!("rating_min {min} is above rating_max {max}")));
        }
        Ok(SeekTerms {
            rules: rules.to_string(),
            standard_rules: rules.is_standard(),
            time,
            rated: self.rated,
            colour: self.colour.unwrap_or(Colour::Random),
            rating_min: self.rating_min,
            rating_max: self.rating_max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(request: SeekRequest) -> Result<SeekTerms, String> {
        request.check(15_000).map_err(|e| e.to_string())
    }

    #[test]
    fn a_seek_has_exactly_one_time_control_from_the_allowed_values() {
        let clock = check(SeekRequest {
            minutes: Some(3.0),
            increment: Some(2),
            ..SeekRequest::default()
        })
        .unwrap();
        assert_eq!(
            clock.time,
            TimeControl::Clock {
                initial_ms: 180_000,
                increment_ms: 2000
            }
        );
        assert_eq!(clock.colour, Colour::Random);
        let days = check(SeekRequest {
            days: Some(3),
            ..SeekRequest::default()
        })
        .unwrap();
        assert_eq!(days.time, TimeControl::Correspondence { days_per_move: 3 });
        assert!(check(SeekRequest::default()).unwrap_err().contains("needs"));
        let both = SeekRequest {
            minutes: Some(3.0),
            days: Some(3),
            ..SeekRequest::default()
        };
        assert!(check(both).unwrap_err().contains("not both"));
        let four_days = SeekRequest {
            days: Some(4),
            ..SeekRequest::default()
        };
        assert!(check(four_days).unwrap_err().contains("1, 2, 3, 5, 7, 14"));
        let too_short = SeekRequest {
            minutes: Some(0.1),
            ..SeekRequest::default()
        };
        assert!(check(too_short).unwrap_err().contains("minutes"));
    }

    #[test]
    fn rated_seeks_need_the_standard_rules_and_ranges_must_be_sane() {
        let rated_modern = SeekRequest {
            minutes: Some(5.0),
            rated: true,
            rules: Some("modern".into()),
            ..SeekRequest::default()
        };
        assert!(check(rated_modern).unwrap_err().contains("standard rules"));
        let casual_modern = SeekRequest {
            minutes: Some(5.0),
            rules: Some("modern".into()),
            ..SeekRequest::default()
        };
        assert!(!check(casual_modern).unwrap().standard_rules);
        let upside_down = SeekRequest {
            minutes: Some(5.0),
            rating_min: Some(1800),
            rating_max: Some(1200),
            ..SeekRequest::default()
        };
        assert!(check(upside_down).unwrap_err().contains("above"));
        let absurd = SeekRequest {
            minutes: Some(5.0),
            rating_max: Some(99_999),
            ..SeekRequest::default()
        };
        assert!(check(absurd).unwrap_err().contains("rating_max"));
        let bad_rules = SeekRequest {
            minutes: Some(5.0),
            rules: Some("tiger-swims".into()),
            ..SeekRequest::default()
        };
        assert!(check(bad_rules).unwrap_err().starts_with("rules:"));
    }

    #[test]
    fn a_range_admits_ratings_inside_it() {
        let seek = Seek {
            id: "s".into(),
            created_at: 0,
            creator_id: 1,
            creator_name: "a".into(),
            rules: "standard".into(),
            time: TimeControl::Correspondence { days_per_move: 1 },
            rated: true,
            colour: Colour::Random,
            rating_min: Some(1400),
            rating_max: None,
            target_id: None,
            target_name: None,
            declined: false,
        };
        assert!(seek.admits(1400) && seek.admits(2500));
        assert!(!seek.admits(1399));
    }
}
