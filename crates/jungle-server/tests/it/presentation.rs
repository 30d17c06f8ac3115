//! What a player sees on the game page, in a real headless Chromium: the result banner, an outage, the board
//! on a phone, keyboard play and the announcements for screen readers.

use std::time::Duration;

use chromiumoxide::Page;

use crate::support::browser::{Chrome, click, click_move, eval, wait_until};
use crate::support::{IsolatedServer, start, temp_dir};

/// Starts a game against engine level 1 as Blue from the home page, with a clock like "5+3" ("0+0": none).
async fn play_the_engine(page: &Page, clock: &str) {
    page.evaluate(format!(
        "document.getElementById('level').value = '1'; document.getElementById('side').value = 'blue'; \
         document.getElementById('clock').value = '{clock}';"
    ))
    .await
    .unwrap();
    click(page, "#play-engine").await;
    wait_until(
        page,
        "location.pathname.startsWith('/game/') && window.jungle && window.jungle.state && window.jungle.seat === 'blue'",
    )
    .await;
}

/// Whether two elements' boxes on screen overlap.
async fn overlap(page: &Page, a: &str, b: &str) -> bool {
    eval(
        page,
        &format!(
            "(() => {{ const a = document.querySelector('{a}').getBoundingClientRect(); \
             const b = document.querySelector('{b}').getBoundingClientRect(); \
             return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }})()"
        ),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_result_banner_leaves_the_final_position_visible_and_can_be_closed() {
    let server = start(temp_dir("e2e-banner").join("games.db")).await;
    let chrome = Chrome::launch("banner", 1200, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    play_the_engine(&page, "0+0").await;
    wait_until(&page, "document.body.dataset.myturn === 'true'").await;
    let first: String = eval(&page, "window.jungle.state.legal[0]").await;
    click_move(&page, &first).await;
    wait_until(
        &page,
        "window.jungle.state.ply === 2 && document.body.dataset.myturn === 'true'",
    )
    .await;
    let pieces: u64 = eval(
        &page,
        "document.querySelectorAll('#board [data-piece]').length",
    )
    .await;
    click(&page, "#resign").await;
    click(&page, "#resign").await;
    wait_until(&page, "!document.getElementById('banner').hidden").await;
    assert!(
        !overlap(&page, "#banner", "#board svg").await,
        "the banner must not cover the board"
    );
    click(&page, "#banner-close").await;
    wait_until(&page, "document.getElementById('banner').hidden").await;
    // The final position stays on the board, and the banner stays closed when the state comes again.
    assert_eq!(
        eval::<u64>(
            &page,
            "document.querySelectorAll('#board [data-piece]').length"
        )
        .await,
        pieces
    );
    page.reload().await.unwrap();
    wait_until(&page, "window.jungle && window.jungle.state").await;
    wait_until(&page, "!document.getElementById('banner').hidden").await;
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_offline_a_move_is_refused_on_screen_and_the_clocks_stand_still() {
    let server = IsolatedServer::start(temp_dir("e2e-offline").join("games.db"));
    let chrome = Chrome::launch("offline", 1200, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    play_the_engine(&page, "5+3").await;
    wait_until(&page, "document.body.dataset.myturn === 'true'").await;
    let first: String = eval(&page, "window.jungle.state.legal[0]").await;
    click_move(&page, &first).await;
    // The engine answers: Blue's clock runs.
    wait_until(
        &page,
        "window.jungle.state.ply === 2 && document.body.dataset.myturn === 'true'",
    )
    .await;
    let mv: String = eval(&page, "window.jungle.state.legal[0]").await;

    server.kill();
    wait_until(
        &page,
        "document.getElementById('connection').classList.contains('offline')",
    )
    .await;
    let clock = "document.querySelector('#player-bottom .clock').textContent";
    let before: String = eval(&page, clock).await;
    // Long enough for a running clock to show another second; nothing is timed.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        eval::<String>(&page, clock).await,
        before,
        "the clock stands still while the server cannot be reached"
    );

    let piece_on = |square: &str| {
        format!("document.querySelector(\"[data-square='{square}']\").dataset.piece || ''")
    };
    let (from, to) = (&mv[0..2], &mv[2..4]);
    let mover: String = eval(&page, &piece_on(from)).await;
    let target: String = eval(&page, &piece_on(to)).await;
    click(&page, &format!("[data-square='{from}']")).await;
    click(&page, &format!("[data-square='{to}']")).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(eval::<String>(&page, &piece_on(from)).await, mover);
    assert_eq!(eval::<String>(&page, &piece_on(to)).await, target);
    assert_eq!(
        eval::<u64>(&page, "document.querySelectorAll('[data-movable]').length").await,
        0,
        "no move is offered while offline"
    );
    chrome.close().await;
}
