//! Cross-site request forgery: one middleware in front of every route, so a state-changing request (any
//! method but GET, HEAD and OPTIONS) is refused with `403` unless
//! - its `Origin`, when it has one (browsers always send it with such requests), names this server (the
//!   websockets' check, `http::origin_allowed`), and
//! - it echoes the `jungle_csrf` cookie in an `X-CSRF-Token` header (a "double submit": another site's page
//!   can make a browser send the cookie but cannot read it, so it cannot write the header).
//!
//! Every answer to a request without the cookie sets one (guests too): readable by the pages' scripts
//! (`static/api.js` copies it into the header), `SameSite=Strict`.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use super::cookies::{CookieRules, read_cookie, secure_origin, set_cookie};
use crate::AppState;
use crate::shared::guard::json_error;
use crate::shared::socket::origin_allowed;
use jungle_platform::hub::new_token;

/// The cookie holding the token.
pub const CSRF_COOKIE: &str = "jungle_csrf";
/// The header a state-changing request repeats it in.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The request's CSRF token (the cookie's, or the one this answer sets), for handlers that hand it to a page.
#[derive(Clone, Debug)]
pub struct CsrfToken(pub String);

/// A token as [`jungle_platform::hub::new_token`] makes them: 32 hex digits.
fn well_formed(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

fn cookie_token(headers: &HeaderMap) -> Option<&str> {
    read_cookie(headers, CSRF_COOKIE).filter(|t| well_formed(t))
}

/// Compares in time independent of where the first difference is.
fn same_token(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Why a request may not change anything, if it may not.
fn refusal(
    method: &Method,
    headers: &HeaderMap,
    public_origin: Option<&str>,
) -> Option<&'static str> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    if !origin_allowed(headers, public_origin) {
        return Some("cross-site request refused");
    }
    let header = headers.get(CSRF_HEADER).map(|v| v.as_bytes());
    match (cookie_token(headers), header) {
        (Some(cookie), Some(header)) if same_token(cookie.as_bytes(), header) => None,
        _ => Some("missing or wrong CSRF token: reload the page and try again"),
    }
}

/// The middleware.
pub async fn require_csrf(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let public_origin = state.public_origin.as_deref();
    if let Some(reason) = refusal(request.method(), request.headers(), public_origin) {
        tracing::info!(reason, "state-changing request refused");
        return json_error(StatusCode::FORBIDDEN, reason);
    }
    let existing = cookie_token(request.headers()).map(str::to_string);
    let token = existing.clone().unwrap_or_else(new_token);
    request.extensions_mut().insert(CsrfToken(token.clone()));
    let mut response = next.run(request).await;
    if existing.is_none() {
        let rules = CookieRules {
            http_only: false,
            strict: true,
            secure: secure_origin(public_origin),
            max_age: 365 * 24 * 3600,
        };
        let (name, value) = set_cookie(CSRF_COOKIE, &token, rules);
        response.headers_mut().append(name, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header;

    fn headers(lines: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in lines {
            headers.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        headers
    }

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn only_state_changing_requests_need_the_token() {
        let none = HeaderMap::new();
        assert_eq!(refusal(&Method::GET, &none, None), None);
        assert_eq!(refusal(&Method::HEAD, &none, None), None);
        for method in [Method::POST, Method::PUT, Method::DELETE, Method::PATCH] {
            assert!(refusal(&method, &none, None).is_some(), "{method}");
        }
    }

    #[test]
    fn the_header_must_repeat_a_well_formed_cookie() {
        let cookie = format!("{CSRF_COOKIE}={TOKEN}");
        let ok = headers(&[("cookie", &cookie), (CSRF_HEADER, TOKEN)]);
        assert_eq!(refusal(&Method::POST, &ok, None), None);
        let other = "0123456789abcdef0123456789abcdee";
        for bad in [
            headers(&[("cookie", &cookie)]),
            headers(&[(CSRF_HEADER, TOKEN)]),
            headers(&[("cookie", &cookie), (CSRF_HEADER, other)]),
            headers(&[("cookie", &format!("{CSRF_COOKIE}=x")), (CSRF_HEADER, "x")]),
        ] {
            assert!(refusal(&Method::POST, &bad, None).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn a_request_from_another_site_is_refused_even_with_the_token() {
        let cookie = format!("{CSRF_COOKIE}={TOKEN}");
        let cross = headers(&[
            ("cookie", &cookie),
            (CSRF_HEADER, TOKEN),
            (header::ORIGIN.as_str(), "http://evil.example"),
            (header::HOST.as_str(), "127.0.0.1:8080"),
        ]);
        assert_eq!(
            refusal(&Method::POST, &cross, None),
            Some("cross-site request refused")
        );
    }
}
