//! The side panel: players, clocks and lost pieces, mode, engine report, the rules in force and the move list.

use jungle_rules::{Animal, Side};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};

use crate::app::App;
use crate::clock::format_clock;
use crate::config::Mode;

pub(super) fn draw_panel(frame: &mut Frame, area: Rect, app: &App) {
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
    match (app.thinking(), app.thinking_progress()) {
        (Some(_), Some(progress)) => lines.push(Line::styled(
            format!("Engine: thinking, {progress}"),
            Style::new().fg(Color::Yellow),
        )),
        _ => {
            if let Some(note) = app.engine_note() {
                lines.push(Line::raw(format!("Engine: {note}")));
            }
        }
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
    rules_lines(app.game().rules())
}

/// The rule facts of `rules` at a glance: ranks, water, traps, how a game is won and drawn.
pub fn rules_lines(rules: &jungle_rules::Rules) -> Vec<String> {
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
