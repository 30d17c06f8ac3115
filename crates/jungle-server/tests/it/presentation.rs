//! What a player sees on the game page, in a real headless Chromium: the result banner, an outage, the board
//! on a phone, keyboard play and the announcements for screen readers.

use std::time::Duration;

use chromiumoxide::Page;

use crate::support::browser::{Chrome, click, click_move, eval, take_free_seat, wait_until};
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
    // Said plainly: a large badge in the top bar, and the status no longer claims it is the player's turn.
    assert_eq!(
        eval::<String>(&page, "document.getElementById('status').textContent").await,
        "Not connected: reconnecting…"
    );
    let badge: Vec<String> = eval(
        &page,
        "(() => { const s = getComputedStyle(document.getElementById('connection')); \
           return [s.fontSize, s.fontWeight, s.backgroundColor]; })()",
    )
    .await;
    assert!(
        badge[0].trim_end_matches("px").parse::<f64>().unwrap() >= 16.0,
        "{badge:?}"
    );
    assert_eq!(badge[1], "700", "{badge:?}");
    assert_ne!(badge[2], "rgba(0, 0, 0, 0)", "{badge:?}");
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

/// Presses a key on the page (a real key event to whatever has the focus).
async fn press(page: &Page, key: &str) {
    page.find_element("body")
        .await
        .unwrap()
        .press_key(key)
        .await
        .unwrap_or_else(|e| panic!("pressing {key}: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_pieces_ranks_and_coordinates_are_readable_and_the_ranks_follow_the_rules() {
    let server = start(temp_dir("e2e-phone").join("games.db")).await;
    let chrome = Chrome::launch("phone", 390, 844).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    page.evaluate("document.getElementById('preset').value = 'modern'")
        .await
        .unwrap();
    play_the_engine(&page, "0+0").await;
    wait_until(&page, "document.querySelectorAll('.piece').length === 16").await;

    // Text sizes in CSS pixels: the SVG font size times the board's scale on screen.
    let smallest: f64 = eval(
        &page,
        "(() => { const scale = document.querySelector('#board svg').getScreenCTM().a; \
         return Math.min(...[...document.querySelectorAll('.piece .name, .piece .rank, .coord')] \
           .map((el) => parseFloat(getComputedStyle(el).fontSize) * scale)); })()",
    )
    .await;
    assert!(
        smallest >= 11.0,
        "the smallest board text is {smallest:.1} CSS px"
    );
    let clashes: Vec<String> = eval(
        &page,
        "(() => { const hit = (a, b) => { a = a.getBoundingClientRect(); b = b.getBoundingClientRect(); \
           return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }; \
         const out = []; \
         for (const g of document.querySelectorAll('.piece')) \
           if (hit(g.querySelector('.rank'), g.querySelector('.zh'))) out.push('rank over character ' + g.dataset.animal); \
         for (const c of document.querySelectorAll('.coord')) for (const l of document.querySelectorAll('.terrain-label')) \
           if (hit(c, l)) out.push(c.textContent + ' over ' + l.textContent); \
         return out; })()",
    )
    .await;
    assert!(clashes.is_empty(), "overlapping labels: {clashes:?}");
    let small_targets: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('button, .button, .hit')] \
           .filter((el) => el.getClientRects().length) \
           .map((el) => [el.id || el.dataset.square || el.textContent, el.getBoundingClientRect()]) \
           .filter(([, r]) => r.width < 44 || r.height < 44).map(([name, r]) => `${name} ${r.width}x${r.height}`)",
    )
    .await;
    assert!(
        small_targets.is_empty(),
        "touch targets under 44 px: {small_targets:?}"
    );
    // The badges show the ranks of the game's rules: under `modern` the Tiger ranks with the Lion.
    let ranks: serde_json::Value = eval(&page, "window.jungle.state.board.ranks").await;
    assert_eq!(ranks["t"], ranks["l"]);
    let shown: Vec<(String, String)> = eval(
        &page,
        "[...document.querySelectorAll('.piece')].map((g) => [g.dataset.animal, g.querySelector('.rank').textContent])",
    )
    .await;
    for (animal, rank) in shown {
        assert_eq!(rank, ranks[&animal].to_string(), "the {animal}'s badge");
    }
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_with_the_keyboard_alone_and_moves_are_announced() {
    let server = start(temp_dir("e2e-keyboard").join("games.db")).await;
    let chrome = Chrome::launch("keyboard", 1200, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    play_the_engine(&page, "0+0").await;

    // The sides differ by shape as well as hue.
    let shapes: Vec<String> = eval(
        &page,
        "['blue', 'red'].map((side) => document.querySelector(`.piece.${side} .disc`).tagName)",
    )
    .await;
    assert_ne!(shapes[0], shapes[1]);

    // Everything the live region says, in order (the engine's answer may follow a move at once).
    page.evaluate(
        "window.said = []; const region = document.getElementById('announce'); \
         new MutationObserver(() => window.said.push(region.textContent)) \
           .observe(region, { childList: true, characterData: true, subtree: true });",
    )
    .await
    .unwrap();
    let focused_square = "document.activeElement && document.activeElement.dataset && document.activeElement.dataset.square || ''";
    for ply in 0..2u64 {
        wait_until(
            &page,
            &format!(
                "window.jungle.state.ply === {} && document.body.dataset.myturn === 'true'",
                ply * 2
            ),
        )
        .await;
        let mut tabs = 0;
        while eval::<String>(&page, focused_square).await.is_empty() {
            press(&page, "Tab").await;
            tabs += 1;
            assert!(tabs < 30, "Tab never reaches the board");
        }
        let mv: String = eval(&page, "window.jungle.state.legal[0]").await;
        for square in [&mv[0..2], &mv[2..4]] {
            // Walk there with the arrows (Blue's view: up is towards rank 9), then Enter.
            loop {
                let at: String = eval(&page, focused_square).await;
                let (df, dr) = (
                    i32::from(square.as_bytes()[0]) - i32::from(at.as_bytes()[0]),
                    i32::from(square.as_bytes()[1]) - i32::from(at.as_bytes()[1]),
                );
                let key = match (df.signum(), dr.signum()) {
                    (0, 0) => break,
                    (1, _) => "ArrowRight",
                    (-1, _) => "ArrowLeft",
                    (_, 1) => "ArrowUp",
                    _ => "ArrowDown",
                };
                press(&page, key).await;
            }
            if square == &mv[0..2] {
                let name: String =
                    eval(&page, "document.activeElement.getAttribute('aria-label')").await;
                assert!(
                    name.starts_with("Blue ") && name.contains(&format!(" on {square}")),
                    "the piece's accessible name: {name:?}"
                );
            }
            press(&page, "Enter").await;
        }
        wait_until(&page, &format!("window.jungle.state.ply > {}", ply * 2)).await;
        wait_until(
            &page,
            &format!(
                "window.said.some((text) => text.startsWith('Blue ') && text.includes('{} to {}'))",
                &mv[0..2],
                &mv[2..4]
            ),
        )
        .await;
    }
    // The live region is polite and names the mover.
    assert_eq!(
        eval::<String>(
            &page,
            "document.getElementById('announce').getAttribute('aria-live')"
        )
        .await,
        "polite"
    );
    chrome.close().await;
    server.kill().await;
}

/// Ann creates a friend game as Blue and Bo joins as Red: both pages, seated.
async fn friends(chrome: &Chrome, home: &str) -> (Page, Page) {
    let ann = chrome.person(home).await;
    ann.evaluate("document.getElementById('side').value = 'blue'")
        .await
        .unwrap();
    click(&ann, "#play-friend").await;
    wait_until(&ann, "window.jungle && window.jungle.seat === 'blue'").await;
    let link: String = eval(&ann, "location.href").await;
    let bo = chrome.person(&link).await;
    wait_until(&bo, "!document.getElementById('join').hidden").await;
    take_free_seat(&bo, "red").await;
    (ann, bo)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn premoves_sounds_the_tab_title_and_a_steppable_move_list() {
    let server = start(temp_dir("e2e-premove").join("games.db")).await;
    let chrome = Chrome::launch("premove", 1100, 850).await;
    let (ann, bo) = friends(&chrome, &format!("http://{}/", server.addr)).await;
    wait_until(&ann, "document.body.dataset.myturn === 'true'").await;
    // Before any move there is nothing to go back to: the keys that step through the moves show no
    // "Back to the game".
    for key in ["Home", "ArrowLeft", "ArrowRight", "End"] {
        press(&ann, key).await;
    }
    assert!(
        eval::<bool>(
            &ann,
            "document.getElementById('back-to-game').hidden && document.body.dataset.shown === '0'"
        )
        .await
    );
    assert!(
        eval::<String>(&ann, "document.title")
            .await
            .contains("Your turn")
    );
    assert!(
        !eval::<String>(&bo, "document.title")
            .await
            .contains("Your turn")
    );

    // Bo queues a move while Ann thinks, cancels it with a click on an empty square, queues another.
    let premove = "document.querySelector('[data-movable]') && [...document.querySelectorAll('[data-movable]')].map((el) => el.dataset.square)";
    wait_until(&bo, premove).await;
    let red_move = |from: &str| {
        // One square towards Blue (down the board for Red): a premove the first position allows.
        format!("{}{}", &from[0..1], from[1..2].parse::<u8>().unwrap() - 1)
    };
    let from = "a7"; // Red's Rat at the start
    let to = red_move(from);
    click(&bo, &format!("[data-square='{from}']")).await;
    click(&bo, &format!("[data-square='{to}']")).await;
    wait_until(&bo, &format!("window.jungle.premove === '{from}{to}'")).await;
    click(&bo, "[data-square='d5']").await;
    wait_until(&bo, "window.jungle.premove === null").await;
    click(&bo, &format!("[data-square='{from}']")).await;
    click(&bo, &format!("[data-square='{to}']")).await;
    wait_until(&bo, &format!("window.jungle.premove === '{from}{to}'")).await;
    assert_eq!(eval::<u64>(&bo, "window.jungle.state.ply").await, 0);
    // The queued move's squares look violet (as docs/server.md says), not grey: the mark's colour laid over
    // the land square under it, as the screen shows them.
    let seen: Vec<f64> = eval(
        &bo,
        "(() => { const rgb = (c) => c.match(/[\\d.]+/g).map(Number); \
           const mark = getComputedStyle(document.querySelectorAll('#board .premove')[1]); \
           const land = rgb(getComputedStyle(document.querySelector('#board .sq.land')).fill); \
           const a = Number(mark.fillOpacity) * Number(mark.opacity); \
           return rgb(mark.fill).slice(0, 3).map((c, i) => a * c + (1 - a) * land[i]); })()",
    )
    .await;
    let (red, green, blue) = (seen[0], seen[1], seen[2]);
    assert!(
        blue - green >= 40.0 && red - green >= 15.0,
        "premove mark {seen:?}"
    );

    // Ann moves: Bo's queued move is played at once, and both hear the moves.
    let sounds_before: u64 = eval(&ann, "window.jungle.sounds.played").await;
    let mv: String = eval(
        &ann,
        "window.jungle.state.legal.find((m) => m.startsWith('g3'))",
    )
    .await;
    click_move(&ann, &mv).await;
    wait_until(&ann, "window.jungle.state.ply === 2").await;
    assert_eq!(
        eval::<String>(&ann, "window.jungle.state.moves[1]").await,
        format!("{from}{to}")
    );
    wait_until(
        &ann,
        &format!("window.jungle.sounds.played === {}", sounds_before + 2),
    )
    .await;

    // Muted, no sound; the choice is remembered after a reload.
    click(&ann, "#mute").await;
    ann.reload().await.unwrap();
    wait_until(
        &ann,
        "window.jungle && window.jungle.state && window.jungle.state.ply === 2",
    )
    .await;
    assert_eq!(
        eval::<String>(
            &ann,
            "document.getElementById('mute').getAttribute('aria-pressed')"
        )
        .await,
        "true"
    );
    wait_until(&ann, "document.body.dataset.myturn === 'true'").await;
    let mv: String = eval(&ann, "window.jungle.state.legal[0]").await;
    click_move(&ann, &mv).await;
    wait_until(&ann, "window.jungle.state.ply === 3").await;
    assert_eq!(eval::<u64>(&ann, "window.jungle.sounds.played").await, 0);

    // The move list: a click shows that position, the arrow keys step, End comes back to the game.
    click(&ann, "#moves [data-ply='1']").await;
    wait_until(&ann, "document.body.dataset.shown === '1'").await;
    assert_eq!(
        eval::<String>(
            &ann,
            &format!("document.querySelector(\"[data-square='{from}']\").dataset.piece || ''")
        )
        .await,
        "red-rat",
        "after move 1 Red's piece is still on {from}"
    );
    assert_eq!(
        eval::<u64>(&ann, "document.querySelectorAll('[data-movable]').length").await,
        0
    );
    press(&ann, "ArrowLeft").await;
    wait_until(&ann, "document.body.dataset.shown === '0'").await;
    // Plain words, no symbol a bare font set may lack (⏭ showed as an empty box).
    assert_eq!(
        eval::<String>(&ann, "document.getElementById('back-to-game').hidden ? '' : document.getElementById('back-to-game').textContent").await,
        "Back to the game"
    );
    press(&ann, "ArrowRight").await;
    press(&ann, "ArrowRight").await;
    wait_until(&ann, "document.body.dataset.shown === '2'").await;
    press(&ann, "End").await;
    wait_until(
        &ann,
        "document.body.dataset.shown === '3' && document.getElementById('back-to-game').hidden",
    )
    .await;
    chrome.close().await;
    server.kill().await;
}

/// Every marked text of the page is filled from the dictionary (none empty, none a bare key).
async fn untranslated(page: &Page) -> Vec<String> {
    eval(
        page,
        "[...document.querySelectorAll('[data-i18n]')].map((el) => el.dataset.i18n + '=' + el.textContent) \
           .filter((pair) => { const text = pair.split('=')[1]; return !text.trim() || /^[a-z]+\\.[a-zA-Z0-9]+$/.test(text); })",
    )
    .await
}

async fn switch_language(page: &Page, code: &str) {
    page.evaluate(format!(
        "const s = document.getElementById('lang'); s.value = '{code}'; s.dispatchEvent(new Event('change'));"
    ))
    .await
    .unwrap();
    wait_until(
        page,
        &format!("document.readyState === 'complete' && document.getElementById('lang') && document.getElementById('lang').value === '{code}' && document.documentElement.lang.startsWith('{code}')"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_speak_english_and_chinese_and_remember_the_choice() {
    let server = start(temp_dir("e2e-i18n").join("games.db")).await;
    let chrome = Chrome::launch("i18n", 1200, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;
    wait_until(&page, "document.getElementById('lang')").await;
    let text = |id: &str| format!("document.getElementById('{id}').textContent");
    assert_eq!(
        eval::<String>(&page, &text("play-engine")).await,
        "Play the engine"
    );
    assert!(untranslated(&page).await.is_empty());

    switch_language(&page, "zh").await;
    wait_until(
        &page,
        "document.getElementById('play-engine').textContent === '與電腦對弈'",
    )
    .await;
    assert!(
        untranslated(&page).await.is_empty(),
        "{:?}",
        untranslated(&page).await
    );
    assert!(
        eval::<String>(&page, "document.querySelector('.how-to').textContent")
            .await
            .contains("獸穴")
    );
    assert_eq!(eval::<String>(&page, &text("puzzles-link")).await, "解謎題");
    // The lists' own words (a fresh server: every list says it is empty).
    wait_until(
        &page,
        "document.getElementById('live').textContent === '目前沒有進行中的對局。'",
    )
    .await;

    // The game page in Chinese: status, buttons, piece names on the board.
    play_the_engine(&page, "0+0").await;
    wait_until(&page, "document.body.dataset.myturn === 'true'").await;
    assert!(
        untranslated(&page).await.is_empty(),
        "{:?}",
        untranslated(&page).await
    );
    assert_eq!(eval::<String>(&page, &text("status")).await, "輪到你了。");
    assert_eq!(eval::<String>(&page, &text("resign")).await, "⚑ 認輸");
    let name: String = eval(
        &page,
        "document.querySelector(\"[data-square='a3']\").getAttribute('aria-label')",
    )
    .await;
    assert!(name.starts_with("藍方象"), "{name}");

    // Back to English on the game page: remembered by the next page too.
    switch_language(&page, "en").await;
    wait_until(&page, "window.jungle && window.jungle.state && document.getElementById('status').textContent === 'Your turn.'").await;
    assert_eq!(eval::<String>(&page, &text("resign")).await, "⚑ Resign");
    let replay: String = eval(&page, "location.href.replace('/game/', '/replay/')").await;
    page.goto(replay.as_str()).await.unwrap();
    wait_until(&page, "document.getElementById('analyse') && document.getElementById('analyse').textContent === 'Analyse this position'").await;
    assert!(
        untranslated(&page).await.is_empty(),
        "{:?}",
        untranslated(&page).await
    );

    // The board editor in Chinese: its labels, the palette's names and the server-checked verdict.
    switch_language(&page, "zh").await;
    wait_until(&page, "window.jungle && window.jungle.game").await;
    let summary: String = eval(&page, &text("summary")).await;
    assert!(
        summary.starts_with("藍方：") && summary.contains("進行中"),
        "{summary}"
    );
    page.goto(format!("http://{}/editor", server.addr).as_str())
        .await
        .unwrap();
    wait_until(&page, "document.body.dataset.valid === 'true'").await;
    assert!(
        untranslated(&page).await.is_empty(),
        "{:?}",
        untranslated(&page).await
    );
    assert_eq!(
        eval::<String>(&page, &text("play")).await,
        "從這裡與電腦對弈"
    );
    let verdict: String = eval(&page, &text("verdict")).await;
    assert!(verdict.starts_with("合法：輪到藍方"), "{verdict}");
    let pick: String = eval(
        &page,
        "document.querySelector(\"[data-pick='l']\").getAttribute('aria-label')",
    )
    .await;
    assert_eq!(pick, "紅方獅");
    chrome.close().await;
    server.kill().await;
}
