//! The puzzles' storage: puzzle and solver ratings (Glicko-2) and each solver's one rated attempt per puzzle.

use std::collections::HashSet;

use super::db::{Conn, Param, Row, params};
use super::{Store, StoreError, now_ms};
use jungle_glicko::Rating;

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

const PUZZLE_WRITE: &str =
    "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, solved)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
     ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
        volatility = excluded.volatility, attempts = excluded.attempts, solved = excluded.solved";
const SOLVER_WRITE: &str =
    "INSERT INTO puzzle_solvers (user_id, rating, deviation, volatility, attempts, solved)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
     ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
        volatility = excluded.volatility, attempts = excluded.attempts, solved = excluded.solved";

/// Stores `rating` and the counts in the row `sql` writes for `key` (the solver's or the puzzle's).
fn write_rating(
    conn: &dyn Conn,
    sql: &str,
    key: &dyn Param,
    rating: Rating,
    attempts: u32,
    solved: u32,
) -> Result<(), StoreError> {
    conn.execute(
        sql,
        &[
            key,
            &rating.rating(),
            &rating.deviation(),
            &rating.volatility(),
            &attempts,
            &solved,
        ],
    )?;
    Ok(())
}

fn read_row(r: &Row) -> Result<(f64, f64, f64, u32, u32), StoreError> {
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

/// The rating in the row `sql` reads for `key` (a newcomer's, `initial`, without one).
fn rating_in(
    conn: &dyn Conn,
    sql: &str,
    key: &dyn Param,
    initial: Rating,
) -> Result<PuzzleRating, StoreError> {
    let row = conn.query_opt(sql, &[key], read_row)?;
    Ok(to_rating(row, initial))
}

impl Store {
    /// A puzzle's rating (the newcomer's, `initial`, before any rated attempt).
    pub fn puzzle_rating(
        &self,
        puzzle_id: &str,
        initial: Rating,
    ) -> Result<PuzzleRating, StoreError> {
        self.with(|conn| rating_in(conn, PUZZLE_ROW, &puzzle_id, initial))
    }

    /// A solver's puzzle rating.
    pub fn puzzle_solver_rating(
        &self,
        user_id: i64,
        initial: Rating,
    ) -> Result<PuzzleRating, StoreError> {
        self.with(|conn| rating_in(conn, SOLVER_ROW, &user_id, initial))
    }

    /// The puzzles a solver has made a rated attempt at.
    pub fn attempted_puzzles(&self, user_id: i64) -> Result<HashSet<String>, StoreError> {
        let ids = self.with(|conn| {
            conn.query_map(
                "SELECT puzzle_id FROM puzzle_attempts WHERE user_id = ?1",
                params![user_id],
                |r| r.get(0),
            )
        })?;
        Ok(ids.into_iter().collect())
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
        self.transaction(|tx| {
            let inserted = tx.execute(
                "INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, played_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (user_id, puzzle_id) DO NOTHING",
                params![user_id, puzzle_id, solved, now_ms()],
            )?;
            if inserted == 0 {
                return Ok(None);
            }
            // The solver's row and the puzzle's are read, then rewritten: locked first, so a concurrent
            // attempt (on another connection) waits rather than overwriting this one.
            super::ratings::lock_accounts(tx, &[user_id])?;
            tx.execute(
                "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, solved)
                 VALUES (?1, ?2, ?3, ?4, 0, 0)
                 ON CONFLICT (puzzle_id) DO UPDATE SET attempts = puzzle_ratings.attempts",
                params![puzzle_id, initial.rating(), initial.deviation(), initial.volatility()],
            )?;
            let solver = rating_in(tx, SOLVER_ROW, &user_id, initial)?;
            let puzzle = rating_in(tx, PUZZLE_ROW, &puzzle_id, initial)?;
            let (solver_after, puzzle_after) = rate(solver.rating, puzzle.rating);
            // Kept on the attempt for the solver's puzzle history (src/puzzle_history.rs).
            tx.execute(
                "UPDATE puzzle_attempts SET rating_before = ?1, rating_after = ?2, solver_attempt = ?3
                 WHERE user_id = ?4 AND puzzle_id = ?5",
                params![
                    solver.rating.rating(),
                    solver_after.rating(),
                    solver.attempts + 1,
                    user_id,
                    puzzle_id
                ],
            )?;
            let won = u32::from(solved);
            write_rating(
                tx,
                SOLVER_WRITE,
                &user_id,
                solver_after,
                solver.attempts + 1,
                solver.solved + won,
            )?;
            write_rating(
                tx,
                PUZZLE_WRITE,
                &puzzle_id,
                puzzle_after,
                puzzle.attempts + 1,
                puzzle.solved + won,
            )?;
            Ok(Some(RatedAttempt {
                solver_before: solver.rating,
                solver_after,
                puzzle_before: puzzle.rating,
                puzzle_after,
            }))
        })
    }
}
