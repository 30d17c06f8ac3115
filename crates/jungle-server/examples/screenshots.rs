//! Takes the screenshots in docs/screenshots/ with headless Chromium:
//! `cargo run -p jungle-server --example screenshots -- [OUT_DIR]` (default `docs/screenshots`).
//!
//! Starts a server on a throwaway database, plays a few engine moves into a timed friend game, and
//! photographs the home page, that game in progress (desktop and phone sizes), its replay page with the
//! engine's analysis, the board editor and the sign-in page, in English and in Chinese (`-zh`; Chinese text needs a CJK font such as
//! `fonts-wqy-zenhei` or `fonts-noto-cjk`), and a Hidden Jungle game against the engine: its setup screen and
//! the game a few moves on (`hidden-setup.png`, `hidden.png`, in English), two lessons of /learn a move in,
//! desktop and phone, English and Chinese (`learn-LESSON[-phone][-zh].png`), and the puzzles: a solution
//! stepped on the board after a wrong move and a streak under way (`puzzle-solution*.png`, `puzzle-streak*.png`,
//! desktop in both languages and a phone in English). With a second argument `lessons` or `puzzles` only
//! those are taken.

#[path = "../tests/it/support/browser.rs"]
mod browser;

use std::time::Duration;

use browser::{Chrome, click, wait_until};
use chromiumoxide::page::ScreenshotParams;
use jungle_platform::puzzles::collection::PUZZLES;
use jungle_rules::Side;
use jungle_server::{Config, NewGame, Server};

/// Shows a page in a language (remembered as the page's switch does) and loads it again.
async fn speak(page: &chromiumoxide::Page, lang: &str) {
    page.evaluate(format!("localStorage.setItem('jungle-lang', '{lang}')"))
        .await
        .expect("the language is stored");
    page.reload().await.expect("the page reloads");
}

async fn shoot(page: &chromiumoxide::Page, path: &std::path::Path) {
    page.evaluate("window.scrollTo(0, 0)")
        .await
        .expect("scrolling");
    let png = page
        .screenshot(ScreenshotParams::builder().full_page(false).build())
        .await
        .expect("a screenshot");
    std::fs::write(path, png).expect("the screenshot is written");
    println!("wrote {}", path.display());
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let out = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/screenshots".to_string()),
    );
    std::fs::create_dir_all(&out).unwrap();
    let only = std::env::args().nth(2);
    let db = std::env::temp_dir().join(format!("jungle-shots-{}.db", std::process::id()));
    let config = Config {
        engine_threads: 2,
        ..Config::new("127.0.0.1:0".parse().unwrap(), db.clone())
    };
    let server = Server::bind(&config).await.expect("server starts");
    let addr = server.local_addr().unwrap();
    let hub = server.state.clone();
    tokio::spawn(async move { server.run().await });
    if let Some(only) = only.as_deref() {
        match only {
            "lessons" => shoot_lessons(addr, &out).await,
            "puzzles" => shoot_puzzles(addr, &out).await,
            other => panic!("no screenshots named {other:?} (lessons, puzzles)"),
        }
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        return;
    }
    shoot_lessons(addr, &out).await;

    // A timed friend game: the creator plays Red, the browser takes the free Blue seat. Both sides' moves
    // come from the engine, so the position looks like a real game.
    let timed = NewGame {
        opponent: "friend".into(),
        side: Some("red".into()),
        minutes: Some(5.0),
        increment: Some(3),
        ..NewGame::default()
    };
    let (room, _, _) = hub.create(&timed, None).unwrap();
    for ply in 0..14 {
        let game = room.lock().game.clone();
        let mv = jungle_search::best_move(&game, 8, Duration::from_millis(150)).unwrap();
        let side = if ply % 2 == 0 { Side::Blue } else { Side::Red };
        // The room checks the side to move; the seat tokens are the HTTP side's business.
        room.play(&hub.store, Some(side), &mv.to_string()).unwrap();
    }
    // Some other games for the home page's lists.
    for (opponent, level) in [("engine", Some(3)), ("friend", None), ("engine", Some(6))] {
        let request = NewGame {
            opponent: opponent.into(),
            level,
            side: Some("blue".into()),
            ..NewGame::default()
        };
        let (other, _, _) = hub.create(&request, None).unwrap();
        if level == Some(6) {
            other.resign(&hub.store, Some(Side::Blue)).unwrap();
        }
    }

    let chrome = Chrome::launch("screenshots", 1280, 860).await;
    let home = chrome.person(&format!("http://{addr}/")).await;
    wait_until(&home, "document.querySelectorAll('#live li a').length >= 2").await;
    let game_url = format!("http://{addr}/game/{}", room.id);
    let player = chrome.person(&game_url).await;
    // The free seat is taken with the Join button, as a person does.
    wait_until(&player, "!document.getElementById('join').hidden").await;
    click(&player, "#join-button").await;
    wait_until(
        &player,
        "window.jungle && window.jungle.state && window.jungle.seat === 'blue'",
    )
    .await;
    let replay = chrome
        .person(&format!("http://{addr}/replay/{}", room.id))
        .await;
    let editor = chrome.person(&format!("http://{addr}/editor")).await;
    let login = chrome.person(&format!("http://{addr}/login")).await;
    let phone = Chrome::launch("screenshots-phone", 390, 844).await;
    let small = phone.person(&game_url).await;

    for (lang, suffix) in [("en", ""), ("zh", "-zh")] {
        speak(&home, lang).await;
        wait_until(&home, "document.querySelectorAll('#live li a').length >= 2").await;
        shoot(&home, &out.join(format!("home{suffix}.png"))).await;

        speak(&player, lang).await;
        wait_until(
            &player,
            "window.jungle && window.jungle.seat === 'blue' && document.querySelector('[data-movable]')",
        )
        .await;
        // Show a selected piece with its legal targets.
        let from: String = browser::eval(
            &player,
            "document.querySelector('[data-movable]').dataset.square",
        )
        .await;
        click(&player, &format!("[data-square='{from}']")).await;
        wait_until(&player, "document.querySelector('[data-target]')").await;
        shoot(&player, &out.join(format!("game{suffix}.png"))).await;

        speak(&replay, lang).await;
        wait_until(&replay, "window.jungle && window.jungle.game").await;
        click(&replay, "#prev").await;
        click(&replay, "#analyse").await;
        wait_until(&replay, "!document.getElementById('analysis').hidden").await;
        // The engine's first depths: the bar, the arrow and the line are drawn.
        wait_until(
            &replay,
            "window.jungle.info && window.jungle.info.depth >= 6",
        )
        .await;
        shoot(&replay, &out.join(format!("replay{suffix}.png"))).await;

        speak(&editor, lang).await;
        wait_until(&editor, "document.body.dataset.valid === 'true'").await;
        shoot(&editor, &out.join(format!("editor{suffix}.png"))).await;

        speak(&login, lang).await;
        wait_until(&login, "document.getElementById('account-sign-in')").await;
        shoot(&login, &out.join(format!("login{suffix}.png"))).await;

        speak(&small, lang).await;
        wait_until(&small, "window.jungle && window.jungle.state").await;
        shoot(&small, &out.join(format!("game-phone{suffix}.png"))).await;
    }

    shoot_hidden(&chrome, addr, &out).await;
    shoot_puzzles(addr, &out).await;

    phone.close().await;
    chrome.close().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// A Hidden Jungle game against engine level 1, begun from the home page as a person does: the setup screen,
/// then the board after some moves toward the enemy den (attacks reveal pieces on the way).
async fn shoot_hidden(chrome: &Chrome, addr: std::net::SocketAddr, out: &std::path::Path) {
    let page = chrome.person(&format!("http://{addr}/")).await;
    speak(&page, "en").await;
    page.evaluate(
        "document.getElementById('level').value = '1'; document.getElementById('side').value = 'blue';",
    )
    .await
    .expect("the form is filled");
    click(&page, "#hidden").await;
    click(&page, "#play-engine").await;
    wait_until(
        &page,
        "window.jungle && window.jungle.state && window.jungle.state.phase === 'setup' && window.jungle.letters",
    )
    .await;
    shoot(&page, &out.join("hidden-setup.png")).await;
    click(&page, "#ready").await;
    for _ in 0..6 {
        wait_until(
            &page,
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'",
        )
        .await;
        // An attack when there is one (a reveal to show), else the legal move that ends nearest Red's den.
        let best: String = browser::eval(
            &page,
            "(() => { if (document.body.dataset.over === 'true') return ''; \
               const enemy = (m) => window.jungle.board.position.pieces[m.slice(2, 4)]?.side === 'red'; \
               const away = (m) => (enemy(m) ? -20 : 0) + Math.abs('abcdefg'.indexOf(m[2]) - 3) + 9 - Number(m[3]); \
               return [...window.jungle.state.legal].sort((a, b) => away(a) - away(b))[0]; })()",
        )
        .await;
        if best.is_empty() {
            break;
        }
        let ply: u64 = browser::eval(&page, "window.jungle.state.ply").await;
        browser::click_move(&page, &best).await;
        wait_until(&page, &format!("window.jungle.state.ply > {ply}")).await;
    }
    // Once a reveal's turning over has played (the page drops `flash` after it).
    wait_until(
        &page,
        "(document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true') && !window.jungle.flash",
    )
    .await;
    shoot(&page, &out.join("hidden.png")).await;
}

/// Two lessons one move in (the opponent's answer on the board, the status saying it), on a desktop window
/// and a phone's, in English and Chinese.
async fn shoot_lessons(addr: std::net::SocketAddr, out: &std::path::Path) {
    let desktop = Chrome::launch("screenshots-learn", 1280, 860).await;
    let phone = Chrome::launch("screenshots-learn-phone", 390, 844).await;
    for (chrome, size) in [(&desktop, ""), (&phone, "-phone")] {
        for (lesson, stage, first) in [("rat-and-elephant", 2, "c5c6"), ("jumps", 3, "b3c3")] {
            let url = format!("http://{addr}/learn/{lesson}?stage={stage}");
            let page = chrome.person(&url).await;
            for (lang, suffix) in [("en", ""), ("zh", "-zh")] {
                speak(&page, lang).await;
                wait_until(
                    &page,
                    &format!("window.jungle && window.jungle.stage && window.jungle.stage.stage === {stage}"),
                )
                .await;
                browser::click_move(&page, first).await;
                wait_until(
                    &page,
                    "window.jungle.moves.length === 1 && window.jungle.legal.length > 0",
                )
                .await;
                shoot(
                    &page,
                    &out.join(format!("learn-{lesson}{size}{suffix}.png")),
                )
                .await;
            }
        }
    }
    phone.close().await;
    desktop.close().await;
}

/// A legal first move of a puzzle that is neither its solution's nor a win at once: a mistake.
fn wrong_first_move(id: &str) -> Option<String> {
    let (puzzle, line) = PUZZLES.get(id)?;
    let start = line.start();
    start
        .legal_moves(&line.rules)
        .as_slice()
        .iter()
        .find(|&&m| {
            m.to_string() != puzzle.solution[0] && start.after(m).outcome(&line.rules).is_none()
        })
        .map(ToString::to_string)
}

/// Plays the solver's moves of the shown puzzle's solution, each reply awaited.
async fn solve_shown(page: &chromiumoxide::Page) {
    let id: String = browser::eval(page, "window.jungle.puzzle.id").await;
    let (puzzle, _) = PUZZLES.get(&id).expect("a puzzle of the collection");
    for (i, mv) in puzzle.solution.iter().enumerate().step_by(2) {
        browser::click_move(page, mv).await;
        if i + 1 < puzzle.solution.len() {
            wait_until(
                page,
                &format!(
                    "window.jungle.played.length === {} && window.jungle.legal.length > 0",
                    i + 2
                ),
            )
            .await;
        }
    }
}

/// The puzzle page after a wrong move with the solution stepped to its second move, and a streak two puzzles
/// in; desktop in both languages, a phone in English.
async fn shoot_puzzles(addr: std::net::SocketAddr, out: &std::path::Path) {
    // A puzzle with a line of at least five plies and a wrong first move.
    let (id, wrong) = PUZZLES
        .all()
        .iter()
        .filter(|(p, _)| p.solution.len() >= 5)
        .find_map(|(p, _)| wrong_first_move(&p.id).map(|w| (p.id.clone(), w)))
        .expect("a long puzzle with a wrong move");
    for (width, height, name, langs) in [
        (1200, 860, "", &[("en", ""), ("zh", "-zh")][..]),
        (390, 844, "-phone", &[("en", "")][..]),
    ] {
        let chrome = Chrome::launch(&format!("screenshots-puzzles{name}"), width, height).await;
        for (lang, suffix) in langs {
            let page = chrome.person(&format!("http://{addr}/puzzles/{id}")).await;
            speak(&page, lang).await;
            wait_until(
                &page,
                "window.jungle.puzzle && window.jungle.legal.length > 0",
            )
            .await;
            browser::click_move(&page, &wrong).await;
            wait_until(&page, "window.jungle.result === 'failed'").await;
            click(&page, "#view-solution").await;
            click(&page, "#solution-next").await;
            wait_until(
                &page,
                "document.querySelector('.arrow-layer').dataset.move !== ''",
            )
            .await;
            let path = out.join(format!("puzzle-solution{name}{suffix}.png"));
            if name.is_empty() {
                shoot(&page, &path).await;
            } else {
                // On a phone the list and buttons are under the board: the whole page.
                shoot_full(&page, &path).await;
            }

            let streak = chrome
                .person(&format!("http://{addr}/puzzles/streak"))
                .await;
            speak(&streak, lang).await;
            for solved in 1..=2 {
                wait_until(&streak, "window.jungle.puzzle && window.jungle.legal.length > 0 && window.jungle.result === null").await;
                solve_shown(&streak).await;
                wait_until(
                    &streak,
                    &format!("document.getElementById('streak-count').textContent === '{solved}'"),
                )
                .await;
            }
            wait_until(
                &streak,
                "window.jungle.streak.seen.length === 3 && window.jungle.legal.length > 0",
            )
            .await;
            shoot(
                &streak,
                &out.join(format!("puzzle-streak{name}{suffix}.png")),
            )
            .await;
        }
        chrome.close().await;
    }
}

async fn shoot_full(page: &chromiumoxide::Page, path: &std::path::Path) {
    let png = page
        .screenshot(ScreenshotParams::builder().full_page(true).build())
        .await
        .expect("a screenshot");
    std::fs::write(path, png).expect("the screenshot is written");
    println!("wrote {}", path.display());
}
