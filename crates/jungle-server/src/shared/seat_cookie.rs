//! A game's seat cookie (`seat_ID`): the token that holds a seat, in an `HttpOnly` cookie.

use axum::http::{HeaderMap, HeaderValue, header};
use jungle_platform::accounts::Account;
use jungle_platform::room::Room;
use jungle_platform::{Hub, HubError};
use jungle_rules::Side;

use crate::shared::cookies::{CookieRules, read_cookie, secure_origin, set_cookie};

fn cookie_name(id: &str) -> String {
    format!("seat_{id}")
}

/// The seat token a request carries for a game, from its `Cookie` headers.
pub fn seat_token(headers: &HeaderMap, id: &str) -> Option<String> {
    read_cookie(headers, &cookie_name(id)).map(str::to_string)
}

/// The `Set-Cookie` header of a game's seat: hidden from the pages' scripts, sent when following a link here
/// (`Lax`), kept a year, and `Secure` when the site is reached over HTTPS (`--public-origin https://…`), as
/// the session's cookie.
pub(crate) fn seat_cookie(hub: &Hub, id: &str, token: &str) -> (header::HeaderName, HeaderValue) {
    set_cookie(&cookie_name(id), token, seat_cookie_rules(hub))
}

/// The rules of every seat's cookie, an open game's or a hidden game's (see [`seat_cookie`]).
pub(crate) fn seat_cookie_rules(hub: &Hub) -> CookieRules {
    CookieRules {
        http_only: true,
        strict: false,
        secure: secure_origin(hub.public_origin.as_deref()),
        max_age: SEAT_COOKIE_SECS,
    }
}

/// How long a browser keeps a seat's cookie: a year (a correspondence game lasts months).
const SEAT_COOKIE_SECS: u64 = 365 * 24 * 3600;

/// The seat a request holds in `room`: by its seat cookie, else by its signed-in `viewer`'s account.
///
/// # Errors
/// When the database cannot be read.
pub(crate) fn seat_of_request(
    hub: &Hub,
    room: &Room,
    headers: &HeaderMap,
    viewer: Option<&Account>,
) -> Result<Option<Side>, HubError> {
    hub.seat_for(room, seat_token(headers, &room.id).as_deref(), viewer)
}
