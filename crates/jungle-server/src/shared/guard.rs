//! What every API request and websocket upgrade passes before its handler: the client's rate limits and the
//! process's memory bound; and after it, any error the framework answered in plain text is turned into the
//! API's `{"error": ...}` JSON.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::AppState;
use jungle_platform::Requester;
use jungle_platform::rate::Action;

/// The largest error text carried over into a JSON error.
const MAX_ERROR_TEXT: usize = 300;

/// The client's address, from the connection (none when the app runs without one, as in the router's tests).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub Option<IpAddr>);

impl Client {
    /// Who the engine's line counts this client's analysis requests against.
    pub fn requester(self) -> Requester {
        Requester::of_client(self.0)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Self::Rejection> {
        Ok(Client(client_of(&parts.extensions)))
    }
}

fn client_of(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip())
}

/// An API error answer: a status and `{"error": message}`.
pub fn json_error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// A refusal that says when to come back.
pub fn retry_later(status: StatusCode, message: &str, after: Duration) -> Response {
    let mut response = json_error(status, message);
    let seconds = after.as_secs() + u64::from(after.subsec_nanos() > 0);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
    response
}

/// What a request costs against the rate limits, by method and path.
fn action_of(method: &Method, path: &str) -> Action {
    match (method, path) {
        // A rematch makes a game too.
        (&Method::POST, "/api/games" | "/api/hidden") => Action::Create,
        (&Method::POST, p) if p.ends_with("/rematch") => Action::Create,
        // So do the lobby's seeks, acceptances and quick pairings.
        (&Method::POST, "/api/seeks" | "/api/lobby/quick") => Action::Create,
        (&Method::POST, p) if p.starts_with("/api/seeks/") && p.ends_with("/accept") => {
            Action::Create
        }
        (&Method::POST, "/api/import") => Action::Import,
        (&Method::POST, "/api/login" | "/api/password") => Action::Login,
        (&Method::POST, "/api/signup") => Action::Signup,
        (&Method::GET, p) if p.ends_with("/analysis") || p.ends_with("/evaluations") => {
            Action::Analyse
        }
        _ => Action::Request,
    }
}

/// The middleware: limits before, JSON errors after.
pub async fn guard(State(hub): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    let api = path.starts_with("/api/");
    if !api && !path.starts_with("/ws/") {
        return next.run(request).await;
    }
    let client = client_of(request.extensions()).unwrap_or(IpAddr::from([0, 0, 0, 0]));
    let action = action_of(request.method(), &path);
    if let Err(wait) = hub.rates.check(action, client) {
        tracing::info!(%client, action = action.name(), "rate limited");
        let message = format!("too many {}: try again in a moment", action.name());
        return retry_later(StatusCode::TOO_MANY_REQUESTS, &message, wait);
    }
    if over_memory_bound(&hub) {
        tracing::warn!("memory bound reached: request refused");
        return retry_later(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is short of memory: try again later",
            Duration::from_secs(30),
        );
    }
    let response = next.run(request).await;
    if api {
        json_errors(response).await
    } else {
        response
    }
}

/// Whether the process is over its memory bound even after dropping every idle room.
fn over_memory_bound(hub: &AppState) -> bool {
    let bound = hub.limits.process_memory_mib;
    let over = |mib: Option<u64>| mib.is_some_and(|mib| mib > bound);
    if bound == 0 || !over(crate::shared::memory::recent_resident_mib()) {
        return false;
    }
    hub.tidy(true);
    // A fresh reading: dropping the idle rooms may have brought the process back under its bound.
    over(crate::shared::memory::resident_mib())
}

/// An error answered in plain text (by the framework: a bad query string, a body too large, a wrong method)
/// becomes `{"error": text}`.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let bytes = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let mut message: String = text.trim().chars().take(MAX_ERROR_TEXT).collect();
    if message.is_empty() {
        message = status.canonical_reason().unwrap_or("error").to_lowercase();
    }
    json_error(status, &message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_games_and_rematches_count_as_creations() {
        assert_eq!(action_of(&Method::POST, "/api/games"), Action::Create);
        assert_eq!(
            action_of(&Method::POST, "/api/games/abc/rematch"),
            Action::Create
        );
        assert_eq!(
            action_of(&Method::POST, "/api/games/abc/join"),
            Action::Request
        );
        assert_eq!(action_of(&Method::GET, "/api/games"), Action::Request);
    }
}
