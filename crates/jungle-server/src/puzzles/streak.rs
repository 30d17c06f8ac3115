//! The puzzle streak (`/puzzles/streak`): puzzles one after another, each at least as hard as the one before,
//! until the first mistake. The page keeps the streak (the ids seen so far) and asks for the next puzzle with
//! `GET /api/puzzles/streak?seen=ID,ID,…`; the server keeps nothing between requests.
//!
//! "Hard" is the puzzle's rating (Glicko-2, moved by every first attempt), then the number of moves to find:
//! on a fresh database every puzzle has the newcomer's rating, and a longer line is the harder one.

use std::collections::{HashMap, HashSet};

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use jungle_puzzles::Puzzle;
use rand::seq::IteratorRandom;
use serde::Deserialize;

use super::{PublicPuzzle, find, public};
use crate::AppState;
use crate::shared::error::ApiError;
use jungle_platform::hub::HubError;
use jungle_platform::puzzles::collection::PUZZLES;
use jungle_platform::puzzles::rating;

/// The most puzzles a streak may list as seen (a query of about 20 kB); a longer streak starts over.
pub const MAX_STREAK: usize = 500;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StreakQuery {
    /// The ids of the streak's puzzles so far, oldest first, comma-separated.
    #[serde(default)]
    seen: String,
}

/// How hard a puzzle is: its rating (rounded) and then how many moves its line has. Ordered: harder is more.
type Difficulty = (i64, usize);

fn difficulty(ratings: &HashMap<String, f64>, initial: f64, puzzle: &Puzzle) -> Difficulty {
    let rating = ratings.get(&puzzle.id).copied().unwrap_or(initial);
    (rating.round() as i64, puzzle.solution.len())
}

/// The next puzzle of a streak: of the puzzles not seen yet, the easiest of those at least as hard as the last
/// one seen (a random one of equals, so streaks differ); when none is, the hardest left.
pub(super) async fn next_in_streak(
    State(hub): State<AppState>,
    query: Result<Query<StreakQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<PublicPuzzle>, ApiError> {
    let Query(query) = query?;
    let seen: Vec<&str> = query.seen.split(',').filter(|id| !id.is_empty()).collect();
    if seen.len() > MAX_STREAK {
        return Err(ApiError(
            StatusCode::BAD_REQUEST,
            format!("seen: at most {MAX_STREAK} puzzles"),
        ));
    }
    let mut last = None;
    for id in &seen {
        let (puzzle, _) = find(id).map_err(|ApiError(_, message)| {
            ApiError(StatusCode::BAD_REQUEST, format!("seen: {message}"))
        })?;
        last = Some(puzzle);
    }
    let ratings = hub.store.puzzle_ratings().map_err(HubError::from)?;
    let initial = rating::SETTINGS.initial.rating();
    let hardness = |p: &Puzzle| difficulty(&ratings, initial, p);
    let seen: HashSet<&str> = seen.into_iter().collect();
    let unseen = || {
        PUZZLES
            .all()
            .iter()
            .filter(|(p, _)| !seen.contains(p.id.as_str()))
    };
    let floor = last.map(hardness);
    let target = unseen()
        .map(|(p, _)| hardness(p))
        .filter(|d| floor.is_none_or(|f| *d >= f))
        .min()
        .or_else(|| unseen().map(|(p, _)| hardness(p)).max())
        .ok_or_else(|| {
            ApiError(
                StatusCode::NOT_FOUND,
                "this streak has seen every puzzle".into(),
            )
        })?;
    let (puzzle, line) = unseen()
        .filter(|(p, _)| hardness(p) == target)
        .choose(&mut rand::rng())
        .expect("a puzzle of the difficulty just found");
    Ok(Json(public(&hub, puzzle, line)?))
}
