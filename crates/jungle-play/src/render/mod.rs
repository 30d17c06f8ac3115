//! Drawing the app with ratatui: the board with its terrain and highlights, the side panel (players,
//! clocks, rules, move list), the status and key lines, and the game-over banner and help overlays.
//! Reads an [`App`]; changes nothing.

use jungle_rules::terrain::DENS;
use jungle_rules::{Animal, Outcome, Side, Square, Termination};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use crate::app::{App, StatusKind};
use crate::clock::format_clock;
use crate::config::Mode;
use crate::opponent::Purpose;

/// The colours of the board: one place to retune them.
pub mod palette {
    use ratatui::style::Color;
    pub const LAND: Color = Color::Indexed(22);
    pub const WATER: Color = Color::Indexed(31);
    pub const TRAP: Color = Color::Indexed(130);
    pub const DEN: Color = Color::Indexed(90);
    pub const WATER_MARK: Color = Color::Indexed(117);
    pub const TRAP_MARK: Color = Color::Indexed(223);
    pub const DEN_MARK: Color = Color::Indexed(219);
    pub const BLUE_PIECE: Color = Color::Indexed(19);
    pub const RED_PIECE: Color = Color::Indexed(124);
    pub const CURSOR: Color = Color::Indexed(226);
    pub const SELECTED: Color = Color::Indexed(201);
    pub const TARGET: Color = Color::Indexed(46);
    pub const LAST_MOVE: Color = Color::Indexed(172);
    pub const HINT: Color = Color::Indexed(51);
}

/// The key line at the bottom of the screen.
pub const KEYS: &str =
    "move: arrows+Enter, c3c4  u undo h hint t turn r resign s save q quit ? help";

/// Where the board's squares are on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardLayout {
    /// The top-left corner of the top-left square.
    pub x: u16,
    pub y: u16,
    pub cell_width: u16,
    pub cell_height: u16,
    pub flipped: bool,
}

impl BoardLayout {
    /// The board's place in the screen's main area (above the status lines): the largest cells (7×3, 7×2,
    /// else 5×1) that leave room for a side panel 30 columns wide.
    pub fn fit(area: Rect, flipped: bool) -> BoardLayout {
        let wide = area.width >= 7 * 7 + 8 + 30;
        let (cell_width, cell_height) = match area.height {
            h if wide && h >= 9 * 3 + 4 => (7, 3),
            h if wide && h >= 9 * 2 + 4 => (7, 2),
            _ => (5, 1),
        };
        BoardLayout {
            x: area.x + 4,
            y: area.y + 2,
            cell_width,
            cell_height,
            flipped,
        }
    }

    /// The width and height of the board with its border and coordinates.
    pub const fn size(cell_width: u16, cell_height: u16) -> (u16, u16) {
        (7 * cell_width + 8, 9 * cell_height + 4)
    }

    /// The square drawn at a screen cell, if any (for mouse clicks). `main` is the area the board was fitted
    /// to; nothing is there when the board did not fit.
    pub fn square_at(&self, main: Rect, column: u16, row: u16) -> Option<Square> {
        let (width, height) = BoardLayout::size(self.cell_width, self.cell_height);
        if main.width < width || main.height < height || column < self.x || row < self.y {
            return None;
        }
        let col = (column - self.x) / self.cell_width;
        let row = (row - self.y) / self.cell_height;
        if col >= 7 || row >= 9 {
            return None;
        }
        let (file, rank) = if self.flipped {
            (6 - col, row)
        } else {
            (col, 8 - row)
        };
        Square::from_coords(file as u8, rank as u8)
    }

    /// The screen rectangle of a square.
    pub fn square_area(&self, sq: Square) -> Rect {
        let (col, row) = if self.flipped {
            (6 - sq.file(), sq.rank())
        } else {
            (sq.file(), 8 - sq.rank())
        };
        Rect::new(
            self.x + u16::from(col) * self.cell_width,
            self.y + u16::from(row) * self.cell_height,
            self.cell_width,
            self.cell_height,
        )
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let [main, status, keys] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let layout = BoardLayout::fit(main, app.is_flipped());
    let (board_width, _) = BoardLayout::size(layout.cell_width, layout.cell_height);
    let [board_area, panel_area] =
        Layout::horizontal([Constraint::Length(board_width), Constraint::Min(0)]).areas(main);
    draw_board(frame.buffer_mut(), board_area, &layout, app);
    let (_, board_height) = BoardLayout::size(layout.cell_width, layout.cell_height);
    let board_frame = Rect {
        height: board_height.min(board_area.height),
        ..board_area
    };
    draw_panel(frame, panel_area, app);
    draw_status(frame, status, app);
    frame.render_widget(
        Paragraph::new(KEYS).style(Style::new().fg(Color::DarkGray)),
        keys,
    );
    if app.shows_help() {
        draw_help(frame, main, app);
    } else if let Some(outcome) = app.outcome() {
        draw_banner(frame, board_frame, outcome, app);
    }
}

fn draw_board(buf: &mut Buffer, area: Rect, layout: &BoardLayout, app: &App) {
    let game = app.game();
    let (width, height) = BoardLayout::size(layout.cell_width, layout.cell_height);
    let frame_area = Rect::new(
        area.x,
        area.y,
        width.min(area.width),
        height.min(area.height),
    );
    let title = match (app.outcome(), app.thinking()) {
        (Some(_), _) => " Jungle — game over ".to_string(),
        (None, Some(Purpose::Play)) => {
            format!(" Jungle — {} to move · thinking… ", game.side_to_move())
        }
        (None, _) => format!(" Jungle — {} to move ", game.side_to_move()),
    };
    let border_colour = match game.side_to_move() {
        Side::Blue => Color::LightBlue,
        Side::Red => Color::LightRed,
    };
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(border_colour))
        .title(title);
    ratatui::widgets::Widget::render(block, frame_area, buf);
    if frame_area.width < width || frame_area.height < height {
        return; // too small to draw squares; the frame says so by its title alone
    }

    // Coordinates: files above and below, ranks left and right.
    let label = Style::new().fg(Color::Gray);
    for sq in Square::all() {
        let cell = layout.square_area(sq);
        let mid_x = cell.x + cell.width / 2;
        let mid_y = cell.y + cell.height / 2;
        if sq.rank() == 0 || sq.rank() == 8 {
            let file = sq.file_char().to_string();
            let bottom_row = (sq.rank() == 0) != layout.flipped;
            let y = if bottom_row {
                cell.y + cell.height
            } else {
                cell.y - 1
            };
            buf.set_string(mid_x, y, &file, label);
        }
        if sq.file() == 0 || sq.file() == 6 {
            let rank = sq.rank_char().to_string();
            let left = (sq.file() == 0) != layout.flipped;
            let x = if left {
                cell.x - 2
            } else {
                cell.x + cell.width + 1
            };
            buf.set_string(x, mid_y, &rank, label);
        }
    }

    let targets = app.targets();
    let last = app.last_move();
    let hint = app.hint();
    let rules = game.rules();
    let position = game.position();
    let ascii = app.config().ascii;
    for sq in Square::all() {
        let cell = layout.square_area(sq);
        let (terrain_bg, mark, mark_fg) = if rules.water().contains(sq) {
            (palette::WATER, "~ ~", palette::WATER_MARK)
        } else if rules.traps().contains(sq) {
            (palette::TRAP, " # ", palette::TRAP_MARK)
        } else if sq == DENS.blue || sq == DENS.red {
            (palette::DEN, "DEN", palette::DEN_MARK)
        } else {
            (palette::LAND, "   ", palette::LAND)
        };
        // The highlight colours the square's margin; the strongest one wins.
        let highlight = if sq == app.cursor() {
            Some(palette::CURSOR)
        } else if Some(sq) == app.selected() {
            Some(palette::SELECTED)
        } else if targets.contains(sq) {
            Some(palette::TARGET)
        } else if hint.is_some_and(|m| m.from == sq || m.to == sq) {
            Some(palette::HINT)
        } else if last.is_some_and(|m| m.from == sq || m.to == sq) {
            Some(palette::LAST_MOVE)
        } else {
            None
        };
        let margin_bg = highlight.unwrap_or(terrain_bg);
        for dy in 0..cell.height {
            buf.set_string(
                cell.x,
                cell.y + dy,
                " ".repeat(cell.width as usize),
                Style::new().bg(margin_bg),
            );
        }
        let inner_x = cell.x + (cell.width - 3) / 2;
        let inner_y = cell.y + cell.height / 2;
        let (text, style) = match position.piece_at(sq) {
            Some(piece) => {
                let bg = match piece.side {
                    Side::Blue => palette::BLUE_PIECE,
                    Side::Red => palette::RED_PIECE,
                };
                let text = if ascii {
                    format!(" {} ", piece.fen_char())
                } else {
                    format!("{}{}", piece.animal.chinese(), piece.fen_char())
                };
                (
                    text,
                    Style::new()
                        .fg(Color::White)
                        .bg(bg)
                        .add_modifier(Modifier::BOLD),
                )
            }
            None if targets.contains(sq) => (
                if ascii { " o " } else { " • " }.to_string(),
                Style::new()
                    .fg(Color::Black)
                    .bg(terrain_bg)
                    .add_modifier(Modifier::BOLD),
            ),
            None => (mark.to_string(), Style::new().fg(mark_fg).bg(terrain_bg)),
        };
        buf.set_string(inner_x, inner_y, text, style);
    }
}

fn draw_panel(frame: &mut Frame, area: Rect, app: &App) {
    let game = app.game();
    let mut lines = Vec::new();
    for side in Side::ALL {
        let colour = match side {
            Side::Blue => Color::LightBlue,
            Side::Red => Color::LightRed,
        };
        let marker = if game.side_to_move() == side && app.outcome().is_none() {
            "▶ "
        } else {
            "  "
        };
        let mut spans = vec![
            Span::raw(marker),
            Span::styled(
                format!("{side:<5}"),
                Style::new().fg(colour).add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!(" {}", player_label(app, side))),
        ];
        if let Some(clocks) = app.clocks() {
            let time = clocks.remaining(side);
            let style = if time.as_secs() < 10 {
                Style::new().fg(Color::LightRed)
            } else {
                Style::new()
            };
            spans.push(Span::styled(format!("  {}", format_clock(time)), style));
        }
        lines.push(Line::from(spans));
        let lost = lost_pieces(game, side);
        if !lost.is_empty() {
            let names: Vec<String> = lost
                .iter()
                .map(|a| {
                    let piece = jungle_rules::Piece::new(side, *a);
                    if app.config().ascii {
                        piece.fen_char().to_string()
                    } else {
                        format!("{}{}", a.chinese(), piece.fen_char())
                    }
                })
                .collect();
            lines.push(Line::styled(
                format!("        lost: {}", names.join(" ")),
                Style::new().fg(Color::Gray),
            ));
        }
    }
    let mode = match app.config().mode {
        Mode::VsEngine => "vs engine",
        Mode::TwoPlayers => "two players",
        Mode::Watch if app.is_paused() => "watching (paused)",
        Mode::Watch => "watching",
    };
    let tc = app
        .config()
        .time_control
        .map(|tc| format!(" · clock {tc}"))
        .unwrap_or_default();
    lines.push(Line::raw(format!("Mode: {mode}{tc}")));
    if let Some(note) = app.engine_note() {
        lines.push(Line::raw(format!("Engine: {note}")));
    }
    lines.push(Line::raw(format!("Rules: {}", game.rules())));
    for text in rules_summary(app) {
        lines.push(Line::styled(text, Style::new().fg(Color::Gray)));
    }
    if !app.typed().is_empty() {
        lines.push(Line::styled(
            format!("Typed: {}_", app.typed()),
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ));
    }
    lines.push(Line::styled(
        "Moves",
        Style::new().add_modifier(Modifier::BOLD),
    ));
    let rows = move_rows(app);
    let inner_width = area.width.saturating_sub(2).max(1) as usize;
    let used: usize = lines
        .iter()
        .map(|line| wrapped_rows(&line.to_string(), inner_width))
        .sum();
    let room = (area.height as usize).saturating_sub(used + 2);
    let skip = rows.len().saturating_sub(room);
    lines.extend(rows.into_iter().skip(skip).map(Line::raw));
    let panel = Paragraph::new(lines)
        .block(
            Block::bordered()
                .border_type(BorderType::Rounded)
                .title(" Game "),
        )
        .wrap(Wrap { trim: false });
    frame.render_widget(panel, area);
}

/// How many rows a line takes when wrapped at word boundaries to `width` columns (as the panel wraps it),
/// so the move list can be cut to what fits and always shows the latest moves.
pub fn wrapped_rows(text: &str, width: usize) -> usize {
    let width = width.max(1);
    let mut rows = 1;
    let mut column = 0;
    for word in text.split(' ') {
        let len = word.chars().count();
        if column == 0 && len <= width {
            column = len;
            continue;
        }
        if column > 0 && column + 1 + len <= width {
            column += 1 + len;
            continue;
        }
        if column > 0 {
            rows += 1;
        }
        // The word starts a row; a word longer than the row is cut across rows.
        let extra = len.saturating_sub(1) / width;
        rows += extra;
        column = len - extra * width;
    }
    rows
}

/// The animals a side has lost since the start position, strongest first.
pub fn lost_pieces(game: &jungle_rules::Game, side: Side) -> Vec<Animal> {
    let start = game.start_position();
    let now = game.position();
    let mut lost = Vec::new();
    for animal in Animal::ALL.into_iter().rev() {
        let piece = jungle_rules::Piece::new(side, animal);
        let missing = start
            .pieces(piece)
            .count()
            .saturating_sub(now.pieces(piece).count());
        lost.extend(std::iter::repeat_n(animal, missing as usize));
    }
    lost
}

/// Who plays a side, in a few words.
fn player_label(app: &App, side: Side) -> String {
    match app.config().mode {
        _ if app.is_engine(side) => app.player_name(side),
        Mode::VsEngine => "you".into(),
        _ => "player".into(),
    }
}

/// The rule facts a player needs at a glance, following the rules in force.
pub fn rules_summary(app: &App) -> Vec<String> {
    let rules = app.game().rules();
    let options = rules.options();
    let mut animals: Vec<Animal> = Animal::ALL
        .into_iter()
        .filter(|a| rules.in_play(*a))
        .collect();
    animals.sort_by_key(|a| std::cmp::Reverse((rules.rank(*a), a.index())));
    let ranks: Vec<String> = animals
        .iter()
        .map(|a| format!("{}{}", a.letter(), rules.rank(*a)))
        .collect();
    let mut lines = vec![format!("Ranks: {} (Rat takes Elephant)", ranks.join(" "))];
    let mut jumpers = vec!["Lion", "Tiger"];
    if options.leopard_jumps {
        jumpers.push("Leopard (sideways)");
    }
    let swimmers = if options.dog_swims {
        "Rat and Dog swim"
    } else {
        "only the Rat swims"
    };
    if rules.water().any() {
        lines.push(format!(
            "{swimmers} (~); {} jump rivers",
            jumpers.join(", ")
        ));
    }
    if rules.traps().any() {
        lines.push("On an enemy trap (#) a piece ranks 0".into());
    }
    let mut ends = vec!["enter the enemy DEN".to_string()];
    if options.capture_all_wins {
        ends.push("capture all".into());
    }
    lines.push(format!("Win: {}, or leave no move", ends.join(", ")));
    let mut draws = Vec::new();
    if options.repetition_draw != 0 {
        draws.push(format!("{}-fold repetition", options.repetition_draw));
    }
    if options.quiet_ply_limit != 0 {
        draws.push(format!("{} plies without capture", options.quiet_ply_limit));
    }
    if !draws.is_empty() {
        lines.push(format!("Draw: {}", draws.join(", ")));
    }
    lines
}

/// The move list, one row per move number: `  3. c3c4  e7e6`.
pub fn move_rows(app: &App) -> Vec<String> {
    let game = app.game();
    let start = game.start_position();
    let red_first = start.side_to_move() == Side::Red;
    let mut rows: Vec<String> = Vec::new();
    for (i, m) in game.moves().iter().enumerate() {
        let ply = i + usize::from(red_first);
        let number = start.move_number() as usize + ply / 2;
        if ply % 2 == 0 {
            rows.push(format!("{number:>3}. {m}"));
        } else if i == 0 {
            rows.push(format!("{number:>3}. ....  {m}"));
        } else if let Some(row) = rows.last_mut() {
            row.push_str(&format!("  {m}"));
        }
    }
    rows
}

fn draw_status(frame: &mut Frame, area: Rect, app: &App) {
    let line = if let Some(prompt) = app.prompt() {
        Line::styled(
            prompt.question(),
            Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        )
    } else {
        let status = app.status();
        let style = match status.kind {
            StatusKind::Info => Style::new(),
            StatusKind::Error => Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        };
        Line::styled(status.text.clone(), style)
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// The headline and the sentence of a finished game's banner.
pub fn banner_text(outcome: Outcome, app: &App) -> (String, String) {
    let options = app.game().rules().options();
    let headline = match outcome.winner {
        Some(side) => format!("{} WINS", side.name().to_uppercase()),
        None => "DRAW".to_string(),
    };
    let (winner, loser) = match outcome.winner {
        Some(side) => (side, !side),
        None => (Side::Blue, Side::Red),
    };
    let reason = match outcome.termination {
        Termination::DenEntered => format!("{winner} entered {loser}'s den"),
        Termination::AllCaptured => format!("{winner} captured all of {loser}'s pieces"),
        Termination::NoLegalMove => format!("{loser} has no legal move"),
        Termination::Repetition => {
            format!(
                "repetition: same position {} times",
                options.repetition_draw
            )
        }
        Termination::QuietPlyLimit => format!(
            "quiet-ply limit: {} plies, no capture",
            options.quiet_ply_limit
        ),
        Termination::TimeForfeit => format!("{loser} ran out of time"),
        Termination::Resignation => format!("{loser} resigned"),
        other => other.as_str().to_string(),
    };
    (headline, reason)
}

fn draw_banner(frame: &mut Frame, board: Rect, outcome: Outcome, app: &App) {
    let (headline, reason) = banner_text(outcome, app);
    let colour = match outcome.winner {
        Some(Side::Blue) => Color::Blue,
        Some(Side::Red) => Color::Red,
        None => Color::DarkGray,
    };
    const KEYS_LINE: &str = "u: undo  n: new game  s: save  q: quit";
    let width = (reason.chars().count().max(KEYS_LINE.len()) as u16 + 4).min(board.width);
    let area = board.centered(Constraint::Length(width), Constraint::Length(7));
    let text = vec![
        Line::raw(""),
        Line::styled(headline, Style::new().add_modifier(Modifier::BOLD)).centered(),
        Line::raw(reason).centered(),
        Line::raw(""),
        Line::styled(KEYS_LINE, Style::new().fg(Color::Gray)).centered(),
    ];
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(text)
            .style(Style::new().fg(Color::White).bg(colour))
            .block(
                Block::bordered()
                    .border_type(BorderType::Double)
                    .title(" Game over "),
            )
            .wrap(Wrap { trim: true }),
        area,
    );
}

fn draw_help(frame: &mut Frame, area: Rect, app: &App) {
    let mut lines: Vec<Line> = [
        "Move: arrows move the cursor; Enter picks the piece under it (its legal",
        "targets light up) and Enter again on a target plays. Or type a move: c3c4.",
        "u  take back (against the engine: your move and its reply)",
        "h  hint: the engine's suggestion lights up",
        "t  turn the board around",
        "r  resign      s  save as PGN      n  new game",
        "p / space  pause or resume when watching      + / -  engine level",
        "Mouse: click a piece, then a target.",
        "Esc  clear the selection      q  quit (offers to save)",
        "",
        "Colours: green land, blue-green water (~), brown traps (#), purple dens.",
        "Cursor yellow, picked piece pink, targets green, last move orange, hint cyan.",
        "",
    ]
    .into_iter()
    .map(Line::raw)
    .collect();
    lines.extend(rules_summary(app).into_iter().map(Line::raw));
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "? or Esc closes this help",
        Style::new().fg(Color::Gray),
    ));
    let popup = area.centered(
        Constraint::Length(80.min(area.width)),
        Constraint::Length((lines.len() as u16 + 2).min(area.height)),
    );
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Help ")),
        popup,
    );
}
