//! Reading a cookie from a request and writing one into an answer.

use axum::http::{HeaderMap, HeaderValue, header};

/// The value of the cookie `name` a request carries (the first, if several).
pub fn read_cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// How a cookie is sent.
#[derive(Clone, Copy, Debug)]
pub struct CookieRules {
    /// Hidden from the pages' scripts.
    pub http_only: bool,
    /// `Strict` (never sent with a request another site starts) or `Lax` (sent when following a link here).
    pub strict: bool,
    /// Sent over HTTPS only (when the server's public origin is `https://`).
    pub secure: bool,
    /// Seconds until the browser forgets it; 0 deletes it.
    pub max_age: u64,
}

/// A `Set-Cookie` header for `name=value` (both ASCII alphanumerics and `_`: tokens and fixed names).
pub fn set_cookie(
    name: &str,
    value: &str,
    rules: CookieRules,
) -> (header::HeaderName, HeaderValue) {
    let mut text = format!(
        "{name}={value}; Path=/; SameSite={}; Max-Age={}",
        if rules.strict { "Strict" } else { "Lax" },
        rules.max_age
    );
    if rules.http_only {
        text.push_str("; HttpOnly");
    }
    if rules.secure {
        text.push_str("; Secure");
    }
    (
        header::SET_COOKIE,
        HeaderValue::from_str(&text).expect("cookie names and tokens are ASCII"),
    )
}

/// Whether cookies must be `Secure`: the server is reached over HTTPS.
pub fn secure_origin(public_origin: Option<&str>) -> bool {
    public_origin.is_some_and(|origin| origin.starts_with("https://"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_by_exact_name_among_several_headers() {
        let mut headers = HeaderMap::new();
        headers.append(header::COOKIE, "a=1; seat_x=2".parse().unwrap());
        headers.append(header::COOKIE, "b=3".parse().unwrap());
        assert_eq!(read_cookie(&headers, "seat_x"), Some("2"));
        assert_eq!(read_cookie(&headers, "b"), Some("3"));
        assert_eq!(read_cookie(&headers, "seat"), None);
    }

    #[test]
    fn set_cookie_writes_every_rule() {
        let rules = CookieRules {
            http_only: true,
            strict: false,
            secure: true,
            max_age: 60,
        };
        let (_, value) = set_cookie("s", "t", rules);
        assert_eq!(
            value,
            "s=t; Path=/; SameSite=Lax; Max-Age=60; HttpOnly; Secure"
        );
    }
}
