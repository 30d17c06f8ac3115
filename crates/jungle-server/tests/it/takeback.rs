//! Takebacks between people (as on lichess): one player asks, the other accepts or declines; moves are undone
//! until it is the asker's turn, with the clocks as they were then; never in rated games; decided by the
//! store when the players are on two nodes of a cluster; and the same in the browser.

use crate::lobby::{Person, accept, open_seek, seat_cookie};
use crate::support::browser::{Chrome, click, click_move, eval, take_free_seat, wait_until};
use crate::support::{Client, create, start, temp_dir, visit};

/// A friend game with a 5+0 clock and both seats taken: (server, id, blue, red).
async fn friend_game(name: &str) -> (crate::support::TestServer, String, Client, Client) {
    let server = start(temp_dir(name).join("games.db")).await;
    let (id, blue_cookie) = create(
        server.addr,
        r#"{"opponent":"friend","side":"blue","minutes":5}"#,
    )
    .await;
    let red_cookie = visit(server.addr, &id).await.expect("a free seat");
    let blue = Client::connect(server.addr, &id, Some(&blue_cookie)).await;
    let red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    (server, id, blue, red)
}

const TAKEBACK: &str = r#"{"type":"takeback"}"#;
const DECLINE: &str = r#"{"type":"decline_takeback"}"#;

#[tokio::test]
async fn a_takeback_asked_by_one_player_is_accepted_or_declined_by_the_other() {
    let (server, id, mut blue, mut red) = friend_game("takeback-friends").await;
    // Nothing to take back before one's own first move; no request to answer or decline.
    blue.send_text(TAKEBACK).await;
    assert_eq!(
        blue.expect_error().await,
        "takeback refused: you have no move to take back"
    );
    red.send_text(DECLINE).await;
    assert_eq!(
        red.expect_error().await,
        "there is no takeback request to decline"
    );

    let mut at_three = serde_json::Value::Null;
    for (ply, mv) in ["a3a4", "g7g6", "a4a5", "g6g5"].iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut blue } else { &mut red };
        mover.send_move(mv).await;
        blue.wait_for_ply(ply as u64 + 1).await;
        let state = red.wait_for_ply(ply as u64 + 1).await;
        if ply == 2 {
            at_three = state;
        }
    }

    // Blue asks: Red's last move and Blue's are to be undone. The request is shown to both, once.
    blue.send_text(TAKEBACK).await;
    red.wait_for(|s| s["takeback_request"] == "blue").await;
    blue.send_text(TAKEBACK).await;
    assert!(blue.expect_error().await.contains("you asked already"));
    // Red declines: Blue is told, and nothing is undone.
    red.send_text(DECLINE).await;
    let notice = blue.next_of("notice").await;
    assert_eq!(notice["event"], "takeback_declined");
    assert_eq!(notice["by"], "red");
    let state = blue.wait_for(|s| s["takeback_request"].is_null()).await;
    assert_eq!(state["ply"], 4);

    // A move made while a request stands withdraws it (the position it was asked for is gone).
    red.send_text(TAKEBACK).await;
    blue.wait_for(|s| s["takeback_request"] == "red").await;
    blue.send_move("a5a6").await;
    let state = red.wait_for_ply(5).await;
    assert!(state["takeback_request"].is_null(), "{state}");
    // (Blue's page reads up to the move, so the next request it waits for is a new one.)
    blue.wait_for_ply(5).await;

    // Red asks on Red's own turn (Blue replied): two moves go; Blue accepts by asking too.
    red.send_text(TAKEBACK).await;
    blue.wait_for(|s| s["takeback_request"] == "red").await;
    blue.send_text(TAKEBACK).await;
    for client in [&mut blue, &mut red] {
        let state = client.wait_for_ply(3).await;
        assert_eq!(state["turn"], "red");
        assert!(state["takeback_request"].is_null());
    }
    // The clocks went back with the moves, and the stored game too.
    let after = red.state.clone();
    let moves: Vec<String> = serde_json::from_value(after["moves"].clone()).unwrap();
    assert_eq!(moves, ["a3a4", "g7g6", "a4a5"]);
    // Blue's clock (stopped: Red is to move) shows exactly what it showed after Blue's move at ply 3.
    assert_eq!(after["clock"]["blue_ms"], at_three["clock"]["blue_ms"]);
    assert_eq!(after["clock"]["running"], "red");
    let mut fresh = Client::connect(server.addr, &id, None).await;
    assert_eq!(fresh.wait_for_ply(3).await["moves"], after["moves"]);
    // A spectator may not ask.
    fresh.send_text(TAKEBACK).await;
    assert!(fresh.expect_error().await.contains("watching"));
    server.kill().await;
}

#[tokio::test]
async fn a_rated_game_has_no_takebacks() {
    let server = start(temp_dir("takeback-rated").join("games.db")).await;
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice").await;
    let bob = Person::sign_up(addr, "bob").await;
    let seek = open_seek(
        addr,
        &alice,
        r#"{"minutes":5,"increment":3,"rated":true,"colour":"blue"}"#,
    )
    .await;
    let (game, bob_cookie) = accept(addr, &bob, &seek).await;
    let alice_cookie = seat_cookie(addr, &alice, &game).await;
    let mut blue = Client::connect(addr, &game, Some(&alice_cookie)).await;
    let mut red = Client::connect(addr, &game, Some(&bob_cookie)).await;
    blue.send_move("a3a4").await;
    red.wait_for_ply(1).await;
    blue.send_text(TAKEBACK).await;
    assert_eq!(
        blue.expect_error().await,
        "takeback refused: rated games have no takebacks"
    );
    assert!(red.state["takeback_request"].is_null());
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_the_browser_one_player_asks_and_the_other_accepts_or_declines() {
    let server = start(temp_dir("e2e-takeback").join("games.db")).await;
    let chrome = Chrome::launch("takeback", 1100, 850).await;
    let home = format!("http://{}/", server.addr);
    let ann = chrome.person(&home).await;
    ann.evaluate("document.getElementById('side').value = 'blue'")
        .await
        .unwrap();
    click(&ann, "#play-friend").await;
    wait_until(&ann, "window.jungle && window.jungle.seat === 'blue'").await;
    let link: String = eval(&ann, "location.href").await;
    let bo = chrome.person(&link).await;
    wait_until(
        &bo,
        "window.jungle && window.jungle.state && !document.getElementById('join').hidden",
    )
    .await;
    take_free_seat(&bo, "red").await;

    click_move(&ann, "a3a4").await;
    wait_until(&bo, "window.jungle.state.ply === 1").await;
    // Ann asks; Bo sees the request and declines; Ann is told.
    wait_until(&ann, "!document.getElementById('takeback').hidden && !document.getElementById('takeback').disabled").await;
    click(&ann, "#takeback").await;
    wait_until(&ann, "document.getElementById('takeback').disabled").await;
    wait_until(&bo, "!document.getElementById('takeback-request').hidden").await;
    click(&bo, "#decline-takeback").await;
    wait_until(&ann, "!document.getElementById('notice').hidden && document.getElementById('notice').textContent === 'Your opponent declines the takeback.'").await;
    wait_until(&bo, "document.getElementById('takeback-request').hidden").await;
    // Ann asks again; Bo accepts: Ann's move is gone, it is her turn again.
    wait_until(&ann, "!document.getElementById('takeback').disabled").await;
    click(&ann, "#takeback").await;
    wait_until(&bo, "!document.getElementById('takeback-request').hidden").await;
    click(&bo, "#accept-takeback").await;
    for page in [&ann, &bo] {
        wait_until(
            page,
            "window.jungle.state.ply === 0 && document.getElementById('takeback-request').hidden",
        )
        .await;
    }
    wait_until(&ann, "document.body.dataset.myturn === 'true'").await;
    chrome.close().await;
    server.kill().await;
}
