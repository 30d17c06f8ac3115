//! Several server nodes on one database, joined by the broker (NATS): moves, endings, seats, draw offers and
//! takebacks made on one node reach the connections of another; what must happen once happens once (a ply, an engine
//! reply, a flag), whichever node tries; an engine job whose node died is taken over; a node that was cut off
//! from the broker catches up.

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::StreamExt;
use jungle_platform::room::{ActionError, Room};
use jungle_platform::unattended;
use jungle_rules::Side;
use jungle_server::cluster::event::{Change, GameEvent, MoveEvent};
use jungle_server::cluster::peers::{self, Heartbeat};
use jungle_server::cluster::{Member, PeerNews};
use jungle_server::store::now_ms;
use jungle_server::store::scratch::{ScratchSchema, test_postgres_url};
use jungle_server::{ClusterConfig, Config, EnginePool, Hub, Limits, NewGame, Server, Store};

use crate::support::nats::{PrivateNats, broker_url};
use crate::support::{
    Client, IsolatedServer, PATIENCE, TestServer, create, legal, start_config, visit,
};

/// The database all the nodes of a test share: a fresh PostgreSQL schema (`JUNGLE_TEST_POSTGRES`), dropped
/// with the guard.
fn shared_database() -> (ScratchSchema, PathBuf) {
    let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
    let url = PathBuf::from(schema.url());
    (schema, url)
}

fn node_config(db: &Path, broker: &str, engine_lease: Duration, limits: Limits) -> Config {
    let mut cluster = ClusterConfig::new(broker);
    cluster.engine_lease = engine_lease;
    Config {
        engine_threads: 1,
        limits,
        cluster: Some(cluster),
        ..Config::new("127.0.0.1:0".parse().unwrap(), db.to_path_buf())
    }
}

/// A node on `db` joined to the broker at `broker`.
async fn node(db: &Path, broker: &str) -> TestServer {
    start_config(&node_config(
        db,
        broker,
        Duration::from_secs(10),
        Limits::default(),
    ))
    .await
}

/// Waits (bounded) until `done` holds.
async fn eventually(what: &str, done: impl Fn() -> bool) {
    let give_up = tokio::time::Instant::now() + PATIENCE;
    while !done() {
        assert!(tokio::time::Instant::now() < give_up, "never: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_different_nodes_play_a_game_to_the_end() {
    let (_schema, db) = shared_database();
    let a = node(&db, &broker_url()).await;
    let b = node(&db, &broker_url()).await;
    let (id, blue_cookie) = create(
        a.addr,
        r#"{"opponent":"friend","side":"blue","minutes":10}"#,
    )
    .await;
    // The friend takes the free seat through the other node.
    let red_cookie = visit(b.addr, &id).await.expect("node B seats the friend");
    let mut blue = Client::connect(a.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(b.addr, &id, Some(&red_cookie)).await;
    let mut watcher = Client::connect(b.addr, &id, None).await;
    // Node A heard of the seat, of Red's connection and of the watcher on node B.
    let seen = blue
        .wait_for(|s| s["seats_taken"]["red"] == true && s["spectators"] == 1)
        .await;
    assert!(seen["away"]["red"].is_null(), "Red is connected, on node B");

    let mut played = Vec::new();
    for ply in 0..12u64 {
        let (mover, other) = if ply % 2 == 0 {
            (&mut blue, &mut red)
        } else {
            (&mut red, &mut blue)
        };
        let state = mover.wait_for_ply(ply).await;
        let mv = legal(&state)[0].clone();
        mover.send_move(&mv).await;
        let seen = other.wait_for_ply(ply + 1).await;
        assert_eq!(seen["moves"][ply as usize], mv.as_str());
        watcher.wait_for_ply(ply + 1).await;
        played.push(mv);
    }
    // The clocks agree across the nodes: each was set from the same stored move (Red's last, so Red's
    // clock stands still).
    let on_b = red.wait_for_ply(12).await;
    assert_eq!(
        blue.state["clock"]["red_ms"], on_b["clock"]["red_ms"],
        "Red's time after Red's last move"
    );

    // What only memory holds crosses too: a draw offer, and its refusal.
    blue.send_text(r#"{"type":"offer_draw"}"#).await;
    red.wait_for(|s| s["draw_offer"] == "blue").await;
    red.send_text(r#"{"type":"decline_draw"}"#).await;
    assert_eq!(blue.next_of("notice").await["event"], "draw_declined");
    blue.wait_for(|s| s["draw_offer"].is_null()).await;

    // A takeback: asked on node B, declined on node A (B's player is told), asked again and accepted on A;
    // both nodes, the watcher and the database lose Red's last move.
    red.send_text(r#"{"type":"takeback"}"#).await;
    blue.wait_for(|s| s["takeback_request"] == "red").await;
    blue.send_text(r#"{"type":"decline_takeback"}"#).await;
    blue.wait_for(|s| s["takeback_request"].is_null()).await;
    // (Red's page heard of its own draw refusal first.)
    while red.next_of("notice").await["event"] != "takeback_declined" {}
    red.wait_for(|s| s["takeback_request"].is_null()).await;
    red.send_text(r#"{"type":"takeback"}"#).await;
    blue.wait_for(|s| s["takeback_request"] == "red").await;
    blue.send_text(r#"{"type":"takeback"}"#).await;
    for client in [&mut blue, &mut red, &mut watcher] {
        let state = client.wait_for_ply(11).await;
        assert_eq!(state["turn"], "red");
    }
    assert_eq!(a.state.store.moves(&id).unwrap().len(), 11);
    played.pop();

    red.send_text(r#"{"type":"resign"}"#).await;
    for client in [&mut blue, &mut red, &mut watcher] {
        let end = client.wait_for(|s| !s["outcome"].is_null()).await;
        assert_eq!(end["outcome"]["reason"], "resignation");
        assert_eq!(end["outcome"]["winner"], "blue");
    }
    let stored = a.state.store.moves(&id).unwrap();
    let stored: Vec<&str> = stored.iter().map(|m| m.mv.as_str()).collect();
    assert_eq!(stored, played);
    let record = a.state.store.game(&id).unwrap().unwrap();
    assert_eq!(record.result.as_deref(), Some("1-0"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_game_whose_player_is_on_another_node_gets_one_engine_reply() {
    let (_schema, db) = shared_database();
    let a = node(&db, &broker_url()).await;
    let b = node(&db, &broker_url()).await;
    let (id, cookie) = create(a.addr, r#"{"opponent":"engine","level":1,"side":"blue"}"#).await;
    // The player is on node B; node A, which made the game, holds its room too.
    let mut me = Client::connect(b.addr, &id, Some(&cookie)).await;
    me.send_move("a3a4").await;
    me.wait_for_ply(2).await;
    let room_a = a.state.held_room(&id).expect("node A holds the game");
    eventually("node A sees the engine's reply", || {
        room_a.lock().game.moves().len() == 2
    })
    .await;
    assert_eq!(
        a.state.engine.moves_searched() + b.state.engine.moves_searched(),
        1,
        "one node searched the reply"
    );
    assert_eq!(a.state.store.moves(&id).unwrap().len(), 2);
    // The game goes on: the next reply too.
    let mv = legal(&me.state)[0].clone();
    me.send_move(&mv).await;
    me.wait_for_ply(4).await;
    assert_eq!(
        a.state.engine.moves_searched() + b.state.engine.moves_searched(),
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_is_decided_once_whichever_nodes_notice_it() {
    let (_schema, db) = shared_database();
    let limits = Limits {
        min_clock: Duration::from_secs(1),
        ..Limits::default()
    };
    let lease = Duration::from_secs(10);
    let a = start_config(&node_config(&db, &broker_url(), lease, limits.clone())).await;
    let b = start_config(&node_config(&db, &broker_url(), lease, limits)).await;
    // 1.2 s a side: both nodes hold the room and both set a timer for Blue's flag.
    let (id, blue_cookie) = create(
        a.addr,
        r#"{"opponent":"friend","side":"blue","minutes":0.02}"#,
    )
    .await;
    let red_cookie = visit(b.addr, &id).await.unwrap();
    let mut blue = Client::connect(a.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(b.addr, &id, Some(&red_cookie)).await;
    for ply in 0..2u64 {
        let mover = if ply == 0 { &mut blue } else { &mut red };
        let state = mover.wait_for_ply(ply).await;
        let mv = legal(&state)[0].clone();
        mover.send_move(&mv).await;
        mover.wait_for_ply(ply + 1).await;
    }
    // Blue does not move: the clock runs out.
    for client in [&mut blue, &mut red] {
        let end = client.wait_for(|s| !s["outcome"].is_null()).await;
        assert_eq!(end["outcome"]["reason"], "time forfeit");
        assert_eq!(end["outcome"]["winner"], "red");
    }
    let record = a.state.store.game(&id).unwrap().unwrap();
    assert_eq!(record.result.as_deref(), Some("0-1"));
    assert_eq!(a.state.store.moves(&id).unwrap().len(), 2);
}

#[tokio::test]
async fn of_two_nodes_storing_the_same_ply_one_stores_it_and_the_other_reloads() {
    let (_schema, db) = shared_database();
    // Two nodes that never hear of each other (no broker): node B is surely out of date when it moves.
    let a = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let b = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let request = NewGame {
        opponent: "friend".into(),
        side: Some("blue".into()),
        ..NewGame::default()
    };
    let (room_a, _, _) = a.create(&request, None).unwrap();
    let room_b = b.room(&room_a.id).unwrap().unwrap();
    let choices: Vec<String> = room_a
        .lock()
        .game
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    room_a
        .play(&a.store, Some(Side::Blue), &choices[0])
        .unwrap();
    let refused = room_b
        .play(&b.store, Some(Side::Blue), &choices[1])
        .unwrap_err();
    assert!(matches!(refused, ActionError::OutOfDate), "{refused}");
    assert!(refused.to_string().contains("out of date"));
    // Exactly one move stored for the ply, and node B now shows it.
    let stored = a.store.moves(&room_a.id).unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].mv, choices[0]);
    assert_eq!(*room_b.snapshot().moves, [choices[0].clone()]);
    // Node B plays on from there.
    let reply = room_b.lock().game.legal_moves()[0].to_string();
    room_b.play(&b.store, Some(Side::Red), &reply).unwrap();
    assert_eq!(b.store.moves(&room_a.id).unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_job_whose_node_died_is_taken_over_by_a_node_the_player_reconnects_to() {
    let (_schema, db) = shared_database();
    let config = node_config(
        &db,
        &broker_url(),
        Duration::from_millis(500),
        Limits::default(),
    );
    // Node A runs on its own runtime, so killing it stops everything it was doing, as `kill -9` would.
    let a = IsolatedServer::start_config(&config);
    let b = start_config(&config).await;
    let (id, cookie) = create(a.addr, r#"{"opponent":"engine","level":1,"side":"blue"}"#).await;
    let mut me = Client::connect(a.addr, &id, Some(&cookie)).await;
    // A third node claims the engine's reply to the coming move and dies: it never answers. Node A waits
    // for its lease to end, and dies too.
    let now = now_ms();
    a.state
        .store
        .claim_engine_job(&id, 1, "a-node-that-died", now, now + 1000)
        .unwrap();
    me.send_move("a3a4").await;
    me.wait_for_ply(1).await;
    a.kill();
    drop(me);
    // The player comes back through node B, which opens the game, waits out node A's lease and answers.
    let mut me = Client::connect(b.addr, &id, Some(&cookie)).await;
    let state = me.wait_for_ply(2).await;
    assert!(state["outcome"].is_null());
    assert_eq!(b.state.engine.moves_searched(), 1);
    assert_eq!(b.state.store.moves(&id).unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_cut_off_from_the_broker_reload_their_rooms_when_it_returns() {
    let (_schema, db) = shared_database();
    let mut nats = PrivateNats::start();
    let a = node(&db, &nats.url()).await;
    let b = node(&db, &nats.url()).await;
    let (id, blue_cookie) = create(a.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red_cookie = visit(b.addr, &id).await.unwrap();
    let mut blue = Client::connect(a.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(b.addr, &id, Some(&red_cookie)).await;

    nats.stop();
    // While the broker is away, a move is stored that no event will ever announce (a node without a broker).
    let elsewhere = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let room = elsewhere.room(&id).unwrap().unwrap();
    let mv = legal(&blue.state)[0].clone();
    room.play(&elsewhere.store, Some(Side::Blue), &mv).unwrap();
    nats.resume();

    // Both nodes reload what they hold once they are back, and their players see the move.
    assert_eq!(red.wait_for_ply(1).await["moves"][0], mv.as_str());
    assert_eq!(blue.wait_for_ply(1).await["moves"][0], mv.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_told_it_lost_events_reloads_its_rooms() {
    let (_schema, db) = shared_database();
    let a = node(&db, &broker_url()).await;
    let b = node(&db, &broker_url()).await;
    let (id, blue_cookie) = create(a.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red_cookie = visit(b.addr, &id).await.unwrap();
    let blue = Client::connect(a.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(b.addr, &id, Some(&red_cookie)).await;
    // A move whose event node B never gets (stored by a node without a broker), as when B fell behind and
    // the broker's client dropped it.
    let elsewhere = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let room = elsewhere.room(&id).unwrap().unwrap();
    let mv = legal(&blue.state)[0].clone();
    room.play(&elsewhere.store, Some(Side::Blue), &mv).unwrap();
    // The client's notice (a slow consumer: see `broker::events_may_be_lost`) makes B read its rooms again.
    b.state.cluster().expect("a node").events_were_lost();
    assert_eq!(red.wait_for_ply(1).await["moves"][0], mv.as_str());
}

#[tokio::test]
async fn a_node_whose_broker_cannot_be_reached_does_not_start() {
    let (_schema, db) = shared_database();
    // Nothing listens on port 1.
    let config = node_config(
        &db,
        "nats://127.0.0.1:1",
        Duration::from_secs(10),
        Limits::default(),
    );
    let refused = Server::bind(&config).await.unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("cannot reach the broker at nats://127.0.0.1:1"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taken_on_another_node_holds_before_its_event_arrives() {
    let (_schema, db) = shared_database();
    let a = node(&db, &broker_url()).await;
    let (id, _) = create(a.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    // The friend's seat is taken on a node that tells nobody (it has no broker).
    let elsewhere = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let room = elsewhere.room(&id).unwrap().unwrap();
    let (side, token) = elsewhere.claim_seat(&room).unwrap().unwrap();
    assert_eq!(side, Side::Red);
    // Node A has not heard of it, yet the friend's token is their seat there.
    let red = Client::connect(a.addr, &id, Some(&format!("seat_{id}={token}"))).await;
    assert_eq!(red.seat.as_deref(), Some("red"));
    assert_eq!(red.state["seats_taken"]["red"], true);
}

/// A bare broker client listening to `game`'s events. The broker has the subscription when this returns: it
/// answers a request to a subject nobody listens on ("no responders") only after reading what came before.
async fn listen_to(nats: &PrivateNats, game: &str) -> (async_nats::Client, async_nats::Subscriber) {
    let listener = async_nats::connect(nats.url()).await.unwrap();
    let events = listener
        .subscribe(format!("jungle.game.{game}"))
        .await
        .unwrap();
    let nobody = listener.new_inbox();
    let answer = listener.request(nobody, "".into()).await;
    assert!(
        matches!(&answer, Err(e) if e.kind() == async_nats::RequestErrorKind::NoResponders),
        "{answer:?}"
    );
    (listener, events)
}

/// Plays the first legal move in `room` for `side`: the move.
fn play_first_legal(room: &Room, store: &Store, side: Side) -> String {
    let mv = room.lock().game.legal_moves()[0].to_string();
    room.play(store, Some(side), &mv).unwrap();
    mv
}

/// The next event on `events` that announces a stored move (a seat's or presence's events are passed over).
async fn next_move_event(events: &mut async_nats::Subscriber) -> GameEvent {
    loop {
        let message = tokio::time::timeout(PATIENCE, events.next())
            .await
            .expect("an event in time")
            .expect("the subscription is open");
        let event = GameEvent::parse(&message.payload).unwrap();
        if matches!(event.change, Change::Moved(_)) {
            return event;
        }
    }
}

fn moved(event: &GameEvent) -> &MoveEvent {
    match &event.change {
        Change::Moved(played) => played,
        other => panic!("not a move: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opponents_node_plays_a_move_from_its_event_and_reads_the_database_only_when_behind() {
    let (_schema, db) = shared_database();
    let nats = PrivateNats::start();
    let a = node(&db, &nats.url()).await;
    let request = NewGame {
        opponent: "friend".into(),
        side: Some("blue".into()),
        ..NewGame::default()
    };
    let (room_a, _, _) = a.state.create(&request, None).unwrap();
    a.state.claim_seat(&room_a).unwrap().unwrap();
    let (_listener, mut events) = listen_to(&nats, &room_a.id).await;
    // Node B hears nothing by itself (it has no broker): the test hands it the events node A published.
    let b = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let room_b = b.room(&room_a.id).unwrap().unwrap();
    let play = |side| play_first_legal(&room_a, &a.state.store, side);

    let first = play(Side::Blue);
    let second = play(Side::Red);
    let (event_0, event_1) = (
        next_move_event(&mut events).await,
        next_move_event(&mut events).await,
    );
    assert_eq!(
        (
            moved(&event_0).ply,
            &moved(&event_0).mv,
            &moved(&event_0).after
        ),
        (0, &first, &None)
    );
    assert_eq!(
        (moved(&event_1).ply, &moved(&event_1).after),
        (1, &Some(first.clone()))
    );
    assert!((moved(&event_1).played_at - now_ms()).abs() < 60_000);
    // B missed the first event: the second tells it its room is behind, and it reads both moves.
    b.apply_event(&event_1);
    assert_eq!(*room_b.snapshot().moves, [first.clone(), second.clone()]);

    // The next move's event is enough by itself: its row is taken out of the database before B hears of
    // it (only the event can bring it), and B plays it.
    let third = play(Side::Blue);
    let event_2 = next_move_event(&mut events).await;
    a.state.store.truncate_moves(&room_a.id, 2).unwrap();
    b.apply_event(&event_2);
    assert_eq!(*room_b.snapshot().moves, [first, second, third]);
    assert_eq!(room_b.snapshot().turn.0, Side::Red);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_elsewhere_that_nobody_here_watches_leaves_memory_at_its_next_event() {
    let (_schema, db) = shared_database();
    let nats = PrivateNats::start();
    let a = node(&db, &nats.url()).await;
    let room_a = seated_game(&a.state, None);
    let (_listener, mut events) = listen_to(&nats, &room_a.id).await;
    let play = |side| play_first_legal(&room_a, &a.state.store, side);
    // Node B (handed A's events by the test) follows a game it holds no longer than a moment unused.
    let limits = Limits {
        room_unwatched: Duration::ZERO,
        ..Limits::default()
    };
    let b = Hub::with_limits(Store::open(&db).unwrap(), EnginePool::new(1), limits, None);

    // Watched on B: B follows the game.
    let room_b = b.room(&room_a.id).unwrap().unwrap();
    let watcher = room_b.updates_for(None);
    play(Side::Blue);
    b.apply_event(&next_move_event(&mut events).await);
    assert!(b.held_room(&room_a.id).is_some());
    assert_eq!(room_b.snapshot().moves.len(), 1);

    // Nobody watches on B any more: the next event drops the room instead of playing it there.
    drop(watcher);
    play(Side::Red);
    b.apply_event(&next_move_event(&mut events).await);
    assert!(b.held_room(&room_a.id).is_none());
    assert_eq!(room_b.snapshot().moves.len(), 1, "followed after all");
    // Asked for again, it is read from the database with every move.
    let again = b.room(&room_a.id).unwrap().unwrap();
    assert_eq!(again.snapshot().moves.len(), 2);

    // With the default limit, a room just asked for is followed even when nobody watches it yet (a
    // connection is given the room before it starts watching).
    let patient = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let room_c = patient.room(&room_a.id).unwrap().unwrap();
    play(Side::Blue);
    patient.apply_event(&next_move_event(&mut events).await);
    assert!(patient.held_room(&room_a.id).is_some());
    assert_eq!(room_c.snapshot().moves.len(), 3);
}

/// A friend game between two seated players on `hub`, `minutes` a side (none: untimed).
fn seated_game(hub: &std::sync::Arc<Hub>, minutes: Option<f64>) -> std::sync::Arc<Room> {
    let request = NewGame {
        opponent: "friend".into(),
        side: Some("blue".into()),
        minutes,
        ..NewGame::default()
    };
    let (room, _, _) = hub.create(&request, None).unwrap();
    hub.claim_seat(&room).unwrap().unwrap();
    room
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_asking_for_a_rematch_at_once_on_two_nodes_get_one_game() {
    let (_schema, db) = shared_database();
    // Two nodes that never hear of each other (no broker): neither knows of the other's rematch.
    let a = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let b = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    for round in 0..10 {
        let room_a = seated_game(&a, None);
        room_a.resign(&a.store, Some(Side::Red)).unwrap();
        let room_b = b.room(&room_a.id).unwrap().unwrap();
        // Blue asks on node A as Red asks on node B.
        let ask = |hub: &std::sync::Arc<Hub>, room: std::sync::Arc<Room>, seat| {
            let hub = hub.clone();
            tokio::task::spawn_blocking(move || hub.rematch(&room, seat, None).unwrap())
        };
        let (blue, red) = tokio::join!(
            ask(&a, room_a.clone(), Side::Blue),
            ask(&b, room_b.clone(), Side::Red)
        );
        let (blue, red) = (blue.unwrap(), red.unwrap());
        assert_eq!(blue.0, red.0, "round {round}: two rematches");
        // Each has the other's old seat, with the token stored for it.
        assert_eq!((blue.1, red.1), (Side::Red, Side::Blue));
        let game = a.store.game(&blue.0).unwrap().unwrap();
        assert_eq!(game.red_token.as_deref(), Some(blue.2.as_str()));
        assert_eq!(game.blue_token.as_deref(), Some(red.2.as_str()));
        // Both nodes show the one rematch.
        assert_eq!(room_a.snapshot().rematch.as_deref(), Some(blue.0.as_str()));
        assert_eq!(room_b.snapshot().rematch.as_deref(), Some(blue.0.as_str()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_clock_ran_out_while_no_node_held_it_is_decided_once_by_a_sweep() {
    let (_schema, db) = shared_database();
    let a = node(&db, &broker_url()).await;
    let b = node(&db, &broker_url()).await;
    // Played on a node that then went away (a hub of its own, holding the room; no broker): each side has
    // moved once, and Blue's minute runs. Neither node holds the game.
    let gone = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let room = seated_game(&gone, Some(1.0));
    for side in [Side::Blue, Side::Red] {
        let mv = room.lock().game.legal_moves()[0].to_string();
        room.play(&gone.store, Some(side), &mv).unwrap();
    }
    let id = room.id.clone();
    assert!(a.state.held_room(&id).is_none() && b.state.held_room(&id).is_none());
    // Too early: nothing to decide.
    assert!(unattended::sweep(&a.state).unwrap().is_empty());
    // Two minutes on (looked ahead, not waited for), both nodes sweep at the same moment: one decides.
    let later = now_ms() + 2 * 60_000;
    let sweep = |hub: &std::sync::Arc<Hub>| {
        let hub = hub.clone();
        tokio::task::spawn_blocking(move || unattended::sweep_at(&hub, later).unwrap())
    };
    let (on_a, on_b) = tokio::join!(sweep(&a.state), sweep(&b.state));
    let decided: Vec<String> = on_a.unwrap().into_iter().chain(on_b.unwrap()).collect();
    assert_eq!(decided, [id.as_str()]);
    let record = a.state.store.game(&id).unwrap().unwrap();
    assert_eq!(
        (record.result.as_deref(), record.termination.as_deref()),
        (Some("0-1"), Some("time forfeit"))
    );
    assert!(
        unattended::sweep_at(&b.state, later).unwrap().is_empty(),
        "decided once"
    );
    // A player who comes back sees the ending.
    let mut watcher = Client::connect(b.addr, &id, None).await;
    let end = watcher.wait_for(|s| !s["outcome"].is_null()).await;
    assert_eq!(end["outcome"]["winner"], "red");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_holding_a_game_a_sweep_decided_shows_the_ending() {
    let (_schema, db) = shared_database();
    let a = node(&db, &broker_url()).await;
    let b = node(&db, &broker_url()).await;
    let (id, _) = create(a.addr, r#"{"opponent":"friend","side":"blue","minutes":1}"#).await;
    // A watcher on node A; node B, which holds nothing, sweeps as if Blue's first-move wait were long over.
    let mut watcher = Client::connect(a.addr, &id, None).await;
    let limits = Limits::default();
    let later = now_ms() + (limits.join_wait + limits.first_move_wait).as_millis() as i64 + 60_000;
    let decided = tokio::task::spawn_blocking({
        let hub = b.state.clone();
        move || unattended::sweep_at(&hub, later).unwrap()
    })
    .await
    .unwrap();
    assert_eq!(decided, [id.as_str()]);
    let end = watcher.wait_for(|s| !s["outcome"].is_null()).await;
    assert_eq!(end["outcome"]["reason"], "aborted");
}

/// A member that only writes down what reaches it, in order: `event GAME` or `listening GAME`; and apart,
/// what it hears of other nodes.
#[derive(Default)]
struct Recorder(
    std::sync::Mutex<Vec<String>>,
    std::sync::Mutex<Vec<PeerNews>>,
);

impl Member for Recorder {
    fn apply_event(self: &std::sync::Arc<Self>, event: &GameEvent) {
        self.0.lock().unwrap().push(format!("event {}", event.game));
    }

    fn listening(self: &std::sync::Arc<Self>, game: &str) {
        self.0.lock().unwrap().push(format!("listening {game}"));
    }

    fn reload_all(self: &std::sync::Arc<Self>) {}

    fn peer_news(self: &std::sync::Arc<Self>, news: &PeerNews) {
        self.1.lock().unwrap().push(news.clone());
    }
}

impl Recorder {
    fn heard(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// Another node's news of `game` (who is connected to it there).
fn news_of(game: &str) -> GameEvent {
    GameEvent {
        node: "another-node".into(),
        incarnation: 1,
        game: game.into(),
        change: Change::Attendance,
        attendance: Default::default(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_hears_the_games_it_holds_once_the_broker_confirms_and_no_others() {
    let nats = PrivateNats::start();
    let member = std::sync::Arc::new(Recorder::default());
    let cluster = jungle_server::cluster::join(&member, &ClusterConfig::new(nats.url()))
        .await
        .unwrap();
    let other = async_nats::connect(nats.url()).await.unwrap();
    let publish = |game: &str| {
        let event = news_of(game);
        let other = other.clone();
        async move {
            other
                .publish(event.subject(), event.to_bytes().into())
                .await
                .unwrap();
            other.flush().await.unwrap();
        }
    };
    let interest = cluster.interest();

    interest.hold("aaaaaa");
    eventually("the subscription is confirmed", || {
        member.heard() == ["listening aaaaaa"]
    })
    .await;
    // One publisher's messages reach a subscriber in order: had the node heard the game it does not hold,
    // that event would come before the second one of the game it holds.
    publish("bbbbbb").await;
    publish("aaaaaa").await;
    eventually("the held game's news", || member.heard().len() == 2).await;
    assert_eq!(member.heard(), ["listening aaaaaa", "event aaaaaa"]);

    // Held twice (an open and a hidden registry, say), released once: still heard.
    interest.hold("aaaaaa");
    interest.release("aaaaaa");
    interest.hold("cccccc");
    eventually("the second subscription", || member.heard().len() == 3).await;
    publish("aaaaaa").await;
    eventually("the game still held", || member.heard().len() == 4).await;

    // Released by its last holder: no longer heard.
    interest.release("aaaaaa");
    interest.hold("dddddd");
    eventually("the third subscription", || member.heard().len() == 5).await;
    publish("aaaaaa").await;
    publish("cccccc").await;
    eventually("the news after the release", || member.heard().len() == 6).await;
    assert_eq!(
        member.heard(),
        [
            "listening aaaaaa",
            "event aaaaaa",
            "listening cccccc",
            "event aaaaaa",
            "listening dddddd",
            "event cccccc"
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_reads_its_game_again_once_the_broker_confirms_its_subscription() {
    let (_schema, db) = shared_database();
    // Told by the test, not by a broker, when its subscription is confirmed.
    let a = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let room = seated_game(&a, None);
    // A move stored by a node that tells nobody (it has no broker), as one stored while node A was reading
    // the game and before the broker had A's subscription to it.
    let elsewhere = Hub::new(Store::open(&db).unwrap(), EnginePool::new(1));
    let there = elsewhere.room(&room.id).unwrap().unwrap();
    let mv = there.lock().game.legal_moves()[0].to_string();
    there.play(&elsewhere.store, Some(Side::Blue), &mv).unwrap();
    assert!(room.snapshot().moves.is_empty());

    a.listening(&room.id);
    assert_eq!(*room.snapshot().moves, [mv]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_is_subscribed_to_a_game_while_it_holds_its_room() {
    let (_schema, db) = shared_database();
    let nats = PrivateNats::start();
    let a = node(&db, &nats.url()).await;
    let before = nats.subscriptions();
    let subscribed = |expected: u64| nats.subscriptions() == expected;

    let room = seated_game(&a.state, None);
    eventually("the new game's subscription", || subscribed(before + 1)).await;
    // A finished room nobody watches leaves memory at a tidy-up, and its subscription goes with it.
    room.resign(&a.state.store, Some(Side::Blue)).unwrap();
    a.state.tidy(true);
    assert!(a.state.held_room(&room.id).is_none());
    eventually("the subscription dropped", || subscribed(before)).await;
    // Opened again (someone looks at the finished game): subscribed again.
    a.state.room(&room.id).unwrap().unwrap();
    eventually("the subscription back", || subscribed(before + 1)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nodes_own_events_are_not_delivered_back_to_it() {
    let (_schema, db) = shared_database();
    let nats = PrivateNats::start();
    let a = node(&db, &nats.url()).await;
    let before = nats.subscriptions();
    let room = seated_game(&a.state, None);
    eventually("the game's subscription", || {
        nats.subscriptions() == before + 1
    })
    .await;
    let (_listener, mut events) = listen_to(&nats, &room.id).await;
    let play = |side| play_first_legal(&room, &a.state.store, side);
    play(Side::Blue);
    next_move_event(&mut events).await;

    // The next move's event reaches the listener, and nobody else: not node A, which published it.
    let delivered = nats.messages_out();
    play(Side::Red);
    next_move_event(&mut events).await;
    assert_eq!(nats.messages_out() - delivered, 1);
}

/// One heartbeat of a node "ghost" (incarnation 5), sent by a bare broker client standing for it.
async fn beat_as_the_ghost(client: &async_nats::Client) {
    let beat = Heartbeat {
        node: "ghost".into(),
        incarnation: 5,
    };
    client
        .publish(peers::SUBJECT, beat.to_bytes().into())
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_hears_the_others_heartbeats_and_says_when_one_went_silent() {
    let nats = PrivateNats::start();
    let member = std::sync::Arc::new(Recorder::default());
    let config = ClusterConfig::new(nats.url());
    let other = async_nats::connect(nats.url()).await.unwrap();
    let mut heartbeats = other.subscribe(peers::SUBJECT).await.unwrap();
    let _cluster = jungle_server::cluster::join(&member, &config)
        .await
        .unwrap();
    // The node says it is alive.
    let first = heartbeats.next().await.unwrap();
    let mine = Heartbeat::parse(&first.payload).expect("a heartbeat");
    assert_eq!(mine.node, config.node_id);

    beat_as_the_ghost(&other).await;
    let heard = || member.1.lock().unwrap().clone();
    eventually("the other node is heard", || !heard().is_empty()).await;
    assert_eq!(
        heard(),
        [PeerNews::Back {
            node: "ghost".into(),
            incarnation: 5
        }]
    );
    // It says nothing more: after a while it is silent.
    eventually("the other node goes silent", || heard().len() == 2).await;
    assert!(
        matches!(&heard()[1], PeerNews::Silent { node, incarnation: 5, .. } if node == "ghost"),
        "{:?}",
        heard()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_connected_on_a_node_that_goes_silent_is_shown_away() {
    let (_schema, db) = shared_database();
    let nats = PrivateNats::start();
    let a = node(&db, &nats.url()).await;
    // Another node, "ghost", made of a bare broker client.
    let ghost = async_nats::connect(nats.url()).await.unwrap();
    let mut events = ghost
        .subscribe(format!(
            "{}*",
            jungle_server::cluster::event::SUBJECT_PREFIX
        ))
        .await
        .unwrap();
    ghost.flush().await.unwrap();
    let (id, blue_cookie) = create(a.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    visit(a.addr, &id).await.expect("Red takes the free seat");
    let mut blue = Client::connect(a.addr, &id, Some(&blue_cookie)).await;
    blue.wait_for(|s| !s["away"]["red"].is_null()).await;
    // Node A's events of the game until `enough` holds for those seen so far.
    let mut events_of_a = async |enough: &dyn Fn(&[GameEvent]) -> bool| {
        let mut seen = Vec::new();
        let wait = async {
            while !enough(&seen) {
                let message = events.next().await.unwrap();
                let event = GameEvent::parse(&message.payload).unwrap();
                if event.node != "ghost" && event.game == id {
                    seen.push(event);
                }
            }
        };
        tokio::time::timeout(PATIENCE, wait)
            .await
            .expect("node A's events");
        seen
    };
    let blue_here = |e: &GameEvent| e.attendance.blue == 1 && e.change == Change::Attendance;
    // Node A said Blue arrived, and asked who is connected elsewhere once the broker confirmed its
    // subscription (in either order).
    events_of_a(&|seen| {
        seen.iter().any(|e| e.change == Change::Joined) && seen.iter().any(blue_here)
    })
    .await;

    // The ghost joins the game with Red connected there; node A answers with who is here.
    beat_as_the_ghost(&ghost).await;
    let joined = GameEvent {
        node: "ghost".into(),
        incarnation: 5,
        game: id.clone(),
        change: Change::Joined,
        attendance: jungle_server::cluster::event::Headcount {
            blue: 0,
            red: 1,
            spectators: 0,
        },
    };
    ghost
        .publish(joined.subject(), joined.to_bytes().into())
        .await
        .unwrap();
    let answer = events_of_a(&|seen| !seen.is_empty()).await;
    assert!(
        blue_here(&answer[0]),
        "node A answers who is here: {answer:?}"
    );
    let seen = blue.wait_for(|s| s["away"]["red"].is_null()).await;
    assert!(seen["away"]["blue"].is_null());

    // The ghost stops its heartbeats (it died): Red is away again, without any word about the game.
    let seen = blue.wait_for(|s| !s["away"]["red"].is_null()).await;
    assert!(seen["away"]["blue"].is_null());
}
