//! Player profiles: the page `/@/NAME` (a static page that fills itself with `textContent` from the JSON
//! API, so nothing a player typed is ever read as HTML), the player's ratings, rating history, totals and games
//! (`/api/users/NAME`, `/api/users/NAME/games?opponent=&rules=&result=&page=`), and the export of all their
//! games as one PGN (`/api/users/NAME/games.pgn`, streamed a page of games at a time).

mod export;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

use crate::AppState;
use crate::shared::error::ApiError;
use crate::shared::pages::Files;
use crate::shared::pages::page;
use jungle_platform::accounts::Account;
use jungle_platform::store::{
    CategoryRating, GameFilter, HistoryPoint, PlayerGame, PlayerResult, Totals,
};

/// Games per page of a profile's game list.
pub const PAGE_SIZE: u32 = 20;
/// The deepest page of a game list (older games are in the PGN export).
pub const MAX_PAGE: u32 = 500;
/// Longer than any account name, so longer text is no name without asking the database.
const MAX_NAME: usize = 40;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/@/{name}", get(profile_page))
        .route("/api/users/{name}", get(profile))
        .route("/api/users/{name}/games", get(games))
        .route("/api/users/{name}/games.pgn", get(export::pgn))
}

/// The account a profile path names, or a 404 answer.
pub(crate) fn account_named(hub: &crate::Hub, name: &str) -> Result<Account, ApiError> {
    let missing = || {
        ApiError(
            StatusCode::NOT_FOUND,
            format!(
                "no player \"{}\"",
                name.chars().take(MAX_NAME).collect::<String>()
            ),
        )
    };
    if name.len() > MAX_NAME {
        return Err(missing());
    }
    hub.store
        .account_by_name(name)
        .map_err(crate::HubError::from)?
        .ok_or_else(missing)
}

async fn profile_page(
    State(hub): State<AppState>,
    axum::Extension(assets): Files,
    Path(name): Path<String>,
) -> Response {
    match account_named(&hub, &name) {
        Ok(_) => page(&assets, StatusCode::OK, "profile.html"),
        Err(ApiError(StatusCode::NOT_FOUND, _)) => {
            page(&assets, StatusCode::NOT_FOUND, "not_found.html")
        }
        Err(e) => e.into_response(),
    }
}

/// A profile: the name as the player typed it, ratings per category, rating history and totals.
#[derive(Debug, serde::Serialize)]
struct Profile {
    name: String,
    ratings: Vec<CategoryRating>,
    history: Vec<HistoryPoint>,
    totals: Totals,
}

async fn profile(
    State(hub): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let account = account_named(&hub, &name)?;
    let store = |e| ApiError::from(crate::HubError::from(e));
    Ok(Json(Profile {
        ratings: hub.store.ratings_of(account.id).map_err(store)?,
        history: hub.store.rating_history(account.id).map_err(store)?,
        totals: hub.store.player_totals(account.id).map_err(store)?,
        name: account.name,
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GamesQuery {
    /// An opponent's account name.
    #[serde(default)]
    opponent: Option<String>,
    /// A rule option string (docs/rules.md) or preset.
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    result: Option<PlayerResult>,
    /// 0-based.
    #[serde(default)]
    page: Option<u32>,
}

/// A page of the player's games: `{"games": [...], "page": N, "page_size": 20, "more": bool}`.
#[derive(Debug, serde::Serialize)]
struct GamesPage {
    games: Vec<PlayerGame>,
    page: u32,
    page_size: u32,
    more: bool,
}

async fn games(
    State(hub): State<AppState>,
    Path(name): Path<String>,
    query: Result<Query<GamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<GamesPage>, ApiError> {
    let Query(query) = query?;
    let account = account_named(&hub, &name)?;
    let page = query.page.unwrap_or(0);
    if page > MAX_PAGE {
        return Err(ApiError(
            StatusCode::BAD_REQUEST,
            format!("page: at most {MAX_PAGE} (older games are in the PGN export)"),
        ));
    }
    let rules = match query
        .rules
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
    {
        None => None,
        Some(text) if text.len() > jungle_platform::hub::MAX_TEXT => {
            return Err(ApiError(StatusCode::BAD_REQUEST, "rules: too long".into()));
        }
        Some(text) => Some(
            text.parse::<jungle_rules::Rules>()
                .map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("rules: {e}")))?
                .to_string(),
        ),
    };
    let empty = || GamesPage {
        games: Vec::new(),
        page,
        page_size: PAGE_SIZE,
        more: false,
    };
    let opponent = match query
        .opponent
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        None => None,
        Some(name) => match account_named(&hub, name) {
            Ok(opponent) => Some(opponent.id),
            // Nobody of that name: no games against them.
            Err(ApiError(StatusCode::NOT_FOUND, _)) => return Ok(Json(empty())),
            Err(e) => return Err(e),
        },
    };
    let filter = GameFilter {
        opponent,
        rules,
        result: query.result,
    };
    // One more than a page, to tell whether there is a next one.
    let mut games = hub
        .store
        .player_games(account.id, &filter, page * PAGE_SIZE, PAGE_SIZE + 1)
        .map_err(|e| ApiError::from(crate::HubError::from(e)))?;
    let more = games.len() > PAGE_SIZE as usize;
    games.truncate(PAGE_SIZE as usize);
    Ok(Json(GamesPage {
        games,
        more,
        ..empty()
    }))
}
