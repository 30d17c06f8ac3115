//! What the puzzle pages read across puzzles: a solver's rated attempts newest first (the profile's puzzle
//! history) and every puzzle's current rating (the streak's order of difficulty).

use std::collections::HashMap;

use serde::Serialize;

use super::db::params;
use super::{Store, StoreError};

/// One rated attempt of a solver, as the profile's puzzle history shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleAttempt {
    pub puzzle_id: String,
    pub solved: bool,
    /// The solver's puzzle rating before and after the attempt (`None` for attempts recorded before the
    /// store kept them).
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    /// Unix milliseconds.
    pub played_at: i64,
}

impl Store {
    /// A page of a solver's rated attempts, newest first: `limit` of them after skipping `offset`.
    pub fn puzzle_history(
        &self,
        user_id: i64,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<PuzzleAttempt>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT puzzle_id, solved, rating_before, rating_after, played_at FROM puzzle_attempts
                 WHERE user_id = ?1 ORDER BY played_at DESC, solver_attempt DESC LIMIT ?2 OFFSET ?3",
                params![user_id, i64::from(limit), i64::from(offset)],
                |r| {
                    Ok(PuzzleAttempt {
                        puzzle_id: r.get(0)?,
                        solved: r.get(1)?,
                        rating_before: r.get(2)?,
                        rating_after: r.get(3)?,
                        played_at: r.get(4)?,
                    })
                },
            )
        })
    }

    /// The rating of every puzzle with a rated attempt (the others have the newcomer's), by puzzle id. As many
    /// rows as puzzles in the collection at most.
    pub fn puzzle_ratings(&self) -> Result<HashMap<String, f64>, StoreError> {
        let rows: Vec<(String, f64)> = self.with(|conn| {
            conn.query_map(
                "SELECT puzzle_id, rating FROM puzzle_ratings",
                params![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })?;
        Ok(rows.into_iter().collect())
    }
}
