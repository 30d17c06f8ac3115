//! Tournaments in the browser: two accounts play a whole 3-round Swiss event to its podium (a third entrant
//! plays through the API: with two players there is no second round without a rematch) and an arena to its
//! podium — created with the form, joined with the button, sent to each game by the tournament's page, back
//! through the game page's link to the tournament.

use chromiumoxide::Page;

use crate::lobby::{Person, sign_up_in_browser};
use crate::support::browser::{Chrome, click, eval, wait_until};
use crate::support::{start_config, temp_dir};
use crate::tournaments::{config, resign, round_game, start_now};

/// The tournament id of the page's address (`/tournaments/ID`).
async fn page_tournament(page: &Page) -> String {
    wait_until(page, "/^\\/tournaments\\/[^/]+$/.test(location.pathname)").await;
    eval(page, "location.pathname.split('/').pop()").await
}

/// The page is sent to game `game` by its tournament's page.
async fn sent_to(page: &Page, game: &str) {
    wait_until(page, &format!("location.pathname === '/game/{game}'")).await;
}

/// Opens the tournaments page and waits until its creation form is drawn in the page's language.
async fn open_creation_form(page: &Page, base: &str) {
    page.goto(format!("{base}/tournaments")).await.unwrap();
    wait_until(
        page,
        "document.querySelector('#tour-kind option').textContent.length > 0",
    )
    .await;
}

/// Resigns on the game page with the button's two clicks (the first arms it, the second confirms). The
/// clicks are the button's own, not the mouse's: a mouse click is aimed where the button was just measured,
/// and the panel moves under it now and then (the result banner pushes the controls down the moment a
/// resignation takes, and a repeated click then landed on the replay link and left the game's page). Real
/// mouse clicks on the resign button are covered by the game pages' own tests. The button is used only
/// while the page is connected, so the resignation is sent; the test then waits for the result, or for the
/// connection to drop before it came, and tries again.
async fn resign_on_page(page: &Page) {
    wait_until(page, "!document.getElementById('resign').disabled").await;
    let deadline = tokio::time::Instant::now() + crate::support::PATIENCE;
    loop {
        // One script looks and acts, so nothing changes between the two. The page may be between documents
        // or still drawing: no banner yet reads as not over, and no button as not yet resignable.
        let step: String = eval(
            page,
            "(() => { const banner = document.getElementById('banner'); \
             if (banner && !banner.hidden) return 'over'; \
             const button = document.getElementById('resign'); const view = window.jungle; \
             const online = !!view && !!view.socket && view.socket.readyState === WebSocket.OPEN; \
             if (!button || button.hidden || button.disabled || !online) return 'not yet'; \
             button.click(); button.click(); return 'sent'; })()",
        )
        .await;
        match step.as_str() {
            "over" => return,
            "sent" => {
                wait_until(
                    page,
                    "!document.getElementById('banner').hidden || \
                     window.jungle.socket.readyState !== WebSocket.OPEN",
                )
                .await
            }
            _ => {}
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert!(
            tokio::time::Instant::now() < deadline,
            "the resignation never took"
        );
    }
}

/// Once the game is over on the page, goes back to the tournament through the game's link, which says
/// `link_text`. The tournament's page may send the player on to their next game at once, so what is
/// awaited is only that the game's page was left.
async fn back_to_tournament(page: &Page, link_text: &str) {
    wait_until(page, "!document.getElementById('banner').hidden").await;
    wait_until(
        page,
        &format!(
            "!document.getElementById('tournament-link').hidden && \
             document.getElementById('tournament-link').textContent === {}",
            serde_json::to_string(link_text).unwrap()
        ),
    )
    .await;
    let game: String = eval(page, "location.pathname").await;
    // The link's own click (the result banner may cover it on a small window).
    page.evaluate("document.getElementById('tournament-link').click()")
        .await
        .unwrap();
    wait_until(page, &format!("location.pathname !== '{game}'")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_a_swiss_event_and_an_arena_to_the_podium() {
    let server = start_config(&config(temp_dir("tour-browser").join("games.db"))).await;
    let addr = server.addr;
    let base = format!("http://{addr}");
    let chrome = Chrome::launch("tournaments", 1100, 900).await;
    let ann = chrome.person(&format!("{base}/")).await;
    sign_up_in_browser(&ann, "annpage").await;
    let bob = chrome.person(&format!("{base}/")).await;
    sign_up_in_browser(&bob, "bobpage").await;
    let cid = Person::sign_up(addr, "cidapi").await;
    let pages = [(&ann, "annpage"), (&bob, "bobpage")];

    // Ann creates a 3-round Swiss with the form, starting in an hour.
    open_creation_form(&ann, &base).await;
    ann.evaluate(
        "document.getElementById('tour-name').value = 'Friday Swiss'; \
         document.getElementById('tour-rounds').value = '3'; \
         document.getElementById('tour-start-in').value = '60';",
    )
    .await
    .unwrap();
    click(&ann, "#create-tour").await;
    let id = page_tournament(&ann).await;
    let url = format!("{base}/tournaments/{id}");
    wait_until(
        &ann,
        "document.getElementById('tour-countdown').textContent.length > 0",
    )
    .await;
    // Bob joins with the button; the third entrant through the API.
    bob.goto(url.as_str()).await.unwrap();
    wait_until(&bob, "!document.getElementById('join').hidden").await;
    click(&bob, "#join").await;
    let (status, _, answer) = cid
        .send(addr, "POST", &format!("/api/tournaments/{id}/join"), "")
        .await;
    assert_eq!(status, 204, "{answer}");
    wait_until(
        &ann,
        "document.querySelectorAll('#standings tr').length === 3",
    )
    .await;
    start_now(&server, &id);

    for round in 1..=3u64 {
        let game = round_game(addr, &cid, &id, round).await;
        let game_id = game["id"].as_str().unwrap().to_string();
        let (blue, red) = (
            game["blue"].as_str().unwrap(),
            game["red"].as_str().unwrap(),
        );
        let playing: Vec<&Page> = pages
            .iter()
            .filter(|(_, name)| *name == blue || *name == red)
            .map(|(page, _)| *page)
            .collect();
        for page in &playing {
            sent_to(page, &game_id).await;
        }
        // Red resigns: on the page, or through the API for the third entrant.
        match pages.iter().find(|(_, name)| *name == red) {
            Some((page, _)) => resign_on_page(page).await,
            None => resign(addr, &cid, &game_id).await,
        }
        for page in &playing {
            back_to_tournament(page, &format!("Round {round} of Friday Swiss")).await;
        }
    }
    for (page, _) in pages {
        wait_until(
            page,
            "!document.getElementById('podium-card').hidden && \
             document.querySelectorAll('#podium li').length === 3",
        )
        .await;
    }
    let podium: Vec<String> = eval(
        &ann,
        "[...document.querySelectorAll('#podium li')].map((li) => li.dataset.player)",
    )
    .await;
    let mut entrants = podium.clone();
    entrants.sort();
    assert_eq!(entrants, ["annpage", "bobpage", "cidapi"], "{podium:?}");

    // An arena: created with the form (starting now), joined by Bob, two games, then its time is up.
    open_creation_form(&ann, &base).await;
    ann.evaluate(
        "document.getElementById('tour-name').value = 'Quick arena'; \
         const kind = document.getElementById('tour-kind'); kind.value = 'arena'; \
         kind.dispatchEvent(new Event('change')); \
         document.getElementById('tour-length').value = '5'; \
         document.getElementById('tour-clock').value = '1+0'; \
         document.getElementById('tour-start-in').value = '0';",
    )
    .await
    .unwrap();
    click(&ann, "#create-tour").await;
    let arena = page_tournament(&ann).await;
    bob.goto(format!("{base}/tournaments/{arena}"))
        .await
        .unwrap();
    wait_until(&bob, "!document.getElementById('join').hidden").await;
    click(&bob, "#join").await;
    for game_number in 1..=2u64 {
        let game = round_game(addr, &cid, &arena, game_number).await;
        let game_id = game["id"].as_str().unwrap().to_string();
        for (page, _) in pages {
            sent_to(page, &game_id).await;
        }
        if game_number == 2 {
            // The arena's time is up during its second game (its start moved to long ago): that game still
            // counts.
            start_now(&server, &arena);
        }
        let red = game["red"].as_str().unwrap();
        let (red_page, _) = pages.iter().find(|(_, name)| *name == red).unwrap();
        resign_on_page(red_page).await;
        for (page, _) in pages {
            back_to_tournament(page, "A game of Quick arena").await;
        }
    }
    for (page, _) in pages {
        wait_until(
            page,
            "!document.getElementById('podium-card').hidden && \
             document.querySelectorAll('#podium li').length === 2",
        )
        .await;
    }
    let games: usize = eval(&ann, "document.querySelectorAll('#games li').length").await;
    assert_eq!(games, 2, "nothing paired after the end");
    chrome.close().await;
}
