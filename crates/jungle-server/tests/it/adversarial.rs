//! The standing adversarial suite: the attacks of issue 12 replayed against a real server on a port-0 socket,
//! each with the limit that stops it, and the attacks that already held. Limits are set low here so that each
//! attack reaches its limit quickly; docs/security.md lists the defaults.

use std::time::Duration;

use futures_util::SinkExt;
use tokio_tungstenite::tungstenite::Message;

use crate::support::{
    Client, TestServer, create, http, http_bare, http_raw, start_config, temp_dir,
};
use jungle_rules::pgn::PgnGame;
use jungle_rules::{Game, Rules};
use jungle_server::{Config, Limits};
use serde_json::Value;

/// An HTTP answer: status, headers, body.
type Answer = (u16, Vec<(String, String)>, String);

pub(crate) async fn server_with(name: &str, settings: &[&str]) -> TestServer {
    let mut limits = Limits::default();
    for setting in settings {
        limits.set(setting).unwrap();
    }
    let config = Config {
        engine_threads: 1,
        limits,
        ..Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir(name).join("games.db"),
        )
    };
    start_config(&config).await
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A long game as PGN: two pieces shuffling back and forth under rules without repetition or quiet-move draws.
fn long_pgn(plies: usize) -> String {
    let rules: Rules = "standard,repetition-draw=0,quiet-ply-limit=0"
        .parse()
        .unwrap();
    let start = jungle_rules::Position::start(&rules);
    let mut game = Game::from_position(rules, start);
    for ply in 0..plies {
        let mv = ["a3a4", "g7g6", "a4a3", "g6g7"][ply % 4];
        game.play_text(mv).unwrap();
    }
    PgnGame::new(game).to_string()
}

async fn import(addr: std::net::SocketAddr, pgn: &str) -> (u16, Vec<(String, String)>, String) {
    let headers = ["Content-Type: application/x-chess-pgn".to_string()];
    http_raw(addr, "POST", "/api/import", &headers, pgn.as_bytes()).await
}

#[tokio::test]
async fn imported_games_viewed_once_do_not_stay_in_memory() {
    // Issue 12.1: each long import viewed once used to stay resident for good.
    let server = server_with(
        "memory",
        &[
            "rooms-memory-mib=1",
            "imports-per-minute=1000",
            "requests-per-minute=10000",
        ],
    )
    .await;
    let pgn = long_pgn(2000);
    let mut largest = 0;
    for _ in 0..12 {
        let (status, _, body) = import(server.addr, &pgn).await;
        assert_eq!(status, 200, "{body}");
        let id = json(&body)["id"].as_str().unwrap().to_string();
        let (status, _, body) =
            http(server.addr, "GET", &format!("/api/games/{id}"), "", None).await;
        assert_eq!(status, 200);
        assert_eq!(json(&body)["ply"], 2000);
        largest = largest.max(server.state.rooms_held().1);
    }
    assert!(
        largest <= 1 << 20,
        "rooms held {largest} bytes, over the 1 MiB budget"
    );
    // Idle rooms also leave by age: a sweep with everything stale empties memory of them.
    server.state.tidy(true);
    assert_eq!(server.state.rooms_held().0, 0);
}

#[tokio::test]
async fn over_the_process_memory_bound_the_api_answers_503_but_pages_load() {
    let server = server_with("memory-bound", &["process-memory-mib=1"]).await;
    let (status, headers, body) = http(server.addr, "GET", "/api/games", "", None).await;
    assert_eq!(status, 503);
    assert!(json(&body)["error"].as_str().unwrap().contains("memory"));
    assert!(header(&headers, "retry-after").is_some());
    let (status, _, _) = http(server.addr, "GET", "/", "", None).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn game_creation_is_rate_limited_per_client_with_429_and_retry_after() {
    // Issue 12.4: 10,000 games in 4.3 s were accepted from one client.
    let server = server_with("rate", &["creates-per-minute=3"]).await;
    for _ in 0..3 {
        create(server.addr, r#"{"opponent":"friend"}"#).await;
    }
    let (status, headers, body) = http(
        server.addr,
        "POST",
        "/api/games",
        r#"{"opponent":"friend"}"#,
        None,
    )
    .await;
    assert_eq!(status, 429);
    assert!(
        json(&body)["error"]
            .as_str()
            .unwrap()
            .contains("too many game creations")
    );
    let wait: u64 = header(&headers, "retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&wait), "{wait}");
    // Reading is not creating.
    let (status, _, _) = http(server.addr, "GET", "/api/games", "", None).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn engine_games_per_client_are_limited() {
    // Issue 12.2: one client could fill the engine's queue with level-8 games.
    let server = server_with("engine-games", &["engine-games-per-client=2"]).await;
    let request = r#"{"opponent":"engine","level":8,"side":"blue"}"#;
    create(server.addr, request).await;
    create(server.addr, request).await;
    let (status, _, body) = http(server.addr, "POST", "/api/games", request, None).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        json(&body)["error"]
            .as_str()
            .unwrap()
            .contains("unfinished games against the engine")
    );
    // A friend game is not an engine game.
    create(server.addr, r#"{"opponent":"friend"}"#).await;
}

#[tokio::test]
async fn websockets_are_capped_per_client() {
    // Issue 12.3: 5,000 idle websockets took 716 MB.
    let server = server_with("connections", &["connections-per-client=2"]).await;
    let (id, cookie) = create(server.addr, r#"{"opponent":"friend"}"#).await;
    let first = Client::connect(server.addr, &id, Some(&cookie)).await;
    let _second = Client::connect(server.addr, &id, None).await;
    let url = format!("ws://{}/ws/{id}", server.addr);
    let refused = tokio_tungstenite::connect_async(url.as_str()).await;
    assert!(
        refused.is_err(),
        "a third connection from one address is refused"
    );
    // A closed connection frees its place.
    drop(first);
    for _ in 0..3000 {
        if server.state.connections.total() < 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _third = Client::connect(server.addr, &id, None).await;
}

#[tokio::test]
async fn idle_websockets_are_closed() {
    let server = server_with("idle", &["connection-idle-secs=1"]).await;
    let (id, cookie) = create(server.addr, r#"{"opponent":"friend"}"#).await;
    let mut client = Client::connect(server.addr, &id, Some(&cookie)).await;
    // Silence closes the connection (the page pings every 30 s; here the limit is 1 s).
    assert!(
        client.next().await.is_none(),
        "an idle connection is closed"
    );
}

#[tokio::test]
async fn a_websocket_flood_is_cut_off() {
    let server = server_with("flood", &["messages-per-minute=60"]).await;
    let (id, cookie) = create(server.addr, r#"{"opponent":"friend"}"#).await;
    let mut client = Client::connect(server.addr, &id, Some(&cookie)).await;
    for _ in 0..50 {
        let ping = Message::Text(r#"{"type":"ping"}"#.into());
        if client.socket.send(ping).await.is_err() {
            break; // already cut off
        }
    }
    let mut saw_flood_error = false;
    while let Some(message) = client.next().await {
        if message["type"] == "error" {
            assert_eq!(
                message["message"],
                jungle_server::shared::relay::FLOOD_MESSAGE
            );
            saw_flood_error = true;
        }
    }
    assert!(saw_flood_error, "the connection is closed with a reason");
}

#[tokio::test]
async fn pages_carry_a_strict_content_security_policy_and_cannot_be_framed() {
    // Issue 12.6.
    let server = server_with("headers", &[]).await;
    for path in ["/", "/static/game.js", "/api/games", "/no-such-page"] {
        let (_, headers, _) = http(server.addr, "GET", path, "", None).await;
        let csp = header(&headers, "content-security-policy").unwrap_or_else(|| panic!("{path}"));
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"));
        assert!(!csp.contains("unsafe-inline"));
        assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
        assert_eq!(header(&headers, "x-frame-options"), Some("DENY"));
        assert_eq!(header(&headers, "referrer-policy"), Some("no-referrer"));
    }
}

#[tokio::test]
async fn cross_site_form_and_text_imports_are_refused_with_415() {
    // Issue 12.6: text/plain and urlencoded POSTs need no CORS preflight, so any site could send them.
    let server = server_with("import-type", &[]).await;
    let pgn = long_pgn(4);
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let headers = [format!("Content-Type: {content_type}")];
        let (status, _, body) =
            http_raw(server.addr, "POST", "/api/import", &headers, pgn.as_bytes()).await;
        assert_eq!(status, 415, "{content_type}");
        assert!(
            json(&body)["error"]
                .as_str()
                .unwrap()
                .contains("application/x-chess-pgn")
        );
    }
    let (status, _, body) = import(server.addr, &pgn).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn a_websocket_from_another_origin_or_a_rebound_name_is_refused() {
    let server = server_with("origin", &[]).await;
    let (id, _) = create(server.addr, r#"{"opponent":"friend"}"#).await;
    for (origin, host) in [
        ("http://evil.example".to_string(), server.addr.to_string()),
        // DNS rebinding: the attacker's name resolves to this server, so Origin and Host agree.
        (
            "http://evil.example:1234".to_string(),
            "evil.example:1234".to_string(),
        ),
    ] {
        let request = axum::http::Request::builder()
            .uri(format!("ws://{}/ws/{id}", server.addr))
            .header("Host", host)
            .header("Origin", origin)
            .header("Connection", "Upgrade")
            .header("Upgrade", "websocket")
            .header("Sec-WebSocket-Version", "13")
            .header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
            .body(())
            .unwrap();
        let refused = tokio_tungstenite::connect_async(request).await;
        assert!(refused.is_err());
    }
}

#[tokio::test]
async fn every_api_error_is_json_once_worded() {
    // Issue 12.7: query-string errors, 413 and invalid UTF-8 answered in plain text.
    // Issue 29: a 70 KB address, too many headers and a garbled request line, answered with an empty body.
    let server = server_with("errors", &[]).await;
    let (id, _) = create(server.addr, r#"{"opponent":"friend"}"#).await;
    let pgn_type = ["Content-Type: application/x-chess-pgn".to_string()];
    let big = vec![b'a'; 70 * 1024];
    let many_headers: Vec<String> = (0..200).map(|i| format!("X-Header-{i}: {i}")).collect();
    let cases: Vec<(u16, Answer)> = vec![
        (
            400,
            http(
                server.addr,
                "GET",
                &format!("/api/games/{id}/analysis?ply=x"),
                "",
                None,
            )
            .await,
        ),
        (
            413,
            http_raw(server.addr, "POST", "/api/import", &pgn_type, &big).await,
        ),
        (
            400,
            http_raw(
                server.addr,
                "POST",
                "/api/import",
                &pgn_type,
                b"[Event \"\xff\"]",
            )
            .await,
        ),
        (
            405,
            http(server.addr, "DELETE", "/api/games", "", None).await,
        ),
        (
            404,
            http(server.addr, "GET", "/api/games/nosuchgame", "", None).await,
        ),
        (
            400,
            http(server.addr, "POST", "/api/games", "{", None).await,
        ),
        (
            400,
            http_raw(server.addr, "POST", "/api/import", &pgn_type, b"1. zz").await,
        ),
        // Issue 29: what the framework refuses before any middleware (an empty body before).
        (
            414,
            http(
                server.addr,
                "GET",
                &format!("/api/games?q={}", "a".repeat(70 * 1024)),
                "",
                None,
            )
            .await,
        ),
        (
            431,
            http_bare(server.addr, "GET", "/api/games", &many_headers, b"").await,
        ),
        (
            400,
            http_bare(server.addr, "G\u{1}T", "/api/games", &[], b"").await,
        ),
    ];
    for (expected, (status, headers, body)) in cases {
        assert_eq!(status, expected, "{body}");
        assert!(
            header(&headers, "content-type")
                .unwrap()
                .starts_with("application/json")
        );
        let message = json(&body)["error"].as_str().unwrap().to_string();
        assert!(!message.is_empty());
        let first_word = message.split(':').next().unwrap();
        assert!(
            message.matches(&format!("{first_word}:")).count() <= 1,
            "repeated: {message}"
        );
    }
}

#[tokio::test]
async fn tiny_clocks_and_wrapping_move_numbers_are_refused() {
    let server = server_with("edges", &[]).await;
    for request in [
        r#"{"opponent":"friend","minutes":0.000001}"#,
        r#"{"opponent":"friend","minutes":0.1}"#,
        r#"{"opponent":"friend","fen":"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 4294967295"}"#,
    ] {
        let (status, _, body) = http(server.addr, "POST", "/api/games", request, None).await;
        assert_eq!(status, 400, "{request}: {body}");
        assert!(json(&body)["error"].is_string());
    }
    create(server.addr, r#"{"opponent":"friend","minutes":0.25}"#).await;
}

#[tokio::test]
async fn a_damaged_game_is_quarantined_and_the_others_start() {
    // Issue 12.5: one damaged unfinished game stopped the whole server from starting. Issue 29.2: so did one
    // stored value of the wrong type or out of range ("unexpected stored value"); each column of each table
    // is damaged in turn by jungle-platform's tests/damaged_rows.rs, the attack run's edits here.
    let dir = temp_dir("quarantine");
    let db = dir.join("games.db");
    let config = Config {
        engine_threads: 1,
        ..Config::new("127.0.0.1:0".parse().unwrap(), db.clone())
    };
    let server = start_config(&config).await;
    let (good, _) = create(server.addr, r#"{"opponent":"friend"}"#).await;
    let damages = [
        "UPDATE moves SET mv = 'a3a9' WHERE game_id = ?1",
        "UPDATE games SET engine_level = 999 WHERE id = ?1",
        "UPDATE games SET rules = X'FFFE' WHERE id = ?1",
        "UPDATE games SET created_at = 'yesterday' WHERE id = ?1",
        "UPDATE games SET clock_initial_ms = -5 WHERE id = ?1",
        "UPDATE moves SET mv = X'FFFE' WHERE game_id = ?1",
        "UPDATE moves SET blue_ms = 'yesterday' WHERE game_id = ?1",
    ];
    let mut bad = Vec::new();
    for _ in damages {
        let (id, cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
        let mut client = Client::connect(server.addr, &id, Some(&cookie)).await;
        client.send_move("a3a4").await;
        client.wait_for_ply(1).await;
        bad.push(id);
    }
    server.kill().await;
    let side_door = rusqlite::Connection::open(&db).unwrap();
    for (damage, id) in damages.iter().zip(&bad) {
        assert_eq!(side_door.execute(damage, [id]).unwrap(), 1, "{damage}");
    }
    drop(side_door);

    let server = start_config(&config).await;
    let (status, _, body) = http(server.addr, "GET", &format!("/api/games/{good}"), "", None).await;
    assert_eq!(status, 200, "{body}");
    let (_, _, list) = http(server.addr, "GET", "/api/games", "", None).await;
    let live = json(&list)["live"].to_string();
    assert!(live.contains(&good), "{live}");
    for (damage, id) in damages.iter().zip(&bad) {
        let (status, _, body) =
            http(server.addr, "GET", &format!("/api/games/{id}"), "", None).await;
        assert_eq!(status, 409, "{damage}: {body}");
        assert!(json(&body)["error"].as_str().unwrap().contains("damaged"));
        let (status, _, page) = http(server.addr, "GET", &format!("/game/{id}"), "", None).await;
        assert_eq!(status, 409, "{damage}");
        assert!(page.contains("This game is damaged"));
        assert!(!live.contains(id.as_str()), "{damage}: {live}");
    }
}

#[tokio::test]
async fn time_while_the_server_is_down_is_not_charged() {
    // Issue 12.9: the policy (as on lichess): a restart gives the player on move the time the clock showed.
    let dir = temp_dir("downtime");
    let db = dir.join("games.db");
    let config = Config {
        engine_threads: 1,
        ..Config::new("127.0.0.1:0".parse().unwrap(), db.clone())
    };
    let server = start_config(&config).await;
    let (id, cookie) = create(
        server.addr,
        r#"{"opponent":"friend","side":"blue","minutes":1}"#,
    )
    .await;
    let red_cookie = crate::support::visit(server.addr, &id).await.unwrap();
    let mut client = Client::connect(server.addr, &id, Some(&cookie)).await;
    let mut red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    client.send_move("a3a4").await;
    red.wait_for_ply(1).await;
    red.send_move("g7g6").await;
    client.wait_for_ply(2).await;
    client.send_move("a4a5").await;
    let state = client.wait_for_ply(3).await;
    let red_left = state["clock"]["red_ms"].as_u64().unwrap();
    drop((client, red));
    server.kill().await;
    // The server was down for an hour: the last move is stamped an hour ago.
    let side_door = rusqlite::Connection::open(&db).unwrap();
    side_door
        .execute(
            "UPDATE moves SET played_at = played_at - 3600000 WHERE game_id = ?1",
            [&id],
        )
        .unwrap();
    drop(side_door);
    let server = start_config(&config).await;
    let (status, _, body) = http(server.addr, "GET", &format!("/api/games/{id}"), "", None).await;
    assert_eq!(status, 200);
    let state = json(&body);
    assert!(
        state["outcome"].is_null(),
        "not lost on time: {}",
        state["outcome"]
    );
    let now_left = state["clock"]["red_ms"].as_u64().unwrap();
    // Only the moments since the restart have run (far less than the minute on the clock).
    assert!(now_left + 30_000 > red_left, "{now_left} of {red_left}");
    assert_eq!(state["clock"]["running"], "red");
}

#[tokio::test]
async fn a_newcomer_gets_the_engine_before_clients_who_keep_its_line_full() {
    // Issue 29.1: ten clients (behind the trusted proxy) with three level-8 engine games each kept the one
    // engine thread's line full, and a newcomer's level-1 game waited 51-55 s for the engine's reply: a short
    // job overtook only the long jobs that arrived less than ~2.4 s before it.
    let mut limits = Limits::default();
    limits.set("engine-queue=64").unwrap();
    let config = Config {
        engine_threads: 1,
        limits,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir("engine-line").join("games.db"),
        )
    };
    let server = start_config(&config).await;
    // The engine opens every flood game (it plays Blue), so each asks for a 2.5 s search at once.
    let mut flood = Vec::new();
    for client in 1..=10 {
        for _ in 0..3 {
            let headers = [
                "Content-Type: application/json".to_string(),
                format!("X-Forwarded-For: 203.0.113.{client}"),
            ];
            let request = br#"{"opponent":"engine","level":8,"side":"red"}"#;
            let (status, _, body) =
                http_raw(server.addr, "POST", "/api/games", &headers, request).await;
            assert_eq!(status, 201, "{body}");
            flood.push(json(&body)["id"].as_str().unwrap().to_string());
        }
    }
    let answered = || {
        flood
            .iter()
            .filter(|id| {
                let room = server.state.room(id).unwrap().unwrap();
                !room.lock().game.moves().is_empty()
            })
            .count()
    };
    // The newcomer comes once the flood's jobs have waited longer than any head start a short job had.
    while answered() == 0 {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (id, cookie) = create(
        server.addr,
        r#"{"opponent":"engine","level":1,"side":"blue"}"#,
    )
    .await;
    let mut newcomer = Client::connect(server.addr, &id, Some(&cookie)).await;
    newcomer.send_move("a3a4").await;
    newcomer.wait_for_ply(2).await;
    // Before the reply the engine finished at most the search that was running and one that started while
    // the newcomer's move was on its way; 28 of the flood's 30 searches were still waiting.
    let before_the_newcomer = answered();
    assert!(
        before_the_newcomer <= 3,
        "{before_the_newcomer} flood searches were answered before the newcomer's"
    );
    server.kill().await;
}
