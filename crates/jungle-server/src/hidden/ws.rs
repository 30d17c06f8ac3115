//! One websocket connection to a hidden game: its audience's state on connect and after every change, and the
//! player's setup, moves and resignation. The same limits as the open game's connections (idle time, messages
//! a minute, message size). Generic over any `Sink` of text and `Stream` of [`Incoming`] frames, so tests can
//! drive it with channels.

use std::sync::Arc;

use futures_util::{Sink, Stream};
use jungle_rules::Side;
use tokio::sync::watch;

use super::room::{Frames, HiddenError, HiddenRoom};
use super::wire::{ClientMessage, ServerMessage};
use crate::hub::Hub;
use crate::ws::{Incoming, States, relay};

/// A hidden game's states for one audience (`seat`; `None`: the spectators): only the newest matters, so a
/// slow connection skips the ones it missed.
struct SeatStates {
    frames: watch::Receiver<Arc<Frames>>,
    seat: Option<Side>,
}

impl States for SeatStates {
    async fn next(&mut self) -> Option<Arc<str>> {
        self.frames.changed().await.ok()?;
        Some(self.frames.borrow_and_update().of(self.seat))
    }
}

/// Serves one connection until either side closes it, nothing arrives for the idle limit, or the client sends
/// faster than its message limit. `seat` is the seat the connection's cookie holds (`None`: a spectator).
pub async fn serve_connection<Tx, Rx>(
    hub: Arc<Hub>,
    room: Arc<HiddenRoom>,
    seat: Option<Side>,
    tx: Tx,
    rx: Rx,
) where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = Incoming> + Unpin,
{
    let mut frames = room.subscribe();
    let first = frames.borrow_and_update().of(seat);
    let states = SeatStates { frames, seat };
    relay(
        &hub.limits,
        tx,
        rx,
        [first.to_string()],
        states,
        error_json,
        |text| handle(&hub, &room, seat, text),
    )
    .await;
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
