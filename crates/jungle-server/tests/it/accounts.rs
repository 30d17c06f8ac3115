//! Accounts through a real server: sign up, log in, log out, change password, and what an attacker tries
//! (CSRF on every POST route, forged and expired sessions, injected names).

use std::net::SocketAddr;

use serde_json::{Value, json};

use crate::support::{TestServer, create, http, http_bare, set_cookies};

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

/// A server whose sign-ups are not limited (each test signs up several accounts, some refused).
async fn server(name: &str) -> TestServer {
    crate::adversarial::server_with(name, &["signups-per-hour=1000"]).await
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
            &jungle_server::shared::session::token_hash(expired),
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
            jungle_server::shared::session::token_hash(real.split_once('=').unwrap().1)
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
    // Five refused tries per route: more game-making requests (games, rematches, seeks, acceptances, quick
    // pairings) than one client may make in a minute, and the rate limit is checked first.
    let limits = jungle_server::Limits {
        creates_per_minute: 1000,
        ..jungle_server::Limits::default()
    };
    let config = jungle_server::Config {
        limits,
        ..jungle_server::Config::new(
            "127.0.0.1:0".parse().unwrap(),
            crate::support::temp_dir("accounts-csrf").join("games.db"),
        )
    };
    let server = crate::support::start_config(&config).await;
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

/// A login's (status, `Retry-After`, error).
async fn try_login(addr: SocketAddr, name: &str, password: &str) -> (u16, Option<String>, Value) {
    let body = json!({ "name": name, "password": password }).to_string();
    let (status, headers, text) = http(addr, "POST", "/api/login", &body, None).await;
    let retry = headers
        .iter()
        .find(|(k, _)| k == "retry-after")
        .map(|(_, v)| v.clone());
    (status, retry, json_of(&text))
}

#[tokio::test]
async fn password_guessing_is_refused_with_429_per_address_and_per_account() {
    let server = crate::adversarial::server_with(
        "accounts-guess-address",
        &["logins-per-minute=5", "signups-per-hour=2"],
    )
    .await;
    let addr = server.addr;
    sign_up(addr, "Ann", "correct horse").await;
    for _ in 0..5 {
        assert_eq!(try_login(addr, "Ann", "guess guess").await.0, 401);
    }
    // Past the allowance even the right password is refused: the guesses are counted first.
    let (status, retry, body) = try_login(addr, "Ann", "correct horse").await;
    assert_eq!(status, 429, "{body}");
    assert!(retry.is_some_and(|s| s.parse::<u64>().unwrap() >= 1));
    assert!(body["error"].as_str().unwrap().contains("log-in attempts"));
    // Sign-ups have an allowance of their own.
    sign_up(addr, "Bob", "correct horse").await;
    let (status, _, body) = post(
        addr,
        "/api/signup",
        &json!({ "name": "Cid", "password": "correct horse" }),
        None,
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert!(server.state.store.account_by_name("Cid").unwrap().is_none());
    server.kill().await;

    // Guesses at one account from many addresses: the account's own count.
    let server = crate::adversarial::server_with(
        "accounts-guess-name",
        &["logins-per-minute=100", "logins-per-name-per-hour=3"],
    )
    .await;
    let addr = server.addr;
    let session = sign_up(addr, "Ann", "correct horse").await;
    sign_up(addr, "Bob", "correct horse").await;
    for _ in 0..3 {
        assert_eq!(try_login(addr, "ann", "guess guess").await.0, 401);
    }
    let (status, retry, body) = try_login(addr, "ANN", "correct horse").await;
    assert_eq!(status, 429, "{body}");
    assert!(retry.is_some());
    assert!(body["error"].as_str().unwrap().contains("this account"));
    // A password change guesses the old password too.
    let (status, _, _) = post(
        addr,
        "/api/password",
        &json!({ "old": "correct horse", "new": "battery staple" }),
        Some(&session),
    )
    .await;
    assert_eq!(status, 429);
    assert_eq!(try_login(addr, "Bob", "correct horse").await.0, 200);
    server.kill().await;
}

/// The seat (`blue`/`red`) a websocket with `cookie` is greeted with, and the players' names it sees.
async fn greeted(addr: SocketAddr, id: &str, cookie: Option<&str>) -> (Option<String>, Value) {
    let client = crate::support::Client::connect(addr, id, cookie).await;
    (client.seat.clone(), client.state["players"].clone())
}

/// A friend game made by the signed-in `blue` (session cookie), whose Red seat the signed-in `red` takes by
/// the Join button's request: (its id, Blue's seat cookie).
async fn game_between(addr: SocketAddr, blue: &str, red: &str) -> (String, String) {
    let (status, headers, body) = http(
        addr,
        "POST",
        "/api/games",
        r#"{"opponent":"friend","side":"blue"}"#,
        Some(blue),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let id = json_of(&body)["id"].as_str().unwrap().to_string();
    let blue_seat = set_cookies(&headers)
        .find(|c| c.starts_with("seat_"))
        .unwrap()
        .to_string();
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        "",
        Some(red),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(json_of(&body)["seat"], "red");
    (id, blue_seat)
}

#[tokio::test]
async fn seats_belong_to_accounts_on_every_device_and_nobody_else_acts_in_them() {
    let server = server("accounts-seats").await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann", "correct horse").await;
    let bob = sign_up(addr, "Bob", "correct horse").await;
    let eve = sign_up(addr, "Eve", "correct horse").await;
    // Ann creates a game signed in (her seat carries her name); Bob takes the other seat signed in.
    let (id, ann_seat) = game_between(addr, &ann, &bob).await;
    let (seat, players) = greeted(addr, &id, Some(&ann_seat)).await;
    assert_eq!(seat.as_deref(), Some("blue"));
    assert_eq!(players["blue"], "Ann");
    assert_eq!(players["red"], "Bob");

    // Ann on another device: a new session, no seat cookie, and her seat all the same.
    let (_, other_device, _) = post(
        addr,
        "/api/login",
        &json!({ "name": "ann", "password": "correct horse" }),
        None,
    )
    .await;
    let other_device = other_device.unwrap();
    assert_eq!(
        greeted(addr, &id, Some(&other_device)).await.0.as_deref(),
        Some("blue")
    );
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        "",
        Some(&other_device),
    )
    .await;
    assert_eq!(
        (status, json_of(&body)["seat"].clone()),
        (200, json!("blue"))
    );

    // Eve, signed in, holds no seat: she watches, her moves are refused, no seat or rematch for her.
    let mut watcher = crate::support::Client::connect(addr, &id, Some(&eve)).await;
    assert_eq!(watcher.seat, None);
    watcher.send_move("a3a4").await;
    watcher.expect_error().await;
    let (status, _, _) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        "",
        Some(&eve),
    )
    .await;
    assert_eq!(status, 409);
    let (status, _, _) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/rematch"),
        "",
        Some(&eve),
    )
    .await;
    assert_eq!(status, 403);

    // A seat cookie of another game, renamed for this one, is no seat here.
    let (other, other_seat) = create(addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let stolen = other_seat.replace(&format!("seat_{other}="), &format!("seat_{id}="));
    assert_eq!(greeted(addr, &id, Some(&stolen)).await.0, None);
    let mut thief = crate::support::Client::connect(addr, &id, Some(&stolen)).await;
    thief.send_move("a3a4").await;
    thief.expect_error().await;

    // Nothing changed: no move, the same players.
    let record = server.state.store.game(&id).unwrap().unwrap();
    assert!(server.state.store.moves(&id).unwrap().is_empty());
    assert_eq!(
        (record.blue_name.as_deref(), record.red_name.as_deref()),
        (Some("Ann"), Some("Bob"))
    );
    let ids = server.state.store.seat_accounts(&id).unwrap();
    let account = |name| {
        server
            .state
            .store
            .account_by_name(name)
            .unwrap()
            .unwrap()
            .id
    };
    assert_eq!(ids, (Some(account("Ann")), Some(account("Bob"))));
    server.kill().await;
}

#[tokio::test]
async fn a_game_between_two_accounts_seats_both_by_account() {
    let server = server("accounts-between").await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann", "correct horse").await;
    let bob = sign_up(addr, "Bob", "correct horse").await;
    let store = &server.state.store;
    let (a, b) = (
        store.account_by_name("Ann").unwrap().unwrap(),
        store.account_by_name("Bob").unwrap().unwrap(),
    );
    let options = jungle_server::NewGame {
        minutes: Some(5.0),
        increment: Some(3),
        ..Default::default()
    };
    let room = server.state.create_between(&a, &b, &options).unwrap();
    assert!(server.state.create_between(&a, &a, &options).is_err());
    let (seat, players) = greeted(addr, &room.id, Some(&ann)).await;
    assert_eq!(
        (seat.as_deref(), &players["blue"]),
        (Some("blue"), &json!("Ann"))
    );
    let (seat, players) = greeted(addr, &room.id, Some(&bob)).await;
    assert_eq!(
        (seat.as_deref(), &players["red"]),
        (Some("red"), &json!("Bob"))
    );
    let record = store.game(&room.id).unwrap().unwrap();
    assert_eq!(record.clock_initial_ms, Some(300_000));
    server.kill().await;
}

#[tokio::test]
async fn a_rematch_between_two_accounts_seats_both_by_account() {
    let server = server("accounts-rematch").await;
    let addr = server.addr;
    let ann = sign_up(addr, "Ann", "correct horse").await;
    let bob = sign_up(addr, "Bob", "correct horse").await;
    let (id, ann_seat) = game_between(addr, &ann, &bob).await;
    // Bob, seated by his account alone, resigns.
    let mut red = crate::support::Client::connect(addr, &id, Some(&bob)).await;
    red.send_text(r#"{"type":"resign"}"#).await;
    red.wait_for(|state| !state["outcome"].is_null()).await;

    // Ann asks for the rematch with her seat cookie: she is Red there, Bob is Blue by his account, on any
    // device, without asking and without a seat cookie of the new game.
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/rematch"),
        "",
        Some(&format!("{ann}; {ann_seat}")),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let rematch = json_of(&body);
    assert_eq!(rematch["seat"], "red");
    let new_id = rematch["id"].as_str().unwrap().to_string();
    let (seat, players) = greeted(addr, &new_id, Some(&bob)).await;
    assert_eq!(seat.as_deref(), Some("blue"));
    assert_eq!(
        (&players["blue"], &players["red"]),
        (&json!("Bob"), &json!("Ann"))
    );
    assert_eq!(
        greeted(addr, &new_id, Some(&ann)).await.0.as_deref(),
        Some("red")
    );
    let store = &server.state.store;
    let account = |name| store.account_by_name(name).unwrap().unwrap().id;
    assert_eq!(
        store.seat_accounts(&new_id).unwrap(),
        (Some(account("Bob")), Some(account("Ann")))
    );
    // Bob asking too lands in the same game and seat; nothing is re-bound.
    let (status, _, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/rematch"),
        "",
        Some(&bob),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(json_of(&body)["id"], new_id.as_str());
    assert_eq!(json_of(&body)["seat"], "blue");
    assert_eq!(
        store.seat_accounts(&new_id).unwrap(),
        (Some(account("Bob")), Some(account("Ann")))
    );
    server.kill().await;
}

/// Fills the fields (`id`, value) of a page's form and submits it with its button.
pub async fn fill_and_submit(page: &chromiumoxide::Page, form: &str, fields: &[(&str, &str)]) {
    for (id, value) in fields {
        let js = format!(
            "document.getElementById({}).value = {}",
            json!(id),
            json!(value)
        );
        page.evaluate(js.as_str()).await.unwrap();
    }
    // The button is enabled once the page's script handles the form.
    let button = format!("#{form} button[type=submit]");
    crate::support::browser::wait_until(
        page,
        &format!("!document.querySelector({}).disabled", json!(button)),
    )
    .await;
    crate::support::browser::click(page, &button).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_change_password_log_out_and_in_through_the_pages() {
    use crate::support::browser::{Chrome, click, eval, wait_until};
    let server = server("accounts-browser").await;
    let chrome = Chrome::launch("accounts", 1200, 900).await;
    let base = format!("http://{}", server.addr);
    let page = chrome.person(&format!("{base}/")).await;
    wait_until(&page, "document.getElementById('account-sign-in')").await;
    click(&page, "#account-sign-in").await;
    wait_until(
        &page,
        "location.pathname === '/login' && document.getElementById('signup')",
    )
    .await;

    // A name with markup is refused, and the refusal is shown as text.
    let injected = "<img src=x onerror=alert(1)>";
    fill_and_submit(
        &page,
        "signup",
        &[
            ("signup-name", injected),
            ("signup-password", "correct horse"),
        ],
    )
    .await;
    wait_until(&page, "!document.getElementById('signup-error').hidden").await;
    assert!(
        eval::<bool>(
            &page,
            "document.querySelector('#signup-error img') === null"
        )
        .await
    );

    fill_and_submit(
        &page,
        "signup",
        &[("signup-name", "Ann"), ("signup-password", "correct horse")],
    )
    .await;
    wait_until(
        &page,
        "location.pathname === '/' && document.getElementById('account-name')",
    )
    .await;
    assert_eq!(
        eval::<String>(&page, "document.getElementById('account-name').textContent").await,
        "Ann"
    );
    assert_eq!(
        eval::<String>(
            &page,
            "document.getElementById('account-name').getAttribute('href')"
        )
        .await,
        "/@/Ann"
    );

    click(&page, "#account-settings").await;
    wait_until(
        &page,
        "location.pathname === '/account' && document.getElementById('password')",
    )
    .await;
    fill_and_submit(
        &page,
        "password",
        &[
            ("old-password", "correct horse"),
            ("new-password", "battery staple"),
        ],
    )
    .await;
    wait_until(&page, "!document.getElementById('password-done').hidden").await;
    click(&page, "#logout").await;
    wait_until(
        &page,
        "location.pathname === '/' && document.getElementById('account-sign-in')",
    )
    .await;

    page.goto(format!("{base}/login").as_str()).await.unwrap();
    wait_until(&page, "document.getElementById('login')").await;
    fill_and_submit(
        &page,
        "login",
        &[("login-name", "ann"), ("login-password", "correct horse")],
    )
    .await;
    wait_until(&page, "!document.getElementById('login-error').hidden").await;
    assert_eq!(
        eval::<String>(&page, "document.getElementById('login-error').textContent").await,
        "Wrong username or password."
    );
    fill_and_submit(
        &page,
        "login",
        &[("login-name", "ann"), ("login-password", "battery staple")],
    )
    .await;
    wait_until(
        &page,
        "location.pathname === '/' && document.getElementById('account-name')",
    )
    .await;
    chrome.close().await;
    server.kill().await;
}
