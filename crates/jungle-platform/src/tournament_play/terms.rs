//! A new tournament as a page sends it (`POST /api/tournaments`), checked once: what is stored is valid. The
//! clock and the rules are checked as a lobby seek's are (the same code), so a tournament game can be anything
//! a lobby game can, rated on the same conditions.

use jungle_rules::Preset;
use serde::Deserialize;

use super::TournamentError;
use crate::lobby::seek::{SeekRequest, TimeControl};
use crate::store::TournamentKind;

/// The longest tournament name, in characters.
pub const MAX_NAME: usize = 60;
/// The most rounds a Swiss event may have.
pub const MAX_ROUNDS: u32 = 11;
/// The longest arena, in minutes.
pub const MAX_ARENA_MINUTES: f64 = 180.0;
/// How far ahead a tournament may be set to start, in minutes (a week).
pub const MAX_START_AHEAD_MINUTES: u32 = 7 * 24 * 60;
/// A start time this far in the past (a slow form, a clock a little off) is taken as "now".
const START_SLACK_MS: i64 = 5 * 60_000;

/// The bounds on what tournaments can make the server hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TournamentLimits {
    /// Entrants in one tournament.
    pub players: u32,
    /// Tournaments one account may have not yet finished.
    pub open_per_account: u32,
    /// Tournaments one account may create in a day.
    pub per_account_per_day: u32,
}

pub const LIMITS: TournamentLimits = TournamentLimits {
    players: 64,
    open_per_account: 3,
    per_account_per_day: 10,
};

/// The request. `minutes` + `increment` is the clock; `kind` is `swiss` (with `rounds`) or `arena` (with
/// `arena_minutes`); the start is `starts_at` (Unix ms) or `starts_in_minutes` (0: now).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub name: String,
    /// A rules preset name (`standard`, `modern`, …), default standard.
    #[serde(default)]
    pub preset: Option<String>,
    pub minutes: f64,
    #[serde(default)]
    pub increment: Option<u32>,
    pub kind: String,
    #[serde(default)]
    pub rounds: Option<u32>,
    #[serde(default)]
    pub arena_minutes: Option<f64>,
    #[serde(default)]
    pub starts_at: Option<i64>,
    #[serde(default)]
    pub starts_in_minutes: Option<u32>,
    #[serde(default)]
    pub rated: bool,
}

/// A checked request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terms {
    pub name: String,
    pub rules: String,
    pub clock_initial_ms: u64,
    pub clock_increment_ms: u64,
    pub kind: TournamentKind,
    pub starts_at: i64,
    pub rated: bool,
}

impl CreateRequest {
    /// Checks every field at `now`. `min_clock_ms` is the server's shortest clock, `min_arena_ms` its
    /// shortest arena.
    ///
    /// # Errors
    /// [`TournamentError::Bad`] naming the field.
    pub fn check(
        &self,
        now: i64,
        min_clock_ms: u64,
        min_arena_ms: u64,
    ) -> Result<Terms, TournamentError> {
        let bad = |text: String| TournamentError::Bad(text);
        let name = self.name.trim();
        if name.is_empty() {
            return Err(bad("a tournament needs a name".into()));
        }
        if name.chars().count() > MAX_NAME {
            return Err(bad(format!(
                "the name is longer than {MAX_NAME} characters"
            )));
        }
        if name.chars().any(char::is_control) {
            return Err(bad("the name has control characters".into()));
        }
        let preset = self.preset.as_deref().unwrap_or("standard").trim();
        if Preset::from_name(preset).is_none() {
            return Err(bad(format!(
                "unknown rules preset \"{}\" (valid: {})",
                super::clip(preset),
                Preset::ALL.map(|p| p.name()).join(", ")
            )));
        }
        // The clock and the rules as a seek's: the same bounds and the same rule for rated games.
        let seek = SeekRequest {
            minutes: Some(self.minutes),
            increment: self.increment,
            rules: Some(preset.to_string()),
            rated: self.rated,
            ..SeekRequest::default()
        }
        .check(min_clock_ms)
        .map_err(|e| bad(e.to_string()))?;
        let TimeControl::Clock {
            initial_ms,
            increment_ms,
        } = seek.time
        else {
            return Err(bad("a tournament is played with a clock".into()));
        };
        let kind = match (self.kind.as_str(), self.rounds, self.arena_minutes) {
            ("swiss", Some(rounds), None) => {
                if !(1..=MAX_ROUNDS).contains(&rounds) {
                    return Err(bad(format!("rounds {rounds} should be 1 to {MAX_ROUNDS}")));
                }
                TournamentKind::Swiss { rounds }
            }
            ("swiss", None, _) => {
                return Err(bad("a Swiss event needs its number of rounds".into()));
            }
            ("arena", None, Some(minutes)) => {
                let duration_ms = (minutes * 60_000.0).round();
                if !minutes.is_finite()
                    || duration_ms < min_arena_ms as f64
                    || minutes > MAX_ARENA_MINUTES
                {
                    return Err(bad(format!(
                        "arena minutes {minutes} should be {} to {MAX_ARENA_MINUTES}",
                        min_arena_ms as f64 / 60_000.0
                    )));
                }
                TournamentKind::Arena {
                    duration_ms: duration_ms as u64,
                }
            }
            ("arena", None, None) => {
                return Err(bad("an arena needs its length in minutes".into()));
            }
            ("swiss" | "arena", ..) => {
                return Err(bad(
                    "a Swiss event has rounds and an arena has minutes, not both".into(),
                ));
            }
            (other, ..) => {
                return Err(bad(format!(
                    "kind \"{}\" should be swiss or arena",
                    super::clip(other)
                )));
            }
        };
        let starts_at = match (self.starts_at, self.starts_in_minutes) {
            (Some(_), Some(_)) => {
                return Err(bad(
                    "give a start time or minutes until the start, not both".into(),
                ));
            }
            (None, None) => now,
            (None, Some(minutes)) => {
                if minutes > MAX_START_AHEAD_MINUTES {
                    return Err(bad(format!(
                        "the start should be at most {MAX_START_AHEAD_MINUTES} minutes away"
                    )));
                }
                now + i64::from(minutes) * 60_000
            }
            (Some(at), None) => {
                if at < now - START_SLACK_MS {
                    return Err(bad("the start time has passed".into()));
                }
                if at > now + i64::from(MAX_START_AHEAD_MINUTES) * 60_000 {
                    return Err(bad("the start should be at most a week away".into()));
                }
                at.max(now)
            }
        };
        Ok(Terms {
            name: name.to_string(),
            rules: seek.rules,
            clock_initial_ms: initial_ms,
            clock_increment_ms: increment_ms,
            kind,
            starts_at,
            rated: seek.rated,
        })
    }
}
