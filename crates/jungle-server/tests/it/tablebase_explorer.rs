//! The tablebase explorer through HTTP (`/api/tablebase`, `/tablebase`) on a server started with tables
//! generated here: the answers equal what probing the tables directly gives, positions they do not cover say
//! why, bad input is a JSON error, a bad directory stops the start; and in a browser, the page lists the moves
//! and a click goes to the position after one, and the analysis board's panel follows the position shown.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use jungle_rules::{Position, Rules};
use jungle_server::{Config, ServeError, Server};
use jungle_tb::{BuildOptions, Probe, Tablebases};
use serde_json::Value;

use crate::support::browser::{Chrome, click, eval, wait_until};
use crate::support::{TestServer, http, http_raw, start, start_config, temp_dir};

/// Blue to move in `LR-e`, with winning, drawing and losing moves.
const MIXED: &str = "7/7/e6/L6/7/7/7/7/4R2 w";

/// The standard tables of `LR-e` and its smaller materials, made once per run.
fn tables_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("tablebase-explorer").join("tables");
        let options = BuildOptions {
            out: dir.clone(),
            materials: vec!["LR-e".parse().unwrap()],
            with_smaller_materials: true,
            memory_limit: 1 << 30,
            threads: 1,
            dtz: false,
        };
        jungle_tb::build(&Rules::default(), &options, &|_| {}).unwrap();
        dir
    })
}

async fn server_with_tables(name: &str) -> TestServer {
    let config = Config {
        tablebases: Some(tables_dir().to_path_buf()),
        ..Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir(name).join("games.db"),
        )
    };
    start_config(&config).await
}

/// `GET /api/tablebase` for a FEN: (status, JSON).
async fn lookup(server: &TestServer, fen: &str, rules: Option<&str>) -> (u16, Value) {
    let mut path = format!("/api/tablebase?fen={}", fen.replace(' ', "%20"));
    if let Some(rules) = rules {
        path.push_str(&format!("&rules={rules}"));
    }
    let (status, _, body) = http(server.addr, "GET", &path, "", None).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")),
    )
}

/// A value as the API writes it: result and distance.
fn written(probe: Probe) -> (Value, Value) {
    (
        Value::from(probe.wdl.as_str()),
        probe.plies.map_or(Value::Null, Value::from),
    )
}

#[tokio::test]
async fn answers_equal_the_tables_probed_directly() {
    let server = server_with_tables("tb-known").await;
    let rules = Rules::default();
    let tables = Tablebases::open(tables_dir(), &rules).unwrap();
    let fens = [
        MIXED,
        "7/7/e6/L6/7/7/7/7/4R2 b",
        "7/7/7/3e3/7/7/1R5/7/L6 w",
        "7/7/7/7/3e3/3L3/3R3/7/7 b",
        // Two pieces: the Elephant against the Lion.
        "7/3l3/7/7/7/7/7/3E3/7 w",
    ];
    for fen in fens {
        let (status, answer) = lookup(&server, fen, None).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["covered"], true, "{fen}: {answer}");
        assert_eq!(answer["rules"], "standard");
        let pos = Position::from_fen(fen, &rules).unwrap();
        let value = tables.probe(&pos).unwrap();
        assert_eq!(
            (answer["result"].clone(), answer["distance"].clone()),
            written(value),
            "{fen}"
        );
        let moves = answer["moves"].as_array().unwrap();
        assert_eq!(moves.len(), pos.legal_moves(&rules).len(), "{fen}");
        for m in moves {
            let uci = m["uci"].as_str().unwrap();
            let mv = pos
                .legal_moves(&rules)
                .as_slice()
                .iter()
                .copied()
                .find(|mv| mv.to_string() == uci)
                .unwrap_or_else(|| panic!("{uci} is not legal in {fen}"));
            let after = tables.probe(&pos.after(mv)).unwrap().before_move();
            assert_eq!(
                (m["result"].clone(), m["distance"].clone()),
                written(after),
                "{fen} {uci}"
            );
            assert_eq!(m["capture"], pos.is_capture(mv), "{fen} {uci}");
        }
    }
    // The position with all three kinds of moves lists them wins, then draws, then losses.
    let (_, answer) = lookup(&server, MIXED, None).await;
    let results: Vec<&str> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["result"].as_str().unwrap())
        .collect();
    let first = |kind| results.iter().position(|r| *r == kind).unwrap();
    let last = |kind| results.iter().rposition(|r| *r == kind).unwrap();
    assert!(
        last("win") < first("draw") && last("draw") < first("loss"),
        "{results:?}"
    );
    server.kill().await;
}

#[tokio::test]
async fn positions_not_covered_say_why_and_bad_input_is_a_json_error() {
    let server = server_with_tables("tb-not-covered").await;
    let (status, answer) = lookup(&server, jungle_rules::START_FEN, None).await;
    assert_eq!(status, 200);
    assert_eq!(answer["covered"], false);
    assert_eq!(answer["reason_code"], "too_many_pieces");
    assert!(
        answer["reason"].as_str().unwrap().contains("16 pieces"),
        "{answer}"
    );
    assert_eq!(answer["moves"].as_array().unwrap().len(), 0);

    let (status, answer) = lookup(&server, MIXED, Some("modern")).await;
    assert_eq!(
        (status, answer["reason_code"].as_str()),
        (200, Some("other_rules"))
    );
    assert!(
        answer["reason"].as_str().unwrap().contains("standard"),
        "{answer}"
    );

    let (status, answer) = lookup(&server, "7/7/7/3t3/7/7/7/7/2C4 w", None).await;
    assert_eq!(
        (status, answer["reason_code"].as_str()),
        (200, Some("missing_table"))
    );

    for bad in ["7/7/e6/L6 w", "not a fen", &"7/".repeat(300)] {
        let (status, answer) = lookup(&server, bad, None).await;
        assert_eq!(status, 400, "{bad}: {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    let (status, _, body) = http(server.addr, "GET", "/api/tablebase", "", None).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("\"error\""), "{body}");
    server.kill().await;

    // A server started without tables answers, saying it has none.
    let plain = start(temp_dir("tb-no-tables").join("games.db")).await;
    let (status, answer) = lookup(&plain, MIXED, None).await;
    assert_eq!(status, 200);
    assert_eq!(answer["covered"], false);
    assert_eq!(answer["reason_code"], "no_tables");
    assert_eq!(answer["rules"], Value::Null);
    plain.kill().await;
}

#[tokio::test]
async fn a_bad_tablebase_directory_stops_the_start() {
    let dir = temp_dir("tb-bad-dir");
    for tables in [dir.join("missing"), dir.clone()] {
        let config = Config {
            tablebases: Some(tables.clone()),
            ..Config::new("127.0.0.1:0".parse().unwrap(), dir.join("games.db"))
        };
        match Server::bind(&config).await {
            Err(e @ ServeError::Tablebases { .. }) => {
                assert!(e.to_string().contains(&tables.display().to_string()), "{e}");
            }
            other => panic!("{tables:?}: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_lists_the_moves_and_a_click_goes_to_the_next_position() {
    let server = server_with_tables("tb-browser").await;
    let chrome = Chrome::launch("tablebase", 1100, 850).await;
    let url = format!(
        "http://{}/tablebase?fen={}",
        server.addr,
        MIXED.replace(' ', "%20")
    );
    let page = chrome.person(&url).await;
    wait_until(
        &page,
        "window.jungle.answer && document.querySelectorAll('#explorer .tb-move').length > 0",
    )
    .await;
    let expected: Value = eval(&page, "window.jungle.answer").await;
    let shown: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#explorer .tb-move')].map((li) => li.dataset.uci)",
    )
    .await;
    assert_eq!(shown, listed_moves(&expected));
    // The board shows the pieces of the position: three of them.
    let pieces: u64 = eval(&page, "document.querySelectorAll('#board .piece').length").await;
    assert_eq!(pieces, 3);

    let first = &expected["moves"][0];
    click(&page, "#explorer .tb-move:first-child a").await;
    let next = first["fen"].as_str().unwrap();
    wait_until(
        &page,
        &format!(
            "window.jungle.fen === {}",
            serde_json::to_string(next).unwrap()
        ),
    )
    .await;
    let search: String = eval(&page, "location.search").await;
    assert!(search.contains("fen="), "{search}");
    let status: String = eval(
        &page,
        "document.querySelector('#explorer .tb-status').textContent",
    )
    .await;
    assert!(!status.is_empty());
    chrome.close().await;
    server.kill().await;
}

/// The uci of each move an answer lists, in its order.
fn listed_moves(answer: &Value) -> Vec<String> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_string())
        .collect()
}

/// Waits until the analysis board's tablebase panel lists `moves`, in their order, at ply `ply`.
async fn wait_for_panel(page: &chromiumoxide::Page, ply: usize, moves: &[String]) {
    let moves = serde_json::to_string(moves).unwrap();
    wait_until(
        page,
        &format!(
            "window.jungle.ply === {ply} && JSON.stringify([...document.querySelectorAll('#tablebase .tb-move')] \
             .map((li) => li.dataset.uci)) === {moves:?}"
        ),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_shows_the_tables_for_each_position_it_steps_to() {
    let server = server_with_tables("tb-analysis-board").await;
    // A position with one move played, imported as the editor's "Analyse" does.
    let (_, start) = lookup(&server, MIXED, None).await;
    let first = start["moves"][0]["uci"].as_str().unwrap().to_string();
    let after = start["moves"][0]["fen"].as_str().unwrap().to_string();
    let pgn = format!("[FEN \"{MIXED}\"]\n\n1. {first} *\n");
    let (status, _, body) = http_raw(
        server.addr,
        "POST",
        "/api/import",
        &["Content-Type: application/x-chess-pgn".into()],
        pgn.as_bytes(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id: Value = serde_json::from_str(&body).unwrap();
    let id = id["id"].as_str().unwrap();

    let chrome = Chrome::launch("tablebase-analysis", 1100, 900).await;
    let page = chrome
        .person(&format!("http://{}/replay/{id}", server.addr))
        .await;
    // At the game's end: the position after the move, as the API answers it.
    let (_, expected) = lookup(&server, &after, None).await;
    assert!(!listed_moves(&expected).is_empty(), "{expected}");
    wait_for_panel(&page, 1, &listed_moves(&expected)).await;
    // Stepping back to the start shows the start's moves (the played one among them), best first.
    assert!(listed_moves(&start).contains(&first));
    assert_ne!(listed_moves(&start), listed_moves(&expected));
    click(&page, "#first").await;
    wait_for_panel(&page, 0, &listed_moves(&start)).await;
    chrome.close().await;
    server.kill().await;
}
