//! Chinese in the script its reader writes: Simplified for zh-CN and zh-SG (and a bare zh), Traditional for
//! zh-TW and zh-HK, from the browser's language (its Accept-Language) or the language switch — the interface's
//! words, the board's characters and the site's name alike.

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::network::SetUserAgentOverrideParams;

use crate::support::browser::{Chrome, eval, wait_until};
use crate::support::{start, temp_dir};

/// Makes the page's browser say it reads `languages` (as its Accept-Language), then opens `url`.
async fn reading(page: &Page, languages: &str, url: &str) {
    let agent: String = eval(page, "navigator.userAgent").await;
    let params = SetUserAgentOverrideParams::builder()
        .user_agent(agent)
        .accept_language(languages)
        .build()
        .unwrap();
    page.set_user_agent(params).await.unwrap();
    page.goto(url).await.unwrap();
    wait_until(
        page,
        &format!(
            "navigator.language === {} && document.getElementById('lang')",
            serde_json::json!(languages.split(',').next().unwrap())
        ),
    )
    .await;
}

/// The Traditional characters left in the page's text, hidden parts and the board's characters included
/// (but not the language switch, which names 繁體中文 in its own script): none in Simplified.
async fn traditional_left(page: &Page) -> String {
    eval(
        page,
        "import('/static/simplified.js').then(({ toSimplified }) => { \
           const body = document.body.cloneNode(true); body.querySelector('#lang').remove(); \
           return Array.from(body.textContent + document.title).filter((c) => toSimplified(c) !== c).join(''); })",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zh_cn_reads_simplified_and_zh_tw_traditional_everywhere() {
    let server = start(temp_dir("e2e-scripts").join("games.db")).await;
    let chrome = Chrome::launch("scripts", 1200, 900).await;
    let home = format!("http://{}/", server.addr);
    let text = |id: &str| format!("document.getElementById('{id}').textContent");

    // Which dictionary each browser language gets.
    let page = chrome.person(&home).await;
    let chosen: Vec<String> = eval(
        &page,
        "import('/static/i18n.js').then(({ languageOf }) => \
           ['zh-CN', 'zh-SG', 'zh', 'zh-Hans-HK', 'zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'en-US', 'fr'].map(languageOf))",
    )
    .await;
    assert_eq!(
        chosen,
        [
            "zh-Hans", "zh-Hans", "zh-Hans", "zh-Hans", "zh", "zh", "zh", "zh", "en", "en"
        ]
    );

    for (languages, play, brand) in [
        ("zh-CN,zh;q=0.9", "与电脑对弈", "斗兽棋"),
        ("zh-SG", "与电脑对弈", "斗兽棋"),
        ("zh-TW,zh;q=0.9", "與電腦對弈", "鬥獸棋"),
        ("zh-HK", "與電腦對弈", "鬥獸棋"),
    ] {
        let page = chrome.person(&home).await;
        reading(&page, languages, &home).await;
        assert_eq!(
            eval::<String>(&page, &text("play-engine")).await,
            play,
            "{languages}"
        );
        assert_eq!(
            eval::<String>(&page, "document.querySelector('.brand [lang]').textContent").await,
            brand,
            "{languages}"
        );
    }

    // A game in Simplified: the status, the pieces' characters and the den's label; nothing Traditional.
    let page = chrome.person(&home).await;
    reading(&page, "zh-CN", &home).await;
    assert_eq!(
        eval::<String>(&page, "document.documentElement.lang").await,
        "zh-Hans"
    );
    assert_eq!(traditional_left(&page).await, "");
    page.evaluate("document.getElementById('level').value = '1'; document.getElementById('side').value = 'blue';")
        .await
        .unwrap();
    crate::support::browser::click(&page, "#play-engine").await;
    wait_until(
        &page,
        "window.jungle && window.jungle.state && document.body.dataset.myturn === 'true'",
    )
    .await;
    assert_eq!(eval::<String>(&page, &text("status")).await, "轮到你了。");
    let characters: String = eval(
        &page,
        "[...document.querySelectorAll('#board .pieces .zh')].map((el) => el.textContent).join('')",
    )
    .await;
    assert!(
        characters.contains('狮') && !characters.contains('獅'),
        "{characters}"
    );
    assert_eq!(traditional_left(&page).await, "");

    // The switch offers both scripts, and remembers the choice over the browser's language.
    let options: Vec<String> = eval(
        &page,
        "[...document.getElementById('lang').options].map((o) => o.value + ' ' + o.textContent)",
    )
    .await;
    assert_eq!(options, ["en English", "zh 繁體中文", "zh-Hans 简体中文"]);
    page.evaluate("const s = document.getElementById('lang'); s.value = 'zh'; s.dispatchEvent(new Event('change'));")
        .await
        .unwrap();
    wait_until(
        &page,
        "document.readyState === 'complete' && document.documentElement.lang === 'zh-Hant' && window.jungle && window.jungle.state",
    )
    .await;
    wait_until(
        &page,
        "document.getElementById('status').textContent === '輪到你了。'",
    )
    .await;
    let characters: String = eval(
        &page,
        "[...document.querySelectorAll('#board .pieces .zh')].map((el) => el.textContent).join('')",
    )
    .await;
    assert!(characters.contains('獅'), "{characters}");
    chrome.close().await;
    server.kill().await;
}
