//! What every watcher of an open game is sent: the state as the protocol's [`Snapshot`], and the players'
//! names as the pages and PGN write them.

use std::sync::Arc;
use std::time::Instant;

use jungle_rules::{Move, Side};

use super::{ABORTED, Mode, RoomState, away_ms, is_engine_seat};
use crate::protocol::{
    BoardView, ClockView, EngineView, OutcomeView, PerSide, ServerMessage, SideName, Snapshot,
};

/// The display name of the player in `side`: the name a PGN gave, the engine and its level, `Anonymous` for a
/// person (players here have no accounts), or a note that the seat is still free.
pub fn player_name(state: &RoomState, side: Side) -> String {
    pgn_player_name(state, side).unwrap_or_else(|| "Waiting for a friend…".to_string())
}

/// The name of the player in `side` for a PGN tag; `None` for a seat nobody has taken.
pub fn pgn_player_name(state: &RoomState, side: Side) -> Option<String> {
    if let Some(name) = state.names.get(side) {
        return Some(name.clone());
    }
    match state.mode {
        Mode::Engine {
            level,
            side: engine,
        } if engine == side => Some(format!("Engine level {level}")),
        Mode::Engine { .. } => Some("Anonymous".to_string()),
        Mode::Friend if state.tokens.get(side).is_none() => None,
        Mode::Friend => Some("Anonymous".to_string()),
        Mode::Import => Some("?".to_string()),
    }
}

/// The state every watcher receives, at `now` (the clocks' times).
pub fn snapshot(id: &str, state: &RoomState, now: Instant) -> Snapshot {
    let game = &state.game;
    let clock = state.clock.as_ref().map(|clock| {
        let t = clock.millis(now);
        ClockView {
            blue_ms: t.blue,
            red_ms: t.red,
            running: clock.running_side().map(SideName),
            increment_ms: clock.increment().as_millis() as u64,
            initial_ms: state.initial_ms.unwrap_or_default(),
        }
    });
    let outcome = if state.aborted {
        Some(OutcomeView {
            winner: None,
            reason: ABORTED,
            result: "*",
            text: "Game aborted".to_string(),
        })
    } else {
        game.outcome().map(|o| OutcomeView {
            winner: o.winner.map(SideName),
            reason: o.termination.as_str(),
            result: o.result_str(),
            text: o.to_string(),
        })
    };
    let legal = if state.is_finished() {
        Vec::new()
    } else {
        game.legal_moves().iter().map(Move::to_string).collect()
    };
    Snapshot {
        id: id.to_string(),
        mode: state.mode.name(),
        rules: game.rules().to_string(),
        board: BoardView::of(game.rules()),
        start_fen: jungle_rules::fen::to_fen(game.start_position()),
        fen: jungle_rules::fen::to_fen(game.position()),
        moves: game.moves().iter().map(Move::to_string).collect(),
        animal_moves: game.written_moves(jungle_rules::Notation::Animal),
        ply: game.moves().len(),
        turn: SideName(game.side_to_move()),
        legal,
        players: PerSide::from_fn(|side| player_name(state, side)),
        seats_taken: PerSide::from_fn(|side| {
            state.tokens.get(side).is_some() || is_engine_seat(state.mode, side)
        }),
        engine: match state.mode {
            Mode::Engine { level, side } => Some(EngineView {
                level,
                side: SideName(side),
            }),
            _ => None,
        },
        clock,
        outcome,
        draw_offer: state.draw_offer.map(SideName),
        takeback_request: state
            .takeback_request
            .filter(|_| !state.is_finished())
            .map(SideName),
        thinking: state.thinking,
        spectators: state.presence.spectators(),
        rematch: state.rematch.as_ref().map(|r| r.id.clone()),
        away: PerSide::from_fn(|side| away_ms(state, side, now)),
        correspondence: state.correspondence,
    }
}

/// The JSON of the state message.
pub(super) fn snapshot_json(id: &str, state: &RoomState, now: Instant) -> Arc<str> {
    ServerMessage::State(&snapshot(id, state, now))
        .to_json()
        .into()
}
