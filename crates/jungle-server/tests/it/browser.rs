//! End-to-end tests in a real headless Chromium: the pages, the clicks, the websockets and the server
//! together. They need Chromium (Debian's `chromium`, or the binary `JUNGLE_CHROMIUM` names) and fail
//! clearly without it.

use crate::support::browser::{
    Chrome, click, click_move, drag_move, eval, ply, take_free_seat, wait_until,
};
use crate::support::{start, temp_dir};

/// A move for Blue that heads for Red's den (d9): quick games, whoever wins.
fn toward_red_den(legal: &[String]) -> String {
    let distance = |mv: &String| {
        let b = mv.as_bytes();
        let file = i32::from(b[2] - b'a');
        let rank = i32::from(b[3] - b'0');
        (file - 3).abs() + (9 - rank)
    };
    legal.iter().min_by_key(|mv| distance(mv)).unwrap().clone()
}

async fn legal_moves(page: &chromiumoxide::Page) -> Vec<String> {
    eval(page, "window.jungle.state.legal").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_level_one_by_clicking() {
    let server = start(temp_dir("e2e-engine").join("games.db")).await;
    let chrome = Chrome::launch("engine", 1200, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;

    page.evaluate("document.getElementById('level').value = '1'; document.getElementById('side').value = 'blue';")
        .await
        .unwrap();
    click(&page, "#play-engine").await;
    wait_until(
        &page,
        "location.pathname.startsWith('/game/') && window.jungle && window.jungle.state",
    )
    .await;
    wait_until(&page, "window.jungle.seat === 'blue'").await;

    let mut reloaded = false;
    loop {
        wait_until(
            &page,
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'",
        )
        .await;
        if eval::<bool>(&page, "document.body.dataset.over === 'true'").await {
            break;
        }
        let before = ply(&page).await;
        if before >= 6 && !reloaded {
            // A reload mid-game: the same seat and position come back, and play continues.
            page.reload().await.unwrap();
            wait_until(
                &page,
                &format!("window.jungle.state && window.jungle.state.ply === {before}"),
            )
            .await;
            wait_until(&page, "window.jungle.seat === 'blue'").await;
            reloaded = true;
            continue;
        }
        let mv = toward_red_den(&legal_moves(&page).await);
        click_move(&page, &mv).await;
        wait_until(&page, &format!("window.jungle.state.ply > {before}")).await;
        assert!(before < 600, "the game should have ended by the draw rules");
    }
    assert!(reloaded || ply(&page).await < 6);
    let banner: String = eval(&page, "document.getElementById('banner').hidden ? '' : document.getElementById('banner').innerText").await;
    let outcome: serde_json::Value = eval(&page, "window.jungle.state.outcome").await;
    let reason = outcome["reason"].as_str().unwrap();
    assert!(
        banner.contains(reason),
        "banner {banner:?} shows the reason {reason:?}"
    );
    // A finished game is final: nothing on the page can change it.
    for button in ["takeback", "resign", "offer-draw"] {
        assert!(
            eval::<bool>(
                &page,
                &format!("document.getElementById('{button}').disabled")
            )
            .await,
            "#{button} is disabled after the end"
        );
    }
    // The game is stored as finished.
    let (_, _, lists) = crate::support::http(server.addr, "GET", "/api/games", "", None).await;
    assert!(lists.contains(outcome["result"].as_str().unwrap()));
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_friends_play_while_a_third_watches() {
    let server = start(temp_dir("e2e-friends").join("games.db")).await;
    let chrome = Chrome::launch("friends", 1100, 850).await;
    let home = format!("http://{}/", server.addr);

    let ann = chrome.person(&home).await;
    ann.evaluate("document.getElementById('side').value = 'blue'")
        .await
        .unwrap();
    click(&ann, "#play-friend").await;
    wait_until(
        &ann,
        "window.jungle && window.jungle.state && window.jungle.seat === 'blue'",
    )
    .await;
    wait_until(&ann, "!document.getElementById('share').hidden").await;
    let link: String = eval(&ann, "document.getElementById('share-link').value").await;
    assert!(link.contains("/game/"));

    // Opening the link takes no seat: Bo presses "Join as Red".
    let bo = chrome.person(&link).await;
    wait_until(
        &bo,
        "window.jungle && window.jungle.state && !document.getElementById('join').hidden",
    )
    .await;
    assert_eq!(
        eval::<String>(&bo, "document.body.dataset.seat").await,
        "spectator"
    );
    assert_eq!(
        eval::<String>(&bo, "document.getElementById('join-button').innerText").await,
        "Join as Red"
    );
    take_free_seat(&bo, "red").await;
    wait_until(&bo, "document.getElementById('join').hidden").await;
    let cy = chrome.person(&link).await;
    wait_until(&cy, "window.jungle && window.jungle.state").await;
    assert!(eval::<bool>(&cy, "document.getElementById('join').hidden").await);
    assert_eq!(
        eval::<String>(&cy, "document.body.dataset.seat").await,
        "spectator"
    );
    // The friend's arrival reaches the creator: the share box goes away.
    wait_until(&ann, "document.getElementById('share').hidden").await;
    // Red sees the board from Red's side.
    assert!(eval::<bool>(&bo, "window.jungle.board.flipped").await);

    // Ann offers a draw, Bo declines: Ann is told so, as news rather than an error.
    click(&ann, "#offer-draw").await;
    wait_until(&bo, "!document.getElementById('draw-offer').hidden").await;
    click(&bo, "#decline-draw").await;
    wait_until(&ann, "!document.getElementById('notice').hidden").await;
    assert_eq!(
        eval::<String>(&ann, "document.getElementById('notice').innerText").await,
        "Red declines the draw."
    );
    assert!(eval::<bool>(&ann, "document.getElementById('error').hidden").await);

    for target in 1..=6u64 {
        let mover = if target % 2 == 1 { &ann } else { &bo };
        wait_until(mover, "document.body.dataset.myturn === 'true'").await;
        let mv = legal_moves(mover).await[0].clone();
        if target <= 2 {
            // The first moves are dragged, the rest clicked: both ways work.
            drag_move(mover, &mv).await;
        } else {
            click_move(mover, &mv).await;
        }
        for page in [&ann, &bo, &cy] {
            wait_until(page, &format!("window.jungle.state.ply === {target}")).await;
        }
        // The move list writes it with its animal: a3a4 as "Ea3-a4" (or "Ea3xa4" for a capture).
        let shown: String = eval(&cy, "document.getElementById('moves').innerText").await;
        let written = |mark: &str| format!("{}{mark}{}", &mv[..2], &mv[2..]);
        assert!(
            shown.contains(&written("-")) || shown.contains(&written("x")),
            "the spectator's move list shows {mv} with its animal: {shown}"
        );
        if target == 3 {
            // Red reloads mid-game: back in the same seat, with the same game.
            bo.reload().await.unwrap();
            wait_until(&bo, "window.jungle.state && window.jungle.state.ply === 3 && window.jungle.seat === 'red'").await;
        }
    }
    // The spectator cannot move: no square offers a move.
    assert_eq!(
        eval::<u64>(&cy, "document.querySelectorAll('[data-movable]').length").await,
        0
    );

    // Bo resigns (two clicks, no dialog); everyone sees the result.
    wait_until(&bo, "!document.getElementById('resign').disabled").await;
    click(&bo, "#resign").await;
    click(&bo, "#resign").await;
    for page in [&ann, &bo, &cy] {
        wait_until(page, "!document.getElementById('banner').hidden").await;
    }
    assert_eq!(
        eval::<String>(&ann, "document.getElementById('banner-title').innerText").await,
        "You win!"
    );
    assert_eq!(
        eval::<String>(&bo, "document.getElementById('banner-title').innerText").await,
        "You lose"
    );
    assert_eq!(
        eval::<String>(&cy, "document.getElementById('banner-title').innerText").await,
        "Blue wins"
    );
    assert!(
        eval::<String>(&cy, "document.getElementById('banner-reason').innerText")
            .await
            .contains("resignation")
    );

    // Ann asks for a rematch and plays it as Red; Bo is invited and plays it as Blue.
    assert!(eval::<bool>(&cy, "document.getElementById('rematch').hidden").await);
    click(&ann, "#rematch").await;
    wait_until(&ann, "window.jungle && window.jungle.state && window.jungle.seat === 'red' && location.pathname.endsWith(window.jungle.state.id)").await;
    let rematch: String = eval(&ann, "window.jungle.state.id").await;
    wait_until(
        &bo,
        "document.getElementById('rematch').innerText === 'Play the rematch'",
    )
    .await;
    click(&bo, "#rematch").await;
    wait_until(&bo, &format!("window.jungle && window.jungle.state && window.jungle.state.id === '{rematch}' && window.jungle.seat === 'blue'")).await;

    // The replay page steps through the finished game.
    let replay = link.replace("/game/", "/replay/");
    cy.goto(replay.as_str()).await.unwrap();
    wait_until(
        &cy,
        "window.jungle && window.jungle.game && document.body.dataset.ply === '6'",
    )
    .await;
    click(&cy, "#first").await;
    wait_until(&cy, "document.body.dataset.ply === '0'").await;
    click(&cy, "#next").await;
    wait_until(&cy, "document.body.dataset.ply === '1'").await;
    // The engine's view of the shown position, on request (analysis.rs tests it in depth).
    click(&cy, "#analyse").await;
    wait_until(
        &cy,
        "!document.getElementById('analysis').hidden && window.jungle.info && window.jungle.info.ply === 1",
    )
    .await;
    let line: String = eval(&cy, "document.getElementById('pv').innerText").await;
    let first = line
        .split_whitespace()
        .next()
        .expect("a best line")
        .to_string();
    assert_eq!(first.len(), 6, "a move like Ea3-a4: {line}");
    let pgn_link: String = eval(
        &cy,
        "document.getElementById('download').getAttribute('href')",
    )
    .await;
    assert!(pgn_link.ends_with("/pgn"));
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_page_of_a_live_game_follows_it() {
    use crate::support::{Client, create, visit};
    let server = start(temp_dir("e2e-follow").join("games.db")).await;
    let (id, blue_cookie) = create(server.addr, r#"{"opponent":"friend","side":"blue"}"#).await;
    let red_cookie = visit(server.addr, &id).await.unwrap();
    let mut blue = Client::connect(server.addr, &id, Some(&blue_cookie)).await;
    let mut red = Client::connect(server.addr, &id, Some(&red_cookie)).await;
    let chrome = Chrome::launch("follow", 1100, 850).await;
    let page = chrome
        .person(&format!("http://{}/replay/{id}", server.addr))
        .await;
    wait_until(
        &page,
        "window.jungle && window.jungle.game && document.body.dataset.ply === '0'",
    )
    .await;
    blue.send_move("a3a4").await;
    wait_until(&page, "document.body.dataset.ply === '1'").await;
    red.send_move("g7g6").await;
    wait_until(
        &page,
        "document.body.dataset.ply === '2' && window.jungle.game.fens.length === 3",
    )
    .await;
    // Stepping back, the viewer stays where they are while the game goes on.
    click(&page, "#prev").await;
    wait_until(&page, "document.body.dataset.ply === '1'").await;
    blue.send_move("a4a5").await;
    wait_until(&page, "window.jungle.game.moves.length === 3").await;
    assert_eq!(
        eval::<String>(&page, "document.body.dataset.ply").await,
        "1"
    );
    red.send_text(r#"{"type":"resign"}"#).await;
    wait_until(
        &page,
        "document.getElementById('summary').innerText.includes('resign')",
    )
    .await;
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_lists_say_plies_clocks_and_ages() {
    use crate::support::{Client, create};
    let server = start(temp_dir("e2e-home").join("games.db")).await;
    let (id, cookie) = create(
        server.addr,
        r#"{"opponent":"friend","side":"blue","minutes":5,"increment":3}"#,
    )
    .await;
    let mut blue = Client::connect(server.addr, &id, Some(&cookie)).await;
    blue.send_move("a3a4").await;
    blue.wait_for_ply(1).await;
    let chrome = Chrome::launch("home", 1100, 850).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    wait_until(
        &page,
        "document.getElementById('live').innerText.includes('ply')",
    )
    .await;
    let live: String = eval(&page, "document.getElementById('live').innerText").await;
    assert!(live.contains("1 ply") && !live.contains("plies"), "{live}");
    assert!(live.contains("5+3"), "{live}");
    // Both first moves are untimed: the clocks stand at five minutes each.
    assert!(live.contains("5:00 – 5:00"), "{live}");
    assert!(live.contains(" ago"), "{live}");
    assert!(live.contains("open seat: join"), "{live}");
    chrome.close().await;
    server.kill().await;
}

#[test]
fn chromium_is_taken_from_jungle_chromium_or_the_debian_path() {
    use crate::support::browser::{DEFAULT_CHROMIUM, chromium_path_from};
    assert_eq!(
        chromium_path_from(Some("/opt/chrome/chrome".into())),
        std::path::PathBuf::from("/opt/chrome/chrome")
    );
    assert_eq!(
        chromium_path_from(None),
        std::path::PathBuf::from(DEFAULT_CHROMIUM)
    );
    assert_eq!(
        chromium_path_from(Some("".into())),
        std::path::PathBuf::from(DEFAULT_CHROMIUM)
    );
}
