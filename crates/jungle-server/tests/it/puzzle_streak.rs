//! The puzzle streak and the puzzle history through the API: a streak's puzzles never repeat and never get
//! easier (rating, then the length of the line), bad `seen` lists get clear errors; a solver's rated attempts
//! are listed newest first with the rating change, a page of twenty at a time.

use jungle_platform::puzzles::collection::PUZZLES;
use serde_json::Value;

use crate::puzzles::{parse, post_moves, puzzle_with, sign_up, solve};
use crate::support::{http, start, temp_dir};

/// The ids of puzzles that have a legal first move that is neither the solution's nor an immediate win.
pub(crate) fn failable() -> impl Iterator<Item = &'static str> {
    PUZZLES.all().iter().filter_map(|(p, line)| {
        let start = line.start();
        start
            .legal_moves(&line.rules)
            .as_slice()
            .iter()
            .any(|&m| {
                m.to_string() != p.solution[0] && start.after(m).outcome(&line.rules).is_none()
            })
            .then_some(p.id.as_str())
    })
}

async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    let (status, _, body) = http(addr, "GET", path, "", None).await;
    (status, parse(&body))
}

/// A puzzle's difficulty as the streak orders it, read from its JSON: its rating and then its length.
fn difficulty(puzzle: &Value) -> (i64, u64) {
    (
        puzzle["rating"]["rating"].as_i64().unwrap(),
        puzzle["solver_moves"].as_u64().unwrap(),
    )
}

#[tokio::test]
async fn a_streak_never_repeats_and_never_gets_easier() {
    let server = start(temp_dir("puzzle-streak").join("games.db")).await;
    let addr = server.addr;
    // Alice solves one puzzle (its rating falls below the newcomers'), Bob fails another (it rises above).
    let alice = sign_up(addr, "alice").await;
    let bob = sign_up(addr, "bob").await;
    let easy = puzzle_with(1).id.clone();
    assert_eq!(solve(addr, &easy, Some(&alice)).await["rated"], true);
    let hard = failable().find(|id| *id != easy).unwrap().to_string();
    let wrong = crate::puzzles::wrong_first_move(&hard);
    let (_, failed) = post_moves(addr, &hard, &[wrong], Some(&bob)).await;
    assert_eq!(failed["rated"], true);

    // The first puzzle of a streak is the easiest.
    let (status, first) = get(addr, "/api/puzzles/streak").await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["id"], easy.as_str());
    // Then never easier and never one seen; the hard one comes last of those rated so far.
    let mut seen = vec![easy.clone()];
    let mut previous = difficulty(&first);
    for _ in 0..25 {
        let (status, next) = get(
            addr,
            &format!("/api/puzzles/streak?seen={}", seen.join(",")),
        )
        .await;
        assert_eq!(status, 200, "{next}");
        let id = next["id"].as_str().unwrap().to_string();
        assert!(!seen.contains(&id), "{id} again after {seen:?}");
        assert!(
            difficulty(&next) >= previous,
            "{next} is easier than {previous:?}"
        );
        assert_ne!(id, hard, "the hardest puzzle came before easier ones");
        previous = difficulty(&next);
        seen.push(id);
    }
    // After the hardest, the hardest of those left.
    let (status, after_hard) = get(addr, &format!("/api/puzzles/streak?seen={hard}")).await;
    assert_eq!(status, 200, "{after_hard}");
    assert_ne!(after_hard["id"], hard.as_str());

    // Bad lists: an unknown id, and a list longer than a streak may be.
    let (status, answer) = get(addr, "/api/puzzles/streak?seen=no-such-puzzle").await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("seen: no puzzle \"no-such-puzzle\"")
    );
    let long = vec![easy.as_str(); 501].join(",");
    let (status, answer) = get(addr, &format!("/api/puzzles/streak?seen={long}")).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("at most 500"));
    server.kill().await;
}

#[tokio::test]
async fn the_puzzle_history_lists_rated_attempts_newest_first_a_page_at_a_time() {
    let server = start(temp_dir("puzzle-history").join("games.db")).await;
    let addr = server.addr;
    let alice = sign_up(addr, "alice").await;
    let (status, empty) = get(addr, "/api/users/alice/puzzles").await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(empty["attempts"], serde_json::json!([]));
    assert_eq!(empty["more"], false);

    // 21 rated attempts: one solved, twenty failed; a second attempt at the first adds nothing.
    let solved = puzzle_with(1).id.clone();
    solve(addr, &solved, Some(&alice)).await;
    let failed: Vec<String> = failable()
        .filter(|id| *id != solved)
        .take(20)
        .map(String::from)
        .collect();
    for id in &failed {
        let wrong = crate::puzzles::wrong_first_move(id);
        let (_, answer) = post_moves(addr, id, &[wrong], Some(&alice)).await;
        assert_eq!(answer["rated"], true, "{answer}");
    }
    solve(addr, &solved, Some(&alice)).await;

    let (status, first) = get(addr, "/api/users/alice/puzzles").await;
    assert_eq!(status, 200, "{first}");
    let attempts = first["attempts"].as_array().unwrap();
    assert_eq!((attempts.len(), first["more"].as_bool()), (20, Some(true)));
    // Newest first: each attempt's rating before is the next older one's after.
    for pair in attempts.windows(2) {
        assert!(pair[0]["played_at"].as_i64() >= pair[1]["played_at"].as_i64());
        assert_eq!(pair[0]["rating_before"], pair[1]["rating_after"]);
        assert!(
            pair[0]["rating_after"].as_f64() < pair[0]["rating_before"].as_f64(),
            "a failure lowers"
        );
    }
    assert_eq!(attempts[0]["puzzle_id"], failed.last().unwrap().as_str());
    assert_eq!(attempts[0]["solved"], false);
    let (_, second) = get(addr, "/api/users/alice/puzzles?page=1").await;
    let older = second["attempts"].as_array().unwrap();
    assert_eq!((older.len(), second["more"].as_bool()), (1, Some(false)));
    assert_eq!(older[0]["puzzle_id"], solved.as_str());
    assert_eq!(older[0]["solved"], true);
    assert_eq!(older[0]["rating_before"], 1500.0);
    assert!(older[0]["rating_after"].as_f64().unwrap() > 1500.0);
    assert_eq!(attempts[19]["rating_before"], older[0]["rating_after"]);

    // Bad requests.
    let (status, _) = get(addr, "/api/users/nobody/puzzles").await;
    assert_eq!(status, 404);
    let (status, answer) = get(addr, "/api/users/alice/puzzles?page=501").await;
    assert_eq!(status, 400, "{answer}");
    let (status, _, _) = http(addr, "GET", "/api/users/alice/puzzles?page=x", "", None).await;
    assert_eq!(status, 400);
    server.kill().await;
}
