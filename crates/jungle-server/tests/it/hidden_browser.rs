//! Hidden Jungle in a real headless Chromium (docs/hidden.md, "Web"): the home page's Hidden choice, the
//! setup screen, face-down enemy pieces, reveals on both players' pages, and no unrevealed enemy animal
//! anywhere in the page's DOM.

use std::collections::HashMap;

use chromiumoxide::Page;
use serde_json::Value;

use crate::support::browser::{Chrome, click, click_move, eval, wait_until};
use crate::support::{start, temp_dir};

/// Each animal's letter, the page's language-independent id (`data-piece="red-lion"`) and English name.
const ANIMALS: [(char, &str, &str); 8] = [
    ('e', "elephant", "Elephant"),
    ('l', "lion", "Lion"),
    ('t', "tiger", "Tiger"),
    ('p', "leopard", "Leopard"),
    ('d', "dog", "Dog"),
    ('w', "wolf", "Wolf"),
    ('c', "cat", "Cat"),
    ('r', "rat", "Rat"),
];

/// The pieces of a FEN's placement by square ("a1" → 'T').
fn pieces(fen: &str) -> HashMap<String, char> {
    let mut map = HashMap::new();
    let placement = fen.split_whitespace().next().unwrap();
    for (row, text) in placement.split('/').enumerate() {
        let rank = 9 - row;
        let mut file = 0u8;
        for ch in text.chars() {
            if let Some(empty) = ch.to_digit(10) {
                file += empty as u8;
            } else {
                map.insert(format!("{}{rank}", char::from(b'a' + file)), ch);
                file += 1;
            }
        }
    }
    map
}

/// Every way the page could name a `side` animal: its piece id, its spoken square label ("Red Lion on c7"),
/// a reveal's words ("Red's Lion"), or a drawn piece of that side with the animal's letter.
fn mentions(dom: &str, side: &str, letter: char) -> Vec<String> {
    let (_, id, name) = ANIMALS.iter().find(|(l, _, _)| *l == letter).unwrap();
    let side_word = if side == "red" { "Red" } else { "Blue" };
    let mut found: Vec<String> = [
        format!("{side}-{id}"),
        format!("{side_word} {name}"),
        format!("{side_word}'s {name}"),
    ]
    .into_iter()
    .filter(|needle| dom.contains(needle.as_str()))
    .collect();
    // A drawn piece: <g class="piece red …" data-animal="l" …>.
    let opening = format!("class=\"piece {side}");
    for (at, _) in dom.match_indices(&opening) {
        let rest = &dom[at..];
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        if tag.contains(&format!("data-animal=\"{letter}\"")) {
            found.push(tag.to_string());
        }
    }
    found
}

/// What the page shows now: its state's ply and view FEN, and the whole DOM.
async fn snapshot(page: &Page) -> (u64, String, String) {
    let (ply, fen, dom): (u64, String, String) = eval(
        page,
        "[window.jungle.state.ply, window.jungle.state.fen, document.documentElement.outerHTML]",
    )
    .await;
    (ply, fen, dom)
}

/// The seat's state as the server sends it to this page's cookie (GET /api/hidden/ID).
async fn served_state(page: &Page, id: &str) -> Value {
    let text: String = eval(
        page,
        &format!("fetch('/api/hidden/{id}').then((r) => r.text())"),
    )
    .await;
    serde_json::from_str(&text).unwrap()
}

/// Asserts the board draws exactly the pieces of the view FEN — each known animal as itself, each `X`/`x` face
/// down (`blue-unknown`, `red-unknown`) — and that no face-down piece shows a character.
async fn assert_drawn_as_served(page: &Page, fen: &str) {
    let expected: HashMap<String, String> = pieces(fen)
        .into_iter()
        .map(|(square, letter)| {
            let side = if letter.is_ascii_uppercase() {
                "blue"
            } else {
                "red"
            };
            let id = ANIMALS
                .iter()
                .find(|(l, _, _)| *l == letter.to_ascii_lowercase())
                .map_or("unknown", |(_, id, _)| id);
            (square, format!("{side}-{id}"))
        })
        .collect();
    let drawn: HashMap<String, String> = eval(
        page,
        "Object.fromEntries([...document.querySelectorAll('#board [data-piece]')].map((e) => [e.dataset.square, e.dataset.piece]))",
    )
    .await;
    assert_eq!(drawn, expected, "the board draws {fen}");
    let faces: u64 = eval(
        page,
        "document.querySelectorAll('#board .piece.face-down .zh, #board .piece.face-down .name').length",
    )
    .await;
    assert_eq!(faces, 0, "a face-down piece shows no animal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_game_against_the_engine_shows_no_enemy_animal_before_its_reveal() {
    let server = start(temp_dir("e2e-hidden-engine").join("games.db")).await;
    let chrome = Chrome::launch("hidden-engine", 1200, 900).await;
    let page = chrome.person(&format!("http://{}/", server.addr)).await;

    page.evaluate(
        "document.getElementById('level').value = '1'; document.getElementById('side').value = 'blue';",
    )
    .await
    .unwrap();
    click(&page, "#hidden").await;
    wait_until(&page, "document.getElementById('clock-field').hidden").await;
    click(&page, "#play-engine").await;
    wait_until(
        &page,
        "location.pathname.startsWith('/hidden/') && window.jungle && window.jungle.state \
         && window.jungle.state.phase === 'setup' && window.jungle.state.you === 'blue' && window.jungle.letters",
    )
    .await;
    let id: String = eval(&page, "window.jungle.state.id").await;

    // The setup screen: Blue's animals on a1 g1 b2 f2 a3 c3 e3 g3 (the order of a setup's letters); a click on
    // a1 and then on g1 swaps their animals.
    // The enemy's pieces are face down from the start.
    let fen: String = eval(&page, "window.jungle.state.fen").await;
    assert_drawn_as_served(&page, &fen).await;
    let before: String = eval(&page, "window.jungle.letters").await;
    assert_eq!(before.len(), 8, "{before}");
    click_move(&page, "a1g1").await;
    let mut expected: Vec<char> = before.chars().collect();
    expected.swap(0, 1);
    let expected: String = expected.into_iter().collect();
    wait_until(&page, &format!("window.jungle.letters === '{expected}'")).await;
    let id_of = |letter: char| {
        ANIMALS
            .iter()
            .find(|(l, _, _)| *l == letter.to_ascii_lowercase())
            .unwrap()
            .1
    };
    let on_a1: String = eval(
        &page,
        "document.querySelector(\"[data-square='a1']\").dataset.piece",
    )
    .await;
    assert_eq!(
        on_a1,
        format!("blue-{}", id_of(expected.chars().next().unwrap()))
    );

    click(&page, "#ready").await;
    wait_until(&page, "window.jungle.state.phase !== 'setup'").await;
    assert_eq!(
        served_state(&page, &id).await["setup"],
        Value::from(expected.clone()),
        "the server plays the setup arranged on screen"
    );

    // Moves by clicking until the engine has answered a few times; the page as it stood after each is kept.
    let mut seen = Vec::new();
    while seen.len() < 4 {
        wait_until(
            &page,
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'",
        )
        .await;
        if eval::<bool>(&page, "document.body.dataset.over === 'true'").await {
            break;
        }
        let state = served_state(&page, &id).await;
        let shown = snapshot(&page).await;
        assert_eq!(
            shown.1,
            state["fen"].as_str().unwrap(),
            "the page draws the served view"
        );
        assert_drawn_as_served(&page, &shown.1).await;
        assert!(
            shown.2.contains("data-piece=\"red-unknown\""),
            "the DOM names each drawn piece, as the checks below read it"
        );
        seen.push(shown);
        let legal: Vec<String> = eval(&page, "window.jungle.state.legal").await;
        let ply: u64 = eval(&page, "window.jungle.state.ply").await;
        click_move(&page, &legal[0]).await;
        wait_until(&page, &format!("window.jungle.state.ply > {ply}")).await;
    }
    assert!(
        seen.iter().any(|(ply, _, _)| *ply >= 2),
        "the engine answered"
    );

    // Blue resigns; now both setups and every animal are shown, and the replay steps through the game.
    if !eval::<bool>(&page, "document.body.dataset.over === 'true'").await {
        click(&page, "#resign").await;
        click(&page, "#resign").await;
    }
    wait_until(&page, "!document.getElementById('banner').hidden").await;
    let state = served_state(&page, &id).await;
    assert_eq!(state["setups"]["blue"], Value::from(expected.clone()));
    let red_setup = state["setups"]["red"].as_str().unwrap().to_string();
    let banner: String = eval(&page, "document.getElementById('setups').innerText").await;
    for letter in red_setup.chars() {
        let name = ANIMALS
            .iter()
            .find(|(l, _, _)| *l == letter.to_ascii_lowercase())
            .unwrap()
            .2;
        assert!(
            banner.contains(name),
            "the banner shows Red's setup: {banner}"
        );
    }

    // What Blue's page held at each moment named none of Red's animals still face down then: the truth of
    // that ply is the finished game's position, which shows everything.
    let positions: Vec<String> = serde_json::from_value(state["positions"].clone()).unwrap();
    for (ply, view_fen, dom) in &seen {
        let truth = pieces(&positions[*ply as usize]);
        let view = pieces(view_fen);
        for (square, seen_there) in &view {
            if *seen_there != 'x' {
                continue;
            }
            let animal = truth[square];
            let named = mentions(dom, "red", animal);
            assert!(
                named.is_empty(),
                "ply {ply}: Red's face-down piece on {square} ({animal}) is named in the page: {named:?}"
            );
        }
    }

    // The replay: a click on Blue's first move shows the position after it, with everything shown.
    click(&page, "#moves [data-ply='1']").await;
    wait_until(&page, "document.body.dataset.shown === '1'").await;
    let drawn: String = eval(&page, "window.jungle.board.fen").await;
    assert_eq!(
        drawn.split_whitespace().next(),
        positions[1].split_whitespace().next()
    );
    assert_eq!(
        eval::<u64>(
            &page,
            "document.querySelectorAll(\"#board [data-piece$='-unknown']\").length"
        )
        .await,
        0,
        "after the end nothing is face down"
    );
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attack_between_friends_reveals_both_animals_on_both_pages() {
    let server = start(temp_dir("e2e-hidden-friends").join("games.db")).await;
    let chrome = Chrome::launch("hidden-friends", 1100, 850).await;
    let ann = chrome.person(&format!("http://{}/", server.addr)).await;
    ann.evaluate("document.getElementById('side').value = 'blue'")
        .await
        .unwrap();
    click(&ann, "#hidden").await;
    click(&ann, "#play-friend").await;
    wait_until(
        &ann,
        "window.jungle && window.jungle.state && window.jungle.state.you === 'blue' \
         && !document.getElementById('share').hidden",
    )
    .await;
    let link: String = eval(&ann, "document.getElementById('share-link').value").await;
    assert!(link.contains("/hidden/"), "{link}");

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
    click(&bo, "#join-button").await;
    wait_until(
        &bo,
        "window.jungle.state.you === 'red' && window.jungle.state.phase === 'setup' && window.jungle.letters",
    )
    .await;
    // Red sees the board from its side, and Blue's pieces face down.
    assert!(eval::<bool>(&bo, "window.jungle.board.flipped").await);
    let fen: String = eval(&bo, "window.jungle.state.fen").await;
    assert_drawn_as_served(&bo, &fen).await;

    // Bo shuffles his animals, then both are ready; each page says when the other side is.
    click(&bo, "#shuffle").await;
    click(&bo, "#ready").await;
    wait_until(
        &ann,
        "document.querySelector('#player-top .ready').textContent !== ''",
    )
    .await;
    click(&ann, "#ready").await;
    for page in [&ann, &bo] {
        wait_until(page, "window.jungle.state.phase === 'play'").await;
    }

    // Blue's a3 piece walks up the a-file and Red's a7 piece comes down to attack it on a5: whatever the two
    // animals are, the attack shows both.
    for (ply, mover, mv) in [
        (0, &ann, "a3a4"),
        (1, &bo, "a7a6"),
        (2, &ann, "a4a5"),
        (3, &bo, "a6a5"),
    ] {
        wait_until(
            mover,
            &format!(
                "window.jungle.state.ply === {ply} && document.body.dataset.myturn === 'true'"
            ),
        )
        .await;
        click_move(mover, mv).await;
    }
    for page in [&ann, &bo] {
        wait_until(page, "window.jungle.state.ply === 4").await;
    }
    let attack: String = eval(&ann, "window.jungle.state.moves[3]").await;
    let (attacker, effect, defender) = {
        let tail = attack
            .strip_prefix("a6a5=")
            .expect("an attack names its attacker");
        let mut chars = tail.chars();
        (
            chars.next().unwrap().to_ascii_lowercase(),
            chars.next().unwrap(),
            chars.next().unwrap().to_ascii_lowercase(),
        )
    };
    let name = |letter: char| ANIMALS.iter().find(|(l, _, _)| *l == letter).unwrap().2;
    for page in [&ann, &bo] {
        wait_until(page, "!document.getElementById('reveal').hidden").await;
        let words: String = eval(page, "document.getElementById('reveal').innerText").await;
        assert!(
            words.contains(&format!("Red's {}", name(attacker))) && words.contains(name(defender)),
            "{attack}: {words}"
        );
    }
    for page in [&ann, &bo] {
        let fen: String = eval(page, "window.jungle.state.fen").await;
        assert_drawn_as_served(page, &fen).await;
    }
    // The piece left on a5 is drawn with its animal on both pages.
    let (side, survivor) = if effect == 'x' {
        ("red", attacker)
    } else {
        ("blue", defender)
    };
    let id = ANIMALS.iter().find(|(l, _, _)| *l == survivor).unwrap().1;
    for page in [&ann, &bo] {
        assert_eq!(
            eval::<String>(
                page,
                "document.querySelector(\"[data-square='a5']\").dataset.piece"
            )
            .await,
            format!("{side}-{id}")
        );
    }

    // In Chinese, after a reload: the attack is still said, in Chinese, and the seat is kept.
    bo.evaluate("localStorage.setItem('jungle-lang', 'zh')")
        .await
        .unwrap();
    bo.reload().await.unwrap();
    wait_until(
        &bo,
        "window.jungle.state && window.jungle.state.you === 'red' && !document.getElementById('reveal').hidden",
    )
    .await;
    let words: String = eval(&bo, "document.getElementById('reveal').innerText").await;
    assert!(
        words.starts_with("紅方的") && words.contains("進攻"),
        "{words}"
    );
    assert_eq!(
        eval::<String>(&bo, "document.getElementById('resign').textContent").await,
        "⚑ 認輸"
    );
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signed_in_players_of_a_hidden_game_are_named_by_their_accounts() {
    use crate::lobby::sign_up_in_browser;
    let server = start(temp_dir("e2e-hidden-names").join("games.db")).await;
    let chrome = Chrome::launch("hidden-names", 1100, 850).await;
    let home = format!("http://{}/", server.addr);
    let ann = chrome.person(&home).await;
    sign_up_in_browser(&ann, "annika").await;
    ann.evaluate("document.getElementById('side').value = 'blue'")
        .await
        .unwrap();
    click(&ann, "#hidden").await;
    click(&ann, "#play-friend").await;
    wait_until(
        &ann,
        "window.jungle && window.jungle.state && window.jungle.state.you === 'blue' \
         && !document.getElementById('share').hidden",
    )
    .await;
    assert_eq!(
        eval::<String>(
            &ann,
            "document.querySelector('#player-bottom .name').textContent"
        )
        .await,
        "annika (you)"
    );
    let link: String = eval(&ann, "document.getElementById('share-link').value").await;

    // Bo, signed in too, joins: each page names both accounts; a guest watching sees the same names.
    let bo = chrome.person(&home).await;
    sign_up_in_browser(&bo, "bohdan").await;
    bo.goto(link.as_str()).await.unwrap();
    wait_until(
        &bo,
        "window.jungle && window.jungle.state && !document.getElementById('join').hidden",
    )
    .await;
    click(&bo, "#join-button").await;
    wait_until(&bo, "window.jungle.state.you === 'red'").await;
    for page in [&ann, &bo] {
        wait_until(
            page,
            "window.jungle.state.players.blue === 'annika' && window.jungle.state.players.red === 'bohdan'",
        )
        .await;
    }
    assert_eq!(
        eval::<String>(
            &bo,
            "document.querySelector('#player-bottom .name').textContent"
        )
        .await,
        "bohdan (you)"
    );
    let watcher = chrome.person(&link).await;
    wait_until(
        &watcher,
        "window.jungle && window.jungle.state && window.jungle.state.players.red === 'bohdan'",
    )
    .await;
    // The record names them too.
    let pgn: String = eval(&watcher, "fetch(location.pathname.replace('/hidden/', '/api/hidden/') + '/pgn').then((r) => r.text())").await;
    assert!(
        pgn.contains("[White \"annika\"]") && pgn.contains("[Black \"bohdan\"]"),
        "{pgn}"
    );
    chrome.close().await;
    server.kill().await;
}
