//! The one place the site is put together: every feature's routes merged, the static files, the fallback page,
//! and the layers every request passes (request ids and logs, security headers, the guard, CSRF, body size).

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::AppState;
use crate::shared::assets::Assets;
use crate::shared::guard::guard;
use crate::shared::pages::{Files, page};

/// The largest request body (a PGN import); everything else is far smaller.
pub const MAX_BODY: usize = 64 * 1024;

/// The pages load scripts, styles and images from this server only, open websockets to it only, run no
/// inline code and may not be framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The application, with its front end from `assets`.
pub fn router(state: AppState, assets: Assets) -> Router {
    // A tournament pairs its next games the moment one of its games ends on this node, wherever the site is
    // served from (a test's `app` too): the hub tells whoever listens, once set.
    state.on_game_end(jungle_platform::tournament_play::on_game_end);
    Router::new()
        .route("/static/{file}", get(static_file))
        .merge(crate::games::routes())
        .merge(crate::analysis::routes())
        .merge(crate::editor::routes())
        .merge(crate::accounts::routes())
        .merge(crate::ratings::routes())
        .merge(crate::profile::routes())
        .merge(crate::puzzles::routes())
        .merge(crate::lobby::routes())
        .merge(crate::hidden::routes())
        .merge(crate::lessons::routes())
        .merge(crate::tablebase::routes())
        .merge(crate::explorer::routes())
        .merge(crate::tournaments::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::shared::csrf::require_csrf,
        ))
        .layer(Extension(Arc::new(assets)))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
        .layer(axum::middleware::map_response(security_headers))
        // Outermost last: the id is set first, so the span and the response both carry it.
        .layer(PropagateRequestIdLayer::new(HeaderName::from_static(
            REQUEST_ID,
        )))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .layer(SetRequestIdLayer::new(
            HeaderName::from_static(REQUEST_ID),
            MakeRequestUuid,
        ))
        .with_state(state)
}

/// The header carrying each request's id: taken from the client (a proxy's id) or made here, logged with
/// every event of the request, and sent back in the response.
pub const REQUEST_ID: &str = "x-request-id";

/// One log span per request (method, path, request id), with a line when it is answered (status, time).
fn request_span(request: &axum::extract::Request) -> tracing::Span {
    let id = request
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    tracing::info_span!("request", method = %request.method(), path = %request.uri().path(), id)
}

/// Headers on every answer: the content security policy, no content-type guessing, no framing, no referrer.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

async fn not_found(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::NOT_FOUND, "not_found.html")
}

async fn static_file(Extension(assets): Files, Path(file): Path<String>) -> Response {
    match assets.file(&file) {
        Some((content_type, bytes)) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => page(&assets, StatusCode::NOT_FOUND, "not_found.html"),
    }
}
