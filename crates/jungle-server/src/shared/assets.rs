//! The front end: plain HTML, CSS and JavaScript modules, no build step. Embedded in the binary, or — in
//! development (`jungle serve --static-dir crates/jungle-server/static`) — read from a folder on every request,
//! so an edit shows on reload without a rebuild.

use std::borrow::Cow;
use std::path::PathBuf;

/// Every file of the front end: its name, content type and embedded bytes. Nothing else is ever served, from
/// the binary or from the folder.
const FILES: &[(&str, &str, &[u8])] = &[
    ("home.html", HTML, include_bytes!("../../static/home.html")),
    ("game.html", HTML, include_bytes!("../../static/game.html")),
    (
        "replay.html",
        HTML,
        include_bytes!("../../static/replay.html"),
    ),
    (
        "editor.html",
        HTML,
        include_bytes!("../../static/editor.html"),
    ),
    (
        "login.html",
        HTML,
        include_bytes!("../../static/login.html"),
    ),
    (
        "account.html",
        HTML,
        include_bytes!("../../static/account.html"),
    ),
    (
        "profile.html",
        HTML,
        include_bytes!("../../static/profile.html"),
    ),
    (
        "puzzle.html",
        HTML,
        include_bytes!("../../static/puzzle.html"),
    ),
    (
        "not_found.html",
        HTML,
        include_bytes!("../../static/not_found.html"),
    ),
    (
        "damaged.html",
        HTML,
        include_bytes!("../../static/damaged.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/style.css"),
    ),
    (
        "profile.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/profile.css"),
    ),
    (
        "analysis.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/analysis.css"),
    ),
    (
        "lobby.html",
        HTML,
        include_bytes!("../../static/lobby.html"),
    ),
    (
        "lobby.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/lobby.css"),
    ),
    ("lobby.js", JS, include_bytes!("../../static/lobby.js")),
    (
        "tournaments.html",
        HTML,
        include_bytes!("../../static/tournaments.html"),
    ),
    (
        "tournament.html",
        HTML,
        include_bytes!("../../static/tournament.html"),
    ),
    (
        "tournaments.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/tournaments.css"),
    ),
    (
        "tournaments.js",
        JS,
        include_bytes!("../../static/tournaments.js"),
    ),
    (
        "tournament.js",
        JS,
        include_bytes!("../../static/tournament.js"),
    ),
    (
        "tournament-shared.js",
        JS,
        include_bytes!("../../static/tournament-shared.js"),
    ),
    (
        "game-tournament.js",
        JS,
        include_bytes!("../../static/game-tournament.js"),
    ),
    (
        "lobby-shared.js",
        JS,
        include_bytes!("../../static/lobby-shared.js"),
    ),
    (
        "my-games.js",
        JS,
        include_bytes!("../../static/my-games.js"),
    ),
    (
        "deadline.js",
        JS,
        include_bytes!("../../static/deadline.js"),
    ),
    ("board.js", JS, include_bytes!("../../static/board.js")),
    ("i18n.js", JS, include_bytes!("../../static/i18n.js")),
    (
        "simplified.js",
        JS,
        include_bytes!("../../static/simplified.js"),
    ),
    ("sound.js", JS, include_bytes!("../../static/sound.js")),
    ("dom.js", JS, include_bytes!("../../static/dom.js")),
    ("api.js", JS, include_bytes!("../../static/api.js")),
    ("account.js", JS, include_bytes!("../../static/account.js")),
    (
        "game-terms.js",
        JS,
        include_bytes!("../../static/game-terms.js"),
    ),
    (
        "return-path.js",
        JS,
        include_bytes!("../../static/return-path.js"),
    ),
    (
        "account-bar.js",
        JS,
        include_bytes!("../../static/account-bar.js"),
    ),
    ("moves.js", JS, include_bytes!("../../static/moves.js")),
    (
        "import-form.js",
        JS,
        include_bytes!("../../static/import-form.js"),
    ),
    ("home.js", JS, include_bytes!("../../static/home.js")),
    ("game.js", JS, include_bytes!("../../static/game.js")),
    ("replay.js", JS, include_bytes!("../../static/replay.js")),
    ("follow.js", JS, include_bytes!("../../static/follow.js")),
    (
        "analysis.js",
        JS,
        include_bytes!("../../static/analysis.js"),
    ),
    (
        "liveness.js",
        JS,
        include_bytes!("../../static/liveness.js"),
    ),
    ("graph.js", JS, include_bytes!("../../static/graph.js")),
    (
        "opening-explorer.js",
        JS,
        include_bytes!("../../static/opening-explorer.js"),
    ),
    (
        "opening-explorer.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/opening-explorer.css"),
    ),
    ("editor.js", JS, include_bytes!("../../static/editor.js")),
    ("profile.js", JS, include_bytes!("../../static/profile.js")),
    (
        "profile-puzzles.js",
        JS,
        include_bytes!("../../static/profile-puzzles.js"),
    ),
    (
        "game-ratings.js",
        JS,
        include_bytes!("../../static/game-ratings.js"),
    ),
    (
        "rating-graph.js",
        JS,
        include_bytes!("../../static/rating-graph.js"),
    ),
    (
        "engine-levels.js",
        JS,
        include_bytes!("../../static/engine-levels.js"),
    ),
    ("puzzle.js", JS, include_bytes!("../../static/puzzle.js")),
    (
        "learn.html",
        HTML,
        include_bytes!("../../static/learn.html"),
    ),
    ("learn.js", JS, include_bytes!("../../static/learn.js")),
    (
        "learn.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/learn.css"),
    ),
    (
        "puzzle-solution.js",
        JS,
        include_bytes!("../../static/puzzle-solution.js"),
    ),
    (
        "puzzle-streak.js",
        JS,
        include_bytes!("../../static/puzzle-streak.js"),
    ),
    (
        "hidden.html",
        HTML,
        include_bytes!("../../static/hidden.html"),
    ),
    (
        "hidden.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/hidden.css"),
    ),
    ("hidden.js", JS, include_bytes!("../../static/hidden.js")),
    (
        "hidden-setup.js",
        JS,
        include_bytes!("../../static/hidden-setup.js"),
    ),
    (
        "game-controls.js",
        JS,
        include_bytes!("../../static/game-controls.js"),
    ),
    (
        "hidden-words.js",
        JS,
        include_bytes!("../../static/hidden-words.js"),
    ),
    (
        "tablebase.html",
        HTML,
        include_bytes!("../../static/tablebase.html"),
    ),
    (
        "tablebase.js",
        JS,
        include_bytes!("../../static/tablebase.js"),
    ),
    (
        "tablebase-explorer.js",
        JS,
        include_bytes!("../../static/tablebase-explorer.js"),
    ),
    (
        "tablebase.css",
        "text/css; charset=utf-8",
        include_bytes!("../../static/tablebase.css"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../../static/favicon.svg"),
    ),
];

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// Where the front end comes from.
#[derive(Clone, Debug, Default)]
pub struct Assets {
    /// A folder read on every request instead of the embedded files.
    dir: Option<PathBuf>,
}

/// A file to send: its content type and bytes.
pub type Asset = (&'static str, Cow<'static, [u8]>);

impl Assets {
    /// The files embedded in the binary.
    pub fn embedded() -> Assets {
        Assets { dir: None }
    }

    /// The files of `dir`, read on every request.
    pub fn from_dir(dir: PathBuf) -> Assets {
        Assets { dir: Some(dir) }
    }

    /// A file of the front end by name (`None` for any other name, or a file missing from the folder).
    pub fn file(&self, name: &str) -> Option<Asset> {
        let &(_, content_type, embedded) = FILES.iter().find(|(n, _, _)| *n == name)?;
        match &self.dir {
            None => Some((content_type, Cow::Borrowed(embedded))),
            Some(dir) => match std::fs::read(dir.join(name)) {
                Ok(bytes) => Some((content_type, Cow::Owned(bytes))),
                Err(e) => {
                    tracing::warn!(file = name, dir = %dir.display(), error = %e, "static file unreadable");
                    None
                }
            },
        }
    }

    /// A page's HTML (the pages are among the files).
    pub fn page(&self, name: &str) -> Cow<'static, [u8]> {
        self.file(name)
            .map(|(_, bytes)| bytes)
            .unwrap_or(Cow::Borrowed(
                b"<!doctype html><title>Jungle</title>page missing",
            ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_read_on_every_request_and_only_known_names_are_served() {
        let dir = std::env::temp_dir().join(format!("jungle-assets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("style.css"), "body { color: red }").unwrap();
        std::fs::write(dir.join("secret.txt"), "no").unwrap();
        let assets = Assets::from_dir(dir.clone());
        assert_eq!(
            &*assets.file("style.css").unwrap().1,
            b"body { color: red }"
        );
        std::fs::write(dir.join("style.css"), "body { color: blue }").unwrap();
        assert_eq!(
            &*assets.file("style.css").unwrap().1,
            b"body { color: blue }"
        );
        assert!(assets.file("secret.txt").is_none());
        assert!(assets.file("../Cargo.toml").is_none());
        assert!(assets.file("game.js").is_none(), "missing from the folder");
        let embedded = Assets::embedded();
        assert!(embedded.file("game.js").unwrap().1.starts_with(b"//"));
        assert!(embedded.page("game.html").starts_with(b"<!doctype html>"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
