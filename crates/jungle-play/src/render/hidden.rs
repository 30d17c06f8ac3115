//! Drawing the hidden game: the player's view only — their own animals, the revealed ones, every other piece
//! face down (`?` on its side's colour) — with the side panel (players, the setup, what is still unknown of
//! the enemy, the public moves) and the banner that shows both setups when the game is over.

use jungle_hidden::{Seen, View};
use jungle_rules::{Outcome, Piece, Side, Square};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use super::{
    BoardLayout, Marks, SquareLook, draw_board_frame, draw_square, ending_reason, overlay,
    piece_style, rules_lines,
};
use crate::hidden_app::{HiddenApp, Phase};

/// The key lines of the two phases.
pub const SETUP_KEYS: &str =
    "arrows+Enter: pick two animals to swap  x random  g start  t turn  q quit";
pub const PLAY_KEYS: &str = "move: arrows+Enter, c3c4  r resign  s save  t turn  q quit";

/// The three columns a piece shows: its animal when the viewer knows it, else `?` (face down).
pub fn hidden_piece_text(seen: Seen, ascii: bool) -> String {
    match seen.animal {
        Some(animal) => {
            let piece = Piece::new(seen.side, animal);
            if ascii {
                format!(" {} ", piece.fen_char())
            } else {
                format!("{}{}", animal.chinese(), piece.fen_char())
            }
        }
        None => " ? ".to_string(),
    }
}

/// Draws the whole screen of a hidden game.
pub fn draw_hidden(frame: &mut Frame, app: &HiddenApp) {
    let [main, status, keys] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let layout = BoardLayout::fit(main, app.is_flipped());
    let (board_width, board_height) = BoardLayout::size(layout.cell_width, layout.cell_height);
    let [board_area, panel_area] =
        Layout::horizontal([Constraint::Length(board_width), Constraint::Min(0)]).areas(main);
    draw_board(frame, board_area, &layout, app);
    draw_panel(frame, panel_area, app);
    overlay::draw_status(
        frame,
        status,
        app.prompt().map(|p| p.question()),
        app.status(),
    );
    let key_line = match app.phase() {
        Phase::Setup => SETUP_KEYS,
        Phase::Play => PLAY_KEYS,
    };
    frame.render_widget(
        Paragraph::new(key_line).style(Style::new().fg(Color::DarkGray)),
        keys,
    );
    if let Some(outcome) = app.outcome() {
        let board_frame = Rect {
            height: board_height.min(board_area.height),
            ..board_area
        };
        draw_banner(frame, board_frame, outcome, app);
    }
}

fn draw_board(frame: &mut Frame, area: Rect, layout: &BoardLayout, app: &HiddenApp) {
    let view = app.view();
    let title = match (app.phase(), app.outcome()) {
        (Phase::Setup, _) => " Hidden Jungle — your setup ".to_string(),
        (Phase::Play, Some(_)) => " Hidden Jungle — game over ".to_string(),
        (Phase::Play, None) if app.is_thinking() => format!(
            " Hidden Jungle — {} to move · thinking… ",
            view.side_to_move()
        ),
        (Phase::Play, None) => format!(" Hidden Jungle — {} to move ", view.side_to_move()),
    };
    let buf = frame.buffer_mut();
    if !draw_board_frame(buf, area, layout, &title, view.side_to_move()) {
        return;
    }
    let targets = app.targets();
    let last = app.last_move().map(|public| public.mv);
    let ascii = app.config().ascii;
    for sq in Square::all() {
        let highlight = Marks {
            cursor: app.cursor(),
            selected: app.selected(),
            targets,
            hint: None,
            last,
        }
        .highlight(sq);
        let piece = view.piece_at(sq).map(|seen| {
            // Unknown pieces are dimmed; the player's own animals the opponent has not seen yet are italic.
            let style = match seen.animal {
                None => Style::new().fg(Color::Gray),
                Some(_) if seen.side == app.config().human && !seen.revealed => {
                    Style::new().fg(Color::White).add_modifier(Modifier::ITALIC)
                }
                Some(_) => Style::new().fg(Color::White),
            };
            (
                hidden_piece_text(seen, ascii),
                piece_style(style, seen.side),
            )
        });
        let look = SquareLook {
            highlight,
            piece,
            target: targets.contains(sq),
            ascii,
        };
        draw_square(buf, layout, view.rules(), sq, look);
    }
}

fn draw_panel(frame: &mut Frame, area: Rect, app: &HiddenApp) {
    let view = app.view();
    let human = app.config().human;
    let mut lines = Vec::new();
    for side in Side::ALL {
        let colour = match side {
            Side::Blue => Color::LightBlue,
            Side::Red => Color::LightRed,
        };
        let marker =
            if app.phase() == Phase::Play && view.side_to_move() == side && app.outcome().is_none()
            {
                "▶ "
            } else {
                "  "
            };
        lines.push(Line::from(vec![
            ratatui::text::Span::raw(marker),
            ratatui::text::Span::styled(
                format!("{side:<5}"),
                Style::new().fg(colour).add_modifier(Modifier::BOLD),
            ),
            ratatui::text::Span::raw(format!(" {}", app.player_name(side))),
        ]));
    }
    lines.push(Line::raw(format!("Your setup: {}", app.setup())));
    if app.phase() == Phase::Play && app.outcome().is_none() {
        let unknown = view.unknown_animals(!human);
        let letters: Vec<String> = unknown.iter().map(|a| a.letter().to_string()).collect();
        lines.push(Line::raw(format!(
            "Unknown {} animals: {}",
            !human,
            if letters.is_empty() {
                "none".to_string()
            } else {
                letters.join(" ")
            }
        )));
    }
    lines.push(Line::styled(
        "?: not revealed · italic: still secret",
        Style::new().fg(Color::Gray),
    ));
    lines.push(Line::raw(format!("Rules: {}", view.rules())));
    if app.phase() == Phase::Setup {
        // Room for the rules while there are no moves to list.
        for text in rules_lines(view.rules()) {
            lines.push(Line::styled(text, Style::new().fg(Color::Gray)));
        }
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
    let rows = public_move_rows(view);
    let inner_width = area.width.saturating_sub(2).max(1) as usize;
    let used: usize = lines
        .iter()
        .map(|line| super::wrapped_rows(&line.to_string(), inner_width))
        .sum();
    let room = (area.height as usize).saturating_sub(used + 2);
    let skip = rows.len().saturating_sub(room);
    lines.extend(rows.into_iter().skip(skip).map(Line::raw));
    frame.render_widget(
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .title(" Hidden game "),
            )
            .wrap(Wrap { trim: false }),
        area,
    );
}

/// The public moves, one row per move number: `  3. c3c4=LxC  e7e6`.
pub fn public_move_rows(view: &View) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    for (i, public) in view.history().iter().enumerate() {
        if i % 2 == 0 {
            rows.push(format!("{:>3}. {public}", i / 2 + 1));
        } else if let Some(row) = rows.last_mut() {
            row.push_str(&format!("  {public}"));
        }
    }
    rows
}

/// The game-over banner: who won and why, and both setups (every animal is shown once the game is over).
fn draw_banner(frame: &mut Frame, board: Rect, outcome: Outcome, app: &HiddenApp) {
    let view = app.view();
    let headline = match outcome.winner {
        Some(side) if Some(side) == view.viewer() => "YOU WIN".to_string(),
        Some(side) => format!("{} WINS", side.name().to_uppercase()),
        None => "DRAW".to_string(),
    };
    let reason = ending_reason(outcome, view.rules());
    let setups = app
        .setups_after_end()
        .map(|setups| format!("setups: Blue {}, Red {}", setups.blue, setups.red))
        .unwrap_or_default();
    const KEYS_LINE: &str = "s: save  q: quit";
    let width = (reason.chars().count().max(setups.len()) as u16 + 4).min(board.width);
    let area = board.centered(Constraint::Length(width), Constraint::Length(8));
    let colour = match outcome.winner {
        Some(Side::Blue) => Color::Blue,
        Some(Side::Red) => Color::Red,
        None => Color::DarkGray,
    };
    let text = vec![
        Line::raw(""),
        Line::styled(headline, Style::new().add_modifier(Modifier::BOLD)).centered(),
        Line::raw(reason).centered(),
        Line::raw(setups).centered(),
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
