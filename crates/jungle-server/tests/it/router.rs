//! The HTTP side through `app()` with `oneshot`: no socket, the router alone.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use jungle_server::{AppState, EnginePool, Hub, Store, app};
use serde_json::Value;
use tower::ServiceExt;

/// The media type PGN imports are sent as.
const PGN: &str = "application/x-chess-pgn";

fn state() -> AppState {
    Hub::new(Store::in_memory().unwrap(), EnginePool::new(1))
}

struct Reply {
    status: StatusCode,
    cookie: Option<String>,
    content_type: String,
    headers: axum::http::HeaderMap,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// A CSRF token as the server makes them (the check is a double submit: the header must repeat the cookie).
const CSRF: &str = "0123456789abcdef0123456789abcdef";

/// Sends a request as the site's pages do: with the CSRF cookie, and the CSRF header on a state-changing one.
async fn send(state: &AppState, mut request: Request<Body>) -> Reply {
    let headers = request.headers_mut();
    headers.append(
        header::COOKIE,
        format!("jungle_csrf={CSRF}").parse().unwrap(),
    );
    if !matches!(request.method().as_str(), "GET" | "HEAD" | "OPTIONS") {
        request
            .headers_mut()
            .insert("x-csrf-token", CSRF.parse().unwrap());
    }
    send_bare(state, request).await
}

/// Sends a request exactly as given.
async fn send_bare(state: &AppState, request: Request<Body>) -> Reply {
    let response = app(state.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let cookie = response
        .headers()
        .get(header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string());
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    Reply {
        status,
        cookie,
        content_type,
        headers,
        body: String::from_utf8_lossy(&bytes).to_string(),
    }
}

async fn get(state: &AppState, path: &str) -> Reply {
    send(state, Request::get(path).body(Body::empty()).unwrap()).await
}

async fn get_with_cookie(state: &AppState, path: &str, cookie: &str) -> Reply {
    send(
        state,
        Request::get(path)
            .header(header::COOKIE, cookie)
            .body(Body::empty())
            .unwrap(),
    )
    .await
}

async fn post(state: &AppState, path: &str, body: impl Into<Body>) -> Reply {
    send(
        state,
        Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body.into())
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn pages_and_static_files_are_served_from_the_binary() {
    let state = state();
    let home = get(&state, "/").await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.content_type.starts_with("text/html"));
    // The words come from the dictionary (i18n.js); the page carries the keys.
    assert!(home.body.contains(r#"id="play-engine""#));
    for (file, kind) in [
        ("style.css", "text/css"),
        ("board.js", "text/javascript"),
        ("game.js", "text/javascript"),
    ] {
        let reply = get(&state, &format!("/static/{file}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{file}");
        assert!(reply.content_type.starts_with(kind), "{file}");
    }
    assert_eq!(
        get(&state, "/static/../Cargo.toml").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&state, "/static/secret.txt").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&state, "/nothing/here").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&state, "/game/nosuchgame").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&state, "/game/bad%20id!").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&state, "/api/games/nosuchgame").await.status,
        StatusCode::NOT_FOUND
    );
}

/// What the game page asks before reconnecting (the front door routes it by the game's id): any node that runs
/// answers at once, with nothing to read, whatever the game, without looking it up.
#[tokio::test]
async fn a_running_node_says_it_answers_for_any_game() {
    let state = state();
    for path in ["/api/alive/abcdefgh", "/api/alive/no-such-game"] {
        let reply = get(&state, path).await;
        assert_eq!(reply.status, StatusCode::NO_CONTENT, "{path}");
        assert!(reply.body.is_empty(), "{path}: {}", reply.body);
    }
    assert_eq!(
        get(&state, "/api/alive").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn creating_a_friend_game_seats_the_creator_then_one_visitor() {
    let state = state();
    let created = post(
        &state,
        "/api/games",
        r#"{"opponent":"friend","side":"red"}"#,
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let value = created.json();
    let id = value["id"].as_str().unwrap().to_string();
    assert_eq!(value["seat"], "red");
    assert_eq!(value["url"], format!("/game/{id}"));
    let creator = created.cookie.expect("the creator gets a seat cookie");
    assert!(creator.starts_with(&format!("seat_{id}=")));

    // The creator reloading keeps their seat and gets no new cookie.
    let again = get_with_cookie(&state, &format!("/game/{id}"), &creator).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.cookie, None);
    // The friend takes the free seat by joining; everyone after that watches.
    let join = format!("/api/games/{id}/join");
    let friend = post(&state, &join, "").await;
    assert_eq!(friend.status, StatusCode::OK, "{}", friend.body);
    assert_eq!(friend.json()["seat"], "blue");
    assert!(friend.cookie.is_some());
    assert_ne!(friend.cookie, Some(creator.clone()));
    let watcher = post(&state, &join, "").await;
    assert_eq!(watcher.status, StatusCode::CONFLICT);
    assert_eq!(watcher.cookie, None);
    assert!(watcher.json()["error"].as_str().unwrap().contains("watch"));

    let record = get(&state, &format!("/api/games/{id}")).await.json();
    assert_eq!(record["seats_taken"]["blue"], true);
    assert_eq!(record["seats_taken"]["red"], true);
    assert_eq!(record["fens"].as_array().unwrap().len(), 1);
    assert_eq!(record["legal"].as_array().unwrap().len(), 24);
    let lists = get(&state, "/api/games").await.json();
    assert_eq!(lists["live"][0]["id"], id.as_str());
    assert!(lists["recent"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn bad_new_game_requests_are_refused_with_the_reason() {
    let state = state();
    for (body, needle) in [
        (r#"{"opponent":"robot"}"#, "robot"),
        (r#"{"opponent":"engine","level":9}"#, "level 9"),
        (r#"{"opponent":"friend","side":"green"}"#, "green"),
        (
            r#"{"opponent":"friend","rules":"tiger-swims=true"}"#,
            "tiger-swims",
        ),
        (r#"{"opponent":"friend","fen":"xyz w"}"#, "fen"),
        (r#"{"opponent":"friend","minutes":-1}"#, "minutes"),
        (r#"{"opponent":"friend","increment":3600}"#, "increment"),
        (r#"{"opponent":"friend","colour":"blue"}"#, "colour"),
        ("not json", "JSON"),
    ] {
        let reply = post(&state, "/api/games", body).await;
        // 422 for well-formed JSON of the wrong shape (axum's convention), 400 otherwise.
        assert!(
            [StatusCode::BAD_REQUEST, StatusCode::UNPROCESSABLE_ENTITY].contains(&reply.status),
            "{body}"
        );
        let message = reply.json()["error"].as_str().unwrap().to_string();
        assert!(message.contains(needle), "{body}: {message}");
        assert_eq!(reply.cookie, None);
    }
    let long_rules = format!(r#"{{"opponent":"friend","rules":"{}"}}"#, "x".repeat(1000));
    assert_eq!(
        post(&state, "/api/games", long_rules).await.status,
        StatusCode::BAD_REQUEST
    );
    let huge = format!(
        r#"{{"opponent":"friend","rules":"{}"}}"#,
        "x".repeat(200_000)
    );
    assert_eq!(
        post(&state, "/api/games", huge).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    assert!(
        get(&state, "/api/games").await.json()["live"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn games_with_options_start_from_the_rules_board_or_a_fen() {
    let state = state();
    let reply = post(
        &state,
        "/api/games",
        r#"{"opponent":"friend","rules":"animal-checkers","side":"blue"}"#,
    )
    .await;
    let id = reply.json()["id"].as_str().unwrap().to_string();
    let record = get(&state, &format!("/api/games/{id}")).await.json();
    assert_eq!(record["rules"], "board=animal-checkers");
    assert_eq!(record["fen"], jungle_rules::fen::ANIMAL_CHECKERS_START_FEN);

    let fen = "2l4/7/7/7/7/7/7/7/2E4 w 0 1";
    let body = format!(r#"{{"opponent":"friend","fen":"{fen}"}}"#);
    let id = post(&state, "/api/games", body).await.json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let record = get(&state, &format!("/api/games/{id}")).await.json();
    assert_eq!(record["start_fen"], fen);
}

#[tokio::test]
async fn pgn_round_trip_download_import_and_bad_pgn() {
    let state = state();
    let pgn = "[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n[Variant \"Jungle\"]\n\n1. a3a4 g7g6 2. a4a5 *\n";
    let imported = send(
        &state,
        Request::post("/api/import")
            .header(header::CONTENT_TYPE, PGN)
            .body(Body::from(pgn))
            .unwrap(),
    )
    .await;
    assert_eq!(imported.status, StatusCode::OK, "{}", imported.body);
    let id = imported.json()["id"].as_str().unwrap().to_string();
    let record = get(&state, &format!("/api/games/{id}")).await.json();
    assert_eq!(record["moves"], serde_json::json!(["a3a4", "g7g6", "a4a5"]));
    assert_eq!(record["players"]["blue"], "Ann");
    assert_eq!(record["fens"].as_array().unwrap().len(), 4);
    assert_eq!(
        get(&state, &format!("/replay/{id}")).await.status,
        StatusCode::OK
    );
    // Imports are for study: nobody takes a seat in them.
    let join = post(&state, &format!("/api/games/{id}/join"), "").await;
    assert_eq!(join.status, StatusCode::CONFLICT);
    assert_eq!(join.cookie, None);

    let download = get(&state, &format!("/api/games/{id}/pgn")).await;
    assert_eq!(download.status, StatusCode::OK);
    assert!(
        download.body.contains("[White \"Ann\"]"),
        "{}",
        download.body
    );
    assert!(
        download.body.contains("1. a3a4 g7g6 2. a4a5"),
        "{}",
        download.body
    );
    let back: jungle_rules::pgn::PgnGame = download.body.parse().unwrap();
    assert_eq!(back.game.moves().len(), 3);

    for bad in ["1. a1a3 *", "[FEN \"nonsense\"]\n\n*", "1. a3a4 a3a4 *"] {
        let reply = send(
            &state,
            Request::post("/api/import")
                .header(header::CONTENT_TYPE, PGN)
                .body(Body::from(bad))
                .unwrap(),
        )
        .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(
            reply.json()["error"].as_str().unwrap().starts_with("pgn"),
            "{bad}"
        );
    }
    let huge = "1. a3a4 ".repeat(20_000);
    let reply = send(
        &state,
        Request::post("/api/import")
            .header(header::CONTENT_TYPE, PGN)
            .body(Body::from(huge))
            .unwrap(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn analysis_gives_the_engines_line_for_any_ply() {
    let state = state();
    let pgn = "1. a3a4 g7g6 *";
    let id = send(
        &state,
        Request::post("/api/import")
            .header(header::CONTENT_TYPE, PGN)
            .body(Body::from(pgn))
            .unwrap(),
    )
    .await
    .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let analysis = get(&state, &format!("/api/games/{id}/analysis?ply=1")).await;
    assert_eq!(analysis.status, StatusCode::OK, "{}", analysis.body);
    let value = analysis.json();
    let best = value["best"].as_str().expect("a best move").to_string();
    // After 1. a3a4 it is Red's move: the best move is one of Red's legal moves.
    let mut game = jungle_rules::Game::new(jungle_rules::Rules::default());
    game.play_text("a3a4").unwrap();
    assert!(game.legal_moves().iter().any(|m| m.to_string() == best));
    assert_eq!(value["pv"][0], best.as_str());
    assert!(value["score_cp"].is_i64() || value["mate_plies"].is_i64());
    let past = get(&state, &format!("/api/games/{id}/analysis?ply=3")).await;
    assert_eq!(past.status, StatusCode::BAD_REQUEST);
    let garbled = get(&state, &format!("/api/games/{id}/analysis?ply=x")).await;
    assert_eq!(garbled.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn every_answer_carries_a_request_id_made_here_or_passed_on() {
    let state = state();
    let reply = get(&state, "/api/games").await;
    let made = reply.headers["x-request-id"].to_str().unwrap().to_string();
    assert_eq!(made.len(), 36, "a UUID: {made}");
    let again = get(&state, "/no/such/page").await;
    assert_ne!(
        again.headers["x-request-id"],
        made.as_str(),
        "a new id per request"
    );
    let passed = send(
        &state,
        Request::get("/api/games")
            .header("x-request-id", "proxy-42")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(passed.headers["x-request-id"], "proxy-42");
}

/// A request as a chat app's link preview makes it, or as another site's page would send it.
fn request(method: &str, path: &str, headers: &[(&str, &str)]) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(path);
    for &(name, value) in headers {
        builder = builder.header(name, value);
    }
    builder.body(Body::empty()).unwrap()
}

#[tokio::test]
async fn opening_a_friend_link_takes_no_seat_and_joining_needs_our_origin() {
    let state = state();
    let created = post(
        &state,
        "/api/games",
        r#"{"opponent":"friend","side":"blue"}"#,
    )
    .await;
    let id = created.json()["id"].as_str().unwrap().to_string();
    let page = format!("/game/{id}");
    for _ in 0..3 {
        let preview = send(
            &state,
            request(
                "GET",
                &page,
                &[("user-agent", "Slackbot-LinkExpanding 1.0")],
            ),
        )
        .await;
        assert_eq!(preview.status, StatusCode::OK);
        assert_eq!(preview.cookie, None, "a page view takes no seat");
    }
    let record = get(&state, &format!("/api/games/{id}")).await.json();
    assert_eq!(record["seats_taken"]["red"], false);

    // Another site's page cannot seat its visitor here; our own page can.
    let join = format!("/api/games/{id}/join");
    let foreign = send(
        &state,
        request(
            "POST",
            &join,
            &[
                ("origin", "http://evil.example"),
                ("host", "127.0.0.1:8080"),
            ],
        ),
    )
    .await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    assert_eq!(foreign.cookie, None);
    let ours = send(
        &state,
        request(
            "POST",
            &join,
            &[
                ("origin", "http://127.0.0.1:8080"),
                ("host", "127.0.0.1:8080"),
            ],
        ),
    )
    .await;
    assert_eq!(ours.status, StatusCode::OK, "{}", ours.body);
    assert_eq!(ours.json()["seat"], "red");
    let cookie = ours.cookie.expect("the seat cookie");
    // Joining again with the seat says which seat it is, and changes nothing.
    let again = send(&state, request("POST", &join, &[("cookie", &cookie)])).await;
    assert_eq!(again.json()["seat"], "red");
    assert_eq!(again.cookie, None);
    // A join of no game is a 404.
    let none = post(&state, "/api/games/nosuchgame/join", "").await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn imports_are_listed_apart_and_pgn_downloads_name_the_players() {
    let state = state();
    let pgn = "[White \"Ann\"]\n\n1. a3a4 g7g6 *\n";
    let imported = send(
        &state,
        Request::post("/api/import")
            .header(header::CONTENT_TYPE, PGN)
            .body(Body::from(pgn))
            .unwrap(),
    )
    .await;
    assert_eq!(imported.status, StatusCode::OK, "{}", imported.body);
    let imported = imported.json()["id"].as_str().unwrap().to_string();
    let created = post(
        &state,
        "/api/games",
        r#"{"opponent":"engine","level":3,"side":"blue"}"#,
    )
    .await;
    let engine_game = created.json()["id"].as_str().unwrap().to_string();

    let lists = get(&state, "/api/games").await.json();
    let ids = |list: &str| -> Vec<String> {
        lists[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids("imports"), vec![imported]);
    assert!(
        ids("recent").is_empty(),
        "an unfinished import is not a finished game"
    );
    assert_eq!(ids("live"), vec![engine_game.clone()]);
    assert_eq!(lists["imports"][0]["plies"], 2);
    assert!(lists["live"][0]["clock_initial_ms"].is_null());

    let download = get(&state, &format!("/api/games/{engine_game}/pgn")).await;
    assert!(
        download.body.contains("[White \"Anonymous\"]"),
        "{}",
        download.body
    );
    assert!(
        download.body.contains("[Black \"Engine level 3\"]"),
        "{}",
        download.body
    );
    // A friend game's free seat has no player yet.
    let friend = post(
        &state,
        "/api/games",
        r#"{"opponent":"friend","side":"blue"}"#,
    )
    .await;
    let friend = friend.json()["id"].as_str().unwrap().to_string();
    let download = get(&state, &format!("/api/games/{friend}/pgn")).await;
    assert!(download.body.contains("[Black \"?\"]"), "{}", download.body);
}
