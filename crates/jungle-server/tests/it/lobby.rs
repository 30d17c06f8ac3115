//! The lobby over HTTP on a real server: seeks created, listed, cancelled and accepted; many accepting one
//! seek at once make one game; refusals for rating ranges, rules and guests; direct challenges seen only by
//! their target; quick pairing; both players seated in the new game.

use std::net::SocketAddr;

use jungle_server::{Config, Limits};
use serde_json::Value;

use crate::support::{Client, http_raw, set_cookies, start, start_config, temp_dir};

/// A signed-in person: their session cookie, sent with every request.
#[derive(Clone)]
pub struct Person {
    session: String,
}

impl Person {
    /// Signs up a new account (the session cookie comes back with it).
    pub async fn sign_up(addr: SocketAddr, name: &str) -> Person {
        let body = format!(r#"{{"name":"{name}","password":"correct horse {name}"}}"#);
        let headers = ["Content-Type: application/json".to_string()];
        let (status, headers, answer) =
            http_raw(addr, "POST", "/api/signup", &headers, body.as_bytes()).await;
        assert_eq!(status, 201, "{answer}");
        let session = set_cookies(&headers)
            .find(|c| c.starts_with("jungle_session="))
            .expect("a session cookie")
            .to_string();
        Person {
            session: format!("Cookie: {session}"),
        }
    }

    /// One request as this person: (status, headers, JSON body or null).
    pub async fn send(
        &self,
        addr: SocketAddr,
        method: &str,
        path: &str,
        body: &str,
    ) -> (u16, Vec<(String, String)>, Value) {
        let headers = vec![
            "Content-Type: application/json".to_string(),
            self.session.clone(),
        ];
        let (status, headers, text) = http_raw(addr, method, path, &headers, body.as_bytes()).await;
        let value = serde_json::from_str(&text).unwrap_or(Value::Null);
        (status, headers, value)
    }
}

/// The lobby as `person` sees it.
pub async fn lobby(addr: SocketAddr, person: &Person) -> Value {
    let (status, _, lobby) = person.send(addr, "GET", "/api/lobby?since=0", "").await;
    assert_eq!(status, 200, "{lobby}");
    lobby
}

fn seek_ids(lobby: &Value) -> Vec<String> {
    lobby["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

/// Opens a seek; returns its id.
pub async fn open_seek(addr: SocketAddr, person: &Person, body: &str) -> String {
    let (status, _, answer) = person.send(addr, "POST", "/api/seeks", body).await;
    assert_eq!(status, 201, "{answer}");
    answer["seek"]["id"].as_str().unwrap().to_string()
}

/// Accepts a seek; returns the game's id and the seat cookie.
pub async fn accept(addr: SocketAddr, person: &Person, seek: &str) -> (String, String) {
    let (status, headers, answer) = person
        .send(addr, "POST", &format!("/api/seeks/{seek}/accept"), "")
        .await;
    assert_eq!(status, 201, "{answer}");
    (
        answer["id"].as_str().unwrap().to_string(),
        seat_cookie_of(&headers),
    )
}

/// The seat cookie of a player of a paired game, asked for by their account.
pub async fn seat_cookie(addr: SocketAddr, person: &Person, game: &str) -> String {
    let (status, headers, answer) = person
        .send(addr, "POST", &format!("/api/lobby/games/{game}/seat"), "")
        .await;
    assert_eq!(status, 200, "{answer}");
    seat_cookie_of(&headers)
}

/// The seat cookie an answer sets.
fn seat_cookie_of(headers: &[(String, String)]) -> String {
    set_cookies(headers)
        .find(|c| c.starts_with("seat_"))
        .expect("a seat cookie")
        .to_string()
}

#[tokio::test]
async fn seeks_are_listed_cancelled_accepted_and_seat_both_players() {
    let server = start(temp_dir("lobby-seeks").join("games.db")).await;
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;

    // Guests see the lobby but may not open a seek.
    let (status, _, _) = crate::support::http(addr, "GET", "/api/lobby", "", None).await;
    assert_eq!(status, 200);
    let (status, _, _) =
        crate::support::http(addr, "POST", "/api/seeks", r#"{"minutes":3}"#, None).await;
    assert_eq!(status, 401);

    let first = open_seek(addr, &alice, r#"{"minutes":3,"increment":2}"#).await;
    assert_eq!(seek_ids(&lobby(addr, &bob).await), [first.as_str()]);
    let (status, _, _) = bob
        .send(addr, "POST", &format!("/api/seeks/{first}/cancel"), "")
        .await;
    assert_eq!(status, 404, "only the creator cancels");
    let (status, _, _) = alice
        .send(addr, "POST", &format!("/api/seeks/{first}/cancel"), "")
        .await;
    assert_eq!(status, 204);
    assert!(seek_ids(&lobby(addr, &bob).await).is_empty());

    let seek = open_seek(
        addr,
        &alice,
        r#"{"minutes":5,"increment":3,"colour":"blue"}"#,
    )
    .await;
    let (status, _, answer) = alice
        .send(addr, "POST", &format!("/api/seeks/{seek}/accept"), "")
        .await;
    assert_eq!(status, 403, "{answer}");
    let (game, bob_cookie) = accept(addr, &bob, &seek).await;
    // Alice's lobby page learns of the game, and her account gets her seat.
    let paired = lobby(addr, &alice).await["paired"].clone();
    assert_eq!(paired[0]["game"], game.as_str());
    assert_eq!(paired[0]["seek"], seek.as_str());
    let alice_cookie = seat_cookie(addr, &alice, &game).await;
    let mut blue = Client::connect(addr, &game, Some(&alice_cookie)).await;
    let mut red = Client::connect(addr, &game, Some(&bob_cookie)).await;
    assert_eq!(blue.seat.as_deref(), Some("blue"));
    assert_eq!(red.seat.as_deref(), Some("red"));
    assert_eq!(blue.state["players"]["blue"], "alice1");
    assert_eq!(blue.state["players"]["red"], "bob2");
    assert_eq!(blue.state["clock"]["blue_ms"], 300_000);
    blue.send_move("a3a4").await;
    red.wait_for_ply(1).await;

    // The live list shows the game with its players and ratings.
    let games = lobby(addr, &bob).await["games"].clone();
    assert_eq!(games[0]["id"], game.as_str());
    assert_eq!(games[0]["names"]["blue"], "alice1");
    assert!(games[0]["ratings"]["red"].is_i64());
    // Someone else has no seat there.
    let carol = Person::sign_up(addr, "carol3").await;
    let (status, _, _) = carol
        .send(addr, "POST", &format!("/api/lobby/games/{game}/seat"), "")
        .await;
    assert_eq!(status, 403);
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_people_accepting_one_seek_at_once_make_exactly_one_game() {
    let limits = Limits {
        creates_per_minute: 1000,
        requests_per_minute: 10_000,
        signups_per_hour: 100,
        ..Limits::default()
    };
    let config = Config {
        limits,
        ..Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir("lobby-race").join("games.db"),
        )
    };
    let server = start_config(&config).await;
    let addr = server.addr;
    let creator = Person::sign_up(addr, "creator1").await;
    let seek = open_seek(addr, &creator, r#"{"minutes":3,"increment":2}"#).await;
    let mut people = Vec::new();
    for i in 0..24 {
        people.push(Person::sign_up(addr, &format!("racer{}", 100 + i)).await);
    }
    let attempts: Vec<_> = people
        .into_iter()
        .map(|person| {
            let path = format!("/api/seeks/{seek}/accept");
            tokio::spawn(async move { person.send(addr, "POST", &path, "").await })
        })
        .collect();
    let mut won = Vec::new();
    let mut lost = 0;
    for attempt in attempts {
        let (status, _, answer) = attempt.await.unwrap();
        match status {
            201 => won.push(answer["id"].as_str().unwrap().to_string()),
            409 => {
                assert!(
                    answer["error"]
                        .as_str()
                        .unwrap()
                        .starts_with("already taken"),
                    "{answer}"
                );
                lost += 1;
            }
            other => panic!("accept answered {other}: {answer}"),
        }
    }
    assert_eq!(won.len(), 1, "{won:?}");
    assert_eq!(lost, 23);
    let (_, _, lists) = crate::support::http(addr, "GET", "/api/games", "", None).await;
    let lists: Value = serde_json::from_str(&lists).unwrap();
    assert_eq!(
        lists["live"].as_array().unwrap().len(),
        1,
        "one game in all"
    );
    server.kill().await;
}

#[tokio::test]
async fn bad_seeks_and_players_outside_a_rating_range_are_refused() {
    let server = start(temp_dir("lobby-refusals").join("games.db")).await;
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;
    for (body, expected) in [
        (
            r#"{"minutes":3,"rated":true,"rules":"modern"}"#,
            "standard rules",
        ),
        (r#"{"days":4}"#, "days 4"),
        (r#"{"minutes":3,"days":2}"#, "not both"),
        (r#"{}"#, "needs a clock"),
        (
            r#"{"minutes":3,"rating_min":1800,"rating_max":1200}"#,
            "above",
        ),
        (r#"{"minutes":3,"opponent":"nobody"}"#, "no player"),
    ] {
        let (status, _, answer) = alice.send(addr, "POST", "/api/seeks", body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(expected),
            "{body}: {answer}"
        );
    }
    let seek = open_seek(
        addr,
        &alice,
        r#"{"minutes":3,"rated":true,"rating_min":2000}"#,
    )
    .await;
    let (status, _, answer) = bob
        .send(addr, "POST", &format!("/api/seeks/{seek}/accept"), "")
        .await;
    assert_eq!(status, 403, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("2000"));
    assert_eq!(seek_ids(&lobby(addr, &bob).await), [seek], "still open");
    server.kill().await;
}

#[tokio::test]
async fn a_direct_challenge_is_seen_only_by_its_target_who_may_decline() {
    let server = start(temp_dir("lobby-challenge").join("games.db")).await;
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;
    let carol = Person::sign_up(addr, "carol3").await;
    let challenge = open_seek(addr, &alice, r#"{"days":3,"opponent":"bob2"}"#).await;
    let for_bob = lobby(addr, &bob).await;
    assert_eq!(seek_ids(&for_bob), [challenge.as_str()]);
    assert_eq!(for_bob["seeks"][0]["for_me"], true);
    assert!(seek_ids(&lobby(addr, &carol).await).is_empty());
    let (status, _, _) = carol
        .send(addr, "POST", &format!("/api/seeks/{challenge}/accept"), "")
        .await;
    assert_eq!(status, 404, "not meant for Carol");
    let (status, _, _) = carol
        .send(addr, "POST", &format!("/api/seeks/{challenge}/decline"), "")
        .await;
    assert_eq!(status, 404);
    let (status, _, _) = bob
        .send(addr, "POST", &format!("/api/seeks/{challenge}/decline"), "")
        .await;
    assert_eq!(status, 204);
    assert!(seek_ids(&lobby(addr, &bob).await).is_empty());
    let mine = lobby(addr, &alice).await;
    assert_eq!(mine["seeks"][0]["declined"], true, "Alice sees the refusal");

    // A second challenge, accepted: a correspondence game between the two.
    let again = open_seek(addr, &alice, r#"{"days":3,"opponent":"bob2"}"#).await;
    let (game, _) = accept(addr, &bob, &again).await;
    let (_, _, state) = bob
        .send(addr, "GET", &format!("/api/games/{game}"), "")
        .await;
    assert_eq!(state["correspondence"]["days_per_move"], 3);
    assert!(state["clock"].is_null());
    server.kill().await;
}

#[tokio::test]
async fn quick_pairing_pairs_two_people_at_one_time_control() {
    let server = start(temp_dir("lobby-quick").join("games.db")).await;
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;
    let quick = r#"{"minutes":3,"increment":2}"#;
    let (status, _, answer) = alice.send(addr, "POST", "/api/lobby/quick", quick).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer["waiting"]["rated"].as_bool().unwrap());
    let (status, headers, answer) = bob.send(addr, "POST", "/api/lobby/quick", quick).await;
    assert_eq!(status, 201, "{answer}");
    let game = answer["id"].as_str().unwrap().to_string();
    let bob_cookie = seat_cookie_of(&headers);
    assert_eq!(
        lobby(addr, &alice).await["paired"][0]["game"],
        game.as_str()
    );
    let alice_cookie = seat_cookie(addr, &alice, &game).await;
    let a = Client::connect(addr, &game, Some(&alice_cookie)).await;
    let b = Client::connect(addr, &game, Some(&bob_cookie)).await;
    let mut seats = [a.seat.unwrap(), b.seat.unwrap()];
    seats.sort();
    assert_eq!(seats, ["blue", "red"]);
    assert_eq!(a.state["clock"]["increment_ms"], 2000);
    let (status, _, _) = alice
        .send(
            addr,
            "POST",
            "/api/lobby/quick",
            r#"{"minutes":4,"increment":0}"#,
        )
        .await;
    assert_eq!(status, 400, "not an offered time control");
    server.kill().await;
}

/// Signs a browser context up through the accounts API (the page's own script, so the CSRF token is sent).
pub async fn sign_up_in_browser(page: &chromiumoxide::Page, name: &str) {
    let js = format!(
        "import('/static/api.js').then((api) => api.postJson('/api/signup', {{ name: '{name}', password: 'correct horse {name}' }})).then(() => true)"
    );
    let done: bool = crate::support::browser::eval(page, &js).await;
    assert!(done);
}

/// A seek opened on the lobby page by Alice and accepted there by Bob, each signed up in their own browser
/// context on the server at `base` (`http://ADDR`); `form` is a script setting the seek form's fields. Answers
/// both pages once they are in the game with their seats, and the seek as Bob's lobby listed it.
pub async fn seek_accepted_in_browser(
    chrome: &crate::support::browser::Chrome,
    base: &str,
    form: &str,
) -> (chromiumoxide::Page, chromiumoxide::Page, String) {
    use crate::support::browser::{click, eval, wait_until};
    let (home, lobby_url) = (format!("{base}/"), format!("{base}/lobby"));
    let alice = chrome.person(&home).await;
    sign_up_in_browser(&alice, "alice").await;
    alice.goto(lobby_url.as_str()).await.unwrap();
    wait_until(
        &alice,
        "!document.getElementById('create-card').hidden && document.getElementById('days').options.length > 0",
    )
    .await;
    alice.evaluate(form).await.unwrap();
    click(&alice, "#create-seek").await;
    wait_until(&alice, "document.querySelector('#seeks li[data-seek]')").await;

    let bob = chrome.person(&home).await;
    sign_up_in_browser(&bob, "bob").await;
    bob.goto(lobby_url.as_str()).await.unwrap();
    wait_until(
        &bob,
        "document.querySelector('#seeks li[data-seek] button.primary')",
    )
    .await;
    let listed: String = eval(
        &bob,
        "document.querySelector('#seeks li[data-seek]').textContent",
    )
    .await;
    click(&bob, "#seeks li[data-seek] button.primary").await;
    let seated = "location.pathname.startsWith('/game/') && window.jungle && window.jungle.state && window.jungle.seat";
    wait_until(&bob, seated).await;
    wait_until(&alice, seated).await;
    (alice, bob, listed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_the_browser_one_opens_a_seek_the_other_accepts_and_both_land_in_the_game() {
    use crate::support::browser::{Chrome, eval, wait_until};
    let server = start(temp_dir("e2e-lobby").join("games.db")).await;
    let chrome = Chrome::launch("lobby", 1200, 900).await;
    let (alice, bob, listed) = seek_accepted_in_browser(
        &chrome,
        &format!("http://{}", server.addr),
        "document.getElementById('clock').value = '5+3'; document.getElementById('rated').value = 'false'; document.getElementById('colour').value = 'blue';",
    )
    .await;
    assert!(
        listed.contains("alice") && listed.contains("5+3"),
        "{listed}"
    );
    // The colour is said to be the creator's (Bob, accepting, plays the other one).
    assert!(listed.contains("· alice plays Blue"), "{listed}");
    // Both pages go to the same game, each with its seat.
    let path = |page| async move { eval::<String>(page, "location.pathname").await };
    assert_eq!(path(&alice).await, path(&bob).await);
    assert_eq!(eval::<String>(&alice, "window.jungle.seat").await, "blue");
    assert_eq!(eval::<String>(&bob, "window.jungle.seat").await, "red");
    wait_until(&alice, "document.body.dataset.myturn === 'true'").await;
    chrome.close().await;
    server.kill().await;
}

#[tokio::test]
async fn a_rated_seek_makes_a_rated_game_whose_end_moves_both_ratings_and_a_casual_one_does_not() {
    let server = start(temp_dir("lobby-rated").join("games.db")).await;
    let addr = server.addr;
    let alice = Person::sign_up(addr, "alice1").await;
    let bob = Person::sign_up(addr, "bob2").await;

    let casual = open_seek(addr, &alice, r#"{"minutes":5,"increment":3}"#).await;
    let (casual_game, _) = accept(addr, &bob, &casual).await;
    let (status, _, ratings) = bob
        .send(
            addr,
            "GET",
            &format!("/api/games/{casual_game}/ratings"),
            "",
        )
        .await;
    assert_eq!((status, ratings), (200, Value::Null));

    let rated = open_seek(
        addr,
        &alice,
        r#"{"minutes":5,"increment":3,"rated":true,"colour":"blue"}"#,
    )
    .await;
    let (game, bob_cookie) = accept(addr, &bob, &rated).await;
    let path = format!("/api/games/{game}/ratings");
    let (status, _, ratings) = bob.send(addr, "GET", &path, "").await;
    assert_eq!(status, 200, "{ratings}");
    assert_eq!(ratings["category"], "blitz");
    assert_eq!(ratings["blue"]["before"], 1500.0);
    assert_eq!(ratings["red"]["after"], Value::Null, "not ended yet");

    let mut red = Client::connect(addr, &game, Some(&bob_cookie)).await;
    assert_eq!(red.seat.as_deref(), Some("red"));
    red.send_text(r#"{"type":"resign"}"#).await;
    let state = red.wait_for(|state| !state["outcome"].is_null()).await;
    assert_eq!(state["outcome"]["reason"], "resignation", "{state}");
    let (_, _, ratings) = bob.send(addr, "GET", &path, "").await;
    let after = |side: &str| {
        ratings[side]["after"]
            .as_f64()
            .expect("rated after the end")
    };
    assert!(after("blue") > 1500.0, "{ratings}");
    assert!(after("red") < 1500.0, "{ratings}");
    server.kill().await;
}
