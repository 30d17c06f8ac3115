//! A solver's puzzle history on their profile: `GET /api/users/NAME/puzzles?page=N`, their rated attempts
//! (each solver's first attempt at a puzzle) newest first, a page at a time. Public, like the rest of the
//! profile (the games, the ratings): a rated attempt is no more private than a rated game.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::profile::account_named;
use crate::shared::error::ApiError;
use jungle_platform::hub::HubError;
use jungle_platform::store::PuzzleAttempt;

/// Attempts per page.
pub const PAGE_SIZE: u32 = 20;
/// The deepest page (500 pages of 20: more than there are puzzles).
pub const MAX_PAGE: u32 = 500;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HistoryQuery {
    /// 0-based.
    #[serde(default)]
    page: Option<u32>,
}

/// `{"attempts": [...], "page": N, "page_size": 20, "more": bool}`.
#[derive(Debug, Serialize)]
pub(super) struct HistoryPage {
    attempts: Vec<PuzzleAttempt>,
    page: u32,
    page_size: u32,
    more: bool,
}

pub(super) async fn history(
    State(hub): State<AppState>,
    Path(name): Path<String>,
    query: Result<Query<HistoryQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<HistoryPage>, ApiError> {
    let Query(query) = query?;
    let account = account_named(&hub, &name)?;
    let page = query.page.unwrap_or(0);
    if page > MAX_PAGE {
        return Err(ApiError(
            StatusCode::BAD_REQUEST,
            format!("page: at most {MAX_PAGE}"),
        ));
    }
    // One more than a page, to tell whether there is a next one.
    let mut attempts = hub
        .store
        .puzzle_history(account.id, page * PAGE_SIZE, PAGE_SIZE + 1)
        .map_err(HubError::from)?;
    let more = attempts.len() > PAGE_SIZE as usize;
    attempts.truncate(PAGE_SIZE as usize);
    Ok(Json(HistoryPage {
        attempts,
        page,
        page_size: PAGE_SIZE,
        more,
    }))
}
