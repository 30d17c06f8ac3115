//! An open game read back from the store: its record and moves replayed into a room's state.

use std::time::{Duration, Instant};

use jungle_rules::{BySide, Game, Outcome, Position, Rules, Side, Termination};

use super::{ABORTED, Mode, OPENING_PLIES, RoomState, parse_side};
use crate::clock::Clock;
use crate::presence::Presence;
use crate::room::LoadError;
use crate::store::{GameRecord, MoveRecord};

/// The ending a stored game records beyond its moves (a resignation, a flag, an agreement), if any.
pub fn stored_outcome(record: &GameRecord) -> Option<Outcome> {
    let termination = record.termination.as_deref()?.parse::<Termination>().ok()?;
    Some(Outcome {
        winner: parse_side(record.winner.as_deref()),
        termination,
    })
}

/// Rebuilds a room from its stored record and moves.
/// `claim_after`: the wait before a player may claim a game their opponent left (see [`crate::Limits`]).
pub fn room_state(
    record: &GameRecord,
    moves: &[MoveRecord],
    claim_after: Duration,
) -> Result<RoomState, LoadError> {
    let damaged = |reason: String| LoadError::Damaged {
        id: record.id.clone(),
        reason,
    };
    let rules: Rules = record.rules.parse().map_err(|e| damaged(format!("{e}")))?;
    let start =
        Position::from_fen(&record.start_fen, &rules).map_err(|e| damaged(format!("{e}")))?;
    let mut game = Game::from_position(rules, start);
    for m in moves {
        game.play_text(&m.mv)
            .map_err(|e| damaged(format!("move {}: {e}", m.ply + 1)))?;
    }
    let mode = match record.mode.as_str() {
        "engine" => Mode::Engine {
            level: record.engine_level.unwrap_or(3).clamp(1, 8),
            side: parse_side(record.engine_side.as_deref()).unwrap_or(Side::Red),
        },
        "friend" => Mode::Friend,
        _ => Mode::Import,
    };
    // Endings from outside the board (resignation, time, agreement) are not in the moves: restore them.
    if game.outcome().is_none()
        && let Some(outcome) = stored_outcome(record)
    {
        game.declare(outcome);
    }
    let aborted = record.termination.as_deref() == Some(ABORTED);
    let clock_history: Vec<BySide<u64>> = moves
        .iter()
        .filter_map(|m| Some(BySide::new(m.blue_ms?, m.red_ms?)))
        .collect();
    let clock = record.clock_initial_ms.map(|initial| {
        let last = clock_history
            .last()
            .copied()
            .unwrap_or(BySide::new(initial, initial));
        let running = (moves.len() >= OPENING_PLIES && !game.is_over() && !aborted)
            .then(|| game.side_to_move());
        Clock::restore(
            BySide::new(
                Duration::from_millis(last.blue),
                Duration::from_millis(last.red),
            ),
            Duration::from_millis(record.clock_increment_ms.unwrap_or(0)),
            running,
        )
    });
    let recorded_outcome = if record.result.is_some() {
        game.outcome()
    } else {
        None
    };
    Ok(RoomState {
        game,
        mode,
        tokens: BySide::new(record.blue_token.clone(), record.red_token.clone()),
        names: BySide::new(record.blue_name.clone(), record.red_name.clone()),
        clock,
        clock_history,
        initial_ms: record.clock_initial_ms,
        draw_offer: None,
        thinking: false,
        generation: 0,
        recorded_outcome,
        aborted,
        // Downtime is not held against anyone: the wait starts again when the game is loaded.
        waiting_since: Instant::now(),
        presence: Presence::new(Instant::now()),
        claim_after,
        rematch: None,
        correspondence: None,
    })
}
