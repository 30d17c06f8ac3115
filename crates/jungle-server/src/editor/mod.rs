//! The board editor's server side: its page, and the check of a set-up position under any rules, so the
//! editor can say at once what is wrong (playing or analysing it then goes through `POST /api/games` with the
//! FEN, or a PGN import with `FEN` and `Rules` tags, which check it again).

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::shared::error::ApiError;
use crate::shared::pages::Files;
use crate::shared::pages::page;
use jungle_platform::protocol::BoardView;

use crate::AppState;

/// The editor's page and its position check.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/editor", get(editor_page))
        .route("/api/position", get(check_position))
}

/// `GET /editor`.
async fn editor_page(axum::Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "editor.html")
}

#[derive(Debug, Deserialize)]
pub(crate) struct PositionQuery {
    fen: String,
    rules: String,
}

/// A position that can be played under its rules, in canonical form.
#[derive(Debug, Serialize)]
pub(crate) struct CheckedPosition {
    fen: String,
    rules: String,
    turn: &'static str,
    /// How many legal moves the side to move has.
    legal: usize,
    /// Why the game is already over in this position (`den entered`, …), if it is.
    over: Option<String>,
    /// What the rules make of the board (ranks, terrain), for drawing it.
    board: BoardView,
}

/// `GET /api/position?fen=…&rules=…`: the position checked under the rules, or `400` saying what is wrong.
async fn check_position(
    query: Result<Query<PositionQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<CheckedPosition>, ApiError> {
    let Query(query) = query?;
    let game = jungle_platform::analysis::read_position(&query.fen, &query.rules)
        .map_err(|message| ApiError(StatusCode::BAD_REQUEST, message))?;
    Ok(Json(CheckedPosition {
        fen: jungle_rules::fen::to_fen(game.position()),
        rules: game.rules().to_string(),
        turn: jungle_platform::side_name(game.side_to_move()),
        legal: game.legal_moves().len(),
        over: game.outcome().map(|o| o.to_string()),
        board: BoardView::of(game.rules()),
    }))
}
