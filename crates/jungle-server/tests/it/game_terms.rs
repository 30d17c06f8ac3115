//! The terms of a game between people, in the browser: the home page's list, the game panel and the replay
//! say whether it is rated (and in which category), its time control, and how it moved the ratings.

use crate::lobby::seek_accepted_in_browser;
use crate::support::browser::{Chrome, click, click_move, eval, wait_until};
use crate::support::{start, temp_dir};

async fn text_of(page: &chromiumoxide::Page, id: &str) -> String {
    eval(
        page,
        &format!("document.getElementById('{id}').textContent"),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_lobby_game_says_rated_its_time_control_and_the_rating_change_everywhere() {
    let server = start(temp_dir("e2e-terms").join("games.db")).await;
    let chrome = Chrome::launch("terms", 1200, 900).await;
    let base = format!("http://{}", server.addr);
    let (alice, bob, _) = seek_accepted_in_browser(
        &chrome,
        &base,
        "document.getElementById('clock').value = '5+3'; document.getElementById('rated').value = 'true'; document.getElementById('colour').value = 'blue';",
    )
    .await;
    for page in [&alice, &bob] {
        wait_until(
            page,
            "document.getElementById('terms').textContent === 'Rated Blitz · 5+3'",
        )
        .await;
    }
    // One move each, then Bob resigns (two presses: the first only arms the button).
    for (ply, page) in [(0, &alice), (1, &bob)] {
        wait_until(page, "document.body.dataset.myturn === 'true'").await;
        let mv: String = eval(page, "window.jungle.state.legal[0]").await;
        click_move(page, &mv).await;
        wait_until(&alice, &format!("window.jungle.state.ply === {}", ply + 1)).await;
    }
    click(&bob, "#resign").await;
    click(&bob, "#resign").await;
    wait_until(
        &alice,
        "document.body.dataset.over === 'true' && document.getElementById('terms').textContent.includes('→')",
    )
    .await;
    let terms = text_of(&alice, "terms").await;
    assert!(
        terms.starts_with("Rated Blitz · 5+3 · Blitz ratings: Blue 1500? → ")
            && terms.contains("(+"),
        "{terms}"
    );
    let game: String = eval(&alice, "window.jungle.state.id").await;

    // The home page lists it as rated, not as a game between friends.
    alice.goto(format!("{base}/").as_str()).await.unwrap();
    wait_until(&alice, "document.querySelector('#recent li a')").await;
    let listed: String = eval(&alice, "document.querySelector('#recent li a').textContent").await;
    assert_eq!(listed, "alice vs bob (rated Blitz)");

    // The replay says the same as the game page did.
    alice
        .goto(format!("{base}/replay/{game}").as_str())
        .await
        .unwrap();
    wait_until(
        &alice,
        "document.getElementById('terms').textContent.includes('→')",
    )
    .await;
    assert_eq!(text_of(&alice, "terms").await, terms);

    // In 中文 too.
    alice
        .evaluate("localStorage.setItem('jungle-lang', 'zh'); location.reload()")
        .await
        .unwrap();
    // The English page's terms hold '→' too: wait for the reloaded page's (a Chinese word beside the arrow),
    // or the text could be read from the old page or while the new one is still empty.
    wait_until(
        &alice,
        "(() => { const terms = document.getElementById('terms'); \
         return terms !== null && terms.textContent.includes('→') && terms.textContent.includes('賽'); })()",
    )
    .await;
    let zh = text_of(&alice, "terms").await;
    assert!(zh.starts_with("閃電棋積分賽 · 5+3 · "), "{zh}");
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_casual_game_between_friends_says_casual_and_its_clock() {
    let server = start(temp_dir("e2e-terms-casual").join("games.db")).await;
    let chrome = Chrome::launch("terms-casual", 1200, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    page.evaluate("document.getElementById('clock').value = '3+2'")
        .await
        .unwrap();
    click(&page, "#play-friend").await;
    wait_until(
        &page,
        "window.jungle && window.jungle.state && document.getElementById('terms').textContent === 'Casual · 3+2'",
    )
    .await;
    chrome.close().await;
    server.kill().await;
}
