//! The line mode: for a standard input that is not a terminal. It prints the board and reads one move or
//! command per line, so games can be scripted (`printf 'c3c4\n...' | jungle play --mode two-players`).

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use jungle_rules::Diagram;

use crate::app::{App, StatusKind};
use crate::render::banner_text;

/// Longer lines are refused without being echoed back.
const MAX_LINE: usize = 200;

/// How long the line mode waits for one engine search before giving up on it.
const ENGINE_PATIENCE: Duration = Duration::from_secs(600);

pub const LINE_HELP: &str = "\
moves: two squares like c3c4
commands: board, moves (legal moves), undo, hint, flip, resign, save [FILE], pgn, new, help, quit";

/// Plays a game on `input`/`output` until `quit` or the end of the input.
///
/// # Errors
/// Reading the input or writing the output failed.
pub fn run_lines(app: &mut App, input: impl BufRead, output: &mut impl Write) -> io::Result<()> {
    writeln!(
        output,
        "jungle play (line mode): {} vs {}, rules {}; type a move like c3c4, or help",
        app.player_name(jungle_rules::Side::Blue),
        app.player_name(jungle_rules::Side::Red),
        app.game().rules()
    )?;
    let mut lines = input.lines();
    let mut show_board = true;
    let mut announced_end = false;
    let mut quit_warned = false;
    loop {
        // The engine moves for as long as it is its turn.
        while app.is_engine(app.game().side_to_move()) && !app.game().is_over() {
            if !app.wait_for_engine(ENGINE_PATIENCE) {
                writeln!(output, "error: the engine did not answer")?;
                return Ok(());
            }
            report(app, output)?;
            if let Some(note) = app.engine_note() {
                writeln!(output, "engine {note}")?;
            }
            show_board = true;
        }
        if show_board {
            // Plain (no colours, no wide characters), as a script or a pipe wants it; the last move bracketed.
            let game = app.game();
            let board = Diagram::new(game.position(), game.rules())
                .flipped(app.is_flipped())
                .highlight(game.moves().last().copied());
            write!(output, "{board}")?;
            show_board = false;
        }
        match app.outcome() {
            Some(outcome) if !announced_end => {
                let (headline, reason) = banner_text(outcome, app);
                writeln!(
                    output,
                    "*** {headline}: {reason} ({}) ***",
                    outcome.result_str()
                )?;
                announced_end = true;
            }
            Some(_) => {}
            None => announced_end = false,
        }
        if let Some(clocks) = app.clocks() {
            let time = |side| crate::clock::format_clock(clocks.remaining(side));
            writeln!(
                output,
                "clock: Blue {}  Red {}",
                time(jungle_rules::Side::Blue),
                time(jungle_rules::Side::Red)
            )?;
        }
        let prompt = match app.outcome() {
            Some(_) => "game over> ".to_string(),
            None => format!("{} to move> ", app.game().side_to_move()),
        };
        write!(output, "{prompt}")?;
        output.flush()?;
        let asked = Instant::now();
        let Some(line) = lines.next() else {
            writeln!(output)?;
            return Ok(());
        };
        let line = line?;
        app.tick(asked.elapsed());
        let length = line.chars().count();
        if length > MAX_LINE {
            writeln!(
                output,
                "error: line too long ({length} characters): type a move like c3c4, or help"
            )?;
            continue;
        }
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            show_board = true;
            continue;
        };
        let argument = words.next();
        if !matches!(command, "quit" | "q" | "exit") {
            quit_warned = false;
        }
        match command {
            "quit" | "q" | "exit" => {
                if app.is_dirty() && !app.game().moves().is_empty() && !quit_warned {
                    writeln!(
                        output,
                        "the game is not saved: \"save FILE\" keeps it, \"quit\" again leaves without saving"
                    )?;
                    quit_warned = true;
                    continue;
                }
                return Ok(());
            }
            "help" | "?" => writeln!(output, "{LINE_HELP}")?,
            "board" | "b" => show_board = true,
            "moves" => {
                let mut moves = app.game().legal_moves();
                moves.sort();
                let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
                writeln!(output, "legal moves: {}", list.join(" "))?;
            }
            "pgn" => write!(output, "{}", app.pgn())?,
            "undo" | "u" => {
                outcome_line(app.undo(), app, output)?;
                show_board = true;
            }
            "hint" | "h" => {
                app.request_hint();
                if app.thinking().is_some() {
                    app.wait_for_engine(ENGINE_PATIENCE);
                }
                report(app, output)?;
            }
            "flip" | "t" => {
                app.flip();
                show_board = true;
            }
            "resign" => {
                outcome_line(app.resign(), app, output)?;
            }
            "new" => {
                app.new_game();
                report(app, output)?;
                show_board = true;
            }
            "save" | "s" => {
                let result = match argument {
                    Some(path) => app.save_to(PathBuf::from(path)),
                    None => app.save(),
                };
                outcome_line(result, app, output)?;
            }
            text => {
                let result = app.play_text(text);
                let moved = result.is_ok();
                outcome_line(result, app, output)?;
                show_board |= moved;
            }
        }
    }
}

/// Prints the status line, as an error when it is one.
fn report(app: &App, output: &mut impl Write) -> io::Result<()> {
    let status = app.status();
    match status.kind {
        StatusKind::Info => writeln!(output, "{}", status.text),
        StatusKind::Error => writeln!(output, "error: {}", status.text),
    }
}

fn outcome_line<T>(
    result: Result<T, String>,
    app: &App,
    output: &mut impl Write,
) -> io::Result<()> {
    match result {
        Ok(_) => report(app, output),
        Err(e) => writeln!(output, "error: {e}"),
    }
}
