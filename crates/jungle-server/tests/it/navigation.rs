//! Finding one's way as a player: the signed-in name in every page's header, and the log-in page sending
//! the player back to where they came from (never to another site).

use crate::accounts::fill_and_submit;
use crate::lobby::sign_up_in_browser;
use crate::support::browser::{Chrome, click, eval, wait_until};
use crate::support::{start, temp_dir};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_names_the_signed_in_player_on_every_page() {
    let server = start(temp_dir("nav-header").join("games.db")).await;
    let chrome = Chrome::launch("nav-header", 1200, 900).await;
    let base = format!("http://{}", server.addr);
    let page = chrome.person(&format!("{base}/")).await;
    sign_up_in_browser(&page, "carol").await;
    for path in ["/", "/lobby", "/@/carol", "/puzzles", "/editor", "/account"] {
        page.goto(format!("{base}{path}").as_str()).await.unwrap();
        wait_until(
            &page,
            "document.getElementById('account-name') && document.getElementById('account-name').textContent === 'carol'",
        )
        .await;
        let href: String = eval(
            &page,
            "document.getElementById('account-name').getAttribute('href')",
        )
        .await;
        assert_eq!(href, "/@/carol", "on {path}");
    }
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_up_or_in_returns_to_the_page_it_was_asked_from_and_only_on_this_site() {
    let server = start(temp_dir("nav-return").join("games.db")).await;
    let chrome = Chrome::launch("nav-return", 1200, 900).await;
    let base = format!("http://{}", server.addr);

    // Sign up from the lobby's "Sign in": back in the lobby, signed in.
    let page = chrome.person(&format!("{base}/lobby?tab=seeks")).await;
    wait_until(&page, "document.getElementById('account-sign-in')").await;
    click(&page, "#account-sign-in").await;
    wait_until(
        &page,
        "location.pathname === '/login' && document.getElementById('signup')",
    )
    .await;
    fill_and_submit(
        &page,
        "signup",
        &[
            ("signup-name", "dora"),
            ("signup-password", "correct horse"),
        ],
    )
    .await;
    wait_until(
        &page,
        "location.pathname === '/lobby' && location.search === '?tab=seeks' && document.getElementById('account-name')",
    )
    .await;

    // Log out on the settings page, then log in from a player's page: back on that page.
    page.goto(format!("{base}/account").as_str()).await.unwrap();
    wait_until(&page, "document.getElementById('logout')").await;
    click(&page, "#logout").await;
    wait_until(&page, "location.pathname === '/'").await;
    page.goto(format!("{base}/@/dora").as_str()).await.unwrap();
    wait_until(&page, "document.getElementById('account-sign-in')").await;
    click(&page, "#account-sign-in").await;
    wait_until(&page, "document.getElementById('login')").await;
    fill_and_submit(
        &page,
        "login",
        &[("login-name", "dora"), ("login-password", "correct horse")],
    )
    .await;
    wait_until(
        &page,
        "location.pathname === '/@/dora' && document.getElementById('account-name')",
    )
    .await;

    // A `next` naming another site (in any of the spellings browsers read as a host) leads home instead.
    for next in [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "javascript:alert(1)",
        "/login",
    ] {
        let encoded: String = eval(
            &page,
            &format!("encodeURIComponent({})", serde_json::json!(next)),
        )
        .await;
        page.goto(format!("{base}/login?next={encoded}").as_str())
            .await
            .unwrap();
        wait_until(&page, "document.getElementById('login')").await;
        fill_and_submit(
            &page,
            "login",
            &[("login-name", "dora"), ("login-password", "correct horse")],
        )
        .await;
        wait_until(
            &page,
            &format!(
                "location.origin === {} && location.pathname === '/' && document.getElementById('account-name')",
                serde_json::json!(base)
            ),
        )
        .await;
    }
    chrome.close().await;
    server.kill().await;
}
