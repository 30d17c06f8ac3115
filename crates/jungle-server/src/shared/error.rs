//! The API's errors: a status and a one-line message, sent as `{"error": ...}`.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jungle_platform::room::Room;
use jungle_platform::{Hub, HubError};

use crate::shared::guard::json_error;

/// An API error: a status and a one-line message as `{"error": ...}`.
#[derive(Debug)]
pub struct ApiError(pub(crate) StatusCode, pub(crate) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_error(self.0, &self.1)
    }
}

/// A body or query string a handler could not read is answered with the framework's status and reason.
macro_rules! rejections_are_api_errors {
    ($($rejection:ty),*) => {$(
        impl From<$rejection> for ApiError {
            fn from(e: $rejection) -> ApiError {
                ApiError(e.status(), e.body_text())
            }
        }
    )*};
}

rejections_are_api_errors!(
    axum::extract::rejection::JsonRejection,
    axum::extract::rejection::QueryRejection,
    axum::extract::rejection::BytesRejection
);

impl From<HubError> for ApiError {
    fn from(e: HubError) -> ApiError {
        let status = match &e {
            HubError::BadRequest(_) => StatusCode::BAD_REQUEST,
            HubError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            HubError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            HubError::Damaged { .. } => StatusCode::CONFLICT,
            HubError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status.is_server_error() {
            tracing::error!(error = %e, "request failed");
        }
        ApiError(status, e.to_string())
    }
}

pub(crate) fn no_game(id: &str) -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        format!("no game \"{}\"", id.chars().take(20).collect::<String>()),
    )
}

pub(crate) fn find_room(hub: &Hub, id: &str) -> Result<Arc<Room>, ApiError> {
    hub.room(id)?.ok_or_else(|| no_game(id))
}
