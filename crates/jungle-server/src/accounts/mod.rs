//! The accounts' JSON API: sign up, log in, log out, change password, and who is signed in.

use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::json;

use jungle_platform::accounts::Account;
use jungle_platform::accounts::names::{check_name, check_password};
use jungle_platform::accounts::password::{self, PasswordError};

use crate::AppState;
use crate::shared::csrf::CsrfToken;
use crate::shared::error::ApiError;
use crate::shared::guard::retry_later;
use crate::shared::pages::Files;
use crate::shared::pages::page;
use crate::shared::session::{SignedIn, Viewer, end_session, start_session};
use jungle_platform::store::{AccountKey, StoreError, name_key};

/// The routes, merged into the application's router (so its CSRF check and limits apply).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/signup", post(signup))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/password", post(change_password))
        .route("/api/me", get(me))
        .route("/login", get(login_page))
        .route("/account", get(account_page))
}

/// Log in or sign up.
async fn login_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "login.html")
}

/// Change password, log out.
async fn account_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "account.html")
}

impl From<PasswordError> for ApiError {
    fn from(e: PasswordError) -> ApiError {
        match e {
            PasswordError::Busy => ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
            PasswordError::Failed(_) => {
                tracing::error!(error = %e, "password hashing failed");
                ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
            }
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::from(crate::HubError::from(e))
    }
}

fn bad_request(message: String) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message)
}

/// Counts a password guess against the account `name` (each address's guesses are counted by the guard):
/// `429` with `Retry-After` past `logins-per-name-per-hour`.
fn refuse_guess(state: &AppState, name: &str) -> Option<Response> {
    let wait = state.rates.check_login_name(&name_key(name)).err()?;
    tracing::info!(name, "log-ins to one account rate limited");
    Some(retry_later(
        StatusCode::TOO_MANY_REQUESTS,
        "too many log-in attempts for this account: try again later",
        wait,
    ))
}

#[derive(Debug, Deserialize)]
struct NameAndPassword {
    name: String,
    password: String,
}

/// `{name, password}` → `201 {name}` and a session cookie; `409` when the name (in any case) is taken.
async fn signup(
    State(state): State<AppState>,
    body: Result<Json<NameAndPassword>, JsonRejection>,
) -> Result<Response, ApiError> {
    let NameAndPassword { name, password } =
        body.map(|Json(value)| value).map_err(ApiError::from)?;
    check_name(&name).map_err(bad_request)?;
    check_password(&password).map_err(bad_request)?;
    let taken = || ApiError(StatusCode::CONFLICT, format!("the name {name} is taken"));
    // Before the costly hash; the insert below still settles a race between two sign-ups.
    if state.store.account_by_name(&name)?.is_some() {
        return Err(taken());
    }
    let hash = password::hash(password).await?;
    let account = state
        .store
        .insert_account(&name, &hash)?
        .ok_or_else(taken)?;
    tracing::info!(account = account.id, "signed up");
    let cookie = start_session(&state, &account)?;
    Ok((
        StatusCode::CREATED,
        [cookie],
        Json(json!({ "name": account.name })),
    )
        .into_response())
}

/// `{name, password}` → `{name}` (as the account spells it) and a session cookie; `401` for a wrong pair.
async fn login(
    State(state): State<AppState>,
    body: Result<Json<NameAndPassword>, JsonRejection>,
) -> Response {
    let NameAndPassword { name, password } =
        match body.map(|Json(value)| value).map_err(ApiError::from) {
            Ok(body) => body,
            Err(e) => return e.into_response(),
        };
    // A name no account can have is not counted: the counts stay keyed by at most 20 characters.
    if check_name(&name).is_ok()
        && let Some(refusal) = refuse_guess(&state, &name)
    {
        return refusal;
    }
    log_in(&state, &name, password).await.into_response()
}

async fn log_in(state: &AppState, name: &str, password: String) -> Result<Response, ApiError> {
    let wrong = || ApiError(StatusCode::UNAUTHORIZED, "wrong name or password".into());
    if check_name(name).is_err() || check_password(&password).is_err() {
        return Err(wrong());
    }
    let (account, stored) = match state.store.credentials(AccountKey::Name(name))? {
        Some(c) => (Some(c.account), Some(c.password_hash)),
        None => (None, None),
    };
    if !password::verify(password, stored).await? {
        return Err(wrong());
    }
    let account = account.ok_or_else(wrong)?;
    let cookie = start_session(state, &account)?;
    Ok(([cookie], Json(json!({ "name": account.name }))).into_response())
}

/// Ends this browser's session → `{name: null}` (also when it had none).
async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let cookie = end_session(&state, &headers)?;
    Ok(([cookie], Json(json!({ "name": null }))).into_response())
}

#[derive(Debug, Deserialize)]
struct PasswordChange {
    old: String,
    new: String,
}

/// `{old, new}` for the signed-in account → `{name}`: every session of the account ends (other devices are
/// signed out) and this browser gets a new one.
async fn change_password(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<PasswordChange>, JsonRejection>,
) -> Response {
    let PasswordChange { old, new } = match body.map(|Json(value)| value).map_err(ApiError::from) {
        Ok(body) => body,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = check_password(&new) {
        return bad_request(e).into_response();
    }
    if let Some(refusal) = refuse_guess(&state, &account.name) {
        return refusal;
    }
    change_to(&state, &account, old, new).await.into_response()
}

/// Checks `old` and stores `new` (see [`change_password`]).
async fn change_to(
    state: &AppState,
    account: &Account,
    old: String,
    new: String,
) -> Result<Response, ApiError> {
    let stored = state
        .store
        .credentials(AccountKey::Id(account.id))?
        .map(|c| c.password_hash);
    if !password::verify(old, stored).await? {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "the current password is wrong".into(),
        ));
    }
    let hash = password::hash(new).await?;
    state.store.set_password(account.id, &hash)?;
    tracing::info!(account = account.id, "password changed");
    let cookie = start_session(state, account)?;
    Ok(([cookie], Json(json!({ "name": account.name }))).into_response())
}

/// `{name, csrf}`: the signed-in name (`null` for a guest) and the CSRF token state-changing requests repeat.
async fn me(
    Viewer(account): Viewer,
    csrf: Option<Extension<CsrfToken>>,
) -> Json<serde_json::Value> {
    let csrf = csrf.map(|Extension(CsrfToken(token))| token);
    Json(json!({ "name": account.map(|a| a.name), "csrf": csrf }))
}
