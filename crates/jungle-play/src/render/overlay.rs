//! What is drawn over or under the board: the status line, the game-over banner and the help.

use jungle_rules::{Outcome, Side, Termination};
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use super::panel::rules_summary;
use crate::app::{App, Status, StatusKind};

/// The status line: the question waiting for an answer, else the last message (errors in bold red). Both
/// the open and the hidden game draw theirs here.
pub(super) fn draw_status(frame: &mut Frame, area: Rect, question: Option<&str>, status: &Status) {
    let line = if let Some(question) = question {
        Line::styled(
            question,
            Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        )
    } else {
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
    let mut headline = match outcome.winner {
        Some(side) => format!("{} WINS", side.name().to_uppercase()),
        None => "DRAW".to_string(),
    };
    // Against the engine, say who that is.
    if app.config().mode == crate::config::Mode::VsEngine
        && let Some(side) = outcome.winner
    {
        let who = if app.is_engine(side) {
            "the engine wins"
        } else {
            "you win"
        };
        headline.push_str(&format!(" — {who}"));
    }
    (headline, ending_reason(outcome, app.game().rules()))
}

/// Why a game ended, in a few words (`Blue entered Red's den`).
pub fn ending_reason(outcome: Outcome, rules: &jungle_rules::Rules) -> String {
    let options = rules.options();
    let (winner, loser) = match outcome.winner {
        Some(side) => (side, !side),
        None => (Side::Blue, Side::Red),
    };
    match outcome.termination {
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
    }
}

pub(super) fn draw_banner(frame: &mut Frame, board: Rect, outcome: Outcome, app: &App) {
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

pub(super) fn draw_help(frame: &mut Frame, area: Rect, app: &App) {
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
        "A piece your opponent could take next: its letters yellow and underlined.",
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
