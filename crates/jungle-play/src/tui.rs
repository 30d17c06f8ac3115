//! The full-screen terminal game: crossterm events in, ratatui frames out, about ten times a second so
//! clocks tick and engine moves appear while the engine thinks on its own thread.

use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEvent, MouseButton, MouseEvent,
    MouseEventKind,
};
use jungle_rules::Square;
use ratatui::layout::Rect;
use ratatui::{DefaultTerminal, Frame};

use crate::app::App;
use crate::render;

/// A game the terminal loop can run: drawn each frame, driven by keys, clicks on squares and time.
pub trait Screen {
    fn draw(&self, frame: &mut Frame);
    fn handle_key(&mut self, key: KeyEvent);
    /// A left click on a board square.
    fn click(&mut self, square: Square);
    /// Time passed since the last call; engine answers are taken in here.
    fn tick(&mut self, elapsed: Duration);
    fn should_quit(&self) -> bool;
    /// Whether Red is drawn at the bottom (for mapping clicks to squares).
    fn is_flipped(&self) -> bool;
}

impl Screen for App {
    fn draw(&self, frame: &mut Frame) {
        render::draw(frame, self);
    }
    fn handle_key(&mut self, key: KeyEvent) {
        App::handle_key(self, key);
    }
    fn click(&mut self, square: Square) {
        App::click(self, square);
    }
    fn tick(&mut self, elapsed: Duration) {
        App::tick(self, elapsed);
        self.update();
    }
    fn should_quit(&self) -> bool {
        App::should_quit(self)
    }
    fn is_flipped(&self) -> bool {
        App::is_flipped(self)
    }
}

impl Screen for crate::hidden_app::HiddenApp {
    fn draw(&self, frame: &mut Frame) {
        render::draw_hidden(frame, self);
    }
    fn handle_key(&mut self, key: KeyEvent) {
        crate::hidden_app::HiddenApp::handle_key(self, key);
    }
    fn click(&mut self, square: Square) {
        crate::hidden_app::HiddenApp::click(self, square);
    }
    fn tick(&mut self, elapsed: Duration) {
        crate::hidden_app::HiddenApp::tick(self, elapsed);
    }
    fn should_quit(&self) -> bool {
        crate::hidden_app::HiddenApp::should_quit(self)
    }
    fn is_flipped(&self) -> bool {
        crate::hidden_app::HiddenApp::is_flipped(self)
    }
}

/// Takes over the terminal (raw mode, alternate screen), plays until the player quits, and gives the
/// terminal back, also when something fails.
///
/// # Errors
/// The terminal could not be set up, drawn on or read from.
pub fn run_terminal(screen: &mut impl Screen) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    // Clicks pick and move pieces; a terminal without mouse support simply sends none.
    let mouse = crossterm::execute!(io::stdout(), EnableMouseCapture).is_ok();
    let result = event_loop(&mut terminal, screen);
    if mouse {
        let _ = crossterm::execute!(io::stdout(), DisableMouseCapture);
    }
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut DefaultTerminal, screen: &mut impl Screen) -> io::Result<()> {
    let mut last = Instant::now();
    while !screen.should_quit() {
        terminal.draw(|frame| screen.draw(frame))?;
        if event::poll(Duration::from_millis(100))? {
            match event::read()? {
                Event::Key(key) => screen.handle_key(key),
                Event::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Left),
                    column,
                    row,
                    ..
                }) => {
                    let size = terminal.size()?;
                    let main = Rect::new(0, 0, size.width, size.height.saturating_sub(2));
                    let layout = render::BoardLayout::fit(main, screen.is_flipped());
                    if let Some(square) = layout.square_at(main, column, row) {
                        screen.click(square);
                    }
                }
                _ => {}
            }
        }
        let now = Instant::now();
        screen.tick(now - last);
        last = now;
    }
    Ok(())
}
