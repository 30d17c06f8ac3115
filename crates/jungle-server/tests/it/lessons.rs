//! Lessons (/learn): the API judges every move through the rules (illegal moves, unknown stages and overlong
//! attempts refused with a JSON error, enemy animals face down in Hidden Jungle), and in the browser a lesson
//! is played by clicking squares, its stars shown and kept — in the browser for a guest, on the account when
//! signed in — in English and 中文.

use crate::support::browser::{Chrome, click, click_move, eval, wait_until};
use crate::support::{http, start, temp_dir};
use serde_json::Value;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[tokio::test]
async fn the_server_judges_every_move_of_a_stage() {
    let server = start(temp_dir("lessons-api").join("games.db")).await;
    let addr = server.addr;
    let (status, _, body) = http(addr, "GET", "/api/lessons", "", None).await;
    assert_eq!(status, 200, "{body}");
    let overview = json(&body);
    assert!(
        overview["progress"].is_null(),
        "a guest has no progress on the server"
    );
    assert_eq!(overview["lessons"][0]["id"], "rat-swims");

    let (status, _, body) = http(addr, "GET", "/api/lessons/rat-and-elephant/2", "", None).await;
    assert_eq!(status, 200, "{body}");
    let stage = json(&body);
    assert_eq!(stage["best"], 3);
    assert!(
        !stage["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == "c5d5")
    );
    // The Rat in the water may not take the Elephant: the server says so, naming the move.
    let post = |moves: &str| format!("{{\"moves\":{moves}}}");
    let url = "/api/lessons/rat-and-elephant/2/moves";
    let (status, _, body) = http(addr, "POST", url, &post("[\"c5d5\"]"), None).await;
    assert_eq!(status, 400);
    assert_eq!(json(&body)["error"], "move 1 c5d5 is not legal here");
    // Out of the water first: the opponent's scripted reply comes back with the new position.
    let (status, _, body) = http(addr, "POST", url, &post("[\"c5c6\"]"), None).await;
    assert_eq!(status, 200, "{body}");
    let answer = json(&body);
    assert_eq!(answer["result"], "continue");
    assert_eq!(answer["replies"], serde_json::json!(["a9a8"]));
    let (_, _, body) = http(
        addr,
        "POST",
        url,
        &post("[\"c5c6\",\"c6d6\",\"d6d5\"]"),
        None,
    )
    .await;
    let answer = json(&body);
    assert_eq!(answer["result"], "done");
    assert_eq!(answer["stars"], 3);
    assert!(answer["saved"].is_null(), "a guest's stars are not stored");

    // Bounded and checked input.
    let many = format!("[{}]", vec!["\"c5c6\""; 31].join(","));
    let (status, _, body) = http(addr, "POST", url, &post(&many), None).await;
    assert_eq!(status, 400);
    assert_eq!(json(&body)["error"], "at most 30 moves a stage");
    for missing in [
        "/api/lessons/nope/1",
        "/api/lessons/jumps/99",
        "/api/lessons/jumps/x",
    ] {
        let (status, _, body) = http(addr, "GET", missing, "", None).await;
        assert_eq!(status, 404, "{missing}: {body}");
        assert!(
            json(&body)["error"]
                .as_str()
                .unwrap()
                .starts_with("no stage")
        );
    }
    let (status, _, body) = http(addr, "POST", url, "{\"moves\":\"c5c6\"}", None).await;
    assert_eq!(status, 422, "a body of the wrong shape: {body}");
    assert!(json(&body)["error"].is_string());

    // Hidden Jungle: the opponent's animals are face down until an attack shows them.
    let (_, _, body) = http(addr, "GET", "/api/lessons/hidden-jungle/2", "", None).await;
    let fen = json(&body)["fen"].as_str().unwrap().to_string();
    assert!(fen.starts_with("6x/7/4R2/3x3/3C3/"), "{fen}");
    let url = "/api/lessons/hidden-jungle/2/moves";
    let (_, _, body) = http(addr, "POST", url, &post("[\"d5d6\"]"), None).await;
    let answer = json(&body);
    assert_eq!(answer["result"], "continue", "the Cat lost its attack");
    let fen = answer["fen"].as_str().unwrap();
    assert!(
        fen.contains("/3e3/7/"),
        "the Elephant is shown, the Cat gone: {fen}"
    );
    server.kill().await;
}

/// Clicks a learner's moves, waiting for each answer (and the opponent's reply) before the next.
async fn play_moves(page: &chromiumoxide::Page, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        click_move(page, mv).await;
        wait_until(
            page,
            &format!(
                "window.jungle.moves.length === {} && (window.jungle.result || window.jungle.legal.length > 0)",
                i + 1
            ),
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_completes_a_lesson_by_clicking_and_keeps_the_stars_after_a_reload() {
    let server = start(temp_dir("lessons-guest").join("games.db")).await;
    let chrome = Chrome::launch("lessons-guest", 1100, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    // The home page's header leads to the lessons.
    wait_until(
        &page,
        "document.getElementById('learn-nav').textContent === 'Learn to play'",
    )
    .await;
    click(&page, "#learn-nav").await;
    wait_until(
        &page,
        "location.pathname === '/learn/rat-swims' && window.jungle.stage",
    )
    .await;
    let task: String = eval(&page, "document.getElementById('task').textContent").await;
    assert_eq!(task, "Move your Rat into the river.");
    // The status is a live region: a screen reader hears the answers.
    assert_eq!(
        eval::<String>(
            &page,
            "document.getElementById('status').getAttribute('aria-live')"
        )
        .await,
        "polite"
    );

    play_moves(&page, &["a4b4"]).await;
    wait_until(&page, "window.jungle.result === 'done'").await;
    assert_eq!(
        eval::<String>(&page, "document.getElementById('stars').textContent").await,
        "★★★"
    );
    assert_eq!(
        eval::<String>(
            &page,
            "document.getElementById('stars').getAttribute('aria-label')"
        )
        .await,
        "3 of 3 stars"
    );
    assert!(eval::<bool>(&page, "document.activeElement.id === 'next'").await);
    click(&page, "#next").await;
    wait_until(
        &page,
        "window.jungle.stage.stage === 2 && window.jungle.moves.length === 0",
    )
    .await;
    // A longer way than the best (4 moves): swim down and back first, two stars.
    play_moves(&page, &["b3a3", "a3b3", "b3b4", "b4b5", "b5b6", "b6b7"]).await;
    wait_until(&page, "window.jungle.result === 'done'").await;
    assert_eq!(
        eval::<String>(&page, "document.getElementById('stars').textContent").await,
        "★★☆"
    );

    // Kept in the browser: after a reload the list shows 5 of 9 stars and the page opens the first stage
    // without stars.
    page.reload().await.unwrap();
    wait_until(
        &page,
        "window.jungle.stage && window.jungle.stage.stage === 3",
    )
    .await;
    let earned: String = eval(
        &page,
        "document.querySelector('#lessons li .earned').textContent",
    )
    .await;
    assert_eq!(earned, "★ 5/9");
    let saved: Value = eval(&page, "JSON.parse(localStorage.getItem('jungle-lessons'))").await;
    assert_eq!(
        saved,
        serde_json::json!({ "rat-swims/1": 3, "rat-swims/2": 2 })
    );

    // Hidden Jungle: the opponent's animals are drawn face down.
    page.goto(format!("http://{}/learn/hidden-jungle", server.addr).as_str())
        .await
        .unwrap();
    wait_until(
        &page,
        "window.jungle.stage && window.jungle.stage.lesson === 'hidden-jungle'",
    )
    .await;
    assert_eq!(
        eval::<u64>(
            &page,
            "document.querySelectorAll('[data-piece=\"red-unknown\"]').length"
        )
        .await,
        2,
        "both Red animals are face down"
    );
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_learner_keeps_the_stars_on_the_account_in_chinese() {
    let server = start(temp_dir("lessons-account").join("games.db")).await;
    let chrome = Chrome::launch("lessons-account", 420, 860).await;
    let page = chrome
        .person(&format!("http://{}/learn", server.addr))
        .await;
    wait_until(&page, "window.jungle.stage").await;
    let signed: Value = eval(
        &page,
        "import('/static/api.js').then((api) => api.postJson('/api/signup', { name: 'Learner', password: 'correct horse' }))",
    )
    .await;
    assert_eq!(signed["name"], "Learner");
    page.evaluate("localStorage.setItem('jungle-lang', 'zh')")
        .await
        .unwrap();
    page.goto(format!("http://{}/learn/jumps", server.addr).as_str())
        .await
        .unwrap();
    wait_until(
        &page,
        "window.jungle.stage && window.jungle.stage.lesson === 'jumps'",
    )
    .await;
    assert_eq!(
        eval::<String>(&page, "document.getElementById('task').textContent").await,
        "讓獅橫跳過河到 d5。"
    );
    assert_eq!(
        eval::<String>(&page, "document.getElementById('lesson-title').textContent").await,
        "獅虎跳河"
    );
    assert_eq!(
        eval::<String>(&page, "document.getElementById('kept').textContent").await,
        "你的星星保存在你的帳號上。"
    );
    play_moves(&page, &["a5d5"]).await;
    wait_until(&page, "window.jungle.result === 'done'").await;
    let status: String = eval(&page, "document.getElementById('status').textContent").await;
    assert!(status.starts_with("用 1 步達成目標"), "{status}");
    // On the account, not in the browser: the server's list has it, localStorage does not.
    let progress: Value = eval(
        &page,
        "fetch('/api/lessons').then((r) => r.json()).then((o) => o.progress)",
    )
    .await;
    assert_eq!(progress, serde_json::json!({ "jumps/1": 3 }));
    assert!(eval::<bool>(&page, "localStorage.getItem('jungle-lessons') === null").await);
    page.reload().await.unwrap();
    wait_until(
        &page,
        "window.jungle.stage && window.jungle.stage.stage === 2",
    )
    .await;
    let earned: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#lessons li .earned')].map((e) => e.textContent)",
    )
    .await;
    assert_eq!(earned[3], "★ 3/12");
    // On a phone-sized window the board and the panel fit the width.
    let fits: bool = eval(
        &page,
        "document.documentElement.scrollWidth <= window.innerWidth",
    )
    .await;
    assert!(fits, "no sideways scrolling on a phone");
    chrome.close().await;
    server.kill().await;
}
