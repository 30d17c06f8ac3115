//! The front end, embedded in the binary: plain HTML, CSS and JavaScript, no build step.

pub const HOME_HTML: &str = include_str!("../static/home.html");
pub const GAME_HTML: &str = include_str!("../static/game.html");
pub const REPLAY_HTML: &str = include_str!("../static/replay.html");
pub const NOT_FOUND_HTML: &str = include_str!("../static/not_found.html");
pub const DAMAGED_HTML: &str = include_str!("../static/damaged.html");

/// A static file by name: its content type and bytes.
pub fn static_file(name: &str) -> Option<(&'static str, &'static [u8])> {
    let file: (&str, &[u8]) = match name {
        "style.css" => (
            "text/css; charset=utf-8",
            include_bytes!("../static/style.css"),
        ),
        "board.js" => (
            "text/javascript; charset=utf-8",
            include_bytes!("../static/board.js"),
        ),
        "home.js" => (
            "text/javascript; charset=utf-8",
            include_bytes!("../static/home.js"),
        ),
        "game.js" => (
            "text/javascript; charset=utf-8",
            include_bytes!("../static/game.js"),
        ),
        "replay.js" => (
            "text/javascript; charset=utf-8",
            include_bytes!("../static/replay.js"),
        ),
        "favicon.svg" => ("image/svg+xml", include_bytes!("../static/favicon.svg")),
        _ => return None,
    };
    Some(file)
}
