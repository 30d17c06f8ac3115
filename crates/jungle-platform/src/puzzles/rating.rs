//! Puzzle ratings: each rated attempt is a Glicko-2 game between the solver and the puzzle (solved: the
//! solver wins), one rating period of its own, with the same settings as games between players.

use jungle_glicko::{Game, Outcome, Rating, Settings};
use serde::Serialize;
use serde_json::{Value, json};

use crate::store::{PuzzleRating, RatedAttempt};

/// The settings puzzle and solver ratings move by.
pub const SETTINGS: Settings = Settings::GAMES;

/// The new ratings of a solver and a puzzle after an attempt, each against the other's rating from before.
pub fn rate(solved: bool) -> impl FnOnce(Rating, Rating) -> (Rating, Rating) {
    let outcome = if solved { Outcome::Win } else { Outcome::Loss };
    move |solver, puzzle| {
        let solver_after = SETTINGS.update(
            solver,
            &[Game {
                opponent: puzzle,
                outcome,
            }],
        );
        let puzzle_after = SETTINGS.update(
            puzzle,
            &[Game {
                opponent: solver,
                outcome: outcome.reversed(),
            }],
        );
        (solver_after, puzzle_after)
    }
}

/// A rating as the API shows it: rounded rating and deviation, the counts, and whether it is provisional.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RatingView {
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub attempts: u32,
    pub solved: u32,
}

impl RatingView {
    pub fn of(r: &PuzzleRating) -> RatingView {
        RatingView {
            rating: r.rating.rating().round() as i64,
            deviation: r.rating.deviation().round() as i64,
            provisional: r.rating.is_provisional(),
            attempts: r.attempts,
            solved: r.solved,
        }
    }
}

fn exact(r: &Rating) -> Value {
    json!({ "rating": r.rating(), "deviation": r.deviation(), "volatility": r.volatility() })
}

/// The rating changes of an attempt, for the answer: before and after, unrounded.
pub fn changes(r: &RatedAttempt) -> Value {
    json!({
        "solver": { "before": exact(&r.solver_before), "after": exact(&r.solver_after) },
        "puzzle": { "before": exact(&r.puzzle_before), "after": exact(&r.puzzle_after) },
    })
}
