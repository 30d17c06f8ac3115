//! Helpers shared by the test binaries: building apps, pressing keys, rendering to a `TestBackend`.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent};
use jungle_play::render::{BoardLayout, draw};
use jungle_play::{App, FirstLegalMove, Mode, PlayConfig};
use jungle_rules::{Game, Position, Rules, Square};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;

pub const WIDTH: u16 = 80;
pub const HEIGHT: u16 = 24;

/// A configuration with its own save file: tests run in parallel and must not overwrite each other's games.
pub fn config(mode: Mode) -> PlayConfig {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    PlayConfig {
        mode,
        movetime: Duration::ZERO,
        save_path: std::env::temp_dir()
            .join(format!("jungle-play-test-{}-{n}.pgn", std::process::id())),
        ..PlayConfig::default()
    }
}

/// An app whose engine plays the first legal move in sorted order (predictable).
pub fn app_with(game: Game, config: PlayConfig) -> App {
    App::new(game, config, Arc::new(FirstLegalMove))
}

pub fn app(mode: Mode) -> App {
    app_with(Game::new(Rules::default()), config(mode))
}

pub fn app_from_fen(mode: Mode, fen: &str) -> App {
    let rules = Rules::default();
    let start = Position::from_fen(fen, &rules).unwrap();
    app_with(Game::from_position(rules, start), config(mode))
}

pub fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::from(code));
}

/// Types characters as key presses.
pub fn type_keys(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

pub fn render_sized(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

pub fn render(app: &App) -> Buffer {
    render_sized(app, WIDTH, HEIGHT)
}

/// Where the board's squares are for a screen of this size (the main area is all but the last two rows).
pub fn layout(width: u16, height: u16, flipped: bool) -> BoardLayout {
    BoardLayout::fit(Rect::new(0, 0, width, height - 2), flipped)
}

/// The screen as text, one line per row; the cell hidden behind a wide character adds nothing, so the text
/// reads as a terminal shows it.
pub fn screen(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut skip = false;
        for x in 0..area.width {
            if skip {
                skip = false;
                continue;
            }
            let symbol = buffer[(x, y)].symbol();
            skip = is_wide(symbol);
            out.push_str(symbol);
        }
        out.push('\n');
    }
    out
}

/// The background of a square's margin (its top-left cell), where terrain and highlights show.
pub fn margin_bg(buffer: &Buffer, layout: &BoardLayout, square: Square) -> Color {
    let area = layout.square_area(square);
    buffer[(area.x, area.y)].bg
}

/// The text in the middle of a square (the piece or the terrain mark).
pub fn square_text(buffer: &Buffer, layout: &BoardLayout, square: Square) -> String {
    let area = layout.square_area(square);
    let y = area.y + area.height / 2;
    let x0 = area.x + (area.width - 3) / 2;
    let mut out = String::new();
    let mut x = x0;
    while x < x0 + 3 {
        let symbol = buffer[(x, y)].symbol();
        out.push_str(symbol);
        x += if is_wide(symbol) { 2 } else { 1 };
    }
    out
}

/// Whether a cell holds a CJK character (two columns wide).
fn is_wide(symbol: &str) -> bool {
    symbol.chars().next().is_some_and(|c| {
        ('\u{2e80}'..='\u{9fff}').contains(&c) || ('\u{f900}'..='\u{faff}').contains(&c)
    })
}

/// A test engine that plays the first legal move, but only once the gate is opened: the test decides
/// when the "search" ends.
#[derive(Debug, Default)]
pub struct GatedEngine {
    open: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
}

impl GatedEngine {
    pub fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }
}

impl jungle_play::MoveChooser for GatedEngine {
    fn choose(&self, game: &Game, level: u8, movetime: Duration) -> Option<jungle_rules::Move> {
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.opened.wait(open).unwrap();
        }
        FirstLegalMove.choose(game, level, movetime)
    }

    fn name(&self) -> String {
        "gated".into()
    }
}

/// An app whose engine waits for the returned gate.
pub fn gated_app(mode: Mode) -> (App, Arc<GatedEngine>) {
    let gate = Arc::new(GatedEngine::default());
    let app = App::new(Game::new(Rules::default()), config(mode), gate.clone());
    (app, gate)
}
