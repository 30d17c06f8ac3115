//! An open game read back from the store: its record and moves replayed into a room's state.

use std::time::{Duration, Instant};

use jungle_rules::{BySide, Game, Outcome, Position, Rules, Termination};

use super::{ABORTED, Mode, OPENING_PLIES, RoomState, Written, parse_side};
use crate::clock::Clock;
use crate::presence::Presence;
use crate::room::{LoadError, stored};
use crate::store::{GameRecord, MoveRecord, Store};

/// The ending a stored game records beyond its moves (a resignation, a flag, an agreement), if any.
pub fn stored_outcome(record: &GameRecord) -> Option<Outcome> {
    let termination = record.termination.as_deref()?.parse::<Termination>().ok()?;
    Some(Outcome {
        winner: parse_side(record.winner.as_deref()),
        termination,
    })
}

/// Who plays a stored game, and the checks of its row that do not need the rules: when it was made, the
/// engine's seat, its ending.
fn stored_mode(record: &GameRecord) -> Result<Mode, String> {
    let engine = stored::game_row(stored::GameRow {
        created_at: record.created_at,
        mode: &record.mode,
        engine_level: record.engine_level,
        engine_side: record.engine_side.as_deref(),
        result: record.result.as_deref(),
        winner: record.winner.as_deref(),
        termination: record.termination.as_deref(),
        finished_at: record.finished_at,
    })?;
    match (record.mode.as_str(), engine) {
        ("engine", Some((level, side))) => Ok(Mode::Engine { level, side }),
        ("friend", None) => Ok(Mode::Friend),
        ("import", None) => Ok(Mode::Import),
        (other, _) => Err(format!("mode \"{other}\"")),
    }
}

/// A stored game as a room holds it, read from `store`; `None` when there is no such game. A game that
/// was quarantined, that does not read or whose values no game could have is [`LoadError::Damaged`].
///
/// # Errors
/// When the store cannot be read, or the game is damaged.
pub fn load(store: &Store, id: &str, claim_after: Duration) -> Result<Option<Loaded>, LoadError> {
    let read = |e| LoadError::from((id, e));
    if let Some(reason) = store.damaged(id).map_err(read)? {
        return Err(stored::damaged(id, format!("quarantined: {reason}")));
    }
    let Some(record) = store.game(id).map_err(read)? else {
        return Ok(None);
    };
    let moves = store.moves(id).map_err(read)?;
    let mut state = room_state(&record, &moves, claim_after)?;
    let correspondence = store.correspondence(id).map_err(read)?;
    stored::correspondence(correspondence, record.clock_initial_ms)
        .map_err(|reason| stored::damaged(id, reason))?;
    state.correspondence = correspondence;
    Ok(Some(Loaded {
        record,
        moves,
        state,
    }))
}

/// A game read by [`load`]: its row and moves, and the room's state made of them.
#[derive(Debug)]
pub struct Loaded {
    pub record: GameRecord,
    pub moves: Vec<MoveRecord>,
    pub state: RoomState,
}

/// Rebuilds a room from its stored record and moves.
/// `claim_after`: the wait before a player may claim a game their opponent left (see [`crate::Limits`]).
pub fn room_state(
    record: &GameRecord,
    moves: &[MoveRecord],
    claim_after: Duration,
) -> Result<RoomState, LoadError> {
    let damaged = |reason: String| stored::damaged(&record.id, reason);
    let mode = stored_mode(record).map_err(damaged)?;
    stored::plies(moves.iter().map(|m| m.ply)).map_err(damaged)?;
    stored::clocks(
        record.clock_initial_ms,
        record.clock_increment_ms,
        moves.iter().map(|m| (m.blue_ms, m.red_ms)),
    )
    .map_err(damaged)?;
    let rules: Rules = record.rules.parse().map_err(|e| damaged(format!("{e}")))?;
    let start =
        Position::from_fen(&record.start_fen, &rules).map_err(|e| damaged(format!("{e}")))?;
    let mut game = Game::from_position(rules, start);
    for m in moves {
        game.play_text(&m.mv)
            .map_err(|e| damaged(format!("move {}: {e}", m.ply + 1)))?;
    }
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
        takeback_request: None,
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
        written: Written::default(),
    })
}
