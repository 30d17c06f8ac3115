//! One websocket connection to a room: the greeting, every state change, and the player's actions.
//!
//! Generic over any `Sink` of text and `Stream` of [`Incoming`] frames, so tests can drive it with channels;
//! the axum handler adapts its socket to these.

use std::sync::Arc;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use jungle_rules::Side;
use tokio::sync::broadcast::error::RecvError;

use crate::engine::EnginePool;
use crate::hub::Hub;
use crate::protocol::{ClientMessage, PONG_JSON, ProtocolError, error_json, welcome_json};
use crate::room::{ActionError, Mode, Room};

/// A frame from the client, reduced to what the room cares about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    Text(String),
    Binary,
    /// A frame the transport refused (e.g. over its size limit): the connection ends.
    Broken,
}

/// Serves one connection until either side closes it. `seat` is the seat the connection's token holds.
pub async fn serve_connection<Tx, Rx>(
    hub: Arc<Hub>,
    room: Arc<Room>,
    seat: Option<Side>,
    mut tx: Tx,
    mut rx: Rx,
) where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = Incoming> + Unpin,
{
    // Subscribe before the first snapshot, so no change falls between them.
    let mut updates = room.subscribe();
    if tx.send(welcome_json(seat)).await.is_err() {
        return;
    }
    if tx.send(room.snapshot().to_string()).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            frame = rx.next() => {
                let reply = match frame {
                    None | Some(Incoming::Broken) => break,
                    Some(Incoming::Binary) => Some(error_json(&ProtocolError::Binary.to_string())),
                    Some(Incoming::Text(text)) => handle(&hub, &room, seat, &text),
                };
                if let Some(reply) = reply
                    && tx.send(reply).await.is_err()
                {
                    break;
                }
            }
            update = updates.recv() => {
                let text = match update {
                    Ok(text) => text,
                    // A slow watcher missed some states: the newest one says everything.
                    Err(RecvError::Lagged(_)) => room.snapshot(),
                    Err(RecvError::Closed) => break,
                };
                if tx.send(text.to_string()).await.is_err() {
                    break;
                }
            }
        }
    }
}

/// Carries out one message; the reply (if any) goes to this connection only. Changes reach everyone through
/// the room's broadcast.
pub fn handle(hub: &Arc<Hub>, room: &Arc<Room>, seat: Option<Side>, text: &str) -> Option<String> {
    let message = match ClientMessage::parse(text) {
        Ok(message) => message,
        Err(e) => return Some(error_json(&e.to_string())),
    };
    let store = &hub.store;
    let result: Result<(), ActionError> = match message {
        ClientMessage::Ping => return Some(PONG_JSON.to_string()),
        ClientMessage::Move { mv } => room.play(store, seat, &mv),
        ClientMessage::Resign => room.resign(store, seat),
        ClientMessage::OfferDraw => {
            let engine_side = match room.lock().mode {
                Mode::Engine { side, .. } => Some(side),
                _ => None,
            };
            room.offer_draw(store, seat, |game| {
                engine_side.is_some_and(|side| EnginePool::accepts_draw(game, side))
            })
        }
        ClientMessage::DeclineDraw => room.decline_draw(seat),
        ClientMessage::Takeback => room.takeback(store, seat),
    };
    match result {
        Ok(()) => {
            hub.after_change(room);
            None
        }
        Err(e) => Some(error_json(&e.to_string())),
    }
}
