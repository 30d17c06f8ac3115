//! Stopping the server mid-game and starting it again on the same database: the games continue, no move lost.

use crate::support::{Client, IsolatedServer, create, legal, temp_dir, visit};

#[tokio::test]
async fn games_in_progress_survive_a_restart_with_every_move() {
    let db = temp_dir("restart").join("games.db");
    let server = IsolatedServer::start(db.clone());

    // A friend game, five moves in.
    let (pvp, blue_cookie) = create(
        server.addr,
        r#"{"opponent":"friend","side":"blue","minutes":30}"#,
    )
    .await;
    let red_cookie = visit(server.addr, &pvp).await.unwrap();
    let mut blue = Client::connect(server.addr, &pvp, Some(&blue_cookie)).await;
    let mut red = Client::connect(server.addr, &pvp, Some(&red_cookie)).await;
    let mut played = Vec::new();
    for ply in 0..5u64 {
        let mover = if ply % 2 == 0 { &mut blue } else { &mut red };
        let state = mover.wait_for_ply(ply).await;
        let mv = legal(&state)[0].clone();
        mover.send_move(&mv).await;
        mover.wait_for_ply(ply + 1).await;
        played.push(mv);
    }
    let clock_before = blue.wait_for_ply(5).await["clock"].clone();

    // An engine game where the player has just moved: the engine may be thinking when the server dies.
    let (vs_engine, me_cookie) = create(
        server.addr,
        r#"{"opponent":"engine","level":1,"side":"blue"}"#,
    )
    .await;
    let mut me = Client::connect(server.addr, &vs_engine, Some(&me_cookie)).await;
    me.send_move("a3a4").await;
    me.wait_for_ply(1).await;

    server.kill();
    drop((blue, red, me));

    let server = IsolatedServer::start(db);
    let mut blue = Client::connect(server.addr, &pvp, Some(&blue_cookie)).await;
    let mut red = Client::connect(server.addr, &pvp, Some(&red_cookie)).await;
    assert_eq!(blue.seat.as_deref(), Some("blue"));
    assert_eq!(red.seat.as_deref(), Some("red"));
    let moves: Vec<String> = red.state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves, played, "no move lost");
    assert_eq!(red.state["turn"], "red");
    // The clocks come back as they were after the last move (the downtime is not charged to anyone).
    assert_eq!(red.state["clock"]["blue_ms"], clock_before["blue_ms"]);
    // The game goes on, and the seats still hold: Blue cannot move for Red.
    let mv = legal(&red.state)[0].clone();
    blue.send_move(&mv).await;
    assert_eq!(blue.expect_error().await, "it is not your turn");
    red.send_move(&mv).await;
    blue.wait_for_ply(6).await;

    // The engine game: the engine answers after the restart, and the player continues.
    let mut me = Client::connect(server.addr, &vs_engine, Some(&me_cookie)).await;
    let state = me
        .wait_for(|s| s["ply"] == 2 && s["thinking"] == false)
        .await;
    let mv = legal(&state)[0].clone();
    me.send_move(&mv).await;
    me.wait_for_ply(3).await;
    server.kill();
}
