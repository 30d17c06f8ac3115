//! The analysis side over real sockets: moves written with their animals, the PGN in either notation.

use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use crate::support::{PATIENCE, http, http_raw, start, temp_dir};

const PGN: &str = "Content-Type: application/x-chess-pgn";

/// Imports PGN text; returns the new game's id.
async fn import(addr: std::net::SocketAddr, pgn: &str) -> String {
    let (status, _, body) =
        http_raw(addr, "POST", "/api/import", &[PGN.into()], pgn.as_bytes()).await;
    assert_eq!(status, 200, "{body}");
    let reply: serde_json::Value = serde_json::from_str(&body).unwrap();
    reply["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn moves_are_written_with_their_animals_and_the_pgn_in_either_notation() {
    let server = start(temp_dir("analysis-notation").join("games.db")).await;
    // Animal notation is read on import too; Blue's Rat ends by taking Red's Elephant.
    let id = import(
        server.addr,
        "1. Rg3-g4 a7a6 2. g4g5 Ra6-a5 3. g5g6 a5a4 4. Rg6xg7 *",
    )
    .await;
    let (_, _, body) = http(server.addr, "GET", &format!("/api/games/{id}"), "", None).await;
    let record: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(record["moves"][6], "g6g7");
    assert_eq!(
        record["animal_moves"],
        serde_json::json!([
            "Rg3-g4", "Ra7-a6", "Rg4-g5", "Ra6-a5", "Rg5-g6", "Ra5-a4", "Rg6xg7"
        ])
    );

    let pgn = |query: &'static str| {
        let path = format!("/api/games/{id}/pgn{query}");
        async move { http(server.addr, "GET", &path, "", None).await }
    };
    let (status, _, coordinates) = pgn("").await;
    assert_eq!(status, 200);
    assert!(
        coordinates.contains("1. g3g4 a7a6 2. g4g5"),
        "{coordinates}"
    );
    let (status, _, animals) = pgn("?notation=animal").await;
    assert_eq!(status, 200);
    assert!(animals.contains("1. Rg3-g4 Ra7-a6 2. Rg4-g5"), "{animals}");
    assert!(animals.contains("4. Rg6xg7 *"), "{animals}");
    // Both exports read back to the same game.
    for text in [&coordinates, &animals] {
        let back: jungle_rules::pgn::PgnGame = text.parse().unwrap();
        assert_eq!(back.game.moves().len(), 7);
    }
    let (status, _, error) = pgn("?notation=san").await;
    assert_eq!(status, 400, "{error}");

    // A record whose animal does not match the board is refused with the reason.
    let (status, _, error) = http_raw(
        server.addr,
        "POST",
        "/api/import",
        &[PGN.into()],
        b"1. Ta3-a4 *",
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        error.contains("the animal on a3 is the Elephant"),
        "{error}"
    );
    server.kill().await;
}

/// The analysis socket: messages as JSON values.
struct AnalysisSocket(
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
);

impl AnalysisSocket {
    async fn connect(addr: std::net::SocketAddr) -> AnalysisSocket {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/analysis"))
            .await
            .expect("the analysis socket opens");
        AnalysisSocket(socket)
    }

    async fn send(&mut self, value: serde_json::Value) {
        use futures_util::SinkExt;
        self.0
            .send(Message::Text(value.to_string().into()))
            .await
            .unwrap();
    }

    async fn next(&mut self) -> serde_json::Value {
        use futures_util::StreamExt;
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.0.next())
                .await
                .expect("the server answers in time")
                .expect("the socket stays open")
                .unwrap();
            if let Message::Text(text) = frame {
                let message: serde_json::Value = serde_json::from_str(&text).unwrap();
                // The server's heartbeat (after a few seconds of silence) says only that it is alive.
                if message["type"] != "heartbeat" {
                    return message;
                }
            }
        }
    }

    /// The next message that is not a report on another position.
    async fn next_about(&mut self, fen: &str) -> serde_json::Value {
        loop {
            let message = self.next().await;
            if message["type"] == "error" || message["fen"] == fen {
                return message;
            }
        }
    }
}

#[tokio::test]
async fn the_engine_analyses_continuously_and_follows_the_shown_position() {
    let server = start(temp_dir("analysis-socket").join("games.db")).await;
    let mut socket = AnalysisSocket::connect(server.addr).await;
    let start_fen = jungle_rules::START_FEN;
    socket
        .send(json!({ "type": "analyse", "fen": start_fen, "rules": "standard" }))
        .await;
    // Reports come depth after depth, each at least as deep as the one before, with a legal best move and the
    // line in both notations.
    let legal: Vec<String> = {
        let game = jungle_rules::Game::new(jungle_rules::Rules::default());
        game.legal_moves().iter().map(ToString::to_string).collect()
    };
    let mut depth = 0;
    while depth < 3 {
        let info = socket.next_about(start_fen).await;
        assert_eq!(info["type"], "info", "{info}");
        let now = info["depth"].as_u64().unwrap();
        assert!(now >= depth, "{info}");
        depth = now;
        let best = info["best"].as_str().unwrap();
        assert!(legal.iter().any(|m| m == best), "{info}");
        assert_eq!(info["pv"][0], best);
        let written = info["line"][0].as_str().unwrap();
        assert_eq!(&written[1..3], &best[..2], "{info}");
        assert!(info["score_cp"].is_i64() || info["mate_plies"].is_i64());
    }

    // Stepping to another position replaces the analysis: Blue's Rat beside Red's den wins at once.
    let win = "c6/3R3/7/7/7/7/7/7/7 w 0 1";
    socket
        .send(json!({ "type": "analyse", "fen": win, "rules": "standard" }))
        .await;
    let info = socket.next_about(win).await;
    assert_eq!(info["type"], "info", "{info}");
    assert_eq!(info["best"], "d8d9", "{info}");
    assert_eq!(info["line"][0], "Rd8-d9");
    assert_eq!(info["mate_plies"], 1, "{info}");

    // A position that is over is reported as such, then done.
    let over = "c2R3/7/7/7/7/7/7/7/7 b 0 1";
    socket
        .send(json!({ "type": "analyse", "fen": over, "rules": "standard" }))
        .await;
    let info = socket.next_about(over).await;
    assert_eq!(info["depth"], 0, "{info}");
    assert!(
        info["score_cp"].is_null() && info["best"].is_null(),
        "{info}"
    );
    assert_eq!(socket.next_about(over).await["type"], "done");

    // Bad positions, rules and messages get an error and the connection stays usable.
    for (bad, says) in [
        (
            json!({ "type": "analyse", "fen": "7/7/7 w", "rules": "standard" }),
            "position:",
        ),
        (
            json!({ "type": "analyse", "fen": start_fen, "rules": "dog-swims=maybe" }),
            "rules:",
        ),
        (json!({ "type": "castle" }), "unreadable"),
    ] {
        socket.send(bad.clone()).await;
        let reply = socket.next_about("-").await;
        assert_eq!(reply["type"], "error", "{bad}: {reply}");
        assert!(
            reply["message"].as_str().unwrap().starts_with(says),
            "{bad}: {reply}"
        );
    }
    socket.send(json!({ "type": "ping" })).await;
    loop {
        if socket.next().await["type"] == "pong" {
            break;
        }
    }
    server.kill().await;
}

#[tokio::test]
async fn the_evaluation_graph_marks_the_moves_that_lose() {
    let server = start(temp_dir("analysis-graph").join("games.db")).await;
    // Blue's Rat walks up to Red's Elephant and takes it: material changes hands, so some move is marked.
    let id = import(
        server.addr,
        "1. g3g4 a7a6 2. g4g5 a6a5 3. g5g6 a5a4 4. g6g7 *",
    )
    .await;
    let (status, _, body) = http(
        server.addr,
        "GET",
        &format!("/api/games/{id}/evaluations"),
        "",
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let graph: serde_json::Value = serde_json::from_str(&body).unwrap();
    let points = graph["points"].as_array().unwrap();
    assert_eq!(points.len(), 8, "{body}");
    // Exactly the moves whose mover's score fell by the threshold are marked, with the drop and kind the
    // points give.
    let value = |ply: usize| points[ply]["value"].as_i64().unwrap();
    let mistakes = graph["mistakes"].as_array().unwrap();
    assert!(!mistakes.is_empty(), "{body}");
    let (mistake_cp, blunder_cp) = (
        graph["mistake_cp"].as_i64().unwrap(),
        graph["blunder_cp"].as_i64().unwrap(),
    );
    for ply in 0..7 {
        let sign = if ply % 2 == 0 { 1 } else { -1 };
        let drop = sign * (value(ply) - value(ply + 1));
        let marked = mistakes.iter().find(|m| m["ply"] == ply);
        assert_eq!(marked.is_some(), drop >= mistake_cp, "ply {ply}: {body}");
        if let Some(m) = marked {
            assert_eq!(m["drop"], drop);
            assert_eq!(m["side"], if sign == 1 { "blue" } else { "red" });
            assert_eq!(
                m["kind"],
                if drop >= blunder_cp {
                    "blunder"
                } else {
                    "mistake"
                }
            );
        }
    }
    // Moves are named in animal notation: only the Rats moved in this game.
    for m in mistakes {
        assert_eq!(m["mv"].as_str().unwrap().as_bytes()[0], b'R', "{m}");
    }
    let (status, _, _) = http(
        server.addr,
        "GET",
        "/api/games/zzzzzzzz/evaluations",
        "",
        None,
    )
    .await;
    assert_eq!(status, 404);
    server.kill().await;
}

/// A finished game on the replay page, through the browser: the engine follows the shown position (bar, arrow,
/// line in animal notation), the graph marks moves and takes clicks, the PGN comes in both notations.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_page_analyses_as_one_steps_and_draws_the_graph() {
    use crate::support::browser::{Chrome, click, eval, wait_until};
    let server = start(temp_dir("analysis-browser").join("games.db")).await;
    let id = import(
        server.addr,
        "1. g3g4 a7a6 2. g4g5 a6a5 3. g5g6 a5a4 4. g6g7 *",
    )
    .await;
    let chrome = Chrome::launch("analysis", 1200, 900).await;
    let page = chrome
        .person(&format!("http://{}/replay/{id}", server.addr))
        .await;
    wait_until(
        &page,
        "window.jungle && window.jungle.game && document.body.dataset.ply === '7'",
    )
    .await;
    let list: String = eval(&page, "document.getElementById('moves').innerText").await;
    assert!(list.contains("Rg3-g4") && list.contains("Rg6xg7"), "{list}");

    // The engine on: a report on the shown position, with its arrow and line.
    click(&page, "#first").await;
    wait_until(&page, "document.body.dataset.ply === '0'").await;
    click(&page, "#analyse").await;
    wait_until(
        &page,
        "window.jungle.info && window.jungle.info.ply === 0 && window.jungle.info.depth >= 1",
    )
    .await;
    // Read in one evaluation: a deeper report may arrive between two and change the best move.
    let [best, arrow, line]: [String; 3] = eval(
        &page,
        "[window.jungle.info.best, document.querySelector('.arrow-layer').dataset.move, \
          document.getElementById('pv').innerText]",
    )
    .await;
    assert_eq!(arrow, best);
    let first = line.split_whitespace().next().expect("a line").to_string();
    assert_eq!(first.len(), 6, "animal notation like Ea3-a4: {line}");
    assert_eq!(&first[1..3], &best[..2]);
    assert!(!eval::<bool>(&page, "document.getElementById('eval-bar').hidden").await);

    // It follows the user: step forward, the reports are about the new position.
    click(&page, "#next").await;
    wait_until(&page, "document.body.dataset.ply === '1'").await;
    wait_until(
        &page,
        "window.jungle.info && window.jungle.info.ply === 1 && window.jungle.info.depth >= 1 && \
         window.jungle.info.fen.split(' ')[0] === window.jungle.game.fens[1].split(' ')[0]",
    )
    .await;
    // Deeper reports keep coming for the position one stays on.
    let depth: u64 = eval(&page, "window.jungle.info.depth").await;
    wait_until(&page, &format!("window.jungle.info.depth > {depth} || document.getElementById('depth').innerText.includes('done')")).await;
    click(&page, "#analyse").await;
    wait_until(&page, "document.getElementById('eval-bar').hidden && document.querySelector('.arrow-layer').dataset.move === ''").await;

    // The graph: one dot per marked move, and a click on the graph goes to a position.
    click(&page, "#graph-button").await;
    wait_until(
        &page,
        "window.jungle.graph && !document.getElementById('graph').hasAttribute('hidden')",
    )
    .await;
    let marked: u64 = eval(&page, "window.jungle.graph.mistakes.length").await;
    let dots: u64 = eval(&page, "document.querySelectorAll('#graph circle').length").await;
    assert_eq!(dots, marked);
    let flagged: u64 = eval(
        &page,
        "document.querySelectorAll('#moves .mistake, #moves .blunder').length",
    )
    .await;
    assert_eq!(flagged, marked);
    page.evaluate(
        "(() => { const g = document.getElementById('graph'); const b = g.getBoundingClientRect(); \
         g.dispatchEvent(new MouseEvent('click', { clientX: b.left + b.width * 3 / 7, clientY: b.top + 5, bubbles: true })); })()",
    )
    .await
    .unwrap();
    wait_until(&page, "document.body.dataset.ply === '3'").await;

    let animal_link: String = eval(
        &page,
        "document.getElementById('download-animal').getAttribute('href')",
    )
    .await;
    assert!(animal_link.ends_with("/pgn?notation=animal"));
    chrome.close().await;
    server.kill().await;
}

#[tokio::test]
async fn the_editor_check_names_what_is_wrong_with_a_position() {
    let server = start(temp_dir("analysis-position").join("games.db")).await;
    let check = |fen: &str, rules: &str| {
        let query = format!(
            "/api/position?fen={}&rules={}",
            fen.replace(' ', "%20").replace('/', "%2F"),
            rules
        );
        async move { http(server.addr, "GET", &query, "", None).await }
    };
    let (status, _, body) = check("c6/3R3/7/7/7/7/7/7/7 b", "modern").await;
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["fen"], "c6/3R3/7/7/7/7/7/7/7 b 0 1");
    assert_eq!(answer["rules"], "lion-tiger=equal");
    assert_eq!(answer["turn"], "red");
    assert!(answer["over"].is_null());
    // Red's Cat has its two steps.
    assert_eq!(answer["legal"], 2);
    // A Blue Rat in Red's den: valid, but the game is over.
    let (_, _, body) = check("c2R3/7/7/7/7/7/7/7/7 b", "standard").await;
    assert!(body.contains("\"over\":\"Blue"), "{body}");
    // Invalid: two Blue Rats, an Elephant in the water, unknown rules.
    for (fen, rules, says) in [
        ("c6/3R3/7/7/7/7/7/7/R6 w", "standard", "position:"),
        ("c6/7/7/7/7/1E5/7/7/7 w", "standard", "position:"),
        ("c6/3R3/7/7/7/7/7/7/7 w", "chess", "rules:"),
    ] {
        let (status, _, body) = check(fen, rules).await;
        assert_eq!(status, 400, "{fen} {rules}: {body}");
        assert!(body.contains(says), "{body}");
    }
    server.kill().await;
}

/// The board editor in Chromium: set up a position by clicks, see it refused and accepted, then analyse it and
/// play the engine from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_editor_sets_up_checks_plays_and_analyses_a_position() {
    use crate::support::browser::{Chrome, click, eval, wait_until};
    let server = start(temp_dir("analysis-editor").join("games.db")).await;
    let chrome = Chrome::launch("editor", 1200, 900).await;
    let editor = format!("http://{}/editor", server.addr);
    let page = chrome.person(&editor).await;
    wait_until(&page, "document.body.dataset.valid === 'true'").await;
    // An empty board is refused, with the server's reason.
    click(&page, "#clear").await;
    wait_until(&page, "document.body.dataset.valid === 'false'").await;
    let verdict: String = eval(&page, "document.getElementById('verdict').innerText").await;
    assert!(verdict.contains("position:"), "{verdict}");
    assert!(eval::<bool>(&page, "document.getElementById('play').disabled").await);
    // Place a Blue Elephant on a3 and a Red Rat on g7 by clicking squares.
    for (pick, square) in [("E", "a3"), ("r", "g7"), ("L", "d4")] {
        click(&page, &format!("[data-pick='{pick}']")).await;
        click(&page, &format!("[data-square='{square}']")).await;
    }
    wait_until(&page, "document.body.dataset.valid === 'true'").await;
    assert_eq!(
        eval::<String>(&page, "document.getElementById('fen').value").await,
        "7/7/6r/7/7/3L3/E6/7/7 w 0 1"
    );
    // Clicking the same piece again takes it away.
    click(&page, "[data-pick='L']").await;
    click(&page, "[data-square='d4']").await;
    wait_until(
        &page,
        "document.getElementById('fen').value === '7/7/6r/7/7/7/E6/7/7 w 0 1'",
    )
    .await;
    wait_until(
        &page,
        "document.body.dataset.valid === 'true' && !document.getElementById('study').disabled",
    )
    .await;

    // Analyse: the position opens on the replay page.
    click(&page, "#study").await;
    wait_until(
        &page,
        "location.pathname.startsWith('/replay/') && window.jungle && window.jungle.game",
    )
    .await;
    assert_eq!(
        eval::<String>(&page, "window.jungle.game.start_fen").await,
        "7/7/6r/7/7/7/E6/7/7 w 0 1"
    );

    // Play: a game against the engine from the set-up position, under the chosen rules.
    page.goto(editor.as_str()).await.unwrap();
    wait_until(&page, "document.body.dataset.valid === 'true'").await;
    page.evaluate(
        "document.getElementById('fen').value = '7/7/6r/7/7/7/E6/7/7 b 0 1'; \
         document.getElementById('fen').dispatchEvent(new Event('change')); \
         document.getElementById('rules').value = 'modern'; \
         document.getElementById('rules').dispatchEvent(new Event('change')); \
         document.getElementById('level').value = '1';",
    )
    .await
    .unwrap();
    wait_until(&page, "document.body.dataset.valid === 'true' && document.getElementById('verdict').innerText.includes('Red to move')").await;
    click(&page, "#play").await;
    wait_until(
        &page,
        "location.pathname.startsWith('/game/') && window.jungle && window.jungle.state",
    )
    .await;
    let state: serde_json::Value = eval(&page, "window.jungle.state").await;
    assert_eq!(state["start_fen"], "7/7/6r/7/7/7/E6/7/7 b 0 1");
    assert_eq!(state["rules"], "lion-tiger=equal");
    chrome.close().await;
    server.kill().await;
}
