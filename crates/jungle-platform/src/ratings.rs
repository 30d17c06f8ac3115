//! Ratings (docs/ratings.md): Glicko-2 ratings per account and speed category.
//!
//! A game is rated when it is made so (the lobby pairs two accounts under the standard rules, on a clock or
//! days per move); its end moves both players' ratings exactly once, in the same transaction that stores the
//! result (`Store::finish`). Everything else is casual: games against the engine (whose levels have fixed
//! published ratings instead, [`engine_levels`]), untimed games, other rules, friend links.

pub mod engine_levels;

pub use crate::store::rating_rule::{PERIOD_MS, SETTINGS, idle_periods, rateable_rules, shown};
pub use crate::store::{Category, Outcome, Rating, Settings};
