//! Lessons: the `/learn` page and its API. The course is embedded data ([`course`]); the learner's moves come
//! with every request and the server plays them through the rules with the opponent's scripted replies
//! ([`play`]), so the browser only shows the legal moves it is sent and never judges a move itself. A
//! signed-in learner's stars are kept on the account; a guest's stay in the browser.
//!
//! - `GET /api/lessons`: the lessons (titles, intros, stage count) and, signed in, the stars per stage.
//! - `GET /api/lessons/{lesson}/{stage}`: a stage as the learner starts it.
//! - `POST /api/lessons/{lesson}/{stage}/moves` with `{"moves": [...]}` (the learner's moves only): the
//!   position after them and the replies, `continue`, `done` with stars, or `failed` with why.
//!
//! [`course`]: jungle_platform::lessons::course
//! [`play`]: jungle_platform::lessons::attempt::play

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::AppState;
use crate::shared::error::ApiError;
use crate::shared::pages::{Files, page};
use crate::shared::session::Viewer;
use jungle_platform::hub::HubError;
use jungle_platform::lessons::attempt::{Attempt, Failure, Status, play};
use jungle_platform::lessons::course::{
    COURSE_LESSONS, Goal, MAX_LEARNER_MOVES, Stage, Words, is_lesson_id,
};
use jungle_platform::protocol::BoardView;

/// The routes of the lessons, merged into the application's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/learn", get(learn_page))
        .route("/learn/{lesson}", get(learn_page))
        .route("/api/lessons", get(overview))
        .route("/api/lessons/{lesson}/{stage}", get(stage_view))
        .route("/api/lessons/{lesson}/{stage}/moves", post(moves))
}

async fn learn_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "learn.html")
}

#[derive(Debug, Serialize)]
struct LessonSummary {
    id: &'static str,
    title: &'static Words,
    intro: &'static Words,
    stages: usize,
}

/// Every lesson in teaching order, with the signed-in learner's stars (`null` for a guest).
async fn overview(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
) -> Result<Json<Value>, ApiError> {
    let lessons: Vec<LessonSummary> = COURSE_LESSONS
        .lessons
        .iter()
        .map(|l| LessonSummary {
            id: &l.id,
            title: &l.title,
            intro: &l.intro,
            stages: l.stages.len(),
        })
        .collect();
    let progress: Option<BTreeMap<String, u8>> = match &viewer {
        Some(account) => Some(
            hub.store
                .lesson_progress(account.id)
                .map_err(HubError::from)?,
        ),
        None => None,
    };
    Ok(Json(json!({ "lessons": lessons, "progress": progress })))
}

fn find(lesson: &str, stage: &str) -> Result<&'static Stage, ApiError> {
    let number = stage.parse::<usize>().ok();
    let found = is_lesson_id(lesson)
        .then(|| number.and_then(|n| COURSE_LESSONS.stage(lesson, n)))
        .flatten();
    found.ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!(
                "no stage \"{}/{}\"",
                lesson.chars().take(40).collect::<String>(),
                stage.chars().take(4).collect::<String>()
            ),
        )
    })
}

/// A stage as the learner sees it: its position (enemy animals face down in Hidden Jungle), the board of its
/// rules, the task, the best number of moves, and the moves allowed now.
async fn stage_view(
    Path((lesson, stage)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let found = find(&lesson, &stage)?;
    let attempt = play(found, &[]).map_err(|e| ApiError(StatusCode::BAD_REQUEST, e.to_string()))?;
    let lesson = COURSE_LESSONS.get(&lesson).expect("found above");
    Ok(Json(json!({
        "lesson": lesson.id,
        "stage": stage.parse::<usize>().unwrap_or(1),
        "stages": lesson.stages.len(),
        "title": lesson.title,
        "intro": lesson.intro,
        "text": found.data.text,
        "goal": goal_view(&found.data.goal),
        "rules": found.rules.to_string(),
        "hidden": found.data.hidden,
        "side": jungle_platform::side_name(found.learner),
        "best": found.best(),
        "board": BoardView::of(&found.rules),
        "fen": attempt.view_fen(found),
        "legal": attempt.legal(found),
    })))
}

/// The progress key of a stage, `LESSON/NUMBER` (the number as read, so `01` and `1` are one stage).
fn stage_key(lesson: &str, stage: &str) -> String {
    format!("{lesson}/{}", stage.parse::<usize>().unwrap_or(0))
}

fn goal_view(goal: &Goal) -> Value {
    serde_json::to_value(goal).unwrap_or(Value::Null)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MovesRequest {
    moves: Vec<String>,
}

fn status_view(attempt: &Attempt) -> (&'static str, Option<u8>, Option<String>) {
    match attempt.status {
        Status::Continue => ("continue", None, None),
        Status::Done { stars } => ("done", Some(stars), None),
        Status::Failed(Failure::TooManyMoves) => (
            "failed",
            None,
            Some(format!("more than {MAX_LEARNER_MOVES} moves")),
        ),
        Status::Failed(Failure::GameOver(outcome)) => ("failed", None, Some(outcome.to_string())),
    }
}

/// Plays the learner's moves; a stage finished by a signed-in learner records its stars (the best kept).
async fn moves(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
    Path((lesson, stage)): Path<(String, String)>,
    body: Result<Json<MovesRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let found = find(&lesson, &stage)?;
    let Json(request) = body?;
    if request.moves.len() > MAX_LEARNER_MOVES {
        return Err(ApiError(
            StatusCode::BAD_REQUEST,
            format!("at most {MAX_LEARNER_MOVES} moves a stage"),
        ));
    }
    let attempt = play(found, &request.moves)
        .map_err(|e| ApiError(StatusCode::BAD_REQUEST, e.to_string()))?;
    let (result, stars, reason) = status_view(&attempt);
    let best = match (stars, &viewer) {
        (Some(stars), Some(account)) => Some(
            hub.store
                .record_lesson_stars(account.id, &stage_key(&lesson, &stage), stars)
                .map_err(HubError::from)?,
        ),
        _ => None,
    };
    Ok(Json(json!({
        "result": result,
        "stars": stars,
        "saved": best,
        "reason": reason,
        "replies": attempt.replies.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "fen": attempt.view_fen(found),
        "legal": attempt.legal(found),
    })))
}
