//! The opening explorer (`GET /api/explorer`, docs/server.md "Opening explorer"): games played to their end
//! through the API show up with their counts and scores, an aborted one never does, bad requests get a JSON
//! error; the engine self-play source answers the shipped collection's counts; and on the replay page the
//! panel lists the moves, a click goes deeper and the source can be chosen.

use std::collections::{BTreeMap, BTreeSet};

use jungle_platform::selfplay_openings::{Collection, unpack};
use jungle_platform::store::EXPLORER_PLIES;
use jungle_rules::fen::to_fen;
use jungle_rules::{Game, Position, Side};
use serde_json::Value;

use crate::support::browser::{Chrome, click, eval, wait_until};
use crate::support::{Client, TestServer, create, http, start, temp_dir, visit};

/// Plays a friend game through the API: `moves` from the start in turn, then `ending` (`resign` by the side
/// to move, `draw` agreed by both, `abort` by Blue).
async fn play(server: &TestServer, moves: &[&str], ending: &str) -> String {
    let (id, blue_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red_cookie = visit(server.addr, &id).await.expect("a free seat");
    let mut blue = Client::connect(server.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    for (ply, mv) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut blue } else { &mut red };
        mover.wait_for_ply(ply as u64).await;
        mover.send_move(mv).await;
        mover.wait_for_ply(ply as u64 + 1).await;
    }
    let (to_move, other) = if moves.len().is_multiple_of(2) {
        (&mut blue, &mut red)
    } else {
        (&mut red, &mut blue)
    };
    match ending {
        "resign" => to_move.send_text(r#"{"type":"resign"}"#).await,
        "draw" => {
            to_move.send_text(r#"{"type":"offer_draw"}"#).await;
            other.wait_for(|s| !s["draw_offer"].is_null()).await;
            other.send_text(r#"{"type":"offer_draw"}"#).await;
        }
        _ => blue.send_text(r#"{"type":"abort"}"#).await,
    }
    let state = blue.wait_for(|s| !s["outcome"].is_null()).await;
    assert!(!state["outcome"].is_null());
    id
}

async fn explore(server: &TestServer, query: &str) -> (u16, Value) {
    let (status, _, body) = http(
        server.addr,
        "GET",
        &format!("/api/explorer?{query}"),
        "",
        None,
    )
    .await;
    (
        status,
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")),
    )
}

/// (move, games, blue %, draw %, red %) of each listed move.
fn listed(answer: &Value) -> Vec<(String, u64, f64, f64, f64)> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
                m["blue_percent"].as_f64().unwrap(),
                m["draw_percent"].as_f64().unwrap(),
                m["red_percent"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn scored(mv: &str, games: u64, blue: f64, draw: f64, red: f64) -> (String, u64, f64, f64, f64) {
    (mv.to_string(), games, blue, draw, red)
}

#[tokio::test]
async fn games_played_to_their_end_show_their_moves_counts_and_scores() {
    let server = start(temp_dir("explorer-api").join("games.db")).await;
    // The side to move resigns: Blue after two moves each (Red wins), Red after three moves (Blue wins); a
    // draw agreed; an aborted game.
    play(&server, &["a3a4", "g7g6", "a4a5", "g6g5"], "resign").await;
    play(&server, &["a3a4", "a7a6", "a4a5"], "resign").await;
    play(&server, &["e3d3", "g7g6"], "draw").await;
    play(&server, &["g3g4"], "abort").await;

    let (status, start) = explore(&server, "rules=standard").await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(
        listed(&start),
        [
            scored("a3a4", 2, 50.0, 0.0, 50.0),
            scored("e3d3", 1, 0.0, 100.0, 0.0)
        ],
        "the aborted game's g3g4 is not there"
    );
    assert_eq!(start["games"], 3);
    assert_eq!(
        start["moves"][0]["rating"],
        Value::Null,
        "casual games have no rating"
    );
    let (_, after) = explore(&server, "moves=a3a4").await;
    assert_eq!(
        listed(&after),
        [
            scored("a7a6", 1, 100.0, 0.0, 0.0),
            scored("g7g6", 1, 0.0, 0.0, 100.0)
        ]
    );
    // The same position by its FEN, and its moves' positions for going deeper.
    let (_, by_fen) = explore(
        &server,
        &format!(
            "fen={}",
            start["moves"][0]["fen_after"]
                .as_str()
                .unwrap()
                .replace(' ', "+")
        ),
    )
    .await;
    assert_eq!(listed(&by_fen), listed(&after));
    let (_, deeper) = explore(&server, "moves=a3a4,g7g6,a4a5").await;
    assert_eq!(listed(&deeper), [scored("g6g5", 1, 0.0, 0.0, 100.0)]);
    let (_, unplayed) = explore(&server, "moves=a3a4,g7g6,a4a5,g6g5").await;
    assert_eq!(listed(&unplayed), []);
    let (_, modern) = explore(&server, "rules=modern").await;
    assert_eq!(listed(&modern), [], "other rules, other games");
    server.kill().await;
}

#[tokio::test]
async fn bad_requests_are_answered_with_a_json_error() {
    let server = start(temp_dir("explorer-bad").join("games.db")).await;
    let too_many = vec!["a3a4"; 301].join(",");
    for (query, says) in [
        ("rules=tiger-swims", "rules"),
        ("moves=a3a5", "move 1"),
        ("moves=a3a4,zz", "move 2"),
        ("fen=nonsense", "fen"),
        ("moves=a3a4&fen=x", "not both"),
        (&format!("moves={too_many}") as &str, "at most 300"),
        ("colour=blue", "unknown field"),
    ] {
        let (status, answer) = explore(&server, query).await;
        assert_eq!(status, 400, "{query}: {answer}");
        let error = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{query}: {answer}"));
        assert!(error.contains(says), "{query}: {error}");
    }
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_page_lists_the_moves_played_and_a_click_goes_deeper() {
    let server = start(temp_dir("explorer-browser").join("games.db")).await;
    play(&server, &["a3a4", "g7g6", "a4a5", "g6g5"], "resign").await;
    let id = play(&server, &["a3a4", "a7a6", "a4a5"], "resign").await;
    let chrome = Chrome::launch("explorer", 1200, 900).await;
    let page = chrome
        .person(&format!("http://{}/replay/{id}", server.addr))
        .await;
    // The page opens at the game's end; at its start the panel lists a3a4, played in both games.
    wait_until(&page, "window.jungle.game !== null").await;
    click(&page, "#first").await;
    let row = "#opening-explorer tr[data-move='a3a4']";
    wait_until(
        &page,
        &format!("document.querySelector(\"{row}\") !== null"),
    )
    .await;
    assert_eq!(
        eval::<String>(
            &page,
            &format!("document.querySelector(\"{row} .explorer-games\").textContent")
        )
        .await,
        "2"
    );
    // A click plays it on the board and lists what was played after it.
    click(&page, row).await;
    wait_until(
        &page,
        "document.querySelector(\"#opening-explorer tr[data-move='g7g6']\") !== null \
         && document.querySelector(\"#opening-explorer tr[data-move='a7a6']\") !== null",
    )
    .await;
    let shown: String = eval(
        &page,
        "document.getElementById('opening-explorer').dataset.fen",
    )
    .await;
    let after_a3a4: String = eval(&page, "window.jungle.game.fens[1]").await;
    assert_eq!(shown, after_a3a4);
    // The board shows it: Blue's Elephant has left a3 for a4 (the game's first move is a3a4 too, but the
    // page was at the start when the move was clicked).
    let piece_on = |sq: &str| {
        format!("document.querySelector(\"#board [data-square='{sq}']\").dataset.piece || ''")
    };
    assert_eq!(eval::<String>(&page, &piece_on("a3")).await, "");
    assert_ne!(eval::<String>(&page, &piece_on("a4")).await, "");
    // Deeper again, then back to the game's own position.
    click(&page, "#opening-explorer tr[data-move='g7g6']").await;
    wait_until(
        &page,
        "document.querySelector(\"#opening-explorer tr[data-move='a4a5']\") !== null",
    )
    .await;
    click(&page, "#opening-explorer .explorer-line button").await;
    wait_until(
        &page,
        "document.querySelector(\"#opening-explorer tr[data-move='a3a4']\") !== null",
    )
    .await;
    assert_ne!(eval::<String>(&page, &piece_on("a3")).await, "");

    // The engine's self-play collection, chosen in the panel: its moves from the same position, as the API
    // lists them, and the choice is kept for the next page.
    let (_, selfplay) = explore(&server, "source=selfplay").await;
    let expected: Vec<String> = listed(&selfplay).into_iter().map(|m| m.0).collect();
    page.evaluate(
        "(() => { const select = document.querySelector('#opening-explorer .explorer-source'); \
         select.value = 'selfplay'; select.dispatchEvent(new Event('change')); })()",
    )
    .await
    .unwrap();
    wait_until(
        &page,
        "document.getElementById('opening-explorer').dataset.source === 'selfplay' \
         && document.getElementById('opening-explorer').dataset.state === 'ready'",
    )
    .await;
    let shown: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#opening-explorer tbody tr')].map((tr) => tr.dataset.move)",
    )
    .await;
    assert_eq!(shown, expected);
    assert_eq!(
        eval::<String>(&page, "localStorage.getItem('jungle-explorer-source')").await,
        "selfplay"
    );
    chrome.close().await;
    server.kill().await;
}

/// The games of the shipped self-play collection, read without the explorer's index.
fn shipped_games() -> Collection {
    unpack(include_bytes!(
        "../../../jungle-platform/openings/standard.txt.zst"
    ))
    .unwrap()
}

/// (move, games, blue wins, draws, red wins) of the moves played from the position `fen` in the first
/// [`EXPLORER_PLIES`] plies of `games`, each game's move counted once: found by replaying every game and
/// comparing FENs, without the explorer's index or its hashes.
fn counted_at(games: &Collection, fen: &str) -> BTreeMap<String, (u64, u64, u64, u64)> {
    let mut counts = BTreeMap::new();
    for game in &games.games {
        let mut replay = Game::new(games.rules.clone());
        let mut played = BTreeSet::new();
        for m in game.moves.iter().take(EXPLORER_PLIES) {
            if to_fen(replay.position()) == fen {
                played.insert(m.to_string());
            }
            replay.play(*m).unwrap();
        }
        for mv in played {
            let count = counts.entry(mv).or_insert((0, 0, 0, 0));
            count.0 += 1;
            match game.winner {
                Some(Side::Blue) => count.1 += 1,
                None => count.2 += 1,
                Some(Side::Red) => count.3 += 1,
            }
        }
    }
    counts
}

fn counts_of(answer: &Value) -> BTreeMap<String, (u64, u64, u64, u64)> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let n = |key: &str| m[key].as_u64().unwrap();
            (
                m["move"].as_str().unwrap().to_string(),
                (n("games"), n("blue_wins"), n("draws"), n("red_wins")),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_self_play_source_counts_the_shipped_engine_games() {
    let server = start(temp_dir("explorer-selfplay").join("games.db")).await;
    let games = shipped_games();
    // From the start, and after the most played first move.
    let start = counted_at(&games, &to_fen(&Position::start(&games.rules)));
    let (status, answer) = explore(&server, "source=selfplay").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["source"], "selfplay");
    assert_eq!(answer["collection_games"], games.games.len() as u64);
    assert_eq!(counts_of(&answer), start);
    let first = start.iter().max_by_key(|(_, c)| c.0).unwrap().0.clone();
    let (_, answer) = explore(&server, &format!("source=selfplay&moves={first}")).await;
    let after_first = counted_at(&games, answer["fen"].as_str().unwrap());
    assert!(!after_first.is_empty());
    assert_eq!(counts_of(&answer), after_first);
    // The server's own games are another source: none stored here.
    let (_, answer) = explore(&server, "source=games").await;
    assert_eq!(answer["source"], "games");
    assert!(answer["moves"].as_array().unwrap().is_empty());
    assert!(answer.get("collection_games").is_none());
    // No collection under other rules; an unknown source is refused.
    let (status, answer) = explore(&server, "source=selfplay&rules=modern").await;
    assert_eq!(status, 200);
    assert_eq!(answer["collection_games"], 0);
    assert!(answer["moves"].as_array().unwrap().is_empty());
    let (status, answer) = explore(&server, "source=engines").await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("source"),
        "{answer}"
    );
    server.kill().await;
}
