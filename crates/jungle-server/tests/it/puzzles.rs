//! Puzzles through the API: the puzzle JSON holds no solution, the solution's line solves, a wrong move fails,
//! bad ids and moves get clear errors, and a signed-in solver's first attempt moves both ratings by Glicko-2 —
//! once. And in the browser: solving a puzzle on the page.

use jungle_glicko::{Game, Outcome, Rating, Settings};
use jungle_platform::puzzles::collection::PUZZLES;
use serde_json::{Value, json};

use crate::support::browser::{Chrome, click, click_move, eval, wait_until};
use crate::support::{http, set_cookies, start, temp_dir};

pub(crate) fn parse(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The first puzzle of the collection whose solution has at least `plies` moves.
pub(crate) fn puzzle_with(plies: usize) -> &'static jungle_puzzles::Puzzle {
    &PUZZLES
        .all()
        .iter()
        .find(|(p, _)| p.solution.len() >= plies)
        .expect("a puzzle that long")
        .0
}

/// A legal first move that is not the solution's and does not win at once.
pub(crate) fn wrong_first_move(id: &str) -> String {
    let (puzzle, line) = PUZZLES.get(id).unwrap();
    let start = line.start();
    start
        .legal_moves(&line.rules)
        .as_slice()
        .iter()
        .find(|&&m| {
            m.to_string() != puzzle.solution[0] && start.after(m).outcome(&line.rules).is_none()
        })
        .unwrap()
        .to_string()
}

pub(crate) async fn post_moves(
    addr: std::net::SocketAddr,
    id: &str,
    moves: &[String],
    cookie: Option<&str>,
) -> (u16, Value) {
    let body = json!({ "moves": moves }).to_string();
    let (status, _, text) = http(
        addr,
        "POST",
        &format!("/api/puzzles/{id}/moves"),
        &body,
        cookie,
    )
    .await;
    (status, parse(&text))
}

/// Plays the whole solution through the API; answers the final reply.
pub(crate) async fn solve(addr: std::net::SocketAddr, id: &str, cookie: Option<&str>) -> Value {
    let (puzzle, _) = PUZZLES.get(id).unwrap();
    let mut played: Vec<String> = Vec::new();
    for (i, mv) in puzzle.solution.iter().enumerate().step_by(2) {
        played.push(mv.clone());
        let (status, answer) = post_moves(addr, id, &played, cookie).await;
        assert_eq!(status, 200, "{answer}");
        if i + 1 < puzzle.solution.len() {
            assert_eq!(answer["result"], "continue", "{answer}");
            assert_eq!(answer["reply"], puzzle.solution[i + 1].as_str());
            assert_animal_notation(
                answer["reply_animal"].as_str().unwrap(),
                &puzzle.solution[i + 1],
            );
            assert!(
                answer.get("solution").is_none(),
                "no solution while going on"
            );
            played.push(answer["reply"].as_str().unwrap().to_string());
        } else {
            return answer;
        }
    }
    unreachable!("the solution ends with the solver's move")
}

/// `written` is `mv` (coordinates, `a3a4`) in the animal notation: an animal's letter, the origin, `-` or `x`,
/// the destination (`Ea3-a4`, `Rg6xg7`).
pub(crate) fn assert_animal_notation(written: &str, mv: &str) {
    let b = written.as_bytes();
    assert!(
        b.len() == 6
            && b"ELTPDWCR".contains(&b[0])
            && (b[3] == b'-' || b[3] == b'x')
            && written[1..3] == mv[0..2]
            && written[4..6] == mv[2..4],
        "{written} is not {mv} in animal notation"
    );
}

#[tokio::test]
async fn the_puzzle_json_leaks_nothing_and_the_line_solves() {
    let server = start(temp_dir("puzzles-api").join("games.db")).await;
    let addr = server.addr;
    let long = puzzle_with(5);
    let (status, _, body) = http(addr, "GET", &format!("/api/puzzles/{}", long.id), "", None).await;
    assert_eq!(status, 200, "{body}");
    let shown = parse(&body);
    let mut keys: Vec<&str> = shown
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "daily",
            "fen",
            "id",
            "legal",
            "rating",
            "rules",
            "side",
            "solver_moves",
            "source",
            "themes"
        ]
    );
    assert_eq!(shown["fen"], long.fen.as_str());
    assert_eq!(shown["solver_moves"], long.solution.len().div_ceil(2));
    // The replies and the later solver's moves appear nowhere: only the legal moves of the start, which
    // include the first move among all the others.
    for mv in &long.solution[1..] {
        assert!(!body.contains(mv.as_str()), "{mv} leaked: {body}");
    }
    let legal: Vec<&str> = shown["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(legal.len() > 1 && legal.contains(&long.solution[0].as_str()));

    let answer = solve(addr, &long.id, None).await;
    assert_eq!(answer["result"], "solved", "{answer}");
    assert_eq!(answer["solution"], json!(long.solution));
    // The solution written as the game page writes moves: the animal, then the same two squares.
    let animal = answer["solution_animal"].as_array().unwrap();
    assert_eq!(animal.len(), long.solution.len());
    for (written, mv) in animal.iter().zip(&long.solution) {
        assert_animal_notation(written.as_str().unwrap(), mv);
    }
    assert_animal_notation(
        answer["played_animal"].as_str().unwrap(),
        long.solution.last().unwrap(),
    );
    assert_eq!(answer["rated"], false, "guests are not rated");

    // A wrong first move fails and shows the answer.
    let wrong = wrong_first_move(&long.id);
    let (status, answer) = post_moves(addr, &long.id, std::slice::from_ref(&wrong), None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"], "failed");
    assert_eq!(answer["solution"], json!(long.solution));
    assert_animal_notation(answer["played_animal"].as_str().unwrap(), &wrong);

    // The daily puzzle is one puzzle, the same on every request; themes select.
    let (_, _, a) = http(addr, "GET", "/api/puzzles/daily", "", None).await;
    let (_, _, b) = http(addr, "GET", "/api/puzzles/daily", "", None).await;
    assert_eq!(parse(&a)["id"], parse(&b)["id"]);
    assert_eq!(parse(&a)["daily"], true);
    let (status, _, body) = http(addr, "GET", "/api/puzzles/next?theme=capture", "", None).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        parse(&body)["themes"]
            .as_array()
            .unwrap()
            .contains(&json!("capture"))
    );
    let (_, _, overview) = http(addr, "GET", "/api/puzzles", "", None).await;
    assert_eq!(parse(&overview)["count"], PUZZLES.len());
    server.kill().await;
}

#[tokio::test]
async fn bad_ids_moves_and_themes_get_clear_errors() {
    let server = start(temp_dir("puzzles-bad").join("games.db")).await;
    let addr = server.addr;
    let p = puzzle_with(3);
    let (status, _, body) = http(addr, "GET", "/api/puzzles/no-such-puzzle", "", None).await;
    assert_eq!(status, 404);
    assert!(
        parse(&body)["error"]
            .as_str()
            .unwrap()
            .contains("no puzzle \"no-such-puzzle\"")
    );
    let (status, _, _) = http(addr, "GET", "/api/puzzles/%3Cscript%3E", "", None).await;
    assert_eq!(status, 404);
    let (status, answer) = post_moves(addr, "nope", &["a1a2".into()], None).await;
    assert_eq!((status, answer["error"].is_string()), (404, true));
    let cases: [(&[&str], &str); 4] = [
        (&[], "odd number"),
        (&["a1a1"], "move 1"),
        (&["zz"], "move 1"),
        (
            &[p.solution[0].as_str(), p.solution[1].as_str()],
            "odd number",
        ),
    ];
    for (moves, expected) in cases {
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        let (status, answer) = post_moves(addr, &p.id, &moves, None).await;
        assert_eq!(status, 400, "{moves:?}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(expected), "{moves:?}: {error}");
    }
    // A line that strays from the solution before the last move is not judged.
    let wrong = wrong_first_move(&p.id);
    let (status, answer) = post_moves(
        addr,
        &p.id,
        &[wrong, p.solution[1].clone(), p.solution[2].clone()],
        None,
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("not the puzzle's line")
    );
    let (status, _, body) = http(addr, "GET", "/api/puzzles/next?theme=mate", "", None).await;
    assert_eq!(status, 400);
    assert!(parse(&body)["error"].as_str().unwrap().contains("den-race"));
    let (status, _, _) = http(
        addr,
        "POST",
        &format!("/api/puzzles/{}/moves", p.id),
        r#"{"moves": ["a1a2"], "extra": 1}"#,
        None,
    )
    .await;
    assert_eq!(status, 422);
    server.kill().await;
}

/// Signs a new account up; answers its session cookie.
pub(crate) async fn sign_up(addr: std::net::SocketAddr, name: &str) -> String {
    let body = json!({ "name": name, "password": "a long enough password" }).to_string();
    let (status, headers, text) = http(addr, "POST", "/api/signup", &body, None).await;
    assert_eq!(status, 201, "{text}");
    set_cookies(&headers)
        .find(|c| c.starts_with("jungle_session="))
        .expect("a session cookie")
        .to_string()
}

fn rating_of(v: &Value) -> Rating {
    Rating::new(
        v["rating"].as_f64().unwrap(),
        v["deviation"].as_f64().unwrap(),
        v["volatility"].as_f64().unwrap(),
    )
    .unwrap()
}

#[tokio::test]
async fn a_first_attempt_moves_both_ratings_by_glicko_2_and_counts_once() {
    let server = start(temp_dir("puzzles-rated").join("games.db")).await;
    let addr = server.addr;
    let alice = sign_up(addr, "alice").await;
    let bob = sign_up(addr, "bob").await;
    let p = puzzle_with(1);

    // Alice solves: both start as newcomers; she wins against the puzzle, it loses against her.
    let answer = solve(addr, &p.id, Some(&alice)).await;
    assert_eq!(answer["result"], "solved");
    assert_eq!(answer["rated"], true, "{answer}");
    let settings = Settings::GAMES;
    let newcomer = settings.initial;
    let ratings = &answer["ratings"];
    assert_eq!(rating_of(&ratings["solver"]["before"]), newcomer);
    assert_eq!(rating_of(&ratings["puzzle"]["before"]), newcomer);
    let game = |opponent, outcome| [Game { opponent, outcome }];
    let alice_after = settings.update(newcomer, &game(newcomer, Outcome::Win));
    let puzzle_after = settings.update(newcomer, &game(newcomer, Outcome::Loss));
    assert_eq!(rating_of(&ratings["solver"]["after"]), alice_after);
    assert_eq!(rating_of(&ratings["puzzle"]["after"]), puzzle_after);
    assert!(alice_after.rating() > 1500.0 && puzzle_after.rating() < 1500.0);

    // Her second attempt (failed this time) is answered but counts for nothing.
    let wrong = wrong_first_move(&p.id);
    let (_, again) = post_moves(addr, &p.id, std::slice::from_ref(&wrong), Some(&alice)).await;
    assert_eq!(again["result"], "failed");
    assert_eq!(again["rated"], false);
    assert!(again["ratings"].is_null());
    let (_, _, shown) = http(addr, "GET", &format!("/api/puzzles/{}", p.id), "", None).await;
    let shown = parse(&shown);
    assert_eq!(shown["rating"]["attempts"], 1);
    assert_eq!(shown["rating"]["solved"], 1);
    assert_eq!(
        shown["rating"]["rating"],
        puzzle_after.rating().round() as i64
    );

    // Bob fails it: the puzzle, now rated below 1500, wins against a newcomer.
    let (_, failed) = post_moves(addr, &p.id, &[wrong], Some(&bob)).await;
    assert_eq!(failed["rated"], true);
    let r = &failed["ratings"];
    assert_eq!(rating_of(&r["puzzle"]["before"]), puzzle_after);
    assert_eq!(
        rating_of(&r["solver"]["after"]),
        settings.update(newcomer, &game(puzzle_after, Outcome::Loss))
    );
    assert_eq!(
        rating_of(&r["puzzle"]["after"]),
        settings.update(puzzle_after, &game(newcomer, Outcome::Win))
    );
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_in_the_browser_by_clicking_its_squares() {
    let server = start(temp_dir("puzzles-browser").join("games.db")).await;
    let p = puzzle_with(3);
    let chrome = Chrome::launch("puzzles", 1000, 900).await;
    // The home page leads to the puzzles (the daily one first).
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    wait_until(
        &page,
        "document.getElementById('puzzles-link').textContent === 'Solve puzzles'",
    )
    .await;
    click(&page, "#puzzles-link").await;
    wait_until(&page, "location.pathname.startsWith('/puzzles/') && window.jungle.puzzle && window.jungle.puzzle.daily").await;
    // The page drew the puzzle (the first drawing of a board used to fail before it had a position).
    wait_until(
        &page,
        "/to move: find the only winning line/.test(document.getElementById('status').textContent)",
    )
    .await;
    assert!(eval::<bool>(&page, "document.getElementById('error').hidden").await);
    assert_eq!(
        eval::<u64>(&page, "document.querySelectorAll('[data-square]').length").await,
        63
    );
    // The lobby leads there too.
    page.goto(format!("http://{}/lobby", server.addr).as_str())
        .await
        .unwrap();
    wait_until(
        &page,
        "document.getElementById('puzzles-link').textContent === 'Solve puzzles while you wait'",
    )
    .await;
    assert_eq!(
        eval::<String>(
            &page,
            "document.getElementById('puzzles-link').getAttribute('href')"
        )
        .await,
        "/puzzles"
    );

    page.goto(format!("http://{}/puzzles/{}", server.addr, p.id).as_str())
        .await
        .unwrap();
    wait_until(
        &page,
        &format!(
            "window.jungle.puzzle && window.jungle.puzzle.id === '{}'",
            p.id
        ),
    )
    .await;
    for (i, mv) in p.solution.iter().enumerate().step_by(2) {
        click_move(&page, mv).await;
        if i + 1 < p.solution.len() {
            // The defender's reply arrives and is played on the board.
            wait_until(&page, &format!("window.jungle.played.length === {}", i + 2)).await;
        }
    }
    wait_until(&page, "window.jungle.result === 'solved'").await;
    let played: Vec<String> = eval(&page, "window.jungle.played").await;
    assert_eq!(played, p.solution);
    // The solution is there to step through once asked for: every move of the line in the list.
    click(&page, "#view-solution").await;
    wait_until(&page, "!document.getElementById('solution').hidden").await;
    let items: usize = eval(
        &page,
        "document.querySelectorAll('#solution .mv[data-ply]').length",
    )
    .await;
    assert_eq!(items, p.solution.len());
    chrome.close().await;
    server.kill().await;
}
