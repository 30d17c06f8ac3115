//! The loop every game connection runs, open or hidden: a greeting, then each frame from the client answered
//! and each new state of the room sent, within the idle and flood limits.
//!
//! Generic over any `Sink` of text and `Stream` of [`Incoming`] frames, so tests can drive it with channels;
//! the axum handlers adapt their sockets to these (`shared::socket::text_frames`).

use std::future::Future;
use std::pin::Pin;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use jungle_platform::Limits;
use jungle_platform::protocol::ProtocolError;
use jungle_platform::room::{Kind, Room};
use jungle_rules::Side;
use tokio::time::Instant;

use crate::shared::arrival::{Arrivals, HEARTBEAT, HEARTBEAT_JSON, WAKE_EVERY, epoch_ms};

/// A frame from the client, reduced to what the room cares about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    Text(String),
    Binary,
    /// A frame the transport refused (e.g. over its size limit): the connection ends.
    Broken,
}

/// The error sent before a flooding connection is closed.
pub const FLOOD_MESSAGE: &str = "too many messages: the connection is closed";

/// What a game connection's handler makes of a text frame: the reply to send this connection only (if any),
/// now or once an action awaited on the connection's own task is done (a move committed to the database).
pub(crate) enum Reply {
    Now(Option<String>),
    Awaited(Pin<Box<dyn Future<Output = Option<String>> + Send>>),
}

/// What a game connection does with one frame from its client.
pub(crate) struct Answer {
    /// Sent to this connection only.
    pub reply: Reply,
    /// Whether the connection ends (after the reply).
    pub close: bool,
}

impl Reply {
    /// The reply, once it is ready.
    pub async fn ready(self) -> Option<String> {
        match self {
            Reply::Now(reply) => reply,
            Reply::Awaited(reply) => reply.await,
        }
    }
}

/// The rules every game connection applies to a frame from its client, whatever the game: a closed or broken
/// socket ends it, a client over its message rate is told so and closed, a binary frame is refused, and text
/// is carried out by `handle`. `error_json` writes an error in the connection's own messages.
pub(crate) fn answer_frame(
    frame: Option<Incoming>,
    flood: &governor::DefaultDirectRateLimiter,
    error_json: fn(&str) -> String,
    handle: impl FnOnce(&str) -> Reply,
) -> Answer {
    if frame.is_some() && flood.check().is_err() {
        return Answer {
            reply: Reply::Now(Some(error_json(FLOOD_MESSAGE))),
            close: true,
        };
    }
    match frame {
        None | Some(Incoming::Broken) => Answer {
            reply: Reply::Now(None),
            close: true,
        },
        Some(Incoming::Binary) => Answer {
            reply: Reply::Now(Some(error_json(&ProtocolError::Binary.to_string()))),
            close: false,
        },
        Some(Incoming::Text(text)) => Answer {
            reply: handle(&text),
            close: false,
        },
    }
}

/// The client end of a game connection: its socket (text out, [`Incoming`] frames in), its seat in the room
/// (`None`: a spectator), and how it speaks — `welcome`, sent before the first state (if any), and
/// `error_json`, the game's own error message.
pub(crate) struct Peer<Tx, Rx> {
    pub tx: Tx,
    pub rx: Rx,
    pub seat: Option<Side>,
    pub welcome: Option<String>,
    pub error_json: fn(&str) -> String,
}

/// What every game connection does, open or hidden: sends the peer's welcome and its audience's state of
/// `room`, then until either side closes it, nothing arrives for the idle limit, or the client sends faster
/// than its message limit, answers each frame (by [`answer_frame`]: text is carried out by `handle`, given
/// the text and when it arrived, in milliseconds since the epoch: [`Arrivals`]), sends each of the room's
/// later messages for its audience, and a heartbeat when it has sent nothing for [`HEARTBEAT`] (any message
/// shows the server alive; at a few seconds a move, heartbeats were most of a player's traffic).
pub(crate) async fn relay<K: Kind, Tx, Rx>(
    limits: &Limits,
    room: &Room<K>,
    peer: Peer<Tx, Rx>,
    mut handle: impl FnMut(&str, i64) -> Reply,
) where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = Incoming> + Unpin,
{
    let Peer {
        mut tx,
        mut rx,
        seat,
        welcome,
        error_json,
    } = peer;
    let idle = limits.connection_idle;
    let flood = jungle_platform::rate::message_flood(limits.messages_per_minute);
    let mut heard = Instant::now();
    // Subscribe before the first state, so no change falls between them.
    let mut updates = room.updates_for(seat);
    let first = room.frames().of(seat).to_string();
    for text in welcome.into_iter().chain([first]) {
        if tx.send(text).await.is_err() {
            return;
        }
    }
    let mut arrivals = Arrivals::new(heard);
    // The loop wakes every [`WAKE_EVERY`] it sent nothing, and sends a heartbeat once it has sent nothing for
    // [`HEARTBEAT`].
    let mut last_sent = heard;
    let mut wake = tokio::time::interval_at(heard + WAKE_EVERY, WAKE_EVERY);
    // After a stall, one late wake and then the period again (not a burst of the missed ones, which would
    // look on time and end the stall at once).
    wake.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        // Frames first: after a stall (the process was stopped, or starved of CPU) the client's frames that
        // came in meanwhile are read, dated and answered before anything is sent — a send may find the
        // connection gone (a proxy closed it) and end the loop with a move unread, never refused.
        tokio::select! {
            biased;
            frame = rx.next() => {
                heard = Instant::now();
                let received_at = epoch_ms(arrivals.frame(heard), heard);
                let Answer { reply, close } =
                    answer_frame(frame, &flood, error_json, |text| handle(text, received_at));
                if let Some(reply) = reply.ready().await {
                    if tx.send(reply).await.is_err() {
                        break;
                    }
                    last_sent = sent(&mut wake);
                }
                if close {
                    break;
                }
            }
            state = updates.next() => {
                arrivals.other(Instant::now());
                let Some(text) = state else {
                    break;
                };
                if tx.send(text.to_string()).await.is_err() {
                    break;
                }
                last_sent = sent(&mut wake);
            }
            due = wake.tick() => {
                arrivals.timer(due, Instant::now());
                if due.saturating_duration_since(last_sent) >= HEARTBEAT {
                    if tx.send(HEARTBEAT_JSON.to_string()).await.is_err() {
                        break;
                    }
                    last_sent = due;
                }
            }
            () = tokio::time::sleep_until(heard + idle) => break,
        }
    }
}

/// Something was just sent: the loop's next wake is a whole [`WAKE_EVERY`] from now. Returns when it was sent
/// (the same instant as the wake's, so the heartbeat [`HEARTBEAT`] later falls on a wake, not one after it).
fn sent(wake: &mut tokio::time::Interval) -> Instant {
    let now = Instant::now();
    wake.reset_at(now + WAKE_EVERY);
    now
}
