//! The websocket side with real clients on a port-0 server: the server is the authority, and refused
//! messages leave the game unchanged.

use crate::support::{Client, create, http, start, start_config, temp_dir, visit};

/// A friend game with both seats taken: (server, id, blue client, red client).
async fn friend_game(name: &str) -> (crate::support::TestServer, String, Client, Client) {
    let server = start(temp_dir(name).join("games.db")).await;
    let (id, blue_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red_cookie = visit(server.addr, &id)
        .await
        .expect("the second visitor takes the free seat");
    let blue = Client::connect(server.addr, &id, Some(&blue_cookie)).await;
    let red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    assert_eq!(blue.seat.as_deref(), Some("blue"));
    assert_eq!(red.seat.as_deref(), Some("red"));
    (server, id, blue, red)
}

#[tokio::test]
async fn moves_reach_both_players_and_spectators() {
    let (server, id, mut blue, mut red) = friend_game("reach").await;
    assert_eq!(
        visit(server.addr, &id).await,
        None,
        "a third visitor only watches"
    );
    let mut watcher = Client::connect(server.addr, &id, None).await;
    assert_eq!(watcher.seat, None);

    blue.send_move("a3a4").await;
    for client in [&mut blue, &mut red, &mut watcher] {
        let state = client.wait_for_ply(1).await;
        assert_eq!(state["moves"][0], "a3a4");
        assert_eq!(state["turn"], "red");
    }
    red.send_move("g7g6").await;
    for client in [&mut blue, &mut red, &mut watcher] {
        client.wait_for_ply(2).await;
    }
    // A reload: a new connection with the same cookie gets the same seat and the whole game.
    drop(blue);
    let cookie = crate::support::cookie_for(&server, &id, "blue");
    let mut again = Client::connect(server.addr, &id, Some(&cookie)).await;
    assert_eq!(again.seat.as_deref(), Some("blue"));
    assert_eq!(again.state["ply"], 2);
    again.send_move("a4a5").await;
    watcher.wait_for_ply(3).await;
    server.kill().await;
}

#[tokio::test]
async fn illegal_moves_and_moves_for_the_other_seat_are_refused() {
    let (server, id, mut blue, mut red) = friend_game("refused").await;
    let before = blue.state.clone();

    blue.send_move("a1a3").await; // a Tiger cannot move two squares
    assert!(blue.expect_error().await.contains("a1a3"));
    blue.send_move("g7g6").await; // Red's piece on Blue's turn
    blue.expect_error().await;
    red.send_move("g7g6").await; // Red moving on Blue's turn
    assert_eq!(red.expect_error().await, "it is not your turn");
    blue.send_move("z9a1").await;
    assert!(blue.expect_error().await.contains("z9a1"));

    let mut fresh = Client::connect(server.addr, &id, None).await;
    assert_eq!(fresh.state["ply"], 0);
    assert_eq!(fresh.state["fen"], before["fen"]);
    // The game goes on normally afterwards.
    blue.send_move("a3a4").await;
    fresh.wait_for_ply(1).await;
    server.kill().await;
}

#[tokio::test]
async fn forged_and_missing_tokens_only_watch() {
    let (server, id, _blue, _red) = friend_game("forged").await;
    let forged = format!("seat_{id}=00000000000000000000000000000000");
    let mut intruder = Client::connect(server.addr, &id, Some(&forged)).await;
    assert_eq!(intruder.seat, None);
    intruder.send_move("a3a4").await;
    assert!(intruder.expect_error().await.contains("watching"));
    intruder.send_text(r#"{"type":"resign"}"#).await;
    assert!(intruder.expect_error().await.contains("watching"));
    // A token for another game is no token here.
    let (_, other_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let value = other_cookie.split_once('=').unwrap().1;
    let mut cross = Client::connect(server.addr, &id, Some(&format!("seat_{id}={value}"))).await;
    assert_eq!(cross.seat, None);
    cross.send_move("a3a4").await;
    cross.expect_error().await;

    let fresh = Client::connect(server.addr, &id, None).await;
    assert_eq!(fresh.state["ply"], 0);
    assert!(fresh.state["outcome"].is_null());
    server.kill().await;
}

#[tokio::test]
async fn garbled_binary_and_oversized_messages_are_refused() {
    let (server, id, mut blue, _red) = friend_game("garbled").await;
    for garbage in [
        "",
        "a3a4",
        "{",
        "null",
        r#"{"type":"castle"}"#,
        r#"{"type":"move","move":[1]}"#,
    ] {
        blue.send_text(garbage).await;
        assert!(
            blue.expect_error().await.contains("unreadable"),
            "{garbage}"
        );
    }
    blue.socket.send_binary(vec![1, 2, 3]).await;
    assert!(blue.expect_error().await.contains("binary"));
    let big = format!(r#"{{"type":"move","move":"{}"}}"#, "a".repeat(4000));
    blue.send_text(&big).await;
    assert!(blue.expect_error().await.contains("too large"));
    // Past the transport's frame limit the connection is closed.
    let huge = "x".repeat(200_000);
    let _ = futures_util::SinkExt::send(
        &mut blue.socket,
        tokio_tungstenite::tungstenite::Message::Text(huge.into()),
    )
    .await;
    loop {
        match blue.next().await {
            None => break,
            Some(message) => assert_ne!(message["type"], "state", "no change may follow"),
        }
    }
    let fresh = Client::connect(server.addr, &id, None).await;
    assert_eq!(fresh.state["ply"], 0);
    server.kill().await;
}

/// Sends raw binary frames (a helper so the test above reads plainly).
trait SendBinary {
    async fn send_binary(&mut self, bytes: Vec<u8>);
}

impl SendBinary for crate::support::Socket {
    async fn send_binary(&mut self, bytes: Vec<u8>) {
        futures_util::SinkExt::send(
            self,
            tokio_tungstenite::tungstenite::Message::Binary(bytes.into()),
        )
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn resignation_and_draw_agreement_end_the_game_for_everyone() {
    let (server, id, mut blue, mut red) = friend_game("endings").await;
    blue.send_text(r#"{"type":"offer_draw"}"#).await;
    red.wait_for(|s| s["draw_offer"] == "blue").await;
    red.send_text(r#"{"type":"decline_draw"}"#).await;
    blue.wait_for(|s| s["draw_offer"].is_null() && s["ply"] == 0)
        .await;
    // The offerer is told, not only shown the offer gone.
    let notice = blue.next_of("notice").await;
    assert_eq!(notice["event"], "draw_declined");
    assert_eq!(notice["by"], "red");
    assert_eq!(notice["text"], "Red declines the draw.");
    blue.send_text(r#"{"type":"decline_draw"}"#).await;
    assert!(blue.expect_error().await.contains("no draw offer"));

    red.send_text(r#"{"type":"resign"}"#).await;
    for client in [&mut blue, &mut red] {
        let state = client.wait_for(|s| !s["outcome"].is_null()).await;
        assert_eq!(state["outcome"]["winner"], "blue");
        assert_eq!(state["outcome"]["reason"], "resignation");
    }
    blue.send_move("a3a4").await;
    assert!(blue.expect_error().await.contains("over"));
    let (_, _, body) = http(server.addr, "GET", "/api/games", "", None).await;
    let lists: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(lists["recent"][0]["id"], id.as_str());
    assert_eq!(lists["recent"][0]["result"], "1-0");

    // A second game: a draw by agreement.
    let (id2, blue2_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red2_cookie = visit(server.addr, &id2).await.unwrap();
    let mut blue2 = Client::connect(server.addr, &id2, Some(&blue2_cookie)).await;
    let mut red2 = Client::connect(server.addr, &id2, Some(&red2_cookie)).await;
    blue2.send_text(r#"{"type":"offer_draw"}"#).await;
    red2.wait_for(|s| s["draw_offer"] == "blue").await;
    red2.send_text(r#"{"type":"offer_draw"}"#).await;
    let state = blue2.wait_for(|s| !s["outcome"].is_null()).await;
    assert_eq!(state["outcome"]["reason"], "draw agreed");
    assert_eq!(state["outcome"]["result"], "1/2-1/2");
    server.kill().await;
}

#[tokio::test]
async fn the_engine_replies_and_takebacks_restore_the_players_turn() {
    let server = start(temp_dir("engine").join("games.db")).await;
    let (id, cookie) = create(
        server.addr,
        r#"{"opponent":"engine","level":1,"side":"blue"}"#,
    )
    .await;
    let mut me = Client::connect(server.addr, &id, Some(&cookie)).await;
    assert_eq!(me.seat.as_deref(), Some("blue"));
    me.send_move("a3a4").await;
    let state = me
        .wait_for(|s| s["ply"] == 2 && s["thinking"] == false)
        .await;
    assert_eq!(state["turn"], "blue");
    assert!(!crate::support::legal(&state).is_empty());
    // The engine's seat cannot be taken by a visitor.
    assert_eq!(visit(server.addr, &id).await, None);

    me.send_text(r#"{"type":"takeback"}"#).await;
    let state = me.wait_for_ply(0).await;
    assert_eq!(state["turn"], "blue");
    me.send_text(r#"{"type":"takeback"}"#).await;
    assert!(me.expect_error().await.contains("no move to take back"));
    me.send_move("g3g4").await;
    me.wait_for(|s| s["ply"] == 2 && s["moves"][0] == "g3g4")
        .await;
    server.kill().await;
}

#[tokio::test]
async fn a_player_whose_clock_runs_out_loses_on_time() {
    let (server, id, blue_cookie) = {
        // Clocks shorter than the default minimum (15 s), so the flag falls soon.
        let mut config = jungle_server::Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir("clock").join("games.db"),
        );
        config.limits.set("min-clock-secs=1").unwrap();
        let server = crate::support::start_config(&config).await;
        // 0.02 minutes = 1.2 s per side.
        let (id, cookie) = create(
            server.addr,
            r#"{"opponent":"friend","side":"blue","minutes":0.02}"#,
        )
        .await;
        (server, id, cookie)
    };
    let mut blue = Client::connect(server.addr, &id, Some(&blue_cookie)).await;
    // Blue moves before the friend has joined: no clock runs, so Red cannot lose on time meanwhile.
    blue.send_move("a3a4").await;
    let state = blue.wait_for_ply(1).await;
    assert!(state["clock"]["running"].is_null(), "{}", state["clock"]);
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let waiting = Client::connect(server.addr, &id, None).await;
    assert!(waiting.state["outcome"].is_null(), "{}", waiting.state);
    assert_eq!(waiting.state["clock"]["red_ms"], 1200);

    let red_cookie = visit(server.addr, &id).await.unwrap();
    let mut red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    red.send_move("g7g6").await; // each side has moved: Blue's clock starts
    let state = blue.wait_for_ply(2).await;
    assert_eq!(state["clock"]["running"], "blue");
    let state = blue.wait_for(|s| !s["outcome"].is_null()).await;
    assert_eq!(state["outcome"]["reason"], "time forfeit");
    assert_eq!(state["outcome"]["winner"], "red");
    assert_eq!(state["clock"]["blue_ms"], 0);
    assert_eq!(
        state["clock"]["red_ms"], 1200,
        "Red's first move was untimed"
    );
    server.kill().await;
}

/// A server whose games are aborted after `wait` seconds of waiting for a friend or a first move.
async fn impatient_server(name: &str, wait: u64) -> crate::support::TestServer {
    let mut config = jungle_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        temp_dir(name).join("games.db"),
    );
    config
        .limits
        .set(&format!("join-wait-secs={wait}"))
        .unwrap();
    config
        .limits
        .set(&format!("first-move-secs={wait}"))
        .unwrap();
    start_config(&config).await
}

async fn lists(server: &crate::support::TestServer) -> serde_json::Value {
    let (_, _, body) = http(server.addr, "GET", "/api/games", "", None).await;
    serde_json::from_str(&body).unwrap()
}

fn listed(list: &serde_json::Value, id: &str) -> bool {
    list.as_array().unwrap().iter().any(|game| game["id"] == id)
}

#[tokio::test]
async fn games_that_never_begin_are_aborted_not_lost_and_leave_the_lists() {
    let server = impatient_server("abort-wait", 1).await;
    // Nobody joins this friend game; in the engine game the player never moves.
    let (lonely, cookie) = create(
        server.addr,
        r#"{"opponent":"friend","side":"blue","minutes":5}"#,
    )
    .await;
    let (idle, _) = create(
        server.addr,
        r#"{"opponent":"engine","level":1,"side":"blue"}"#,
    )
    .await;
    // Here Blue moves, Red joins and then never answers.
    let (silent, blue_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let mut blue = Client::connect(server.addr, &silent, Some(&blue_cookie)).await;
    blue.send_move("a3a4").await;
    let _red_cookie = visit(server.addr, &silent).await.unwrap();
    for id in [&lonely, &idle, &silent] {
        let mut watcher = Client::connect(server.addr, id, None).await;
        let state = watcher.wait_for(|s| !s["outcome"].is_null()).await;
        assert_eq!(state["outcome"]["reason"], "aborted", "{id}");
        assert!(state["outcome"]["winner"].is_null());
        assert_eq!(state["outcome"]["result"], "*");
        assert!(crate::support::legal(&state).is_empty());
    }
    let mut creator = Client::connect(server.addr, &lonely, Some(&cookie)).await;
    creator.send_move("a3a4").await;
    assert_eq!(creator.expect_error().await, "the game was aborted");
    let lists = lists(&server).await;
    for id in [&lonely, &idle, &silent] {
        assert!(
            !listed(&lists["live"], id) && !listed(&lists["recent"], id),
            "{lists}"
        );
    }
    server.kill().await;
}

#[tokio::test]
async fn either_player_may_abort_until_both_have_moved_twice() {
    let (server, id, mut blue, mut red) = friend_game("abort-button").await;
    blue.send_move("a3a4").await;
    red.wait_for_ply(1).await;
    red.send_text(r#"{"type":"abort"}"#).await;
    let state = blue.wait_for(|s| !s["outcome"].is_null()).await;
    assert_eq!(state["outcome"]["reason"], "aborted");
    blue.send_text(r#"{"type":"resign"}"#).await;
    assert_eq!(blue.expect_error().await, "the game was aborted");
    assert!(!listed(&lists(&server).await["live"], &id));

    // After two moves each it is too late: resign or offer a draw instead.
    let (id2, blue2_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red2_cookie = visit(server.addr, &id2).await.unwrap();
    let mut blue2 = Client::connect(server.addr, &id2, Some(&blue2_cookie)).await;
    let mut red2 = Client::connect(server.addr, &id2, Some(&red2_cookie)).await;
    let mut watcher = Client::connect(server.addr, &id2, None).await;
    watcher.send_text(r#"{"type":"abort"}"#).await;
    assert!(watcher.expect_error().await.contains("watching"));
    for (ply, mv) in ["a3a4", "g7g6", "a4a5", "g6g5"].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut blue2 } else { &mut red2 };
        mover.wait_for_ply(ply as u64).await;
        mover.send_move(mv).await;
        mover.wait_for_ply(ply as u64 + 1).await;
    }
    blue2.send_text(r#"{"type":"abort"}"#).await;
    assert!(blue2.expect_error().await.contains("too late to abort"));
    assert!(listed(&lists(&server).await["live"], &id2));
    server.kill().await;
}

#[tokio::test]
async fn the_engine_opens_when_it_plays_blue_and_declines_an_even_draw() {
    let server = start(temp_dir("engine-blue").join("games.db")).await;
    let (id, cookie) = create(
        server.addr,
        r#"{"opponent":"engine","level":2,"side":"red"}"#,
    )
    .await;
    let mut me = Client::connect(server.addr, &id, Some(&cookie)).await;
    assert_eq!(me.seat.as_deref(), Some("red"));
    let state = me
        .wait_for(|s| s["ply"] == 1 && s["thinking"] == false)
        .await;
    assert_eq!(state["turn"], "red");
    assert_eq!(state["players"]["blue"], "Engine level 2");
    assert_eq!(state["players"]["red"], "Anonymous");
    me.send_text(r#"{"type":"offer_draw"}"#).await;
    // The engine's refusal is news, not an error.
    let notice = me.next_of("notice").await;
    assert_eq!(notice["event"], "draw_declined");
    assert_eq!(notice["by"], "blue");
    assert!(notice["text"].as_str().unwrap().contains("declines"));
    // Moving for the engine's seat is refused.
    me.send_move("a3a4").await;
    me.expect_error().await;
    let fresh = Client::connect(server.addr, &id, None).await;
    assert_eq!(fresh.state["ply"], 1);
    assert!(fresh.state["outcome"].is_null());
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_games_queue_for_the_engine_without_starving_other_games() {
    // One engine thread, several engine games at the slowest level: their searches queue, and meanwhile a
    // game between people goes on.
    let mut config = jungle_server::Config {
        engine_threads: 1,
        ..jungle_server::Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir("pool").join("games.db"),
        )
    };
    config.limits.set("engine-games-per-client=10").unwrap();
    let server = crate::support::start_config(&config).await;
    let mut engine_rooms = Vec::new();
    for _ in 0..6 {
        let (id, _) = create(
            server.addr,
            r#"{"opponent":"engine","level":8,"side":"red"}"#,
        )
        .await;
        engine_rooms.push(id);
    }
    let (id, blue_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red_cookie = visit(server.addr, &id).await.unwrap();
    let mut blue = Client::connect(server.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    blue.send_move("a3a4").await;
    red.wait_for_ply(1).await;
    red.send_move("g7g6").await;
    blue.wait_for_ply(2).await;
    // The people's moves went through while the engine still had searches waiting for the one thread.
    let mut waiting = 0;
    for engine_id in &engine_rooms {
        let room = server.state.room(engine_id).unwrap().unwrap();
        let state = room.lock();
        if state.thinking && state.game.moves().is_empty() {
            waiting += 1;
        }
    }
    assert!(
        waiting >= 2,
        "at most one search runs at a time, so several are still queued: {waiting}"
    );
    server.kill().await;
}

#[tokio::test]
async fn a_finished_game_refuses_every_action_and_stays_finished() {
    let server = start(temp_dir("immutable").join("games.db")).await;
    let (id, cookie) = create(
        server.addr,
        r#"{"opponent":"engine","level":1,"side":"blue"}"#,
    )
    .await;
    let mut me = Client::connect(server.addr, &id, Some(&cookie)).await;
    me.send_move("a3a4").await;
    me.wait_for(|s| s["ply"] == 2 && s["thinking"] == false)
        .await;
    me.send_text(r#"{"type":"resign"}"#).await;
    let over = me.wait_for(|s| !s["outcome"].is_null()).await;
    assert_eq!(over["outcome"]["reason"], "resignation");
    let legal = crate::support::legal(&over);
    assert!(legal.is_empty(), "no move is offered after the end");
    for action in [
        r#"{"type":"takeback"}"#.to_string(),
        r#"{"type":"resign"}"#.to_string(),
        r#"{"type":"offer_draw"}"#.to_string(),
        r#"{"type":"decline_draw"}"#.to_string(),
        r#"{"type":"move","move":"g3g4"}"#.to_string(),
    ] {
        me.send_text(&action).await;
        let error = me.expect_error().await;
        assert!(error.contains("the game is over"), "{action}: {error}");
    }
    let fresh = Client::connect(server.addr, &id, None).await;
    assert_eq!(fresh.state["ply"], 2);
    assert_eq!(fresh.state["outcome"], over["outcome"]);
    let (_, _, body) = http(server.addr, "GET", "/api/games", "", None).await;
    let lists: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(lists["recent"][0]["id"], id.as_str());
    assert!(
        lists["live"]
            .as_array()
            .unwrap()
            .iter()
            .all(|game| game["id"] != id.as_str())
    );
    server.kill().await;
}

#[tokio::test]
async fn spectators_are_counted_and_a_player_left_alone_may_claim_the_game() {
    let mut config = jungle_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        temp_dir("claim").join("games.db"),
    );
    config.limits.set("claim-after-secs=1").unwrap();
    let server = start_config(&config).await;
    let (id, blue_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red_cookie = visit(server.addr, &id).await.unwrap();
    let mut blue = Client::connect(server.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    blue.wait_for(|s| s["away"]["red"].is_null() && s["away"]["blue"].is_null())
        .await;
    let watcher = Client::connect(server.addr, &id, None).await;
    blue.wait_for(|s| s["spectators"] == 1).await;
    drop(watcher);
    blue.wait_for(|s| s["spectators"] == 0).await;

    // Before the game has begun there is nothing to claim (abort it instead); while connected, neither.
    blue.send_text(r#"{"type":"claim_win"}"#).await;
    assert!(blue.expect_error().await.contains("not begun"));
    blue.send_move("a3a4").await;
    red.wait_for_ply(1).await;
    red.send_move("g7g6").await;
    blue.wait_for_ply(2).await;
    blue.send_text(r#"{"type":"claim_win"}"#).await;
    assert!(blue.expect_error().await.contains("opponent is connected"));

    // Red's connection goes: Blue sees the countdown, then may claim.
    drop(red);
    let state = blue.wait_for(|s| !s["away"]["red"].is_null()).await;
    assert!(state["away"]["red"].as_u64().unwrap() <= 1000);
    assert!(state["away"]["blue"].is_null());
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    blue.send_text(r#"{"type":"claim_win"}"#).await;
    let state = blue.wait_for(|s| !s["outcome"].is_null()).await;
    assert_eq!(state["outcome"]["winner"], "blue");
    assert_eq!(state["outcome"]["reason"], "abandoned");
    assert_eq!(state["outcome"]["result"], "1-0");

    // Against the engine there is no one to claim against.
    let (engine_game, cookie) = create(
        server.addr,
        r#"{"opponent":"engine","level":1,"side":"blue"}"#,
    )
    .await;
    let mut me = Client::connect(server.addr, &engine_game, Some(&cookie)).await;
    me.send_text(r#"{"type":"claim_draw"}"#).await;
    assert!(me.expect_error().await.contains("between people"));
    server.kill().await;
}

/// Asks for the rematch of a game with a seat cookie: (status, the reply, the new seat cookie).
async fn ask_rematch(
    server: &crate::support::TestServer,
    id: &str,
    cookie: Option<&str>,
) -> (u16, serde_json::Value, Option<String>) {
    let (status, headers, body) = http(
        server.addr,
        "POST",
        &format!("/api/games/{id}/rematch"),
        "",
        cookie,
    )
    .await;
    let reply = serde_json::from_str(&body).unwrap();
    (status, reply, crate::support::cookie_of(&headers))
}

#[tokio::test]
async fn a_rematch_swaps_the_colours_and_keeps_a_seat_for_each_player() {
    let (server, id, mut blue, mut red) = friend_game("rematch").await;
    let blue_cookie = crate::support::cookie_for(&server, &id, "blue");
    let red_cookie = crate::support::cookie_for(&server, &id, "red");
    // Not while the game goes on.
    let (status, _, _) = ask_rematch(&server, &id, Some(&blue_cookie)).await;
    assert_eq!(status, 400);
    red.send_text(r#"{"type":"resign"}"#).await;
    blue.wait_for(|s| !s["outcome"].is_null()).await;
    // A spectator cannot ask.
    let (status, _, _) = ask_rematch(&server, &id, None).await;
    assert_eq!(status, 403);

    let (status, reply, cookie) = ask_rematch(&server, &id, Some(&blue_cookie)).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["seat"], "red", "Blue plays Red in the rematch");
    let new_id = reply["id"].as_str().unwrap().to_string();
    assert_eq!(reply["url"], format!("/game/{new_id}"));
    let ann = cookie.expect("a seat cookie for the rematch");
    // The other player is told, and gets the other seat; nobody else can take it.
    let state = red.wait_for(|s| !s["rematch"].is_null()).await;
    assert_eq!(state["rematch"], new_id.as_str());
    assert_eq!(
        visit(server.addr, &new_id).await,
        None,
        "both seats are kept"
    );
    let (status, reply, cookie) = ask_rematch(&server, &id, Some(&red_cookie)).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["id"], new_id.as_str(), "one rematch per game");
    assert_eq!(reply["seat"], "blue");
    let bo = cookie.unwrap();
    let mut new_red = Client::connect(server.addr, &new_id, Some(&ann)).await;
    let mut new_blue = Client::connect(server.addr, &new_id, Some(&bo)).await;
    assert_eq!(new_red.seat.as_deref(), Some("red"));
    assert_eq!(new_blue.seat.as_deref(), Some("blue"));
    new_blue.send_move("a3a4").await;
    new_red.wait_for_ply(1).await;

    // Against the engine: the engine takes the other colour and opens.
    let (engine_game, cookie) = create(
        server.addr,
        r#"{"opponent":"engine","level":1,"side":"blue"}"#,
    )
    .await;
    let mut me = Client::connect(server.addr, &engine_game, Some(&cookie)).await;
    me.send_text(r#"{"type":"resign"}"#).await;
    me.wait_for(|s| !s["outcome"].is_null()).await;
    let (status, reply, cookie) = ask_rematch(&server, &engine_game, Some(&cookie)).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["seat"], "red");
    let again = reply["id"].as_str().unwrap();
    let mut me = Client::connect(server.addr, again, Some(&cookie.unwrap())).await;
    assert_eq!(me.seat.as_deref(), Some("red"));
    let state = me.wait_for(|s| s["ply"] == 1).await;
    assert_eq!(state["engine"]["side"], "blue");
    server.kill().await;
}
