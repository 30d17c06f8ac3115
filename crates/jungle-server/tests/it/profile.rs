//! Player profiles: the JSON of ratings, history and totals, the game search, the PGN export of every game,
//! hostile names and search parameters, and (in Chromium) the page drawing its rating graph.

use std::sync::Arc;

use jungle_platform::ratings::Category;
use jungle_rules::{BySide, Side};
use jungle_server::{Hub, NewGame};
use serde_json::Value;

use crate::support::browser::{Chrome, eval, wait_until};
use crate::support::{http, start, temp_dir};

/// Ann and Bo (accounts) play `results.len()` rated blitz games, Ann Blue each time: `Some(Side)` the side
/// that resigns, `None` a draw. Returns the accounts' ids and the game ids.
fn play_rated(hub: &Arc<Hub>, results: &[Option<Side>]) -> (i64, i64, Vec<String>) {
    let store = &hub.store;
    let id_of = |name: &str| match store.account_by_name(name).unwrap() {
        Some(account) => account.id,
        None => store.insert_account(name, "x").unwrap().unwrap().id,
    };
    let (ann, bo) = (id_of("Ann"), id_of("Bo"));
    let mut ids = Vec::new();
    for result in results {
        let request = NewGame {
            opponent: "friend".into(),
            side: Some("blue".into()),
            minutes: Some(3.0),
            increment: Some(2),
            ..NewGame::default()
        };
        let (room, _, _) = hub.create(&request, None).unwrap();
        store
            .mark_rated(&room.id, BySide::new(ann, bo), Category::Blitz)
            .unwrap();
        match result {
            Some(side) => room.resign(store, Some(*side)).unwrap(),
            None => {
                room.offer_draw(store, Some(Side::Blue), |_| false).unwrap();
                room.offer_draw(store, Some(Side::Red), |_| false).unwrap();
            }
        }
        ids.push(room.id.clone());
    }
    (ann, bo, ids)
}

async fn get_json(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    let (status, _, body) = http(addr, "GET", path, "", None).await;
    let value = serde_json::from_str(&body).unwrap_or(Value::Null);
    (status, value)
}

#[tokio::test]
async fn a_profile_has_ratings_history_totals_and_searchable_games() {
    let server = start(temp_dir("profile-json").join("games.db")).await;
    let hub = server.state.clone();
    // Ann wins (Red resigns), loses, draws.
    let (_, _, ids) = play_rated(&hub, &[Some(Side::Red), Some(Side::Blue), None]);

    let (status, profile) = get_json(server.addr, "/api/users/ann").await;
    assert_eq!(status, 200, "{profile}");
    assert_eq!(
        profile["name"], "Ann",
        "the name as typed, whatever the path's case"
    );
    assert_eq!(profile["totals"]["games"], 3);
    assert_eq!(profile["totals"]["wins"], 1);
    assert_eq!(profile["totals"]["draws"], 1);
    assert_eq!(profile["totals"]["losses"], 1);
    let ratings = profile["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!(ratings[0]["category"], "blitz");
    assert_eq!(ratings[0]["games"], 3);
    assert!(
        ratings[0]["shown"].as_str().unwrap().ends_with('?'),
        "still provisional after 3 games"
    );
    let history = profile["history"].as_array().unwrap();
    assert_eq!(history.len(), 3);
    assert_eq!(history[0]["game_id"], ids[0].as_str());
    assert_eq!(
        history[2]["rating_after"], ratings[0]["rating"],
        "the last point is the current rating"
    );

    let (_, all) = get_json(server.addr, "/api/users/Ann/games").await;
    let games = all["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["id"], ids[2].as_str(), "most recent first");
    assert_eq!(games[0]["result"], "draw");
    assert_eq!(games[0]["opponent"], "Bo");
    assert_eq!(games[0]["side"], "blue");
    assert_eq!(games[0]["rating_category"], "blitz");
    assert_eq!(all["more"], false);

    let (_, wins) = get_json(server.addr, "/api/users/ann/games?result=win").await;
    let wins = wins["games"].as_array().unwrap();
    assert_eq!(wins.len(), 1);
    assert_eq!(wins[0]["id"], ids[0].as_str());
    let (_, bo_wins) = get_json(server.addr, "/api/users/bo/games?result=win").await;
    assert_eq!(bo_wins["games"][0]["id"], ids[1].as_str());
    assert_eq!(bo_wins["games"][0]["side"], "red");

    let (_, vs_bo) = get_json(
        server.addr,
        "/api/users/ann/games?opponent=BO&rules=standard",
    )
    .await;
    assert_eq!(vs_bo["games"].as_array().unwrap().len(), 3);
    let (_, modern) = get_json(server.addr, "/api/users/ann/games?rules=modern").await;
    assert!(modern["games"].as_array().unwrap().is_empty());
    let (_, nobody) = get_json(server.addr, "/api/users/ann/games?opponent=nobody").await;
    assert!(nobody["games"].as_array().unwrap().is_empty());
    let (_, page_1) = get_json(server.addr, "/api/users/ann/games?page=1").await;
    assert!(page_1["games"].as_array().unwrap().is_empty());
    server.kill().await;
}

#[tokio::test]
async fn game_lists_are_paged() {
    let server = start(temp_dir("profile-pages").join("games.db")).await;
    let hub = server.state.clone();
    let results = vec![Some(Side::Red); jungle_server::profile::PAGE_SIZE as usize + 3];
    play_rated(&hub, &results);
    let (_, first) = get_json(server.addr, "/api/users/ann/games").await;
    assert_eq!(
        first["games"].as_array().unwrap().len(),
        jungle_server::profile::PAGE_SIZE as usize
    );
    assert_eq!(first["more"], true);
    let (_, second) = get_json(server.addr, "/api/users/ann/games?page=1").await;
    assert_eq!(second["games"].as_array().unwrap().len(), 3);
    assert_eq!(second["more"], false);
    server.kill().await;
}

#[tokio::test]
async fn bad_names_and_search_parameters_are_refused_harmlessly() {
    let server = start(temp_dir("profile-hostile").join("games.db")).await;
    let hub = server.state.clone();
    play_rated(&hub, &[Some(Side::Red)]);
    for path in [
        "/api/users/nobody",
        "/api/users/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/api/users/ann'%20OR%20'1'='1",
        "/api/users/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "/api/users/nobody/games",
        "/api/users/nobody/games.pgn",
    ] {
        let (status, body) = get_json(server.addr, path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body["error"].is_string(), "{path}: {body}");
    }
    let (status, _, page) = http(server.addr, "GET", "/@/%3Cscript%3E", "", None).await;
    assert_eq!(status, 404);
    assert!(!page.contains("<script>"));

    for (query, wanted) in [
        ("result=victory", 400),
        ("page=-1", 400),
        ("page=100000", 400),
        ("rules=nonsense-rule", 400),
        ("colour=red", 400),
        ("opponent=%27%3B%20DROP%20TABLE%20games%3B%20--", 200),
        ("opponent=%3Cimg%20src%3Dx%3E", 200),
    ] {
        let (status, body) = get_json(server.addr, &format!("/api/users/ann/games?{query}")).await;
        assert_eq!(status, wanted, "{query}: {body}");
        if wanted == 200 {
            assert!(body["games"].as_array().unwrap().is_empty(), "{query}");
        }
    }
    // Nothing was harmed: Ann's game is still there.
    let (_, all) = get_json(server.addr, "/api/users/ann/games").await;
    assert_eq!(all["games"].as_array().unwrap().len(), 1);
    server.kill().await;
}

#[tokio::test]
async fn every_game_of_a_player_exports_as_one_pgn() {
    let server = start(temp_dir("profile-pgn").join("games.db")).await;
    let hub = server.state.clone();
    // More games than one step of the stream writes, so the export crosses its pages.
    let results: Vec<Option<Side>> = (0..55)
        .map(|i| [Some(Side::Red), Some(Side::Blue), None][i % 3])
        .collect();
    play_rated(&hub, &results);
    let (status, headers, body) =
        http(server.addr, "GET", "/api/users/ann/games.pgn", "", None).await;
    assert_eq!(status, 200);
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert!(header("content-type").starts_with("application/x-chess-pgn"));
    assert!(header("content-disposition").contains("jungle-Ann.pgn"));
    let games = jungle_rules::pgn::read_games(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(games.len(), 55, "every game once");
    assert_eq!(body.matches("[Result \"1-0\"]").count(), 19);
    assert_eq!(body.matches("[Result \"0-1\"]").count(), 18);
    assert_eq!(body.matches("[Result \"1/2-1/2\"]").count(), 18);
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_page_draws_the_rating_graph() {
    let server = start(temp_dir("profile-browser").join("games.db")).await;
    let hub = server.state.clone();
    let (_, _, ids) = play_rated(
        &hub,
        &[Some(Side::Red), Some(Side::Red), Some(Side::Blue), None],
    );
    let chrome = Chrome::launch("profile", 1200, 900).await;
    let page = chrome
        .person(&format!("http://{}/@/ann", server.addr))
        .await;
    wait_until(
        &page,
        "document.querySelectorAll('#rating-graph circle.point').length === 4",
    )
    .await;
    let plotted: Vec<f64> = eval(
        &page,
        "[...document.querySelectorAll('#rating-graph circle.point')].map((c) => Number(c.dataset.rating))",
    )
    .await;
    let history = hub
        .store
        .rating_history(hub.store.account_by_name("ann").unwrap().unwrap().id)
        .unwrap();
    let expected: Vec<f64> = history.iter().map(|p| p.rating_after.round()).collect();
    assert_eq!(plotted, expected);
    // Real axes: rating ticks and date ticks (the four games were played on one day: that day, once).
    let ticks: (u32, Vec<String>) = eval(
        &page,
        "[document.querySelectorAll('#rating-graph .y-tick').length, [...document.querySelectorAll('#rating-graph .x-tick')].map((t) => t.textContent)]",
    )
    .await;
    assert!(ticks.0 >= 2 && ticks.1.len() == 1, "{ticks:?}");
    assert_eq!(
        eval::<String>(&page, "document.getElementById('totals').textContent").await,
        "4 games: 2 won, 1 drawn, 1 lost"
    );
    wait_until(
        &page,
        "document.querySelectorAll('#games li[data-game]').length === 4",
    )
    .await;
    let name: String = eval(&page, "document.getElementById('player-name').textContent").await;
    assert_eq!(name, "Ann");
    let row: String = eval(
        &page,
        "document.querySelector('#ratings tbody tr').textContent",
    )
    .await;
    assert!(row.contains("Blitz"), "{row}");

    // A rated game's page shows how the ratings moved; the home page shows the engine levels' ratings.
    let game = chrome
        .person(&format!("http://{}/game/{}", server.addr, ids[0]))
        .await;
    wait_until(
        &game,
        "!document.getElementById('banner-ratings').hidden && document.getElementById('banner-ratings').textContent.includes('→')",
    )
    .await;
    let seats: String = eval(
        &game,
        "[...document.querySelectorAll('.player .rating')].map((e) => e.textContent).join(' ')",
    )
    .await;
    assert!(
        seats.contains('?'),
        "provisional ratings beside the names: {seats}"
    );
    let home = chrome.person(&format!("http://{}/", server.addr)).await;
    wait_until(
        &home,
        "document.querySelector('#level option[value=\"8\"]').textContent.includes('2200')",
    )
    .await;
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_rated_game_is_one_game_with_its_day_written_once() {
    let server = start(temp_dir("profile-one").join("games.db")).await;
    let hub = server.state.clone();
    play_rated(&hub, &[Some(Side::Red)]);
    let chrome = Chrome::launch("profile-one", 1200, 900).await;
    let page = chrome
        .person(&format!("http://{}/@/ann", server.addr))
        .await;
    wait_until(
        &page,
        "document.querySelectorAll('#rating-graph circle.point').length === 1",
    )
    .await;
    assert_eq!(
        eval::<String>(&page, "document.getElementById('totals').textContent").await,
        "1 game: 1 won, 0 drawn, 0 lost"
    );
    let days: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#rating-graph .x-tick')].map((t) => t.textContent)",
    )
    .await;
    let played: String = eval(
        &page,
        "fetch('/api/users/ann').then((r) => r.json()).then((p) => new Date(p.history[0].at).toISOString().slice(0, 10))",
    )
    .await;
    assert_eq!(days, [played]);
    // Chinese has one form for any number.
    page.evaluate("localStorage.setItem('jungle-lang', 'zh'); location.reload()")
        .await
        .unwrap();
    wait_until(
        &page,
        "document.getElementById('totals').textContent.startsWith('共 1 局：')",
    )
    .await;
    chrome.close().await;
    server.kill().await;
}
