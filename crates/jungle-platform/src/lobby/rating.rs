//! The lobby's view of ratings (the ratings module owns them): an account's rating in the category of a
//! seek's time control, for rating ranges and the lobby's lists.

use crate::lobby::seek::TimeControl;
use crate::ratings::Category;
use crate::store::{Store, StoreError};

/// The rating category a seek's games are rated in.
pub fn category_of(time: TimeControl) -> Category {
    match time {
        TimeControl::Clock {
            initial_ms,
            increment_ms,
        } => Category::of_clock(initial_ms, increment_ms),
        TimeControl::Correspondence { .. } => Category::Correspondence,
    }
}

/// An account's rating in the speed category of `time`, rounded (the starting rating when it has none yet).
///
/// # Errors
/// When the database cannot be read.
pub fn rating_of(store: &Store, user_id: i64, time: TimeControl) -> Result<i32, StoreError> {
    let rating = store.rating_of(user_id, category_of(time))?;
    Ok(rating.rating().round() as i32)
}
