//! The full-screen terminal game: crossterm events in, ratatui frames out, about ten times a second so
//! clocks tick and engine moves appear while the engine thinks on its own thread.

use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event};
use ratatui::DefaultTerminal;

use crate::app::App;
use crate::render;

/// Takes over the terminal (raw mode, alternate screen), plays until the player quits, and gives the
/// terminal back, also when something fails.
///
/// # Errors
/// The terminal could not be set up, drawn on or read from.
pub fn run_terminal(app: &mut App) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = event_loop(&mut terminal, app);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut DefaultTerminal, app: &mut App) -> io::Result<()> {
    let mut last = Instant::now();
    while !app.should_quit() {
        terminal.draw(|frame| render::draw(frame, app))?;
        if event::poll(Duration::from_millis(100))? {
            if let Event::Key(key) = event::read()? {
                app.handle_key(key);
            }
        }
        let now = Instant::now();
        app.tick(now - last);
        last = now;
        app.update();
    }
    Ok(())
}
