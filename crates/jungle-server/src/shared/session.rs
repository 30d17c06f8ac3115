//! Sessions: a random token in an `HttpOnly; SameSite=Lax` cookie, stored only as its SHA-256, and the
//! extractors that read it ([`Viewer`], [`SignedIn`]).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use jungle_platform::accounts::Account;

use crate::AppState;
use crate::shared::cookies::{CookieRules, read_cookie, secure_origin, set_cookie};
use crate::shared::guard::json_error;
use jungle_platform::hub::new_token;
use jungle_platform::store::{StoreError, now_ms};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "jungle_session";
/// How long a session lasts from its log-in.
pub const SESSION_DAYS: u64 = 30;
const SESSION_SECS: u64 = SESSION_DAYS * 24 * 3600;

/// What the database keeps of a session token: its SHA-256 in hex (the token has 128 random bits, so a fast
/// hash is enough: there is nothing to guess).
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The session token a request carries, if it has the form of one.
fn session_token(headers: &HeaderMap) -> Option<&str> {
    read_cookie(headers, SESSION_COOKIE)
        .filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn cookie_rules(state: &AppState, max_age: u64) -> CookieRules {
    CookieRules {
        http_only: true,
        strict: false,
        secure: secure_origin(state.public_origin.as_deref()),
        max_age,
    }
}

/// Starts a session for `account`: stores it and gives the `Set-Cookie` header that carries it.
pub fn start_session(
    state: &AppState,
    account: &Account,
) -> Result<(header::HeaderName, HeaderValue), StoreError> {
    let token = new_token();
    let expires_at = now_ms() + (SESSION_SECS * 1000) as i64;
    state
        .store
        .insert_session(&token_hash(&token), account.id, expires_at)?;
    Ok(set_cookie(
        SESSION_COOKIE,
        &token,
        cookie_rules(state, SESSION_SECS),
    ))
}

/// Ends the request's session (if any) and gives the header that deletes its cookie.
pub fn end_session(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(header::HeaderName, HeaderValue), StoreError> {
    if let Some(token) = session_token(headers) {
        state.store.delete_session(&token_hash(token))?;
    }
    Ok(set_cookie(SESSION_COOKIE, "", cookie_rules(state, 0)))
}

/// The signed-in account of a request, if any. Never refuses: a missing, forged, ended or expired session is
/// `None` (a guest), and so is a database failure (logged).
#[derive(Clone, Debug)]
pub struct Viewer(pub Option<Account>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Viewer, Self::Rejection> {
        let Some(token) = session_token(&parts.headers) else {
            return Ok(Viewer(None));
        };
        match state.store.session_account(&token_hash(token)) {
            Ok(account) => Ok(Viewer(account)),
            Err(e) => {
                tracing::error!(error = %e, "reading a session failed");
                Ok(Viewer(None))
            }
        }
    }
}

/// The signed-in account of a request; refuses a guest with `401 {"error": ...}`.
#[derive(Clone, Debug)]
pub struct SignedIn(pub Account);

/// The refusal of [`SignedIn`].
#[derive(Debug)]
pub struct NotSignedIn;

impl IntoResponse for NotSignedIn {
    fn into_response(self) -> Response {
        json_error(StatusCode::UNAUTHORIZED, "sign in first")
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = NotSignedIn;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<SignedIn, NotSignedIn> {
        let Ok(Viewer(account)) = Viewer::from_request_parts(parts, state).await;
        account.map(SignedIn).ok_or(NotSignedIn)
    }
}
