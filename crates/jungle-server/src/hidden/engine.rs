//! The AI's turns in hidden games: when it is the AI's move, its own view (and nothing else) goes to the engine
//! pool's threads — the same fair line and thread bound as the open game's engine — with the level's time,
//! and the move it chooses is played in the room like a player's.

use std::sync::Arc;
use std::time::Duration;

use jungle_hidden::ai::Budget;

use super::room::{EngineTurn, HiddenError, HiddenRoom};
use crate::hub::Hub;

/// How long to wait before asking the AI again after its move could not be stored (the database is away).
const RETRY_AFTER: Duration = Duration::from_secs(1);

impl Hub {
    /// Starts what a hidden room needs after a change: the AI's move when it is the AI's turn.
    pub fn after_hidden_change(self: &Arc<Self>, room: &Arc<HiddenRoom>) {
        let Some(turn) = room.lock().engine_turn() else {
            return;
        };
        let hub = self.clone();
        let room = room.clone();
        tokio::spawn(async move {
            let EngineTurn {
                generation,
                level,
                view,
                mut ai,
            } = turn;
            // The open game's time per level (untimed games): hidden games have no clock.
            let time = crate::engine::movetime(level, None, view.side_to_move());
            let found = hub
                .engine
                .run(time, move || {
                    let m = ai.choose_within(&view, Budget::time(time));
                    (m, ai)
                })
                .await;
            let retry = match found {
                Some(((m, ai), _)) => match room.play_engine_move(&hub.store, generation, m, ai) {
                    Ok(()) | Err(HiddenError::OutOfDate) => false,
                    Err(e) => {
                        tracing::error!(game = %room.id, error = %e, "the AI's move was not played");
                        true
                    }
                },
                None => {
                    // The search thread failed: the AI is made afresh for the next try.
                    room.engine_gave_up();
                    true
                }
            };
            if retry {
                tokio::time::sleep(RETRY_AFTER).await;
            }
            hub.after_hidden_change(&room);
        });
    }
}
