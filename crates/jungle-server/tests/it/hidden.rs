//! Hidden Jungle on the web: whole games over websockets (between friends, against the AI), bad input, a
//! restart, and the property that nothing Blue's seat or a spectator receives depends on Red's secret setup.

use std::net::SocketAddr;

use futures_util::{SinkExt, StreamExt};
use jungle_hidden::Arrangement;
use jungle_rules::{Rules, Side};
use jungle_server::{Config, Limits};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use crate::support::{
    IsolatedServer, PATIENCE, Socket, TestServer, cookie_of, http, open_socket, start,
    start_config, temp_dir,
};

/// Creates a hidden game: (id, the creator's seat, its cookie).
async fn create(addr: SocketAddr, request: &str) -> (String, String, String) {
    let (status, headers, body) = http(addr, "POST", "/api/hidden", request, None).await;
    assert_eq!(status, 201, "{body}");
    let value: Value = serde_json::from_str(&body).unwrap();
    let id = value["id"].as_str().unwrap().to_string();
    assert_eq!(value["url"], format!("/hidden/{id}"));
    let cookie = cookie_of(&headers).expect("a seat cookie");
    assert!(cookie.starts_with(&format!("hidden_{id}=")), "{cookie}");
    (id, value["side"].as_str().unwrap().to_string(), cookie)
}

/// Takes the free seat of a friend game: (seat, cookie), or `None` when no seat is free.
async fn join(addr: SocketAddr, id: &str) -> Option<(String, String)> {
    let (status, headers, body) =
        http(addr, "POST", &format!("/api/hidden/{id}/join"), "", None).await;
    match status {
        200 => {
            let value: Value = serde_json::from_str(&body).unwrap();
            Some((
                value["side"].as_str().unwrap().to_string(),
                cookie_of(&headers).unwrap(),
            ))
        }
        409 => None,
        other => panic!("join answered {other}: {body}"),
    }
}

/// A GET with the cookie (if any): (status, body).
async fn get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> (u16, String) {
    let (status, _, body) = http(addr, "GET", path, "", cookie).await;
    (status, body)
}

/// A websocket client of a hidden game that keeps every frame it receives, as text.
struct Seat {
    socket: Socket,
    /// Every frame received, in order.
    frames: Vec<String>,
    /// The newest state.
    state: Value,
}

impl Seat {
    async fn connect(addr: SocketAddr, id: &str, cookie: Option<&str>) -> Seat {
        let socket = open_socket(addr, &format!("/ws/hidden/{id}"), cookie).await;
        let mut seat = Seat {
            socket,
            frames: Vec::new(),
            state: Value::Null,
        };
        let first = seat.next().await;
        assert_eq!(first["type"], "state", "the state comes first");
        seat
    }

    async fn next(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("the server answers in time");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(&text).unwrap();
                    // The server's heartbeat (after a few seconds of silence) says only that it is alive.
                    if value["type"] == "heartbeat" {
                        continue;
                    }
                    self.frames.push(text.to_string());
                    if value["type"] == "state" {
                        self.state = value.clone();
                    }
                    return value;
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                other => panic!("the connection ended: {other:?}"),
            }
        }
    }

    async fn send(&mut self, text: &str) {
        self.socket.send(Message::Text(text.into())).await.unwrap();
    }

    async fn send_move(&mut self, mv: &str) {
        self.send(&format!(r#"{{"type":"move","move":"{mv}"}}"#))
            .await;
    }

    async fn send_setup(&mut self, setup: &str) {
        self.send(&format!(r#"{{"type":"setup","setup":"{setup}"}}"#))
            .await;
    }

    /// The reply to a refused message: its text.
    async fn error(&mut self) -> String {
        let reply = self.next().await;
        assert_eq!(reply["type"], "error", "{reply}");
        reply["message"].as_str().unwrap().to_string()
    }

    /// The next state.
    async fn state(&mut self) -> Value {
        let state = self.next().await;
        assert_eq!(state["type"], "state", "{state}");
        state
    }

    /// Waits for a state that satisfies `done`.
    async fn wait_for(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        while !done(&self.state) {
            self.next().await;
        }
        self.state.clone()
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// A friend game with both seats taken and their websockets and a spectator's: (id, blue, red, spectator,
/// blue's cookie, red's cookie).
async fn friend_game(addr: SocketAddr, rules: &str) -> (String, Seat, Seat, Seat, String, String) {
    let (id, side, blue_cookie) = create(
        addr,
        &format!(r#"{{"mode":"friend","side":"blue","rules":"{rules}"}}"#),
    )
    .await;
    assert_eq!(side, "blue");
    let (side, red_cookie) = join(addr, &id).await.expect("a free seat");
    assert_eq!(side, "red");
    assert!(join(addr, &id).await.is_none(), "a third visitor watches");
    let blue = Seat::connect(addr, &id, Some(&blue_cookie)).await;
    let red = Seat::connect(addr, &id, Some(&red_cookie)).await;
    let spectator = Seat::connect(addr, &id, None).await;
    (id, blue, red, spectator, blue_cookie, red_cookie)
}

#[tokio::test]
async fn a_friend_game_is_played_with_attacks_won_and_lost_and_ends_showing_both_setups() {
    let server = roomy_server("hidden-friend").await;
    let (id, mut blue, mut red, mut spectator, _, _) = friend_game(server.addr, "standard").await;
    assert_eq!(blue.state["phase"], "setup");
    assert_eq!(blue.state["you"], "blue");
    assert_eq!(spectator.state["you"], Value::Null);
    assert_eq!(
        strings(&blue.state["start_squares"]["blue"]),
        ["a1", "g1", "b2", "f2", "a3", "c3", "e3", "g3"]
    );
    blue.send_setup("RLCDEWPT").await;
    for seat in [&mut blue, &mut red, &mut spectator] {
        let state = seat.state().await;
        assert_eq!(state["setup_done"]["blue"], true);
        assert_eq!(state["setup_done"]["red"], false);
        assert_eq!(state["phase"], "setup");
    }
    assert_eq!(blue.state["setup"], "RLCDEWPT");
    assert_eq!(red.state["setup"], Value::Null);
    assert!(red.state["fen"].as_str().unwrap().ends_with("X5X w 0 1"));
    red.send_setup("ltcpwedr").await;
    for seat in [&mut blue, &mut red, &mut spectator] {
        assert_eq!(seat.state().await["phase"], "play");
    }
    let red_setup = "LTCPWEDR";
    assert_eq!(red.state["setup"], red_setup);
    // Blue sees its own animals and none of Red's; the spectator sees none at all.
    assert_eq!(
        blue.state["fen"],
        "x5x/1x3x1/x1x1x1x/7/7/7/E1W1P1T/1C3D1/R5L w 0 1"
    );
    assert_eq!(
        spectator.state["fen"],
        "x5x/1x3x1/x1x1x1x/7/7/7/X1X1X1X/1X3X1/X5X w 0 1"
    );
    assert_eq!(red.state["legal"], serde_json::json!([]));
    assert_eq!(spectator.state["legal"], serde_json::json!([]));

    // Random legal moves for both until the game ends.
    let mut rng = StdRng::seed_from_u64(5);
    let (mut won, mut lost) = (0, 0);
    for ply in 0..600u64 {
        if blue.state["phase"] == "over" {
            break;
        }
        let mover = if ply % 2 == 0 { &mut blue } else { &mut red };
        let mv = strings(&mover.state["legal"])
            .choose(&mut rng)
            .unwrap()
            .clone();
        mover.send_move(&mv).await;
        for seat in [&mut blue, &mut red, &mut spectator] {
            let state = seat.state().await;
            assert_eq!(state["ply"], ply + 1);
        }
        let public = strings(&spectator.state["moves"]).pop().unwrap();
        assert!(public.starts_with(&mv), "{public} for {mv}");
        won += usize::from(public.contains('x'));
        lost += usize::from(public.contains('/'));
        // Every audience sees the same public moves.
        assert_eq!(blue.state["moves"], spectator.state["moves"]);
        assert_eq!(red.state["moves"], spectator.state["moves"]);
        if blue.state["phase"] == "play" {
            assert_eq!(spectator.state["setups"], Value::Null);
            assert_eq!(blue.state["setups"], Value::Null);
        }
    }
    assert!(won > 0 && lost > 0, "attacks won {won}, lost {lost}");
    if blue.state["phase"] != "over" {
        // A long shuffle: Blue ends it.
        blue.send(r#"{"type":"resign"}"#).await;
        for seat in [&mut blue, &mut red, &mut spectator] {
            seat.state().await;
        }
    }
    let end = spectator.state.clone();
    assert_eq!(end["phase"], "over");
    assert!(!end["outcome"]["text"].as_str().unwrap().is_empty());
    assert_eq!(end["setups"]["blue"], "RLCDEWPT");
    assert_eq!(end["setups"]["red"], red_setup);
    // Once over, every position is shown with every animal, and the three audiences see the same.
    let positions = strings(&end["positions"]);
    assert_eq!(positions.len() as u64, end["ply"].as_u64().unwrap() + 1);
    assert!(positions.iter().all(|fen| !fen.contains(['x', 'X'])));
    assert_eq!(blue.state["positions"], end["positions"]);
    assert_eq!(red.state["fen"], end["fen"]);
    // The record of either seat now carries both setups, and replays.
    let (status, pgn) = get(server.addr, &format!("/api/hidden/{id}/pgn"), None).await;
    assert_eq!(status, 200);
    let record = jungle_hidden::record::Record::parse(&pgn).unwrap();
    assert_eq!(record.setups.red.as_ref().unwrap().to_string(), red_setup);
    record
        .game()
        .expect("the record replays into the whole game");
    blue.send_move("a1a2").await;
    assert!(blue.error().await.contains("over"));
    server.kill().await;
}

#[tokio::test]
async fn bad_setups_moves_and_messages_get_an_error_frame_and_change_nothing() {
    let server = start(temp_dir("hidden-bad").join("games.db")).await;
    let addr = server.addr;
    let (id, mut blue, mut red, mut spectator, blue_cookie, _) =
        friend_game(addr, "standard").await;
    let state_of = |cookie: Option<String>| {
        let id = id.clone();
        async move {
            get(addr, &format!("/api/hidden/{id}"), cookie.as_deref())
                .await
                .1
        }
    };
    let before = state_of(Some(blue_cookie.clone())).await;
    assert_eq!(
        before, blue.frames[0],
        "the API answers what the socket says"
    );

    for (message, reason) in [
        (
            r#"{"type":"setup","setup":"TLCDEWPX"}"#,
            "not an animal letter",
        ),
        (r#"{"type":"setup","setup":"TLCDEWP"}"#, "lists 8 animals"),
        (r#"{"type":"setup","setup":"TLCDEWPP"}"#, "listed twice"),
        (
            r#"{"type":"setup","setup":"TLCDEWPR","random":true}"#,
            "not both",
        ),
        (r#"{"type":"move","move":"a3a4"}"#, "has not started"),
        (r#"{"type":"resign"}"#, "has not started"),
        ("garbage", "unreadable"),
        (r#"{"type":"castle"}"#, "unreadable"),
    ] {
        blue.send(message).await;
        let error = blue.error().await;
        assert!(error.contains(reason), "{message}: {error}");
    }
    spectator.send_setup("TLCDEWPR").await;
    assert!(spectator.error().await.contains("watching"));
    assert_eq!(
        state_of(Some(blue_cookie.clone())).await,
        before,
        "nothing changed"
    );

    blue.send_setup("TLCDEWPR").await;
    red.send_setup("RPWEDCLT").await;
    for seat in [&mut blue, &mut red, &mut spectator] {
        seat.wait_for(|s| s["phase"] == "play").await;
    }
    let playing = state_of(None).await;
    blue.send_setup("TLCDEWPR").await;
    assert!(blue.error().await.contains("game has started"));
    for (message, reason) in [
        (r#"{"type":"move","move":"a1a3"}"#, "a1a3"),
        (r#"{"type":"move","move":"g7g6"}"#, "side not to move"),
        (r#"{"type":"move","move":"d4d5"}"#, "no piece on d4"),
        (r#"{"type":"move","move":"z9a1"}"#, "z9a1"),
    ] {
        blue.send(message).await;
        let error = blue.error().await;
        assert!(error.contains(reason), "{message}: {error}");
    }
    red.send_move("g7g6").await;
    assert_eq!(red.error().await, "it is not your turn");
    spectator.send_move("a3a4").await;
    assert!(spectator.error().await.contains("watching"));
    assert_eq!(state_of(None).await, playing, "nothing changed");
    // The game goes on normally afterwards.
    blue.send_move("a3a4").await;
    assert_eq!(
        spectator.state().await["moves"],
        serde_json::json!(["a3a4"])
    );
    server.kill().await;
}

#[tokio::test]
async fn a_game_against_the_ai_is_played_and_its_setup_is_shown_only_at_the_end() {
    let server = roomy_server("hidden-engine").await;
    let (id, side, cookie) = create(
        server.addr,
        r#"{"mode":"engine","side":"red","level":1,"rules":"modern"}"#,
    )
    .await;
    assert_eq!(side, "red");
    assert!(
        join(server.addr, &id).await.is_none(),
        "no seat for a friend"
    );
    let mut me = Seat::connect(server.addr, &id, Some(&cookie)).await;
    assert_eq!(me.state["setup_done"]["blue"], true, "the AI's setup is in");
    assert_eq!(me.state["engine"]["side"], "blue");
    assert_eq!(me.state["engine"]["level"], 1);
    me.send(r#"{"type":"setup","random":true}"#).await;
    // The AI (Blue) moves first.
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..30 {
        let state = me
            .wait_for(|s| s["phase"] == "over" || (s["turn"] == "red" && s["phase"] == "play"))
            .await;
        if state["phase"] == "over" {
            break;
        }
        assert_eq!(state["setups"], Value::Null);
        let mv = strings(&state["legal"]).choose(&mut rng).unwrap().clone();
        let ply = state["ply"].as_u64().unwrap();
        me.send_move(&mv).await;
        me.wait_for(|s| s["ply"] == ply + 1).await;
    }
    if me.state["phase"] != "over" {
        me.send(r#"{"type":"resign"}"#).await;
    }
    // The AI may still be thinking on its move when the game ends: it stops.
    let end = me
        .wait_for(|s| s["phase"] == "over" && s["thinking"] == false)
        .await;
    let blue_setup = end["setups"]["blue"].as_str().unwrap();
    Arrangement::parse(&"modern".parse().unwrap(), Side::Blue, blue_setup).unwrap();
    server.kill().await;
}

#[test]
fn a_restart_keeps_a_hidden_game_with_its_setups_and_moves() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = temp_dir("hidden-restart").join("games.db");
    let server = IsolatedServer::start(db.clone());
    let (id, blue_cookie, red_cookie, played) = runtime.block_on(async {
        let (id, mut blue, mut red, _, blue_cookie, red_cookie) =
            friend_game(server.addr, "standard").await;
        blue.send_setup("EDCTRWPL").await;
        blue.state().await;
        red.send_setup("ltcpwedr").await;
        red.wait_for(|s| s["phase"] == "play").await;
        for ply in 0..4u64 {
            let mover = if ply % 2 == 0 { &mut blue } else { &mut red };
            let state = mover.wait_for(|s| s["ply"] == ply).await;
            mover.send_move(&strings(&state["legal"])[0]).await;
            mover.wait_for(|s| s["ply"] == ply + 1).await;
        }
        (id, blue_cookie, red_cookie, red.state["moves"].clone())
    });
    server.kill();
    let server = IsolatedServer::start(db);
    runtime.block_on(async {
        let mut blue = Seat::connect(server.addr, &id, Some(&blue_cookie)).await;
        let mut red = Seat::connect(server.addr, &id, Some(&red_cookie)).await;
        assert_eq!(blue.state["you"], "blue");
        assert_eq!(blue.state["setup"], "EDCTRWPL");
        assert_eq!(red.state["setup"], "LTCPWEDR");
        assert_eq!(red.state["moves"], played, "no move lost");
        assert_eq!(red.state["phase"], "play");
        // Play goes on.
        let mv = strings(&blue.state["legal"])[0].clone();
        blue.send_move(&mv).await;
        red.wait_for(|s| s["ply"] == 5).await;
        red.send(r#"{"type":"resign"}"#).await;
        let end = blue.wait_for(|s| s["phase"] == "over").await;
        assert_eq!(end["outcome"]["winner"], "blue");
        assert_eq!(end["setups"]["red"], "LTCPWEDR");
    });
    server.kill();
}

/// A server whose rate limits let one client play many games quickly.
async fn roomy_server(name: &str) -> TestServer {
    let limits = Limits {
        creates_per_minute: 100_000,
        requests_per_minute: 1_000_000,
        messages_per_minute: 1_000_000,
        ..Limits::default()
    };
    start_config(&Config {
        limits,
        ..Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir(name).join("games.db"),
        )
    })
    .await
}

/// One of two twin games: the same Blue setup, different Red setups, the same moves.
struct Twin {
    id: String,
    blue: Seat,
    red: Seat,
    spectator: Seat,
    blue_cookie: String,
    /// Everything Blue's seat and the spectator received besides their websockets (pages, API, records).
    fetched: Vec<String>,
}

impl Twin {
    /// The game's own id replaced, so that only what the game says is compared.
    fn seen(&self) -> Vec<String> {
        [&self.blue.frames, &self.spectator.frames, &self.fetched]
            .into_iter()
            .flatten()
            .map(|text| text.replace(&self.id, "ID"))
            .collect()
    }

    /// Fetches what Blue and a spectator can ask for over HTTP now.
    async fn fetch(&mut self, addr: SocketAddr) {
        let id = &self.id;
        for cookie in [Some(self.blue_cookie.as_str()), None] {
            for path in [
                format!("/hidden/{id}"),
                format!("/api/hidden/{id}"),
                format!("/api/hidden/{id}/pgn"),
            ] {
                let (status, body) = get(addr, &path, cookie).await;
                assert_eq!(status, 200, "{path}");
                self.fetched.push(format!("{path} {body}"));
            }
        }
    }

    /// Waits until every socket has the state that follows a change.
    async fn after_change(&mut self) {
        for seat in [&mut self.blue, &mut self.red, &mut self.spectator] {
            seat.state().await;
        }
    }
}

/// The no-leak property (issue 14, "What must hold"): two games that differ only in Red's setup — Red's
/// second setup is its first with two animals swapped, so that the games agree for long — played with the same
/// moves, send Blue's seat and a spectator byte-identical frames, pages, states and records (their ids
/// replaced) for as long as the public moves agree and the game goes on. Blue also sends the same bad messages
/// in both, so error replies are compared too.
#[tokio::test]
async fn nothing_blue_or_a_spectator_receives_depends_on_reds_setup() {
    let server = roomy_server("hidden-no-leak").await;
    let addr = server.addr;
    let presets = [
        "standard",
        "modern",
        "leiden",
        "mistboard",
        "animal-checkers",
    ];
    let mut compared_plies = 0;
    for seed in 0..10u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let preset = presets[seed as usize % presets.len()];
        let rules: Rules = preset.parse().unwrap();
        let blue_setup = Arrangement::random(&rules, Side::Blue, &mut rng).to_string();
        let red_a = Arrangement::random(&rules, Side::Red, &mut rng).to_string();
        let mut letters: Vec<char> = red_a.chars().collect();
        let (i, j) = (
            rng.random_range(0..letters.len()),
            rng.random_range(0..letters.len() - 1),
        );
        letters.swap(i, if j >= i { j + 1 } else { j });
        let red_b: String = letters.into_iter().collect();
        assert_ne!(red_a, red_b);

        let mut twins = Vec::new();
        for red_setup in [&red_a, &red_b] {
            let (id, blue, red, spectator, blue_cookie, _) = friend_game(addr, preset).await;
            let mut twin = Twin {
                id,
                blue,
                red,
                spectator,
                blue_cookie,
                fetched: Vec::new(),
            };
            twin.fetch(addr).await;
            twin.blue.send_setup(&blue_setup).await;
            twin.after_change().await;
            twin.fetch(addr).await;
            twin.red.send_setup(red_setup).await;
            twin.after_change().await;
            twins.push(twin);
        }
        let bad_ply = rng.random_range(0..20);
        for ply in 0..150 {
            let [a, b] = &mut twins[..] else {
                unreachable!()
            };
            a.fetch(addr).await;
            b.fetch(addr).await;
            assert_eq!(a.seen(), b.seen(), "seed {seed} ({preset}), ply {ply}");
            compared_plies += 1;
            if a.spectator.state["phase"] != "play" {
                break;
            }
            if ply == bad_ply {
                for twin in [&mut *a, &mut *b] {
                    twin.blue.send("{").await;
                    twin.blue.error().await;
                    twin.blue.send_move("a1a1").await;
                    twin.blue.error().await;
                }
            }
            // A move legal in both games (the mover's legal moves differ only when the mover is Red).
            let mover_state = |twin: &Twin| {
                if ply % 2 == 0 {
                    twin.blue.state.clone()
                } else {
                    twin.red.state.clone()
                }
            };
            let legal_b = strings(&mover_state(b)["legal"]);
            let shared: Vec<String> = strings(&mover_state(a)["legal"])
                .into_iter()
                .filter(|m| legal_b.contains(m))
                .collect();
            let Some(mv) = shared.choose(&mut rng).cloned() else {
                break;
            };
            for twin in [&mut *a, &mut *b] {
                if ply % 2 == 0 {
                    twin.blue.send_move(&mv).await;
                } else {
                    twin.red.send_move(&mv).await;
                }
                twin.after_change().await;
            }
            let public = |twin: &Twin| strings(&twin.spectator.state["moves"]).pop();
            let ended = [&*a, &*b]
                .iter()
                .any(|twin| twin.spectator.state["phase"] == "over");
            if public(a) != public(b) || ended {
                // The move revealed the difference (an attack on a swapped animal), or the end showed both
                // setups: from here the games may look different, and did until now look the same.
                break;
            }
        }
    }
    // The games are long enough to mean something.
    assert!(compared_plies > 200, "only {compared_plies} plies compared");
    server.kill().await;
}

/// Two servers on one database, as two nodes of a cluster: an event (handed over here as the broker would)
/// makes the other node read the game again, and a move made on a node that missed a change is refused by the
/// unique ply, that node reading the game again.
#[tokio::test]
async fn another_node_reads_a_hidden_game_again_and_a_stale_move_is_refused() {
    let db = temp_dir("hidden-two-nodes").join("games.db");
    let a = start(db.clone()).await;
    let b = start(db).await;
    let (id, _, blue_cookie) = create(a.addr, r#"{"mode":"friend","side":"blue"}"#).await;
    // Connected first, so node A holds the room (a room nobody is connected to may leave memory).
    let mut blue_a = Seat::connect(a.addr, &id, Some(&blue_cookie)).await;
    let (_, red_cookie) = join(b.addr, &id).await.unwrap();
    assert_eq!(
        blue_a.state["seats_taken"]["red"], false,
        "node A missed the join"
    );
    a.state.apply_hidden_event(&id);
    blue_a.wait_for(|s| s["seats_taken"]["red"] == true).await;
    let mut red_b = Seat::connect(b.addr, &id, Some(&red_cookie)).await;
    blue_a.send_setup("TLCDEWPR").await;
    blue_a.state().await;
    b.state.apply_hidden_event(&id);
    red_b.wait_for(|s| s["setup_done"]["blue"] == true).await;
    red_b.send_setup("RPWEDCLT").await;
    red_b.wait_for(|s| s["phase"] == "play").await;
    a.state.apply_hidden_event(&id);
    blue_a.wait_for(|s| s["phase"] == "play").await;
    // Blue moves on A; B misses the event. Blue's second tab, on B, makes another first move: refused.
    blue_a.send_move("a3a4").await;
    blue_a.wait_for(|s| s["ply"] == 1).await;
    let mut blue_b = Seat::connect(b.addr, &id, Some(&blue_cookie)).await;
    assert_eq!(blue_b.state["ply"], 0);
    blue_b.send_move("g3g4").await;
    assert!(blue_b.error().await.contains("out of date"));
    let state = blue_b.wait_for(|s| s["ply"] == 1).await;
    assert_eq!(state["moves"], serde_json::json!(["a3a4"]));
    red_b.wait_for(|s| s["ply"] == 1).await;
    a.kill().await;
    b.kill().await;
}
