//! Accounts through a real server: sign up, log in, log out, change password, and what an attacker tries
//! (CSRF on every POST route, forged and expired sessions, injected names).

use std::net::SocketAddr;

use serde_json::{Value, json};

use crate::support::{TestServer, create, http, http_bare, set_cookies, start, temp_dir};

fn json_of(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The session cookie (`jungle_session=...`) a response sets.
fn session_of(headers: &[(String, String)]) -> Option<String> {
    set_cookies(headers)
        .find(|c| c.starts_with("jungle_session="))
        .map(str::to_string)
}

/// POSTs JSON as a page of the site does, with `cookie` (a session) if given: (status, session set, body).
async fn post(
    addr: SocketAddr,
    path: &str,
    body: &Value,
    cookie: Option<&str>,
) -> (u16, Option<String>, Value) {
    let (status, headers, text) = http(addr, "POST", path, &body.to_string(), cookie).await;
    (status, session_of(&headers), json_of(&text))
}

/// Who `cookie` is signed in as (`None`: a guest).
async fn me(addr: SocketAddr, cookie: Option<&str>) -> Option<String> {
    let (status, _, body) = http(addr, "GET", "/api/me", "", cookie).await;
    assert_eq!(status, 200, "{body}");
    json_of(&body)["name"].as_str().map(str::to_string)
}

/// Signs up; returns the session cookie.
async fn sign_up(addr: SocketAddr, name: &str, password: &str) -> String {
    let (status, session, body) = post(
        addr,
        "/api/signup",
        &json!({ "name": name, "password": password }),
        None,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["name"], name);
    session.expect("a session cookie")
}

async fn server(name: &str) -> TestServer {
    start(temp_dir(name).join("games.db")).await
}

#[tokio::test]
async fn sign_up_log_out_log_in_and_change_password() {
    let server = server("accounts-life").await;
    let addr = server.addr;
    assert_eq!(me(addr, None).await, None, "a guest");
    let first = sign_up(addr, "Ann_1", "correct horse").await;
    assert_eq!(me(addr, Some(&first)).await.as_deref(), Some("Ann_1"));

    // Logging out ends the session on the server, not only in the browser.
    let (status, cleared, body) = post(addr, "/api/logout", &json!({}), Some(&first)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(cleared.as_deref(), Some("jungle_session="));
    assert_eq!(me(addr, Some(&first)).await, None);

    // Names are found whatever their case, and answer as typed at sign-up.
    let (status, second, body) = post(
        addr,
        "/api/login",
        &json!({ "name": "ann_1", "password": "correct horse" }),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["name"], "Ann_1");
    let second = second.unwrap();
    let (status, third, _) = post(
        addr,
        "/api/login",
        &json!({ "name": "Ann_1", "password": "correct horse" }),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let third = third.unwrap();

    // A wrong current password changes nothing.
    let (status, _, body) = post(
        addr,
        "/api/password",
        &json!({ "old": "wrong horse", "new": "battery staple" }),
        Some(&second),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(me(addr, Some(&third)).await.as_deref(), Some("Ann_1"));

    // A change ends every session (the other device's too) and gives this browser a new one.
    let (status, fresh, body) = post(
        addr,
        "/api/password",
        &json!({ "old": "correct horse", "new": "battery staple" }),
        Some(&second),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(me(addr, Some(&second)).await, None);
    assert_eq!(me(addr, Some(&third)).await, None);
    assert_eq!(
        me(addr, Some(&fresh.unwrap())).await.as_deref(),
        Some("Ann_1")
    );
    let login = |password: &'static str| async move {
        post(
            addr,
            "/api/login",
            &json!({ "name": "Ann_1", "password": password }),
            None,
        )
        .await
    };
    let (status, session, body) = login("correct horse").await;
    assert_eq!((status, session), (401, None), "{body}");
    assert_eq!(body["error"], "wrong name or password");
    assert_eq!(login("battery staple").await.0, 200);
    server.kill().await;
}

#[tokio::test]
async fn bad_names_and_passwords_are_refused_and_names_are_unique_in_any_case() {
    let server = server("accounts-names").await;
    let addr = server.addr;
    sign_up(addr, "Kim", "long enough").await;
    for (name, password, status) in [
        ("kim", "long enough", 409),
        ("KIM", "long enough", 409),
        ("<script>alert(1)</script>", "long enough", 400),
        ("\u{212A}im", "long enough", 400), // the Kelvin sign, a look-alike of K
        ("Kіm", "long enough", 400),        // a Cyrillic і
        ("ab", "long enough", 400),
        ("9lives", "long enough", 400),
        ("Lee", "short", 400),
    ] {
        let (got, session, body) = post(
            addr,
            "/api/signup",
            &json!({ "name": name, "password": password }),
            None,
        )
        .await;
        assert_eq!((got, session), (status, None), "{name}: {body}");
        assert!(body["error"].is_string());
    }
    let (status, _, body) = post(addr, "/api/signup", &json!({ "name": "Lee" }), None).await;
    assert_eq!(status, 422, "{body}");
    let long = "x".repeat(257);
    let (status, _, _) = post(
        addr,
        "/api/signup",
        &json!({ "name": "Lee", "password": long }),
        None,
    )
    .await;
    assert_eq!(
        status, 400,
        "a password longer than 256 characters is not hashed"
    );
    assert_eq!(
        server
            .state
            .store
            .account_by_name("kim")
            .unwrap()
            .unwrap()
            .name,
        "Kim"
    );
    assert!(server.state.store.account_by_name("Lee").unwrap().is_none());
    server.kill().await;
}

#[tokio::test]
async fn forged_ended_and_expired_sessions_are_guests() {
    let server = server("accounts-sessions").await;
    let addr = server.addr;
    let real = sign_up(addr, "Ann", "correct horse").await;
    let account = server.state.store.account_by_name("Ann").unwrap().unwrap();
    // An expired session, written as the server would have written it long ago.
    let expired = "00112233445566778899aabbccddeeff";
    server
        .state
        .store
        .insert_session(
            &jungle_server::accounts::session::token_hash(expired),
            account.id,
            1,
        )
        .unwrap();
    for forged in [
        "jungle_session=ffffffffffffffffffffffffffffffff".to_string(),
        "jungle_session=not-a-token".to_string(),
        format!("jungle_session={expired}"),
        // The database's hash of the real token is not the token.
        format!(
            "jungle_session={}",
            jungle_server::accounts::session::token_hash(real.split_once('=').unwrap().1)
        ),
    ] {
        assert_eq!(me(addr, Some(&forged)).await, None, "{forged}");
        let (status, _, body) = post(
            addr,
            "/api/password",
            &json!({ "old": "correct horse", "new": "taken over" }),
            Some(&forged),
        )
        .await;
        assert_eq!(status, 401, "{forged}: {body}");
    }
    assert_eq!(me(addr, Some(&real)).await.as_deref(), Some("Ann"));
    server.kill().await;
}

/// Every `.route("PATH", ...post(...))` in the server's source: routes added later are covered too.
fn post_routes() -> Vec<String> {
    fn sources(dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut texts = Vec::new();
    sources(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut texts,
    );
    let mut routes = Vec::new();
    for text in &texts {
        for statement in text.split(".route(").skip(1) {
            // The route's own arguments: up to the next method call on the router.
            let statement = statement.split("\n        .").next().unwrap();
            let path = statement.split('"').nth(1).unwrap();
            if statement.contains("post(") {
                routes.push(path.to_string());
            }
        }
    }
    routes.sort();
    routes.dedup();
    routes
}

#[tokio::test]
async fn every_post_route_refuses_a_missing_or_wrong_csrf_token_and_changes_nothing() {
    let server = server("accounts-csrf").await;
    let addr = server.addr;
    let session = sign_up(addr, "Ann", "correct horse").await;
    let (id, seat) = create(addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let routes = post_routes();
    for expected in [
        "/api/games",
        "/api/games/{id}/join",
        "/api/games/{id}/rematch",
        "/api/import",
        "/api/signup",
        "/api/login",
        "/api/logout",
        "/api/password",
    ] {
        assert!(
            routes.iter().any(|r| r == expected),
            "{expected} in {routes:?}"
        );
    }
    let before = server
        .state
        .store
        .list(jungle_server::store::GameList::Live, 100)
        .unwrap()
        .len();
    let token = crate::support::csrf_token(addr).await;
    let cookies = format!("{session}; {seat}");
    for route in &routes {
        let path = route.replace("{id}", &id);
        let body = r#"{"opponent":"friend","name":"Bob","password":"correct horse","old":"correct horse","new":"battery staple"}"#;
        for (what, lines) in [
            ("no token", vec![format!("Cookie: {cookies}")]),
            (
                "a header without its cookie",
                vec![
                    format!("Cookie: {cookies}"),
                    format!("X-CSRF-Token: {token}"),
                ],
            ),
            (
                "a cookie without its header",
                vec![format!("Cookie: {cookies}; jungle_csrf={token}")],
            ),
            (
                "a wrong header",
                vec![
                    format!("Cookie: {cookies}; jungle_csrf={token}"),
                    "X-CSRF-Token: 0123456789abcdef0123456789abcdef".to_string(),
                ],
            ),
            (
                "another site's page with the right token",
                vec![
                    format!("Cookie: {cookies}; jungle_csrf={token}"),
                    format!("X-CSRF-Token: {token}"),
                    "Origin: http://evil.example".to_string(),
                ],
            ),
        ] {
            let mut lines = lines;
            lines.push("Content-Type: application/json".into());
            let (status, headers, reply) =
                http_bare(addr, "POST", &path, &lines, body.as_bytes()).await;
            assert_eq!(status, 403, "{route} with {what}: {reply}");
            assert!(json_of(&reply)["error"].is_string());
            assert!(
                set_cookies(&headers).all(|c| c.starts_with("jungle_csrf=")),
                "{route} with {what} set a cookie"
            );
        }
    }
    // Nothing changed: no game made, no seat taken, no account made, still signed in with the old password.
    let after = server
        .state
        .store
        .list(jungle_server::store::GameList::Live, 100)
        .unwrap();
    assert_eq!(after.len(), before);
    assert!(after[0].open_seat);
    assert!(server.state.store.account_by_name("Bob").unwrap().is_none());
    assert_eq!(me(addr, Some(&session)).await.as_deref(), Some("Ann"));
    server.kill().await;
}

#[tokio::test]
async fn a_guest_gets_a_csrf_cookie_readable_by_the_pages_and_me_repeats_it() {
    let server = server("accounts-csrf-cookie").await;
    let (status, headers, _) = http_bare(server.addr, "GET", "/", &[], b"").await;
    assert_eq!(status, 200);
    let set = headers
        .iter()
        .find(|(k, v)| k == "set-cookie" && v.starts_with("jungle_csrf="))
        .map(|(_, v)| v.clone())
        .expect("a CSRF cookie");
    assert!(
        set.contains("SameSite=Strict") && set.contains("Path=/"),
        "{set}"
    );
    assert!(!set.contains("HttpOnly"), "the pages read it: {set}");
    let token = crate::support::csrf_token(server.addr).await;
    let (_, headers, body) = http(server.addr, "GET", "/api/me", "", None).await;
    assert_eq!(json_of(&body)["csrf"], token.as_str());
    assert_eq!(
        set_cookies(&headers).count(),
        0,
        "a client with the cookie keeps it"
    );
    server.kill().await;
}
