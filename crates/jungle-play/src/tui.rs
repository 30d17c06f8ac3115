//! The full-screen terminal game: crossterm events in, ratatui frames out, about ten times a second so
//! clocks tick and engine moves appear while the engine thinks on its own thread.

use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::DefaultTerminal;
use ratatui::layout::Rect;

use crate::app::App;
use crate::render;

/// Takes over the terminal (raw mode, alternate screen), plays until the player quits, and gives the
/// terminal back, also when something fails.
///
/// # Errors
/// The terminal could not be set up, drawn on or read from.
pub fn run_terminal(app: &mut App) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    // Clicks pick and move pieces; a terminal without mouse support simply sends none.
    let mouse = crossterm::execute!(io::stdout(), EnableMouseCapture).is_ok();
    let result = event_loop(&mut terminal, app);
    if mouse {
        let _ = crossterm::execute!(io::stdout(), DisableMouseCapture);
    }
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut DefaultTerminal, app: &mut App) -> io::Result<()> {
    let mut last = Instant::now();
    while !app.should_quit() {
        terminal.draw(|frame| render::draw(frame, app))?;
        if event::poll(Duration::from_millis(100))? {
            match event::read()? {
                Event::Key(key) => app.handle_key(key),
                Event::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Left),
                    column,
                    row,
                    ..
                }) => {
                    let size = terminal.size()?;
                    let main = Rect::new(0, 0, size.width, size.height.saturating_sub(2));
                    let layout = render::BoardLayout::fit(main, app.is_flipped());
                    if let Some(square) = layout.square_at(main, column, row) {
                        app.click(square);
                    }
                }
                _ => {}
            }
        }
        let now = Instant::now();
        app.tick(now - last);
        last = now;
        app.update();
    }
    Ok(())
}
