//! Correspondence games across a restart: the deadline is stored, not ticking in memory, so a game whose side
//! to move ran out while the server was down is decided when it comes back — once. And in the browser: a
//! correspondence game made in the lobby, the "your turn" list and tab title, and play going on across a restart.

use std::path::Path;

use serde_json::Value;

use crate::lobby::{Person, accept, open_seek, seat_cookie};
use crate::support::{Client, IsolatedServer, temp_dir};

/// Moves the stored deadline of a game into the past, as if the days had gone by while the server was down.
fn let_the_days_pass(db: &Path, game: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let changed = conn
        .execute(
            "UPDATE games SET deadline_at = deadline_at - 4 * 86400000 WHERE id = ?1",
            [game],
        )
        .unwrap();
    assert_eq!(changed, 1);
}

fn finished_at(db: &Path, game: &str) -> Option<i64> {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT finished_at FROM games WHERE id = ?1", [game], |r| {
        r.get(0)
    })
    .unwrap()
}

async fn game_state(server: &IsolatedServer, game: &str) -> Value {
    let (status, _, body) =
        crate::support::http(server.addr, "GET", &format!("/api/games/{game}"), "", None).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_time_ran_out_while_the_server_was_down_is_decided_once_when_it_returns() {
    let db = temp_dir("correspondence-restart").join("games.db");
    let server = IsolatedServer::start(db.clone());
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;

    // Two games of three days per move: one under way, one where Blue never moved.
    let seek = open_seek(addr, &alice, r#"{"days":3,"colour":"blue"}"#).await;
    let (game, bob_cookie) = accept(addr, &bob, &seek).await;
    let idle_seek = open_seek(addr, &alice, r#"{"days":3,"colour":"blue"}"#).await;
    let (idle, _) = accept(addr, &bob, &idle_seek).await;
    let alice_cookie = seat_cookie(addr, &alice, &game).await;
    let mut blue = Client::connect(addr, &game, Some(&alice_cookie)).await;
    let mut red = Client::connect(addr, &game, Some(&bob_cookie)).await;
    let deadline = |state: &Value| state["correspondence"]["deadline_ms"].as_i64().unwrap();
    let first = deadline(&blue.state);
    blue.send_move("a3a4").await;
    let after_blue = red.wait_for_ply(1).await;
    assert!(
        deadline(&after_blue) > first,
        "Blue's move gave Red a fresh deadline"
    );
    red.send_move("g7g6").await;
    blue.wait_for_ply(2).await;
    // Blue's disconnection is no reason to claim in a correspondence game.
    drop(blue);
    let state = red.wait_for(|s| s["ply"] == 2).await;
    assert!(state["away"]["blue"].is_null(), "{}", state["away"]);
    server.kill();
    drop(red);

    // Four days pass with the server down; Blue was to move with three days per move.
    let_the_days_pass(&db, &game);
    let_the_days_pass(&db, &idle);
    let server = IsolatedServer::start(db.clone());
    let state = game_state(&server, &game).await;
    assert_eq!(
        state["outcome"]["reason"], "time forfeit",
        "{}",
        state["outcome"]
    );
    assert_eq!(state["outcome"]["winner"], "red");
    assert_eq!(state["ply"], 2, "no move lost");
    let idle_state = game_state(&server, &idle).await;
    assert_eq!(
        idle_state["outcome"]["reason"], "aborted",
        "nobody began: no result"
    );
    let decided = finished_at(&db, &game).expect("the ending is stored");

    // The sweep runs again (as it does periodically): nothing is decided twice.
    let swept = jungle_platform::correspondence::sweep(&server.state).unwrap();
    assert_eq!(swept, 0);
    assert_eq!(finished_at(&db, &game), Some(decided));
    // And the players' lists no longer show it as waiting.
    let (_, _, mine) = alice.send(server.addr, "GET", "/api/lobby/mine", "").await;
    assert_eq!(mine["your_turn"], 0);
    server.kill();
}

#[tokio::test]
async fn the_your_turn_list_shows_whose_move_it_is() {
    let db = temp_dir("correspondence-your-turn").join("games.db");
    let server = IsolatedServer::start(db);
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;
    let seek = open_seek(addr, &alice, r#"{"days":1,"colour":"blue"}"#).await;
    let (game, bob_cookie) = accept(addr, &bob, &seek).await;
    let (_, _, mine) = alice.send(addr, "GET", "/api/lobby/mine", "").await;
    assert_eq!(mine["your_turn"], 1, "{mine}");
    assert_eq!(mine["games"][0]["id"], game.as_str());
    assert_eq!(mine["games"][0]["my_turn"], true);
    let (_, _, theirs) = bob.send(addr, "GET", "/api/lobby/mine", "").await;
    assert_eq!(theirs["your_turn"], 0);
    assert_eq!(theirs["games"][0]["my_turn"], false);
    let alice_cookie = seat_cookie(addr, &alice, &game).await;
    let mut blue = Client::connect(addr, &game, Some(&alice_cookie)).await;
    let mut red = Client::connect(addr, &game, Some(&bob_cookie)).await;
    blue.send_move("a3a4").await;
    red.wait_for_ply(1).await;
    let (_, _, theirs) = bob.send(addr, "GET", "/api/lobby/mine", "").await;
    assert_eq!(theirs["your_turn"], 1);
    // A guest has no games.
    let (status, _, body) = crate::support::http(addr, "GET", "/api/lobby/mine", "", None).await;
    assert_eq!(status, 200);
    assert!(body.contains(r#""your_turn":0"#), "{body}");
    server.kill();
}

#[tokio::test]
async fn a_correspondence_games_rematch_has_its_days_per_move_and_both_players() {
    let db = temp_dir("correspondence-rematch").join("games.db");
    let server = IsolatedServer::start(db);
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;
    let seek = open_seek(addr, &alice, r#"{"days":5,"colour":"blue"}"#).await;
    let (game, bob_cookie) = accept(addr, &bob, &seek).await;
    let mut red = Client::connect(addr, &game, Some(&bob_cookie)).await;
    red.send_text(r#"{"type":"resign"}"#).await;
    red.wait_for(|state| !state["outcome"].is_null()).await;

    // Alice asks by her account alone; Bob's seat in the rematch is his by account too.
    let (status, _, rematch) = alice
        .send(addr, "POST", &format!("/api/games/{game}/rematch"), "")
        .await;
    assert_eq!(status, 200, "{rematch}");
    assert_eq!(rematch["seat"], "red");
    let new = rematch["id"].as_str().unwrap().to_string();
    let state = game_state(&server, &new).await;
    assert_eq!(state["correspondence"]["days_per_move"], 5, "{state}");
    assert!(state["clock"].is_null());
    let (_, _, mine) = bob.send(addr, "GET", "/api/lobby/mine", "").await;
    let listed = mine["games"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|g| g["id"] == new.as_str() && g["my_turn"] == true),
        "Bob is Blue and to move: {mine}"
    );
    let bob_seat = seat_cookie(addr, &bob, &new).await;
    let blue = Client::connect(addr, &new, Some(&bob_seat)).await;
    assert_eq!(blue.seat.as_deref(), Some("blue"));
    server.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_the_browser_a_correspondence_game_goes_on_across_a_server_restart() {
    use crate::lobby::seek_accepted_in_browser;
    use crate::support::browser::{Chrome, click, click_move, eval, wait_until};

    let db = temp_dir("e2e-correspondence").join("games.db");
    let server = IsolatedServer::start(db.clone());
    let addr = server.addr;
    let base = format!("http://{addr}");
    let chrome = Chrome::launch("correspondence", 1200, 900).await;

    // Alice opens a rated seek of two days per move as Blue; Bob accepts.
    let (alice, bob, _) = seek_accepted_in_browser(
        &chrome,
        &base,
        "const kind = document.getElementById('time-kind'); kind.value = 'days'; kind.dispatchEvent(new Event('change')); document.getElementById('days').value = '2'; document.getElementById('rated').value = 'true'; document.getElementById('colour').value = 'blue';",
    )
    .await;
    let game: String = eval(&bob, "window.jungle.state.id").await;
    let days: u64 = eval(&bob, "window.jungle.state.correspondence.days_per_move").await;
    assert_eq!(days, 2);

    click_move(&alice, "a3a4").await;
    wait_until(
        &bob,
        "window.jungle.state.ply === 1 && document.body.dataset.myturn === 'true'",
    )
    .await;
    click_move(&bob, "g7g6").await;
    wait_until(&alice, "window.jungle.state.ply === 2").await;
    let deadline: i64 = eval(&alice, "window.jungle.state.correspondence.deadline_ms").await;

    // On her home page Alice's game waits for her: in the "your games" list and in the tab's title.
    alice.goto(format!("{base}/").as_str()).await.unwrap();
    wait_until(
        &alice,
        &format!("document.querySelector('#my-games li.my-turn[data-game=\"{game}\"]')"),
    )
    .await;
    wait_until(&alice, "document.title.startsWith('(1) ')").await;

    // The server goes down and comes back on the same address and database. Bob's game page stays open.
    server.kill();
    let server = IsolatedServer::start_at(db.clone(), addr);

    // Alice goes back to the game from her list (her seat comes with her account) and moves.
    click(&alice, &format!("#my-games li[data-game='{game}'] a")).await;
    wait_until(&alice, &format!("location.pathname === '/game/{game}' && window.jungle && window.jungle.state && window.jungle.state.ply === 2 && window.jungle.seat === 'blue'")).await;
    let kept: i64 = eval(&alice, "window.jungle.state.correspondence.deadline_ms").await;
    assert_eq!(kept, deadline, "the deadline is stored, not restarted");
    wait_until(&alice, "document.body.dataset.myturn === 'true'").await;
    click_move(&alice, "a4a5").await;
    // Bob's page reconnected by itself and sees the move; the game goes on.
    wait_until(
        &bob,
        "window.jungle.state.ply === 3 && document.body.dataset.myturn === 'true'",
    )
    .await;
    click_move(&bob, "g6g5").await;
    wait_until(&alice, "window.jungle.state.ply === 4").await;
    let (_, _, state) =
        crate::support::http(addr, "GET", &format!("/api/games/{game}"), "", None).await;
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!(
        state["moves"],
        serde_json::json!(["a3a4", "g7g6", "a4a5", "g6g5"])
    );
    assert!(state["outcome"].is_null());
    chrome.close().await;
    server.kill();
}
