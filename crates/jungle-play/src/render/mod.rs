//! Drawing the app with ratatui: the board with its terrain and highlights, the side panel (players,
//! clocks, rules, move list), the status and key lines, and the game-over banner and help overlays.
//! Reads an [`App`]; changes nothing.

use jungle_rules::terrain::DENS;
use jungle_rules::{Bitboard, Move, Side, Square};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, BorderType, Paragraph};

use crate::app::App;
use crate::opponent::Purpose;

mod hidden;
mod overlay;
mod panel;

pub use hidden::{draw_hidden, hidden_piece_text};
pub use overlay::{banner_text, ending_reason};
pub use panel::{lost_pieces, move_rows, rules_lines, rules_summary, wrapped_rows};

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
    pub const THREATENED: Color = Color::Indexed(226);
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
    panel::draw_panel(frame, panel_area, app);
    overlay::draw_status(
        frame,
        status,
        app.prompt().map(|p| p.question()),
        app.status(),
    );
    frame.render_widget(
        Paragraph::new(KEYS).style(Style::new().fg(Color::DarkGray)),
        keys,
    );
    if app.shows_help() {
        overlay::draw_help(frame, main, app);
    } else if let Some(outcome) = app.outcome() {
        overlay::draw_banner(frame, board_frame, outcome, app);
    }
}

fn draw_board(buf: &mut Buffer, area: Rect, layout: &BoardLayout, app: &App) {
    let game = app.game();
    let title = match (app.outcome(), app.thinking()) {
        (Some(_), _) => " Jungle — game over ".to_string(),
        (None, Some(Purpose::Play)) => {
            format!(" Jungle — {} to move · thinking… ", game.side_to_move())
        }
        (None, _) => format!(" Jungle — {} to move ", game.side_to_move()),
    };
    if !draw_board_frame(buf, area, layout, &title, game.side_to_move()) {
        return;
    }
    let targets = app.targets();
    let threatened = crate::threats::threatened(game);
    let last = app.last_move();
    let hint = app.hint();
    let position = game.position();
    let ascii = app.config().ascii;
    for sq in Square::all() {
        let highlight = Marks {
            cursor: app.cursor(),
            selected: app.selected(),
            targets,
            hint,
            last,
        }
        .highlight(sq);
        let piece = position.piece_at(sq).map(|piece| {
            let text = if ascii {
                format!(" {} ", piece.fen_char())
            } else {
                format!("{}{}", piece.animal.chinese(), piece.fen_char())
            };
            // A piece the opponent could take next shows its glyph in warning yellow, underlined.
            let style = if threatened.contains(sq) {
                Style::new()
                    .fg(palette::THREATENED)
                    .add_modifier(Modifier::UNDERLINED)
            } else {
                Style::new().fg(Color::White)
            };
            (text, piece_style(style, piece.side))
        });
        let look = SquareLook {
            highlight,
            piece,
            target: targets.contains(sq),
            ascii,
        };
        draw_square(buf, layout, game.rules(), sq, look);
    }
}

/// The style of a piece's glyph: `style` on its side's colour, bold.
pub(crate) fn piece_style(style: Style, side: Side) -> Style {
    let bg = match side {
        Side::Blue => palette::BLUE_PIECE,
        Side::Red => palette::RED_PIECE,
    };
    style.bg(bg).add_modifier(Modifier::BOLD)
}

/// Draws the board's border (titled, in the colour of the side to move) and its coordinates; false when the
/// area is too small for the squares (the frame then says so by its title alone).
pub(crate) fn draw_board_frame(
    buf: &mut Buffer,
    area: Rect,
    layout: &BoardLayout,
    title: &str,
    to_move: Side,
) -> bool {
    let (width, height) = BoardLayout::size(layout.cell_width, layout.cell_height);
    let frame_area = Rect::new(
        area.x,
        area.y,
        width.min(area.width),
        height.min(area.height),
    );
    let border_colour = match to_move {
        Side::Blue => Color::LightBlue,
        Side::Red => Color::LightRed,
    };
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(border_colour))
        .title(title.to_string());
    ratatui::widgets::Widget::render(block, frame_area, buf);
    if frame_area.width < width || frame_area.height < height {
        return false;
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
    true
}

/// What one square shows besides its terrain.
pub(crate) struct SquareLook {
    /// The margin's colour (cursor, selection, target, last move…), else the terrain's.
    pub highlight: Option<Color>,
    /// The piece's three columns of text and their style.
    pub piece: Option<(String, Style)>,
    /// Whether an empty square is a target of the picked piece (a dot marks it).
    pub target: bool,
    pub ascii: bool,
}

/// Draws one square: terrain colour and mark, the highlight in its margin, the piece or target dot.
pub(crate) fn draw_square(
    buf: &mut Buffer,
    layout: &BoardLayout,
    rules: &jungle_rules::Rules,
    sq: Square,
    look: SquareLook,
) {
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
    let margin_bg = look.highlight.unwrap_or(terrain_bg);
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
    let (text, style) = match look.piece {
        Some(piece) => piece,
        None if look.target => (
            if look.ascii { " o " } else { " • " }.to_string(),
            Style::new()
                .fg(Color::Black)
                .bg(terrain_bg)
                .add_modifier(Modifier::BOLD),
        ),
        None => (mark.to_string(), Style::new().fg(mark_fg).bg(terrain_bg)),
    };
    buf.set_string(inner_x, inner_y, text, style);
}

/// What the board marks besides the pieces: the cursor, the picked piece and its targets, the hint and the
/// last move.
pub(crate) struct Marks {
    pub cursor: Square,
    pub selected: Option<Square>,
    pub targets: Bitboard,
    pub hint: Option<Move>,
    pub last: Option<Move>,
}

impl Marks {
    /// The colour of a square's margin; the strongest mark wins.
    pub fn highlight(&self, sq: Square) -> Option<Color> {
        let on = |m: Option<Move>| m.is_some_and(|m| m.from == sq || m.to == sq);
        if sq == self.cursor {
            Some(palette::CURSOR)
        } else if Some(sq) == self.selected {
            Some(palette::SELECTED)
        } else if self.targets.contains(sq) {
            Some(palette::TARGET)
        } else if on(self.hint) {
            Some(palette::HINT)
        } else if on(self.last) {
            Some(palette::LAST_MOVE)
        } else {
            None
        }
    }
}
