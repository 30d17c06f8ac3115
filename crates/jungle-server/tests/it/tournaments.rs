//! Tournaments over HTTP on real servers: creating (and the refusals for bad input, guests, joining twice or
//! too late), a Swiss event paired round by round as its games end, standings with tie-breaks, the link from
//! a game to its tournament, and a cluster of three nodes on one database where the node that paired a round
//! is killed mid-event and the other two finish it, each round paired once, no game and no score lost.

use std::net::SocketAddr;
use std::time::Duration;

use jungle_server::{Config, Limits};
use serde_json::Value;

use crate::lobby::{Person, seat_cookie};
use crate::support::{Client, PATIENCE, TestServer, start_config, temp_dir};

pub fn config(db: std::path::PathBuf) -> Config {
    let limits = Limits {
        creates_per_minute: 1000,
        requests_per_minute: 10_000,
        signups_per_hour: 100,
        min_arena: Duration::from_secs(1),
        ..Limits::default()
    };
    Config {
        limits,
        ..Config::new("127.0.0.1:0".parse().unwrap(), db)
    }
}

/// A tournament as `person` sees it.
pub async fn tournament(addr: SocketAddr, person: &Person, id: &str) -> Value {
    let (status, _, answer) = person
        .send(addr, "GET", &format!("/api/tournaments/{id}"), "")
        .await;
    assert_eq!(status, 200, "{answer}");
    answer
}

/// Asks for the tournament until `done` holds (the sweep runs every second; nothing is timed).
pub async fn wait_until(
    addr: SocketAddr,
    person: &Person,
    id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let answer = tournament(addr, person, id).await;
        if done(&answer) {
            return answer;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the tournament never got there: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Moves a tournament's start to the epoch, behind the server's back: its start is due, and an arena's time is up.
pub fn start_now(server: &TestServer, id: &str) {
    server
        .state
        .store
        .execute_raw(&format!(
            "UPDATE tournaments SET starts_at = 0 WHERE id = '{id}'"
        ))
        .unwrap();
}

/// The game `person` should be playing in the tournament, once paired.
async fn my_game(addr: SocketAddr, person: &Person, id: &str) -> String {
    let answer = wait_until(addr, person, id, |t| t["me"]["game"].is_string()).await;
    answer["me"]["game"].as_str().unwrap().to_string()
}

/// `loser` resigns their game over its websocket.
pub async fn resign(addr: SocketAddr, loser: &Person, game: &str) {
    let cookie = seat_cookie(addr, loser, game).await;
    let mut client = Client::connect(addr, game, Some(&cookie)).await;
    assert!(client.seat.is_some(), "the loser has a seat");
    client.send_text(r#"{"type":"resign"}"#).await;
    client.wait_for(|state| !state["outcome"].is_null()).await;
}

pub async fn create(addr: SocketAddr, person: &Person, body: &str) -> String {
    let (status, _, answer) = person.send(addr, "POST", "/api/tournaments", body).await;
    assert_eq!(status, 201, "{answer}");
    answer["tournament"]["id"].as_str().unwrap().to_string()
}

pub const SWISS: &str = r#"{"name":"Friday Swiss","minutes":3,"increment":2,"kind":"swiss","rounds":3,"starts_in_minutes":60,"rated":true}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_reasons_never_a_crash() {
    let server = start_config(&config(temp_dir("tour-errors").join("games.db"))).await;
    let addr = server.addr;
    let ann = Person::sign_up(addr, "tourann").await;
    let bob = Person::sign_up(addr, "tourbob").await;
    let guest = crate::support::http(addr, "POST", "/api/tournaments", SWISS, None).await;
    assert!(guest.0 == 401 || guest.0 == 403, "{guest:?}");
    for (body, words) in [
        (
            r#"{"name":"x","minutes":3,"kind":"swiss","rounds":0}"#,
            "rounds 0",
        ),
        (
            r#"{"name":"x","minutes":-3,"kind":"swiss","rounds":3}"#,
            "minutes",
        ),
        (
            r#"{"name":"x","minutes":3,"kind":"cup","rounds":3}"#,
            "swiss or arena",
        ),
        (r#"{"name":"x","minutes":3,"kind":"arena"}"#, "length"),
        (
            r#"{"name":"x","minutes":3,"kind":"swiss","rounds":3,"preset":"x"}"#,
            "unknown rules preset",
        ),
        (
            r#"{"name":"x","minutes":3,"kind":"swiss","rounds":3,"starts_at":5}"#,
            "passed",
        ),
        (r#"{"name":"x","minutes":3}"#, "kind"),
        (r#"{"nom":"x"}"#, "unknown field"),
        ("not json", ""),
    ] {
        let (status, _, answer) = ann.send(addr, "POST", "/api/tournaments", body).await;
        assert!((400..500).contains(&status), "{body}: {status} {answer}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(words), "{body}: {answer}");
    }
    let long = format!(
        r#"{{"name":"{}","minutes":3,"kind":"swiss","rounds":3}}"#,
        "n".repeat(61)
    );
    let (status, _, answer) = ann.send(addr, "POST", "/api/tournaments", &long).await;
    assert_eq!(status, 400, "{answer}");

    let id = create(addr, &ann, SWISS).await;
    let (status, _, answer) = ann
        .send(addr, "POST", &format!("/api/tournaments/{id}/join"), "")
        .await;
    assert_eq!(status, 409, "the creator is in already: {answer}");
    let (status, _, answer) = bob
        .send(addr, "POST", "/api/tournaments/nope/join", "")
        .await;
    assert_eq!(status, 404, "{answer}");
    let (status, _, _) = bob.send(addr, "GET", "/api/tournaments/nope", "").await;
    assert_eq!(status, 404);
    let (status, _, answer) = bob
        .send(addr, "POST", &format!("/api/tournaments/{id}/leave"), "")
        .await;
    assert_eq!(status, 409, "{answer}");
    for _ in 0..2 {
        create(addr, &ann, SWISS).await;
    }
    let (status, _, answer) = ann.send(addr, "POST", "/api/tournaments", SWISS).await;
    assert_eq!(status, 429, "three open at once at most: {answer}");
    let (status, _, answer) = bob
        .send(addr, "GET", "/api/tournaments/of-game/abc", "")
        .await;
    assert_eq!(status, 404, "{answer}");
    let (status, _, list) = bob.send(addr, "GET", "/api/tournaments", "").await;
    assert_eq!(status, 200);
    assert_eq!(list["upcoming"].as_array().unwrap().len(), 3, "{list}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_event_is_paired_as_its_games_end_and_finishes_with_a_podium() {
    let server = start_config(&config(temp_dir("tour-swiss").join("games.db"))).await;
    let addr = server.addr;
    let people = [
        Person::sign_up(addr, "swissann").await,
        Person::sign_up(addr, "swissbob").await,
        Person::sign_up(addr, "swisscid").await,
    ];
    let id = create(addr, &people[0], SWISS).await;
    for person in &people[1..] {
        let (status, _, answer) = person
            .send(addr, "POST", &format!("/api/tournaments/{id}/join"), "")
            .await;
        assert_eq!(status, 204, "{answer}");
    }
    start_now(&server, &id);
    for round in 1..=3 {
        let t = wait_until(addr, &people[0], &id, |t| {
            t["tournament"]["current_round"] == round
        })
        .await;
        let game = t["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["playing"] == true)
            .unwrap_or_else(|| panic!("round {round} has a game: {t}"));
        let game_id = game["id"].as_str().unwrap().to_string();
        // The game's page links back to its tournament.
        let (status, _, link) = people[0]
            .send(
                addr,
                "GET",
                &format!("/api/tournaments/of-game/{game_id}"),
                "",
            )
            .await;
        assert_eq!(status, 200, "{link}");
        assert_eq!(
            (link["id"].as_str(), link["round"].as_u64()),
            (Some(id.as_str()), Some(round))
        );
        // Red resigns: Blue scores.
        let red = game["red"].as_str().unwrap();
        let loser = people
            .iter()
            .zip(["swissann", "swissbob", "swisscid"])
            .find(|(_, name)| *name == red)
            .map(|(p, _)| p)
            .unwrap();
        assert_eq!(my_game(addr, loser, &id).await, game_id);
        resign(addr, loser, &game_id).await;
    }
    let done = wait_until(addr, &people[1], &id, |t| {
        t["tournament"]["status"] == "finished"
    })
    .await;
    let standings = done["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    // Three games won and three byes (a win each): 6 points shared out.
    let points: f64 = standings
        .iter()
        .map(|l| {
            let score = l["score"].as_str().unwrap();
            let half = if score.ends_with('½') { 0.5 } else { 0.0 };
            score.trim_end_matches('½').parse::<f64>().unwrap_or(0.0) + half
        })
        .sum();
    assert_eq!(points, 6.0, "{done}");
    assert!(
        standings
            .iter()
            .all(|l| l["buchholz"].is_string() && l["sonneborn_berger"].is_string())
    );
    assert_eq!(done["podium"].as_array().unwrap().len(), 3, "{done}");
    assert_eq!(done["games"].as_array().unwrap().len(), 3);
    let (status, _, answer) = people[2]
        .send(addr, "POST", &format!("/api/tournaments/{id}/join"), "")
        .await;
    assert_eq!(status, 409, "joining a finished one: {answer}");
    // Rated like a lobby game: both players' ratings moved with the result.
    let first = done["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["round"] == 1)
        .unwrap();
    let path = format!("/api/games/{}/ratings", first["id"].as_str().unwrap());
    let (status, _, ratings) = people[0].send(addr, "GET", &path, "").await;
    assert_eq!(status, 200, "{ratings}");
    assert_eq!(ratings["category"], "blitz");
    let after = |side: &str| {
        ratings[side]["after"]
            .as_f64()
            .expect("rated after the end")
    };
    assert!(after("blue") > 1500.0 && after("red") < 1500.0, "{ratings}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_pairs_at_once_and_ends_on_time() {
    let server = start_config(&config(temp_dir("tour-arena").join("games.db"))).await;
    let addr = server.addr;
    let ann = Person::sign_up(addr, "arenaann").await;
    let bob = Person::sign_up(addr, "arenabob").await;
    let id = create(
        addr,
        &ann,
        r#"{"name":"Quick arena","minutes":1,"kind":"arena","arena_minutes":30,"starts_in_minutes":0}"#,
    )
    .await;
    let (status, _, _) = bob
        .send(addr, "POST", &format!("/api/tournaments/{id}/join"), "")
        .await;
    assert_eq!(status, 204);
    // Paired the moment the second player joined.
    let first = my_game(addr, &bob, &id).await;
    assert_eq!(my_game(addr, &ann, &id).await, first);
    resign(addr, &bob, &first).await;
    // Both free again: paired again at once (no one else to meet).
    let second = wait_until(addr, &ann, &id, |t| {
        t["me"]["game"].is_string() && t["me"]["game"] != first.as_str()
    })
    .await;
    let second = second["me"]["game"].as_str().unwrap().to_string();
    // Bob leaves: after this game he is not paired.
    let (status, _, _) = bob
        .send(addr, "POST", &format!("/api/tournaments/{id}/leave"), "")
        .await;
    assert_eq!(status, 204);
    // The arena's time is up while the second game is played (its start moved to long ago): it still counts,
    // nothing new is paired.
    start_now(&server, &id);
    resign(addr, &bob, &second).await;
    let done = wait_until(addr, &ann, &id, |t| t["tournament"]["status"] == "finished").await;
    assert_eq!(done["games"].as_array().unwrap().len(), 2, "{done}");
    let top = &done["podium"][0];
    assert_eq!(top["name"], "arenaann");
    assert_eq!(top["score"], "4", "two wins: {done}");
}

/// Who of `people` (with their names) plays Red in `game` (a game of the tournament's answer).
pub fn red_of<'a>(people: &'a [(Person, &str)], game: &Value) -> &'a Person {
    let red = game["red"].as_str().unwrap();
    &people.iter().find(|(_, name)| *name == red).unwrap().0
}

/// The game being played in round `round`, once it is paired.
pub async fn round_game(addr: SocketAddr, person: &Person, id: &str, round: u64) -> Value {
    let t = wait_until(addr, person, id, |t| {
        t["tournament"]["current_round"] == round
            && t["games"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["round"] == round)
    })
    .await;
    t["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["round"] == round)
        .unwrap()
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_dying_mid_event_loses_no_game_and_no_score() {
    use crate::support::IsolatedServer;
    use crate::support::nats::broker_url;
    use jungle_server::ClusterConfig;
    use jungle_server::store::scratch::{ScratchSchema, test_postgres_url};

    let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
    let db = std::path::PathBuf::from(schema.url());
    let node_config = || Config {
        engine_threads: 1,
        cluster: Some(ClusterConfig::new(broker_url())),
        ..config(db.clone())
    };
    // Three nodes: after A dies, B and C both sweep, so each round must still be paired once.
    let a = IsolatedServer::start_config(&node_config());
    let b = start_config(&node_config()).await;
    let c = start_config(&node_config()).await;
    let people = [
        (Person::sign_up(b.addr, "nodeann").await, "nodeann"),
        (Person::sign_up(b.addr, "nodebob").await, "nodebob"),
        (Person::sign_up(b.addr, "nodecid").await, "nodecid"),
    ];
    // Created and joined through node A, which also plays the first round.
    let id = create(a.addr, &people[0].0, SWISS).await;
    for (person, _) in &people[1..] {
        let (status, _, answer) = person
            .send(a.addr, "POST", &format!("/api/tournaments/{id}/join"), "")
            .await;
        assert_eq!(status, 204, "{answer}");
    }
    start_now(&b, &id);
    let first = round_game(a.addr, &people[0].0, &id, 1).await;
    let first_id = first["id"].as_str().unwrap().to_string();
    resign(a.addr, red_of(&people, &first), &first_id).await;
    // Node A dies right after the game's end: it paired round 2 before, or node B's sweep does it now.
    a.kill();
    for (round, node) in [(2, &b), (3, &c)] {
        let game = round_game(node.addr, &people[0].0, &id, round).await;
        resign(
            node.addr,
            red_of(&people, &game),
            game["id"].as_str().unwrap(),
        )
        .await;
    }
    let done = wait_until(b.addr, &people[1].0, &id, |t| {
        t["tournament"]["status"] == "finished"
    })
    .await;
    let games = done["games"].as_array().unwrap();
    let mut rounds: Vec<u64> = games.iter().map(|g| g["round"].as_u64().unwrap()).collect();
    rounds.sort_unstable();
    assert_eq!(
        rounds,
        [1, 2, 3],
        "one game a round, none lost and none twice: {done}"
    );
    assert!(games.iter().all(|g| g["result"] == "1-0"), "{done}");
    assert!(
        games.iter().any(|g| g["id"] == first_id.as_str()),
        "node A's game is kept"
    );
    let points: f64 = done["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["score"].as_str().unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(points, 6.0, "three wins and three byes: {done}");
    b.kill().await;
    c.kill().await;
}
