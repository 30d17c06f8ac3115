//! What a hidden game's connection does with its client's messages: the player's setup, moves and
//! resignation. The connection itself is every game's (`shared::relay`: the same limits, its audience's
//! state on connect and after every change).

use std::sync::Arc;

use jungle_platform::hub::Hub;
use jungle_platform::room::hidden::wire::{ClientMessage, ServerMessage};
use jungle_platform::room::hidden::{HiddenError, HiddenRoom};
use jungle_rules::Side;

pub(super) fn error_json(message: &str) -> String {
    ServerMessage::Error { message }.to_json()
}

/// Carries out one message, which arrived at `received_at_ms` (milliseconds since the epoch); the reply (if
/// any) goes to this connection only. Changes reach every connection through the room's states.
pub fn handle(
    hub: &Arc<Hub>,
    room: &Arc<HiddenRoom>,
    seat: Option<Side>,
    text: &str,
    received_at_ms: i64,
) -> Option<String> {
    let message = match ClientMessage::parse(text) {
        Ok(message) => message,
        Err(e) => return Some(error_json(&e.to_string())),
    };
    let store = &hub.store;
    let result = match message {
        ClientMessage::Ping => return Some(ServerMessage::Pong.to_json()),
        ClientMessage::Setup { setup, random } => {
            room.submit_setup(store, seat, setup.as_deref(), random)
        }
        ClientMessage::Move { mv } => room.play(store, seat, &mv, received_at_ms),
        ClientMessage::Resign => room.resign(store, seat),
    };
    match result {
        Ok(()) => {
            hub.after_hidden_change(room);
            None
        }
        Err(e @ HiddenError::OutOfDate) => {
            hub.after_hidden_change(room);
            Some(error_json(&e.to_string()))
        }
        Err(e) => Some(error_json(&e.to_string())),
    }
}
