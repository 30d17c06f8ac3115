//! The pieces' labels, measured in Chromium: every animal's name lies inside its piece (Blue's disc, Red's
//! rounded square) on the board, and the editor's palette labels the pieces as the board does — character and
//! name — in English and in both Chinese scripts.

use chromiumoxide::Page;

use crate::support::browser::{Chrome, eval, wait_until};
use crate::support::{start, temp_dir};

/// The pieces whose name runs past the piece: for each name, its box (in the piece's own coordinates) at
/// half and at three quarters of its height must be inside the disc (radius 43) or square (±41).
async fn names_outside_their_piece(page: &Page) -> Vec<String> {
    eval(
        page,
        "(() => { const out = []; \
           for (const g of document.querySelectorAll('#board .piece')) { \
             const text = g.querySelector('.name'); if (!text) continue; \
             const b = text.getBBox(); \
             for (const f of [0.5, 0.75]) { \
               const y = b.y + f * b.height; \
               const inside = (x) => g.classList.contains('blue') ? Math.hypot(x, y) <= 43 : Math.abs(x) <= 41 && Math.abs(y) <= 41; \
               if (!inside(b.x) || !inside(b.x + b.width)) out.push(`${text.textContent} at ${f}: x ${b.x.toFixed(1)}..${(b.x + b.width).toFixed(1)}, y ${y.toFixed(1)}`); \
             } \
           } return out; })()",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_animals_name_fits_inside_its_piece_and_the_palette_shows_the_pieces() {
    let server = start(temp_dir("e2e-labels").join("games.db")).await;
    let chrome = Chrome::launch("labels", 1200, 900).await;
    let page = chrome
        .person(&format!("http://{}/editor", server.addr))
        .await;
    wait_until(&page, "document.body.dataset.valid === 'true' && document.querySelectorAll('#board .piece').length === 16").await;
    let names: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#board .piece .name')].map((el) => el.textContent)",
    )
    .await;
    for animal in [
        "Elephant", "Leopard", "Lion", "Tiger", "Dog", "Wolf", "Cat", "Rat",
    ] {
        assert!(
            names.iter().any(|n| n == animal),
            "{animal} on the board: {names:?}"
        );
    }
    let outside = names_outside_their_piece(&page).await;
    assert!(outside.is_empty(), "names past their piece: {outside:?}");

    // The palette: character and name, as the board labels them; the whole name shown.
    let palette: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#palette .pick')].map((b) => [...b.children].map((c) => c.textContent).join('/'))",
    )
    .await;
    assert_eq!(palette[0], "象/Elephant");
    assert_eq!(palette[3], "豹/Leopard");
    assert_eq!(palette[9], "獅/Lion");
    assert_eq!(palette.last().unwrap(), "✕");
    let clipped: Vec<String> = eval(
        &page,
        "[...document.querySelectorAll('#palette .pick span')].filter((s) => s.scrollWidth > s.closest('.pick').clientWidth).map((s) => s.textContent)",
    )
    .await;
    assert!(
        clipped.is_empty(),
        "palette labels wider than their buttons: {clipped:?}"
    );

    // In Chinese the character is the name: one label; Simplified where the scripts differ.
    for (code, lion) in [("zh", "獅"), ("zh-Hans", "狮")] {
        page.evaluate(format!(
            "localStorage.setItem('jungle-lang', '{code}'); location.reload()"
        ))
        .await
        .unwrap();
        wait_until(
            &page,
            &format!("document.documentElement.lang.startsWith('{code}') && document.querySelectorAll('#palette .pick').length === 17"),
        )
        .await;
        let palette: Vec<String> = eval(
            &page,
            "[...document.querySelectorAll('#palette .pick')].map((b) => [...b.children].map((c) => c.textContent).join('/'))",
        )
        .await;
        assert_eq!(palette[1], lion, "{code}");
        assert_eq!(palette[0], "象", "{code}");
    }
    chrome.close().await;
    server.kill().await;
}
