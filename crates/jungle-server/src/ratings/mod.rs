//! The ratings' JSON API: the engine levels' published ratings (for the home page's level chooser) and a
//! rated game's players' ratings (for the game page).

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;

use crate::AppState;
use crate::shared::error::ApiError;
use jungle_platform::ratings::engine_levels::{self, LevelRating};
use jungle_platform::store::GameRatings;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/engine-levels", get(levels))
        .route("/api/games/{id}/ratings", get(game_ratings))
}

/// `{"category":"blitz","blue":{"user_id":…,"before":…,"before_shown":"1500?","after":…,"after_shown":…},
/// "red":{…}}` for a rated game (`after` once it has ended), `null` for a casual one.
async fn game_ratings(
    State(hub): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Option<GameRatings>>, ApiError> {
    crate::shared::error::find_room(&hub, &id)?;
    Ok(Json(
        hub.store
            .game_ratings(&id)
            .map_err(|e| ApiError::from(crate::HubError::from(e)))?,
    ))
}

/// `[{"level":1,"rating":…,"error":…}, …]`, level 1 first (the values: docs/ratings.md, "Engine levels").
async fn levels() -> Json<Vec<LevelRating>> {
    Json(engine_levels::all())
}
