//! Headless Chromium for the end-to-end tests (and the screenshot tool), driven over the devtools protocol.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use chromiumoxide::handler::viewport::Viewport;
use chromiumoxide::page::Page;
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

/// Where Chromium is unless `JUNGLE_CHROMIUM` names another binary.
pub const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";

/// The Chromium binary to drive: `JUNGLE_CHROMIUM` if set and not empty, else [`DEFAULT_CHROMIUM`].
pub fn chromium_path() -> PathBuf {
    chromium_path_from(std::env::var_os("JUNGLE_CHROMIUM"))
}

pub fn chromium_path_from(setting: Option<std::ffi::OsString>) -> PathBuf {
    setting
        .filter(|path| !path.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_CHROMIUM))
}

/// Generous, for a busy machine; never an assertion about speed.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// The longest a browser may live. A request to Chromium can wait forever (a navigation whose end is never
/// reported); past this, the browser is killed, every request still waiting fails, and so does the test,
/// instead of holding the whole run until CI gives up on it.
pub const BROWSER_LIFETIME: Duration = Duration::from_secs(10 * 60);

pub struct Chrome {
    pub browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    profile: PathBuf,
    /// Dropped when the browser closes, which stands the watchdog down.
    _watchdog: std::sync::mpsc::Sender<()>,
}

/// Kills the process `pid` (Chromium, named `name` by its test) unless `closed` hears first, within
/// [`BROWSER_LIFETIME`].
fn watch(name: String, pid: u32) -> std::sync::mpsc::Sender<()> {
    let (closed, heard) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if heard.recv_timeout(BROWSER_LIFETIME) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
            eprintln!(
                "the browser of {name} is still open after {} s: killing it so its test fails",
                BROWSER_LIFETIME.as_secs()
            );
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
        }
    });
    closed
}

impl Chrome {
    /// Starts headless Chromium with a fresh profile. Fails with a clear message when it is not installed.
    pub async fn launch(name: &str, width: u32, height: u32) -> Chrome {
        let chromium = chromium_path();
        assert!(
            chromium.exists(),
            "the end-to-end tests need Chromium at {}: run `apt-get install -y chromium` (the README's test \
             command installs it) or set JUNGLE_CHROMIUM to its path",
            chromium.display()
        );
        let profile =
            std::env::temp_dir().join(format!("jungle-chromium-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let config = BrowserConfig::builder()
            .chrome_executable(&chromium)
            .no_sandbox()
            .user_data_dir(&profile)
            .window_size(width, height)
            .viewport(Viewport {
                width,
                height,
                device_scale_factor: Some(1.0),
                emulating_mobile: false,
                is_landscape: width > height,
                has_touch: false,
            })
            .launch_timeout(PATIENCE)
            .request_timeout(PATIENCE)
            // chromiumoxide adds the leading dashes (headless, no-sandbox and a fresh profile are set above).
            .args([
                "disable-gpu",
                "disable-quic",
                "no-first-run",
                "disable-background-networking",
                "disable-component-update",
                "disable-sync",
            ])
            .build()
            .expect("a browser configuration");
        let (mut browser, mut handler) = Browser::launch(config).await.expect("chromium starts");
        let pid = browser
            .get_mut_child()
            .and_then(|child| child.as_mut_inner().id())
            .expect("chromium's process id");
        let handler = tokio::spawn(async move {
            // A message this chromiumoxide does not know is passed over; any other error is the connection's
            // (Chromium died, or was killed by the watchdog). The handler then stops: chromiumoxide would
            // report that error for ever and leave every request waiting; ended, it fails them.
            while let Some(event) = handler.next().await {
                if let Err(e) = event
                    && !matches!(e, chromiumoxide::error::CdpError::InvalidMessage(..))
                {
                    eprintln!("the connection to chromium ended: {e}");
                    break;
                }
            }
        });
        Chrome {
            browser,
            handler,
            profile,
            _watchdog: watch(name.to_string(), pid),
        }
    }

    /// A page in a new browser context: its own cookies, like a different person.
    ///
    /// Now and then, on a busy machine, Chromium never reports a new page ready (the run of stop 47 saw it
    /// twice in one test, which then waited for the watchdog): a page that does not open within
    /// [`PATIENCE`] is given up and asked for once more, in a fresh context.
    pub async fn person(&self, url: &str) -> Page {
        for attempt in 1..=2 {
            match tokio::time::timeout(PATIENCE, self.open_in_new_context(url)).await {
                Ok(page) => return page,
                Err(_) => eprintln!(
                    "chromium did not open {url} within {} s (attempt {attempt} of 2)",
                    PATIENCE.as_secs()
                ),
            }
        }
        panic!("chromium did not open {url}");
    }

    async fn open_in_new_context(&self, url: &str) -> Page {
        let context = self
            .browser
            .create_browser_context(CreateBrowserContextParams::default())
            .await
            .expect("a browser context");
        let params = CreateTargetParams::builder()
            .url(url)
            .browser_context_id(context)
            .build()
            .expect("target parameters");
        let page = self.browser.new_page(params).await.expect("a page");
        page.wait_for_navigation().await.expect("the page loads");
        page
    }

    /// Closes the browser, killing it if it does not close in time, so no process is left behind.
    pub async fn close(mut self) {
        let closed = tokio::time::timeout(Duration::from_secs(10), self.browser.close()).await;
        if !matches!(closed, Ok(Ok(_))) {
            let _ = self.browser.kill().await;
        }
        let _ = tokio::time::timeout(Duration::from_secs(10), self.browser.wait()).await;
        let _ = self.browser.kill().await;
        self.handler.abort();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Evaluates a JavaScript expression and reads its value. Asked while the page is between two documents (a
/// navigation, a reload), Chromium has no context to evaluate in: the expression is asked again once the new
/// document is there.
pub async fn eval<T: DeserializeOwned>(page: &Page, js: &str) -> T {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match page.evaluate(js).await {
            Ok(value) => {
                return value
                    .into_value()
                    .unwrap_or_else(|e| panic!("reading the value of {js}: {e}"));
            }
            Err(e)
                if e.to_string().contains("Cannot find context")
                    && tokio::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("evaluating {js}: {e}"),
        }
    }
}

/// Waits until a JavaScript condition holds on the page.
pub async fn wait_until(page: &Page, condition: &str) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let js = format!(
        "(() => {{ try {{ return Boolean({condition}); }} catch (e) {{ return false; }} }})()"
    );
    loop {
        if let Ok(result) = page.evaluate(js.as_str()).await
            && result.into_value::<bool>().unwrap_or(false)
        {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited too long for: {condition}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The centre of the element a CSS selector names, scrolled into view, in the page's coordinates: found and
/// measured in one script, with no handle to the element kept. Pages redraw their boards at any moment (a
/// state, a reconnection attempt), and a handle to a replaced node fails with "Could not find node".
pub async fn centre_of(page: &Page, selector: &str) -> chromiumoxide::layout::Point {
    let selector_js = serde_json::to_string(selector).unwrap();
    let centre: Option<(f64, f64)> = eval(
        page,
        &format!(
            "(() => {{ const el = document.querySelector({selector_js}); if (!el) return null; \
               el.scrollIntoViewIfNeeded(); const r = el.getBoundingClientRect(); \
               return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
        ),
    )
    .await;
    let (x, y) = centre.unwrap_or_else(|| panic!("no element {selector}"));
    chromiumoxide::layout::Point { x, y }
}

/// Clicks the element a CSS selector names: a real mouse press and release at its centre ([`centre_of`]).
pub async fn click(page: &Page, selector: &str) {
    page.click(centre_of(page, selector).await)
        .await
        .unwrap_or_else(|e| panic!("clicking {selector}: {e}"));
}

/// Takes the free seat of a friend game's page with its Join button, as `side`. A click is at the button's
/// centre as measured just before; the page may still be settling then (the account bar, the connection's
/// badge), so while the button is still offered and the seat not taken the click is made again.
pub async fn take_free_seat(page: &Page, side: &str) {
    let seated = format!("window.jungle && window.jungle.seat === '{side}'");
    let offered = "!document.getElementById('join').hidden && !document.getElementById('join-button').disabled";
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !eval::<bool>(page, &format!("Boolean({seated})")).await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited too long for the {side} seat"
        );
        if eval::<bool>(page, &format!("Boolean({offered})")).await {
            click(page, "#join-button").await;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

/// Plays a move on the board by clicking its two squares.
pub async fn click_move(page: &Page, mv: &str) {
    click(page, &format!("[data-square='{}']", &mv[0..2])).await;
    wait_until(
        page,
        &format!("document.querySelector(\"[data-target='{}']\")", &mv[2..4]),
    )
    .await;
    click(page, &format!("[data-square='{}']", &mv[2..4])).await;
}

/// The game page's current ply.
pub async fn ply(page: &Page) -> u64 {
    eval::<u64>(
        page,
        "window.jungle && window.jungle.state ? window.jungle.state.ply : 0",
    )
    .await
}

/// Plays a move by dragging: press on the origin square, move through the board in steps, release on the
/// target (the mouse events a person's drag produces).
pub async fn drag_move(page: &Page, mv: &str) {
    use chromiumoxide::cdp::browser_protocol::input::{
        DispatchMouseEventParams, DispatchMouseEventType, MouseButton,
    };
    let from = centre_of(page, &format!("[data-square='{}']", &mv[0..2])).await;
    let to = centre_of(page, &format!("[data-square='{}']", &mv[2..4])).await;
    let event = |kind: DispatchMouseEventType, x: f64, y: f64| {
        let mut builder = DispatchMouseEventParams::builder()
            .r#type(kind.clone())
            .x(x)
            .y(y)
            .button(MouseButton::Left);
        if kind != DispatchMouseEventType::MouseMoved {
            builder = builder.click_count(1);
        }
        builder = builder.buttons(if kind == DispatchMouseEventType::MouseReleased {
            0
        } else {
            1
        });
        builder.build().expect("a mouse event")
    };
    page.execute(event(DispatchMouseEventType::MouseMoved, from.x, from.y))
        .await
        .unwrap();
    page.execute(event(DispatchMouseEventType::MousePressed, from.x, from.y))
        .await
        .unwrap();
    for step in 1..=8 {
        let t = f64::from(step) / 8.0;
        let (x, y) = (from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
        page.execute(event(DispatchMouseEventType::MouseMoved, x, y))
            .await
            .unwrap();
    }
    page.execute(event(DispatchMouseEventType::MouseReleased, to.x, to.y))
        .await
        .unwrap();
}
