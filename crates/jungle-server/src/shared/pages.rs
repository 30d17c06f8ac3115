//! The site's HTML pages, embedded (or read from a folder while developing).

use std::sync::Arc;

use axum::Extension;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use crate::shared::assets::Assets;

/// The front end, shared by the handlers below.
pub(crate) type Files = Extension<Arc<Assets>>;

pub(crate) fn page(assets: &Assets, status: StatusCode, name: &str) -> Response {
    (status, Html(assets.page(name))).into_response()
}
