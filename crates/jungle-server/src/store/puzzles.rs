//! The puzzles' storage: puzzle and solver ratings (Glicko-2) and each solver's one rated attempt per puzzle.

use std::collections::HashSet;

use jungle_glicko::Rating;
use rusqlite::{OptionalExtension, Transaction, params};

use super::{Store, StoreError, now_ms};

/// A rating with its counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    pub rating: Rating,
    /// Rated attempts, and how many of them were solved.
    pub attempts: u32,
    pub solved: u32,
}

/// What a rated attempt changed: the solver's and the puzzle's ratings before and after.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedAttempt {
    pub solver_before: Rating,
    pub solver_after: Rating,
    pub puzzle_before: Rating,
    pub puzzle_after: Rating,
}

const PUZZLE_ROW: &str = "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings WHERE puzzle_id = ?1";
const SOLVER_ROW: &str =
    "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_solvers WHERE user_id = ?1";

fn read_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(f64, f64, f64, u32, u32)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
}

/// A stored row as a rating; a row that is no valid rating (edited by hand) counts as a newcomer's.
fn to_rating(row: Option<(f64, f64, f64, u32, u32)>, initial: Rating) -> PuzzleRating {
    match row {
        Some((r, d, v, attempts, solved)) => PuzzleRating {
            rating: Rating::new(r, d, v).unwrap_or(initial),
            attempts,
            solved,
        },
        None => PuzzleRating {
            rating: initial,
            attempts: 0,
            solved: 0,
        },
    }
}

fn row_in(
    tx: &Transaction<'_>,
    sql: &str,
    key: &dyn rusqlite::ToSql,
    initial: Rating,
) -> Result<PuzzleRating, StoreError> {
    let row = tx.query_row(sql, [key], read_row).optional()?;
    Ok(to_rating(row, initial))
}

impl Store {
    /// A puzzle's rating (the newcomer's, `initial`, before any rated attempt).
    pub fn puzzle_rating(
        &self,
        puzzle_id: &str,
        initial: Rating,
    ) -> Result<PuzzleRating, StoreError> {
        let row = self
            .conn()
            .query_row(PUZZLE_ROW, [puzzle_id], read_row)
            .optional()?;
        Ok(to_rating(row, initial))
    }

    /// A solver's puzzle rating.
    pub fn puzzle_solver_rating(
        &self,
        user_id: i64,
        initial: Rating,
    ) -> Result<PuzzleRating, StoreError> {
        let row = self
            .conn()
            .query_row(SOLVER_ROW, [user_id], read_row)
            .optional()?;
        Ok(to_rating(row, initial))
    }

    /// The puzzles a solver has made a rated attempt at.
    pub fn attempted_puzzles(&self, user_id: i64) -> Result<HashSet<String>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare_cached("SELECT puzzle_id FROM puzzle_attempts WHERE user_id = ?1")?;
        let rows = stmt.query_map([user_id], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records a solver's attempt at a puzzle if it is their first, and moves both ratings by `rate` (given the
    /// solver's and the puzzle's ratings, it answers their new ones), all in one transaction. `None` when the
    /// solver had already tried the puzzle: only the first attempt counts.
    pub fn record_puzzle_attempt(
        &self,
        user_id: i64,
        puzzle_id: &str,
        solved: bool,
        initial: Rating,
        rate: impl FnOnce(Rating, Rating) -> (Rating, Rating),
    ) -> Result<Option<RatedAttempt>, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let inserted = tx.execute(
            "INSERT OR IGNORE INTO puzzle_attempts (user_id, puzzle_id, solved, played_at) VALUES (?1, ?2, ?3, ?4)",
            params![user_id, puzzle_id, solved, now_ms()],
        )?;
        if inserted == 0 {
            return Ok(None);
        }
        let solver = row_in(&tx, SOLVER_ROW, &user_id, initial)?;
        let puzzle = row_in(&tx, PUZZLE_ROW, &puzzle_id, initial)?;
        let (solver_after, puzzle_after) = rate(solver.rating, puzzle.rating);
        let won = u32::from(solved);
        tx.execute(
            "INSERT OR REPLACE INTO puzzle_solvers (user_id, rating, deviation, volatility, attempts, solved)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                user_id,
                solver_after.rating(),
                solver_after.deviation(),
                solver_after.volatility(),
                solver.attempts + 1,
                solver.solved + won
            ],
        )?;
        tx.execute(
            "INSERT OR REPLACE INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, solved)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                puzzle_id,
                puzzle_after.rating(),
                puzzle_after.deviation(),
                puzzle_after.volatility(),
                puzzle.attempts + 1,
                puzzle.solved + won
            ],
        )?;
        tx.commit()?;
        Ok(Some(RatedAttempt {
            solver_before: solver.rating,
            solver_after,
            puzzle_before: puzzle.rating,
            puzzle_after,
        }))
    }
}
