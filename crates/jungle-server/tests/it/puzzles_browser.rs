//! The puzzle pages in Chromium: a wrong move throws nothing and offers a retry and the solution, stepped on
//! the board in animal notation; the theme picker; the streak; the puzzle history on the profile. In English
//! and in 中文.

use chromiumoxide::Page;
use jungle_platform::puzzles::collection::PUZZLES;

use crate::puzzle_streak::failable;
use crate::puzzles::{
    assert_animal_notation, post_moves, puzzle_with, sign_up, solve, wrong_first_move,
};
use crate::support::browser::{Chrome, click, click_move, eval, wait_until};
use crate::support::{start, temp_dir};

/// Collects the page's uncaught errors (thrown in an event handler or a promise) in `window.pageErrors`.
async fn watch_errors(page: &Page) {
    let _: bool = eval(
        page,
        "(() => { window.pageErrors = []; \
           addEventListener('error', (e) => pageErrors.push(String(e.message))); \
           addEventListener('unhandledrejection', (e) => pageErrors.push(String(e.reason))); \
           return true; })()",
    )
    .await;
}

async fn page_errors(page: &Page) -> Vec<String> {
    eval(page, "window.pageErrors").await
}

async fn text(page: &Page, id: &str) -> String {
    eval(
        page,
        &format!("document.getElementById('{id}').textContent"),
    )
    .await
}

async fn shown_id(page: &Page) -> String {
    eval(page, "window.jungle.puzzle.id").await
}

/// Plays the solver's moves of `id`'s solution on the board from ply `from` (the solver's turn), each reply
/// awaited.
async fn solve_on_board(page: &Page, id: &str, from: usize) {
    let (puzzle, _) = PUZZLES.get(id).unwrap();
    for (i, mv) in puzzle.solution.iter().enumerate().skip(from).step_by(2) {
        click_move(page, mv).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_move_offers_retry_and_the_solution_stepped_on_the_board() {
    let server = start(temp_dir("puzzle-wrong").join("games.db")).await;
    let chrome = Chrome::launch("puzzle-wrong", 1100, 900).await;
    let page = chrome
        .person(&format!("http://{}/puzzles", server.addr))
        .await;
    wait_until(&page, "window.jungle.puzzle && window.jungle.puzzle.daily").await;
    watch_errors(&page).await;

    // The theme picker: a button per theme; a click loads a puzzle of that theme.
    click(&page, "#themes [data-theme='capture']").await;
    wait_until(
        &page,
        "window.jungle.puzzle.themes.includes('capture') && !window.jungle.puzzle.daily",
    )
    .await;
    assert_eq!(
        eval::<String>(&page, "document.querySelector(\"#themes [data-theme='capture']\").getAttribute('aria-pressed')").await,
        "true"
    );

    // Next puzzle, then a wrong move: the crash ("reading 'animal'") happened here.
    let before = shown_id(&page).await;
    click(&page, "#next").await;
    wait_until(
        &page,
        &format!("window.jungle.puzzle.id !== '{before}' && window.jungle.legal.length > 0"),
    )
    .await;
    let mut id = shown_id(&page).await;
    // A puzzle of at least three plies with a wrong first move (the theme's puzzles are random).
    let mut asked = 0;
    while !(PUZZLES.get(&id).unwrap().0.solution.len() >= 3 && failable().any(|f| f == id)) {
        asked += 1;
        assert!(
            asked < 200,
            "200 capture puzzles and none long enough to fail"
        );
        click(&page, "#next").await;
        wait_until(&page, &format!("window.jungle.puzzle.id !== '{id}'")).await;
        id = shown_id(&page).await;
    }
    let (puzzle, _) = PUZZLES.get(&id).unwrap();
    let wrong = wrong_first_move(&id);
    click_move(&page, &wrong).await;
    wait_until(&page, "window.jungle.result === 'failed'").await;
    assert_eq!(page_errors(&page).await, Vec::<String>::new());
    let status = text(&page, "status").await;
    assert!(status.ends_with("is not the move."), "{status}");
    assert_animal_notation(status.split(' ').next().unwrap(), &wrong);
    assert!(!eval::<bool>(&page, "document.getElementById('retry').hidden").await);

    // Retry: back to the start, the same moves allowed; then the right line solves.
    click(&page, "#retry").await;
    wait_until(
        &page,
        "window.jungle.result === null && window.jungle.played.length === 0",
    )
    .await;
    assert_eq!(
        eval::<String>(&page, "window.jungle.fen")
            .await
            .split(' ')
            .next(),
        puzzle.fen.split(' ').next()
    );
    assert_eq!(
        eval::<Vec<String>>(&page, "window.jungle.legal").await,
        eval::<Vec<String>>(&page, "window.jungle.puzzle.legal").await
    );
    // The defender's reply is shown after the solver's move, in the status in animal notation.
    click_move(&page, &puzzle.solution[0]).await;
    wait_until(
        &page,
        "window.jungle.played.length === 2 && window.jungle.legal.length > 0",
    )
    .await;
    let status = text(&page, "status").await;
    assert!(status.starts_with("Right! The reply: "), "{status}");
    assert_animal_notation(
        &status["Right! The reply: ".len()..][..6],
        &puzzle.solution[1],
    );
    solve_on_board(&page, &id, 2).await;
    wait_until(&page, "window.jungle.result === 'solved'").await;

    // The solution on the board: the first move shown with an arrow, then stepped by keys and buttons.
    click(&page, "#view-solution").await;
    wait_until(&page, "!document.getElementById('solution-nav').hidden").await;
    let arrow = "document.querySelector('.arrow-layer').dataset.move";
    assert_eq!(eval::<String>(&page, arrow).await, puzzle.solution[0]);
    let moves: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#solution .mv[data-ply]')].map((m) => m.textContent)",
    )
    .await;
    assert_eq!(moves.len(), puzzle.solution.len());
    for (written, mv) in moves.iter().zip(&puzzle.solution) {
        assert_animal_notation(written, mv);
    }
    // Readable: each row on one line, the list not clipped.
    assert!(eval::<bool>(&page, "[...document.querySelectorAll('#solution li')].every((li) => li.getBoundingClientRect().height < 40)").await);
    assert!(eval::<bool>(&page, "(() => { const l = document.getElementById('solution'); return l.scrollHeight <= l.clientHeight + 1; })()").await);
    page.find_element("body")
        .await
        .unwrap()
        .press_key("ArrowRight")
        .await
        .unwrap();
    assert_eq!(eval::<String>(&page, arrow).await, puzzle.solution[1]);
    click(&page, "#solution-last").await;
    assert_eq!(
        eval::<String>(&page, arrow).await,
        *puzzle.solution.last().unwrap()
    );
    assert_eq!(
        eval::<String>(
            &page,
            "document.querySelector('#solution .current').textContent"
        )
        .await,
        *moves.last().unwrap()
    );
    click(&page, "#solution-first").await;
    assert_eq!(eval::<String>(&page, arrow).await, "");
    click(&page, "#solution .mv[data-ply='2']").await;
    assert_eq!(eval::<String>(&page, arrow).await, puzzle.solution[1]);
    assert_eq!(page_errors(&page).await, Vec::<String>::new());

    // In 中文: the same flow's words.
    page.evaluate("localStorage.setItem('jungle-lang', 'zh')")
        .await
        .unwrap();
    page.goto(format!("http://{}/puzzles/{id}", server.addr).as_str())
        .await
        .unwrap();
    wait_until(
        &page,
        &format!("window.jungle.puzzle && window.jungle.puzzle.id === '{id}'"),
    )
    .await;
    click_move(&page, &wrong).await;
    wait_until(&page, "window.jungle.result === 'failed'").await;
    assert!(text(&page, "status").await.ends_with("不是正解。"));
    assert_eq!(text(&page, "retry").await, "重試");
    assert_eq!(text(&page, "view-solution").await, "查看答案");
    click(&page, "#view-solution").await;
    wait_until(&page, "!document.getElementById('solution-nav').hidden").await;
    assert!(text(&page, "solution-ply").await.starts_with("第 1 步"));
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streak_counts_solved_puzzles_until_the_first_mistake_and_keeps_the_best() {
    let server = start(temp_dir("puzzle-streak-page").join("games.db")).await;
    let chrome = Chrome::launch("puzzle-streak", 1100, 900).await;
    let page = chrome
        .person(&format!("http://{}/puzzles", server.addr))
        .await;
    wait_until(&page, "window.jungle.puzzle").await;
    click(&page, "#streak-link").await;
    wait_until(
        &page,
        "location.pathname === '/puzzles/streak' && window.jungle.puzzle && window.jungle.streak",
    )
    .await;
    watch_errors(&page).await;
    assert_eq!(text(&page, "streak-count").await, "0");
    assert!(eval::<bool>(&page, "document.getElementById('browse').hidden").await);

    // Two solved: the count rises, a new puzzle each time, never an easier one.
    let mut seen = Vec::new();
    for solved in 1..=2 {
        let id = shown_id(&page).await;
        solve_on_board(&page, &id, 0).await;
        wait_until(
            &page,
            &format!("document.getElementById('streak-count').textContent === '{solved}'"),
        )
        .await;
        wait_until(
            &page,
            &format!("window.jungle.puzzle.id !== '{id}' && window.jungle.legal.length > 0"),
        )
        .await;
        seen.push(id);
    }
    let streak_seen: Vec<String> = eval(&page, "window.jungle.streak.seen").await;
    assert_eq!(streak_seen[..2], seen[..]);
    assert!(!seen.contains(&shown_id(&page).await));
    assert_eq!(text(&page, "streak-best").await, "2");

    // A mistake ends it; the best stays, kept by the browser.
    let mut id = shown_id(&page).await;
    while !failable().any(|f| f == id) {
        solve_on_board(&page, &id, 0).await;
        wait_until(
            &page,
            &format!("window.jungle.puzzle.id !== '{id}' && window.jungle.legal.length > 0"),
        )
        .await;
        id = shown_id(&page).await;
    }
    let count = text(&page, "streak-count").await;
    click_move(&page, &wrong_first_move(&id)).await;
    wait_until(&page, "window.jungle.result === 'failed'").await;
    let status = text(&page, "status").await;
    assert!(
        status.ends_with(&format!("your streak ends at {count}.")),
        "{status}"
    );
    assert!(eval::<bool>(&page, "document.getElementById('retry').hidden").await);
    assert!(!eval::<bool>(&page, "document.getElementById('new-streak').hidden").await);
    assert_eq!(
        eval::<String>(&page, "localStorage.getItem('jungle-puzzle-streak-best')").await,
        count
    );
    click(&page, "#new-streak").await;
    wait_until(&page, "document.getElementById('streak-count').textContent === '0' && window.jungle.streak.seen.length === 1").await;
    assert_eq!(text(&page, "streak-best").await, count);
    assert_eq!(page_errors(&page).await, Vec::<String>::new());

    // In 中文.
    page.evaluate("localStorage.setItem('jungle-lang', 'zh')")
        .await
        .unwrap();
    page.reload().await.unwrap();
    wait_until(&page, "window.jungle.puzzle && window.jungle.streak").await;
    assert_eq!(text(&page, "heading").await, "謎題連勝");
    assert_eq!(text(&page, "streak-best").await, count);
    chrome.close().await;
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_lists_the_puzzle_history() {
    let server = start(temp_dir("puzzle-profile").join("games.db")).await;
    let addr = server.addr;
    let alice = sign_up(addr, "alice").await;
    let solved = puzzle_with(1).id.clone();
    solve(addr, &solved, Some(&alice)).await;
    let failed = failable().find(|id| *id != solved).unwrap().to_string();
    post_moves(addr, &failed, &[wrong_first_move(&failed)], Some(&alice)).await;

    let chrome = Chrome::launch("puzzle-profile", 1100, 900).await;
    let page = chrome.person(&format!("http://{addr}/@/alice")).await;
    wait_until(
        &page,
        "document.querySelectorAll('#puzzle-history tbody tr').length === 2",
    )
    .await;
    let rows: Vec<Vec<String>> = eval(
        &page,
        "[...document.querySelectorAll('#puzzle-history tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))",
    )
    .await;
    assert_eq!(rows[0][0], failed);
    assert_eq!(rows[0][1], "failed");
    assert_eq!(rows[1][0], solved);
    assert_eq!(rows[1][1], "solved");
    assert!(
        rows[1][2].starts_with("1500 → ") && rows[1][2].contains("(+"),
        "{:?}",
        rows[1]
    );
    assert!(rows[0][2].contains("(−"), "{:?}", rows[0]);
    assert_eq!(
        eval::<String>(
            &page,
            "document.querySelector('#puzzle-history tbody a').getAttribute('href')"
        )
        .await,
        format!("/puzzles/{failed}")
    );
    assert!(eval::<bool>(&page, "document.getElementById('puzzles-older').disabled").await);

    // A player without attempts: the history says so. In 中文.
    sign_up(addr, "bob").await;
    page.evaluate("localStorage.setItem('jungle-lang', 'zh')")
        .await
        .unwrap();
    page.goto(format!("http://{addr}/@/bob").as_str())
        .await
        .unwrap();
    wait_until(&page, "!document.getElementById('no-puzzles').hidden").await;
    assert_eq!(text(&page, "no-puzzles").await, "尚無計分的謎題嘗試。");
    chrome.close().await;
    server.kill().await;
}
