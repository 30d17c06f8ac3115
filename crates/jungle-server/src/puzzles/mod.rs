//! Puzzles: the `/puzzles` page and its API. The collection is embedded ([`collection`]); a solver plays the
//! solution move by move and the server checks each move, so the solution is never sent before the attempt
//! is over. Signed-in solvers' first attempt at a puzzle moves both Glicko-2 ratings ([`rating`]).
//!
//! - `GET /api/puzzles`: the number of puzzles per theme and today's puzzle id.
//! - `GET /api/puzzles/daily`, `GET /api/puzzles/next?theme=T&after=ID`, `GET /api/puzzles/{id}`: a puzzle
//!   as the solver sees it ([`PublicPuzzle`]).
//! - `POST /api/puzzles/{id}/moves` with `{"moves": [...]}` (the line so far, ending with the solver's new
//!   move): `continue` with the reply, or `solved` / `failed` with the solution and the ratings; moves come
//!   in coordinates (`a3a4`, for the board) and in the animal notation of the game page (`Ea3-a4`, to read).
//! - `GET /api/puzzles/streak?seen=ID,…`: the next puzzle of a streak ([`streak`]).
//! - `GET /api/users/NAME/puzzles?page=N`: a solver's rated attempts, newest first ([`history`]).

mod history;
mod streak;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use jungle_puzzles::{AttemptError, Line, Puzzle, Step, Theme, is_puzzle_id, judge_attempt};
use rand::seq::IteratorRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::AppState;
use crate::shared::error::ApiError;
use crate::shared::pages::Files;
use crate::shared::pages::page;
use crate::shared::session::Viewer;
use jungle_platform::hub::HubError;
use jungle_platform::puzzles::collection::PUZZLES;
use jungle_platform::puzzles::rating::{self, RatingView, rate};
use jungle_platform::store::now_ms;
use jungle_rules::Notation;

/// The routes of the puzzles, merged into the application's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/puzzles", get(puzzle_page))
        .route("/puzzles/streak", get(puzzle_page))
        .route("/puzzles/{id}", get(puzzle_page))
        .route("/api/puzzles", get(overview))
        .route("/api/puzzles/daily", get(daily))
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/streak", get(streak::next_in_streak))
        .route("/api/users/{name}/puzzles", get(history::history))
        .route("/api/puzzles/{id}", get(one))
        .route("/api/puzzles/{id}/moves", post(moves))
}

async fn puzzle_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "puzzle.html")
}

/// A puzzle as the solver sees it before solving it: the position and what it is about, never the solution.
#[derive(Debug, Serialize)]
pub struct PublicPuzzle {
    pub id: String,
    pub fen: String,
    pub rules: String,
    pub side: String,
    pub themes: Vec<Theme>,
    /// `tablebase` or `game`.
    pub source: &'static str,
    /// How many moves the solver has to find.
    pub solver_moves: usize,
    /// The legal moves of the position (for the board).
    pub legal: Vec<String>,
    pub rating: RatingView,
    /// The puzzle of today (UTC).
    pub daily: bool,
}

fn today() -> i64 {
    now_ms().div_euclid(86_400_000)
}

fn public(hub: &AppState, puzzle: &Puzzle, line: &Line) -> Result<PublicPuzzle, ApiError> {
    let rating = hub
        .store
        .puzzle_rating(&puzzle.id, rating::SETTINGS.initial)
        .map_err(HubError::from)?;
    Ok(PublicPuzzle {
        id: puzzle.id.clone(),
        fen: puzzle.fen.clone(),
        rules: puzzle.rules.clone(),
        side: puzzle.side.clone(),
        themes: puzzle.themes.clone(),
        source: match puzzle.source {
            jungle_puzzles::Source::Tablebase { .. } => "tablebase",
            jungle_puzzles::Source::Game { .. } => "game",
        },
        solver_moves: line.moves.len().div_ceil(2),
        legal: legal_moves(line, 0),
        rating: RatingView::of(&rating),
        daily: PUZZLES
            .daily(today())
            .is_some_and(|(p, _)| p.id == puzzle.id),
    })
}

/// The legal moves after `ply` moves of the line, as text.
fn legal_moves(line: &Line, ply: usize) -> Vec<String> {
    let mut moves: Vec<String> = line.positions[ply]
        .legal_moves(&line.rules)
        .as_slice()
        .iter()
        .map(ToString::to_string)
        .collect();
    moves.sort();
    moves
}

/// Moves of the line written in the animal notation (`Ea3-a4`, `Rg6xg7`), each from the position before it
/// (`positions[i]` is the one before `moves[i]`).
fn animal_notation(
    positions: &[jungle_rules::Position],
    moves: &[jungle_rules::Move],
) -> Vec<String> {
    positions
        .iter()
        .zip(moves)
        .map(|(before, &m)| Notation::Animal.write(before, m))
        .collect()
}

fn find(id: &str) -> Result<&'static (Puzzle, Line), ApiError> {
    let found = is_puzzle_id(id).then(|| PUZZLES.get(id)).flatten();
    found.ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!(
                "no puzzle \"{}\"",
                id.chars()
                    .take(jungle_puzzles::MAX_ID_LEN)
                    .collect::<String>()
            ),
        )
    })
}

async fn overview() -> Json<Value> {
    let themes: Vec<Value> = Theme::ALL
        .into_iter()
        .map(|t| json!({ "theme": t, "count": PUZZLES.with_theme(Some(t)).count() }))
        .collect();
    Json(json!({
        "count": PUZZLES.len(),
        "themes": themes,
        "daily": PUZZLES.daily(today()).map(|(p, _)| p.id.clone()),
    }))
}

async fn daily(State(hub): State<AppState>) -> Result<Json<PublicPuzzle>, ApiError> {
    let (puzzle, line) = PUZZLES
        .daily(today())
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "there are no puzzles".into()))?;
    Ok(Json(public(&hub, puzzle, line)?))
}

async fn one(
    State(hub): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<PublicPuzzle>, ApiError> {
    let (puzzle, line) = find(&id)?;
    Ok(Json(public(&hub, puzzle, line)?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NextQuery {
    theme: Option<String>,
    /// The puzzle just played, not to be offered again at once.
    after: Option<String>,
}

/// A random puzzle of a theme (any theme without one); for a signed-in solver one not tried yet while there
/// are such.
async fn next(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
    query: Result<Query<NextQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<PublicPuzzle>, ApiError> {
    let Query(query) = query?;
    let theme = match query.theme.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(name) => Some(Theme::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Theme::ALL.iter().map(|t| t.as_str()).collect();
            ApiError(
                StatusCode::BAD_REQUEST,
                format!("unknown theme (themes: {})", names.join(", ")),
            )
        })?),
    };
    let tried = match &viewer {
        Some(account) => hub
            .store
            .attempted_puzzles(account.id)
            .map_err(HubError::from)?,
        None => Default::default(),
    };
    let after = query.after.unwrap_or_default();
    let mut rng = rand::rng();
    let candidates = || PUZZLES.with_theme(theme).filter(|(p, _)| p.id != after);
    let chosen = candidates()
        .filter(|(p, _)| !tried.contains(&p.id))
        .choose(&mut rng)
        .or_else(|| candidates().choose(&mut rng))
        .or_else(|| PUZZLES.with_theme(theme).next())
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "no puzzle has that theme".into()))?;
    Ok(Json(public(&hub, &chosen.0, &chosen.1)?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MovesRequest {
    moves: Vec<String>,
}

/// Judges the solver's latest move. The line so far comes with every request, so the server keeps nothing
/// between moves; a finished attempt of a signed-in solver is recorded, and rated if it is their first at
/// this puzzle.
async fn moves(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
    Path(id): Path<String>,
    body: Result<Json<MovesRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let (puzzle, line) = find(&id)?;
    let Json(request) = body?;
    let step = judge_attempt(line, &request.moves)
        .map_err(|e: AttemptError| ApiError(StatusCode::BAD_REQUEST, e.to_string()))?;
    let solved = match step {
        Step::Reply(reply) => {
            let ply = request.moves.len() + 1;
            return Ok(Json(json!({
                "result": "continue",
                "reply": reply.to_string(),
                "reply_animal": Notation::Animal.write(&line.positions[ply - 1], reply),
                "fen": jungle_rules::fen::to_fen(&line.positions[ply]),
                "legal": legal_moves(line, ply),
            })));
        }
        Step::Solved => true,
        Step::Failed => false,
    };
    let rated = match &viewer {
        Some(account) => hub
            .store
            .record_puzzle_attempt(
                account.id,
                &puzzle.id,
                solved,
                rating::SETTINGS.initial,
                rate(solved),
            )
            .map_err(HubError::from)?,
        None => None,
    };
    // The solver's last move (judged, so legal) may leave the line: written from the position before it.
    let before = &line.positions[request.moves.len() - 1];
    let played_animal = request
        .moves
        .last()
        .and_then(|m| before.parse_move(&line.rules, m).ok())
        .map(|m| Notation::Animal.write(before, m));
    Ok(Json(json!({
        "result": if solved { "solved" } else { "failed" },
        "solution": puzzle.solution,
        "solution_animal": animal_notation(&line.positions, &line.moves),
        "played_animal": played_animal,
        "rated": rated.is_some(),
        "ratings": rated.map(|r| rating::changes(&r)),
    })))
}
