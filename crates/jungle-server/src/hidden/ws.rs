//! One websocket connection to a hidden game: its audience's state on connect and after every change, and the
//! player's setup, moves and resignation. The same limits as the open game's connections (idle time, messages
//! a minute, message size). Generic over any `Sink` of text and `Stream` of [`Incoming`] frames, so tests can
//! drive it with channels.

use std::sync::Arc;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use jungle_rules::Side;
use tokio::time::Instant;

use super::room::{HiddenError, HiddenRoom};
use super::wire::{ClientMessage, ServerMessage};
use crate::hub::Hub;
use crate::ws::{Incoming, answer_frame};

/// Serves one connection until either side closes it, nothing arrives for the idle limit, or the client sends
/// faster than its message limit. `seat` is the seat the connection's cookie holds (`None`: a spectator).
pub async fn serve_connection<Tx, Rx>(
    hub: Arc<Hub>,
    room: Arc<HiddenRoom>,
    seat: Option<Side>,
    mut tx: Tx,
    mut rx: Rx,
) where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = Incoming> + Unpin,
{
    let idle = hub.limits.connection_idle;
    let flood = crate::rate::message_flood(hub.limits.messages_per_minute);
    let mut heard = Instant::now();
    let mut frames = room.subscribe();
    let first = frames.borrow_and_update().of(seat);
    if tx.send(first.to_string()).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(heard + idle) => break,
            frame = rx.next() => {
                heard = Instant::now();
                let answer = answer_frame(frame, &flood, error_json, |text| handle(&hub, &room, seat, text));
                if !answer.deliver(&mut tx).await {
                    break;
                }
            }
            changed = frames.changed() => {
                if changed.is_err() {
                    break;
                }
                // Only the newest state matters: a slow connection skips the ones it missed.
                let text = frames.borrow_and_update().of(seat);
                if tx.send(text.to_string()).await.is_err() {
                    break;
                }
            }
        }
    }
}

fn error_json(message: &str) -> String {
    ServerMessage::Error { message }.to_json()
}

/// Carries out one message; the reply (if any) goes to this connection only. Changes reach every connection
/// through the room's states.
pub fn handle(
    hub: &Arc<Hub>,
    room: &Arc<HiddenRoom>,
    seat: Option<Side>,
    text: &str,
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
        ClientMessage::Move { mv } => room.play(store, seat, &mv),
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
