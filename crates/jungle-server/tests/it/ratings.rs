//! Rated games: the end of a rated game moves both players' ratings by exactly Glicko-2's amounts, once; casual
//! and aborted games move nothing; only games that can be fairly rated can be marked rated. And in the browser:
//! a rated seek made and accepted in the lobby, played to a den win by clicking, seen on both profiles.

use std::sync::Arc;

use jungle_platform::ratings::{Category, Outcome, Rating, SETTINGS};
use jungle_platform::room::Room;
use jungle_rules::{BySide, Side};
use jungle_server::store::{CategoryRating, MarkRatedError};
use jungle_server::{EnginePool, Hub, NewGame, Store};

fn hub() -> Arc<Hub> {
    Hub::new(Store::in_memory().unwrap(), EnginePool::new(1))
}

/// Two accounts, Ann and Bo (the hash is never checked here).
fn accounts(store: &Store) -> (i64, i64) {
    let make = |name| store.insert_account(name, "x").unwrap().unwrap().id;
    (make("ann"), make("bo"))
}

/// A game between two people on a 3+2 clock (blitz), or with the given rules; its creator's seat.
fn friend_game(hub: &Arc<Hub>, rules: &str) -> (Arc<Room>, Side) {
    let request = NewGame {
        opponent: "friend".into(),
        side: Some("blue".into()),
        rules: Some(rules.into()),
        minutes: Some(3.0),
        increment: Some(2),
        ..NewGame::default()
    };
    let (room, side, _token) = hub.create(&request, None).unwrap();
    (room, side)
}

fn rating_in(ratings: &[CategoryRating], category: Category) -> Option<&CategoryRating> {
    ratings.iter().find(|r| r.category == category)
}

/// Asserts the stored rating equals `expected` (to a micro-point: the moments of reading and settling differ
/// by milliseconds of idle growth).
fn assert_rating(store: &Store, user: i64, expected: Rating) {
    let ratings = store.ratings_of(user).unwrap();
    let got = rating_in(&ratings, Category::Blitz).expect("a blitz rating");
    assert!(
        (got.rating - expected.rating()).abs() < 1e-6
            && (got.deviation - expected.deviation()).abs() < 1e-6
            && (got.volatility - expected.volatility()).abs() < 1e-9,
        "stored {got:?}, Glicko-2 says {expected:?}"
    );
}

fn glicko(player: Rating, opponent: Rating, outcome: Outcome) -> Rating {
    SETTINGS.update(player, &[jungle_glicko::Game { opponent, outcome }])
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_by_glicko_2_once() {
    let hub = hub();
    let store = &hub.store;
    let (ann_id, bo_id) = accounts(store);

    // Game 1: two newcomers; Bo (Red) resigns.
    let (room, ann_seat) = friend_game(&hub, "standard");
    store
        .mark_rated(&room.id, BySide::new(ann_id, bo_id), Category::Blitz)
        .unwrap();
    let before = (
        store.rating_of(ann_id, Category::Blitz).unwrap(),
        store.rating_of(bo_id, Category::Blitz).unwrap(),
    );
    assert_eq!(before.0, SETTINGS.initial);
    room.resign(store, Some(ann_seat.opponent())).unwrap();
    let ann = glicko(before.0, before.1, Outcome::Win);
    let bo = glicko(before.1, before.0, Outcome::Loss);
    assert!(ann.rating() > 1500.0 && bo.rating() < 1500.0);
    assert_rating(store, ann_id, ann);
    assert_rating(store, bo_id, bo);
    // The game page's view of it: each player's rating before and after.
    let seen = store.game_ratings(&room.id).unwrap().expect("a rated game");
    assert_eq!(seen.category, Category::Blitz);
    assert_eq!((seen.blue.user_id, seen.red.user_id), (ann_id, bo_id));
    assert_eq!(seen.blue.before_shown, "1500?");
    assert!((seen.blue.after.unwrap() - ann.rating()).abs() < 1e-6);
    assert!((seen.red.after.unwrap() - bo.rating()).abs() < 1e-6);

    // The same ending stored again (a reload that finds the result unwritten, a retried write) moves nothing.
    store
        .finish(&room.id, 0, "1-0", Some("blue"), "resignation")
        .unwrap();
    store
        .finish(&room.id, 0, "0-1", Some("red"), "timeout")
        .unwrap();
    assert_rating(store, ann_id, ann);
    assert_rating(store, bo_id, bo);

    // Game 2: from their new ratings, a draw.
    let (room, ann_seat) = friend_game(&hub, "");
    store
        .mark_rated(&room.id, BySide::new(ann_id, bo_id), Category::Blitz)
        .unwrap();
    let at_stake = store.game_ratings(&room.id).unwrap().unwrap();
    assert!((at_stake.blue.before - ann.rating()).abs() < 1e-6 && at_stake.blue.after.is_none());
    room.offer_draw(store, Some(ann_seat), |_| false).unwrap();
    room.offer_draw(store, Some(ann_seat.opponent()), |_| false)
        .unwrap();
    let ann2 = glicko(ann, bo, Outcome::Draw);
    let bo2 = glicko(bo, ann, Outcome::Draw);
    assert_rating(store, ann_id, ann2);
    assert_rating(store, bo_id, bo2);

    let ann_ratings = store.ratings_of(ann_id).unwrap();
    let blitz = rating_in(&ann_ratings, Category::Blitz).unwrap();
    assert_eq!(
        (blitz.games, blitz.wins, blitz.draws, blitz.losses),
        (2, 1, 1, 0)
    );
    assert_eq!(ann_ratings.len(), 1, "only the game's category moves");
    let history = store.rating_history(ann_id).unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].outcome, "win");
    assert_eq!(history[1].outcome, "draw");
    assert!((history[1].rating_before - ann.rating()).abs() < 1e-9);
    assert_eq!(history[1].opponent_id, bo_id);
}

#[tokio::test]
async fn casual_and_aborted_games_move_nothing() {
    let hub = hub();
    let store = &hub.store;
    let (ann_id, bo_id) = accounts(store);
    let (casual, seat) = friend_game(&hub, "standard");
    casual.resign(store, Some(seat)).unwrap();

    let (aborted, seat) = friend_game(&hub, "standard");
    store
        .mark_rated(&aborted.id, BySide::new(ann_id, bo_id), Category::Blitz)
        .unwrap();
    aborted.abort(store, Some(seat)).unwrap();

    assert!(store.ratings_of(ann_id).unwrap().is_empty());
    assert!(store.ratings_of(bo_id).unwrap().is_empty());
    assert!(store.rating_history(ann_id).unwrap().is_empty());
    assert_eq!(
        store.rating_of(ann_id, Category::Blitz).unwrap(),
        SETTINGS.initial
    );
}

#[tokio::test]
async fn only_fair_games_can_be_marked_rated() {
    let hub = hub();
    let store = &hub.store;
    let (ann_id, bo_id) = accounts(store);
    let players = BySide::new(ann_id, bo_id);

    let (modern, _) = friend_game(&hub, "modern");
    assert!(matches!(
        store.mark_rated(&modern.id, players, Category::Blitz),
        Err(MarkRatedError::NotStandard)
    ));

    let engine = NewGame {
        opponent: "engine".into(),
        level: Some(3),
        side: Some("blue".into()),
        ..NewGame::default()
    };
    let (engine_room, _, _) = hub.create(&engine, None).unwrap();
    assert!(matches!(
        store.mark_rated(&engine_room.id, players, Category::Blitz),
        Err(MarkRatedError::NotBetweenPlayers)
    ));

    let (game, seat) = friend_game(&hub, "standard");
    assert!(matches!(
        store.mark_rated(&game.id, BySide::new(ann_id, ann_id), Category::Blitz),
        Err(MarkRatedError::SamePlayer)
    ));
    assert!(matches!(
        store.mark_rated("nosuchgame", players, Category::Blitz),
        Err(MarkRatedError::NoGame(_))
    ));
    game.resign(store, Some(seat)).unwrap();
    assert!(matches!(
        store.mark_rated(&game.id, players, Category::Blitz),
        Err(MarkRatedError::Finished)
    ));
    // Seats already bound to accounts are not re-bound by marking the game rated.
    let (bound, _) = friend_game(&hub, "standard");
    store
        .mark_rated(&bound.id, players, Category::Rapid)
        .unwrap();
    assert!(matches!(
        store.mark_rated(&bound.id, BySide::new(bo_id, ann_id), Category::Rapid),
        Err(MarkRatedError::OtherPlayers)
    ));
    assert_eq!(
        store
            .rated_game(&bound.id)
            .unwrap()
            .map(|g| (g.players, g.category)),
        Some((players, Category::Rapid))
    );
    for id in [&modern.id, &engine_room.id, &game.id] {
        assert_eq!(store.rated_game(id).unwrap(), None);
        assert_eq!(store.game_ratings(id).unwrap(), None);
    }
}

#[tokio::test]
async fn the_engine_levels_ratings_are_published() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    let response = jungle_server::app(hub())
        .oneshot(
            Request::get("/api/engine-levels")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = axum::body::to_bytes(response.into_body(), 1 << 16)
        .await
        .unwrap();
    let levels: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), 8);
    assert_eq!(levels[0]["level"], 1);
    assert_eq!(levels[7]["rating"], 2200);
    let ratings: Vec<i64> = levels
        .iter()
        .map(|l| l["rating"].as_i64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] < w[1]), "{ratings:?}");
}

/// A short line from the start in which Blue walks its Leopard up the d-file into Red's den (d9) while Red only
/// moves its Lion to and fro in the corner: a real win by the den, in 13 plies.
const DEN_RUN: [&str; 13] = [
    "e3d3", "a9a8", "d3d4", "a8a9", "d4d5", "a9a8", "d5d6", "a8a9", "d6d7", "a9a8", "d7d8", "a8a9",
    "d8d9",
];

#[test]
fn the_den_run_is_legal_and_wins_for_blue_by_the_den() {
    let mut game = jungle_rules::Game::new(jungle_rules::Rules::default());
    for (ply, mv) in DEN_RUN.iter().enumerate() {
        assert!(!game.is_over(), "over before ply {ply}");
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{mv} at ply {ply}: {e}"));
    }
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(Side::Blue));
    assert_eq!(outcome.termination, jungle_rules::Termination::DenEntered);
}

/// The profile of `name` as its page's script reads it (`GET /api/users/NAME`).
async fn profile_in(page: &chromiumoxide::Page, name: &str) -> serde_json::Value {
    crate::support::browser::eval(
        page,
        &format!("fetch('/api/users/{name}').then((r) => r.json())"),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_from_the_lobby_played_to_the_den_in_the_browser_moves_both_profiles_ratings()
{
    use crate::lobby::seek_accepted_in_browser;
    use crate::support::browser::{Chrome, click_move, eval, wait_until};
    use crate::support::{start, temp_dir};

    let server = start(temp_dir("e2e-rated").join("games.db")).await;
    let chrome = Chrome::launch("rated", 1200, 900).await;
    let base = format!("http://{}", server.addr);

    // Alice opens a rated 5+3 seek as Blue; Bob accepts it. Each signed in, in their own browser context.
    let (alice, bob, listed) = seek_accepted_in_browser(
        &chrome,
        &base,
        "document.getElementById('clock').value = '5+3'; document.getElementById('rated').value = 'true'; document.getElementById('colour').value = 'blue';",
    )
    .await;
    assert!(
        listed.contains("alice") && listed.contains("5+3") && listed.contains("rated"),
        "{listed}"
    );
    assert_eq!(eval::<String>(&alice, "window.jungle.seat").await, "blue");
    assert_eq!(eval::<String>(&bob, "window.jungle.seat").await, "red");

    // The game, move by move, each by its player's clicks on the board.
    for (ply, mv) in DEN_RUN.iter().enumerate() {
        let mover = if ply % 2 == 0 { &alice } else { &bob };
        wait_until(mover, "document.body.dataset.myturn === 'true'").await;
        click_move(mover, mv).await;
        for page in [&alice, &bob] {
            wait_until(page, &format!("window.jungle.state.ply === {}", ply + 1)).await;
        }
    }
    for page in [&alice, &bob] {
        wait_until(
            page,
            "document.body.dataset.over === 'true' && !document.getElementById('banner').hidden",
        )
        .await;
    }
    let game: String = eval(&alice, "window.jungle.state.id").await;
    let outcome: serde_json::Value = eval(&alice, "window.jungle.state.outcome").await;
    assert_eq!(outcome["result"], "1-0", "{outcome}");
    assert_eq!(
        eval::<String>(&alice, "document.getElementById('banner-title').innerText").await,
        "You win!"
    );
    assert_eq!(
        eval::<String>(&bob, "document.getElementById('banner-title').innerText").await,
        "You lose"
    );

    // Glicko-2 of two newcomers, one win: what both profiles must show.
    let expected = [
        (
            "alice",
            glicko(SETTINGS.initial, SETTINGS.initial, Outcome::Win),
        ),
        (
            "bob",
            glicko(SETTINGS.initial, SETTINGS.initial, Outcome::Loss),
        ),
    ];
    for ((name, rating), page) in expected.iter().zip([&alice, &bob]) {
        page.goto(format!("{base}/@/{name}").as_str())
            .await
            .unwrap();
        wait_until(
            page,
            "document.querySelector('#ratings tbody tr[data-category=\"blitz\"]')",
        )
        .await;
        let row: Vec<String> = eval(
            page,
            "[...document.querySelectorAll('#ratings tbody tr[data-category=\"blitz\"] td')].map((td) => td.textContent)",
        )
        .await;
        assert_eq!(
            row[1],
            jungle_platform::ratings::shown(rating),
            "{name}: {row:?}"
        );
        assert_eq!(row[2], "1", "{name}: one game");
        wait_until(
            page,
            "document.querySelectorAll('#rating-graph circle.point').length === 1",
        )
        .await;
        // The game is in the player's list, with its result and a link to its replay.
        wait_until(
            page,
            &format!("document.querySelector('#games li[data-game=\"{game}\"] a[href=\"/replay/{game}\"]')"),
        )
        .await;
        let plotted: f64 = eval(
            page,
            "Number(document.querySelector('#rating-graph circle.point').dataset.rating)",
        )
        .await;
        assert_eq!(plotted, rating.rating().round(), "{name}");
        // The exact stored numbers, as the page's script reads them.
        let profile = profile_in(page, name).await;
        let blitz = &profile["ratings"][0];
        assert_eq!(blitz["category"], "blitz", "{profile}");
        let got = Rating::new(
            blitz["rating"].as_f64().unwrap(),
            blitz["deviation"].as_f64().unwrap(),
            blitz["volatility"].as_f64().unwrap(),
        )
        .unwrap();
        // The deviation read now has grown a little since the game ended (idle growth, about 0.2 a day at
        // this deviation): it may be above Glicko-2's by far less than 0.01, which would take over an hour.
        assert!(
            (got.rating() - rating.rating()).abs() < 1e-9
                && (got.volatility() - rating.volatility()).abs() < 1e-12
                && (0.0..0.01).contains(&(got.deviation() - rating.deviation())),
            "{name}: stored {got:?}, Glicko-2 says {rating:?}"
        );
    }
    assert!(expected[0].1.rating() > 1500.0 && expected[1].1.rating() < 1500.0);
    chrome.close().await;
    server.kill().await;
}
