//! The tablebase explorer: for a position the server's tables cover, every legal move with its result for the
//! mover and its distance to the end, best first (`GET /api/tablebase?fen=…[&rules=…]`), and its page
//! (`/tablebase?fen=…`). The tables are those of `jungle serve --tablebases DIR`, opened once at start and
//! shared by every request; they answer for positions under the rules they were made with only.

mod answer;

use std::sync::Arc;

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::{Extension, Json, Router};
use jungle_tb::Tablebases;
use serde::Deserialize;

pub use answer::{Answer, MoveValue, explore};

use crate::AppState;
use crate::shared::error::ApiError;
use crate::shared::pages::{Files, page};

/// The server's tables, as every request sees them (absent when the server was started without).
pub type Tables = Arc<Tablebases>;

/// The explorer's page and its answers.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tablebase", get(explorer_page))
        .route("/api/tablebase", get(lookup))
}

/// `GET /tablebase`: the page reads its `fen` (and `rules`) from the address itself.
async fn explorer_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "tablebase.html")
}

#[derive(Debug, Deserialize)]
struct LookupQuery {
    fen: String,
    rules: Option<String>,
}

/// `GET /api/tablebase?fen=…[&rules=…]`: the position's [`Answer`] (`200` also when it is not covered,
/// saying why), or `400` for a FEN or rules that cannot be read. The work is one table read per legal move.
async fn lookup(
    tables: Option<Extension<Tables>>,
    query: Result<Query<LookupQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Answer>, ApiError> {
    let Query(query) = query?;
    let tables = tables.map(|Extension(tables)| tables);
    // Reading a table from disk the first time it is used blocks: off the async threads.
    let answer = tokio::task::spawn_blocking(move || {
        explore(tables.as_deref(), &query.fen, query.rules.as_deref())
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "tablebase lookup failed");
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the tablebase lookup failed".into(),
        )
    })?;
    answer
        .map(Json)
        .map_err(|message| ApiError(StatusCode::BAD_REQUEST, message))
}
