//! One websocket connection to a room: the greeting, every state change, and the player's actions.
//!
//! Generic over any `Sink` of text and `Stream` of [`Incoming`] frames, so tests can drive it with channels;
//! the axum handler adapts its socket to these.

use std::sync::Arc;

use futures_util::{Sink, Stream};
use jungle_platform::engine::EnginePool;
use jungle_platform::hub::Hub;
use jungle_platform::protocol::{ClientMessage, ServerMessage, SideName};
use jungle_platform::room::{ActionError, Mode, Room};
use jungle_rules::Side;

use crate::shared::relay::{Incoming, Peer, Reply, relay};

/// Serves one connection until either side closes it, nothing arrives for the idle limit, or the client sends
/// faster than its message limit. `seat` is the seat the connection's token holds.
pub async fn serve_connection<Tx, Rx>(
    hub: Arc<Hub>,
    room: Arc<Room>,
    seat: Option<Side>,
    tx: Tx,
    rx: Rx,
) where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = Incoming> + Unpin,
{
    // Counted in the room until this function ends, however it ends (before subscribing: the others are
    // told of the arrival, this connection sees it in its first snapshot).
    let _attendance = Attendance::new(&room, seat);
    let peer = Peer {
        tx,
        rx,
        seat,
        welcome: Some(
            ServerMessage::Welcome {
                seat: seat.map(SideName),
            }
            .to_json(),
        ),
        error_json,
    };
    relay(&hub.limits, &room, peer, |text, received_at_ms| {
        handle(&hub, &room, seat, text, received_at_ms)
    })
    .await;
}

/// A connection's place in its room's [`jungle_platform::presence::Presence`], given up when dropped.
struct Attendance<'a> {
    room: &'a Room,
    seat: Option<Side>,
}

impl<'a> Attendance<'a> {
    fn new(room: &'a Room, seat: Option<Side>) -> Attendance<'a> {
        room.arrive(seat);
        Attendance { room, seat }
    }
}

impl Drop for Attendance<'_> {
    fn drop(&mut self) {
        self.room.leave(self.seat);
    }
}

/// The JSON of an error reply.
fn error_json(message: &str) -> String {
    ServerMessage::Error { message }.to_json()
}

/// Carries out one message, which arrived at `received_at_ms` (milliseconds since the epoch); the reply (if
/// any) goes to this connection only. Changes reach everyone through the room's broadcast. A move is
/// committed on the connection's own task ([`Room::play_received_awaited`]): the reply waits for it.
pub fn handle(
    hub: &Arc<Hub>,
    room: &Arc<Room>,
    seat: Option<Side>,
    text: &str,
    received_at_ms: i64,
) -> Reply {
    let message = match ClientMessage::parse(text) {
        Ok(message) => message,
        Err(e) => return Reply::Now(Some(error_json(&e.to_string()))),
    };
    let store = &hub.store;
    let action = message.kind();
    let result: Result<(), ActionError> = match message {
        ClientMessage::Ping => return Reply::Now(Some(ServerMessage::Pong.to_json())),
        ClientMessage::Move { mv } => {
            let (hub, room, mv) = (hub.clone(), room.clone(), mv.to_string());
            return Reply::Awaited(Box::pin(async move {
                let played = room
                    .play_received_awaited(&hub.store, seat, &mv, received_at_ms)
                    .await;
                reply_to(&hub, &room, action, played)
            }));
        }
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
        ClientMessage::DeclineTakeback => room.decline_takeback(seat),
        ClientMessage::Abort => room.abort(store, seat),
        ClientMessage::ClaimWin => room.claim(store, seat, false),
        ClientMessage::ClaimDraw => room.claim(store, seat, true),
    };
    Reply::Now(reply_to(hub, room, action, result))
}

/// What the player is told of an action's `result` (nothing when it was done: the change reaches everyone
/// through the room's broadcast).
fn reply_to(
    hub: &Arc<Hub>,
    room: &Arc<Room>,
    action: &'static str,
    result: Result<(), ActionError>,
) -> Option<String> {
    match result {
        Ok(()) => {
            hub.after_change(room);
            None
        }
        // Not an error: the offer was made and answered.
        Err(e @ ActionError::EngineDeclinesDraw(engine)) => Some(
            jungle_platform::room::open::draw_declined(engine, e.to_string()),
        ),
        // The room was read again (another node changed the game first): its timers and engine follow.
        Err(e @ ActionError::OutOfDate) => {
            hub.after_change(room);
            Some(error_json(&e.to_string()))
        }
        // The player is told to try again; the operator needs the game and the cause (a database away, a
        // move that arrived too late).
        Err(e @ (ActionError::Store(_) | ActionError::Reload(_))) => {
            tracing::warn!(game = %room.id, action, cause = %e, "a player's action was refused: not saved");
            Some(error_json(&e.to_string()))
        }
        Err(e) => Some(error_json(&e.to_string())),
    }
}

/// The connection logic over channels, without a socket: what the promise above is for.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::arrival::HEARTBEAT;
    use crate::shared::relay::FLOOD_MESSAGE;
    use jungle_platform::hub::NewGame;
    use jungle_platform::limits::Limits;
    use jungle_platform::store::Store;
    use serde_json::Value;
    use std::time::Duration;
    use tokio::sync::mpsc;

    /// A client at the other end of two channels.
    struct Peer {
        to_server: Option<mpsc::Sender<Incoming>>,
        from_server: mpsc::Receiver<String>,
        task: tokio::task::JoinHandle<()>,
    }

    impl Peer {
        fn connect(hub: &Arc<Hub>, room: &Arc<Room>, seat: Option<Side>) -> Peer {
            let (to_server, incoming) = mpsc::channel::<Incoming>(64);
            let (outgoing, from_server) = mpsc::channel::<String>(64);
            let rx = Box::pin(futures_util::stream::unfold(
                incoming,
                |mut incoming| async move { incoming.recv().await.map(|frame| (frame, incoming)) },
            ));
            let tx = Box::pin(futures_util::sink::unfold(
                outgoing,
                |outgoing, text: String| async move { outgoing.send(text).await.map(|()| outgoing) },
            ));
            let task = tokio::spawn(serve_connection(hub.clone(), room.clone(), seat, tx, rx));
            Peer {
                to_server: Some(to_server),
                from_server,
                task,
            }
        }

        async fn send_frame(&mut self, frame: Incoming) {
            let sender = self.to_server.as_ref().expect("not closed");
            sender.send(frame).await.expect("the server reads");
        }

        async fn send(&mut self, text: &str) {
            self.send_frame(Incoming::Text(text.to_string())).await;
        }

        /// The next message, `None` once the server ended the connection.
        async fn next(&mut self) -> Option<Value> {
            let text = self.from_server.recv().await?;
            Some(serde_json::from_str(&text).unwrap())
        }

        async fn next_of(&mut self, kind: &str) -> Value {
            loop {
                let message = self.next().await.expect("the connection is open");
                if message["type"] == kind {
                    return message;
                }
            }
        }
    }

    fn hub(limits: Limits) -> Arc<Hub> {
        Hub::with_limits(
            Store::in_memory().unwrap(),
            EnginePool::new(1),
            limits,
            None,
        )
    }

    fn friend_game(hub: &Arc<Hub>) -> Arc<Room> {
        let request = NewGame {
            opponent: "friend".into(),
            side: Some("blue".into()),
            ..NewGame::default()
        };
        hub.create(&request, None).unwrap().0
    }

    #[tokio::test]
    async fn a_move_reaches_the_player_and_a_watcher_and_a_watcher_cannot_move() {
        let hub = hub(Limits::default());
        let room = friend_game(&hub);
        let mut player = Peer::connect(&hub, &room, Some(Side::Blue));
        let mut watcher = Peer::connect(&hub, &room, None);
        assert_eq!(player.next_of("welcome").await["seat"], "blue");
        assert_eq!(watcher.next_of("welcome").await["seat"], Value::Null);
        assert_eq!(watcher.next_of("state").await["ply"], 0);
        watcher.send(r#"{"type":"move","move":"a3a4"}"#).await;
        assert!(
            watcher.next_of("error").await["message"]
                .as_str()
                .unwrap()
                .contains("watching")
        );
        player.send(r#"{"type":"move","move":"a3a4"}"#).await;
        loop {
            if watcher.next_of("state").await["ply"] == 1 {
                break;
            }
        }
        player.send("garbage").await;
        assert!(
            player.next_of("error").await["message"]
                .as_str()
                .unwrap()
                .contains("unreadable")
        );
        player.send_frame(Incoming::Binary).await;
        player.next_of("error").await;
        player.send(r#"{"type":"ping"}"#).await;
        player.next_of("pong").await;
        // A closed stream ends the connection.
        player.to_server = None;
        player.task.await.unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_silent_connection_is_closed_after_the_idle_limit() {
        let limits = Limits {
            connection_idle: Duration::from_secs(120),
            ..Limits::default()
        };
        let hub = hub(limits);
        let room = friend_game(&hub);
        let mut peer = Peer::connect(&hub, &room, Some(Side::Blue));
        peer.next_of("state").await;
        tokio::time::sleep(Duration::from_secs(100)).await;
        peer.send(r#"{"type":"ping"}"#).await;
        peer.next_of("pong").await;
        // Heard 100 s in: still open at 200 s, closed after 220 s (its heartbeats are no sign of the client).
        tokio::time::sleep(Duration::from_secs(100)).await;
        assert!(!peer.task.is_finished());
        while let Some(message) = peer.next().await {
            assert_eq!(message["type"], "heartbeat", "{message}");
        }
        peer.task.await.unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_quiet_connection_hears_a_heartbeat_every_period() {
        let hub = hub(Limits::default());
        let room = friend_game(&hub);
        let mut peer = Peer::connect(&hub, &room, Some(Side::Blue));
        peer.next_of("state").await;
        let start = tokio::time::Instant::now();
        for beat in 1..=5 {
            assert_eq!(peer.next().await.unwrap()["type"], "heartbeat");
            assert_eq!(start.elapsed(), HEARTBEAT * beat);
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_heartbeat_comes_only_after_a_whole_period_with_nothing_else_sent() {
        let hub = hub(Limits::default());
        let room = friend_game(&hub);
        let mut peer = Peer::connect(&hub, &room, Some(Side::Blue));
        peer.next_of("state").await;
        let start = tokio::time::Instant::now();
        tokio::time::sleep(HEARTBEAT / 2).await;
        room.notify();
        assert_eq!(peer.next().await.unwrap()["type"], "state");
        // The state halfway through puts the next heartbeat a whole period after it, not at the period's end
        // (nor at the loop's wake in between).
        assert_eq!(peer.next().await.unwrap()["type"], "heartbeat");
        assert_eq!(start.elapsed(), HEARTBEAT / 2 + HEARTBEAT);
        // A reply counts too.
        tokio::time::sleep(HEARTBEAT / 4).await;
        peer.send(r#"{"type":"ping"}"#).await;
        assert_eq!(peer.next().await.unwrap()["type"], "pong");
        let ponged = tokio::time::Instant::now();
        assert_eq!(peer.next().await.unwrap()["type"], "heartbeat");
        assert_eq!(ponged.elapsed(), HEARTBEAT);
    }

    /// A move that sat unread while the server could not run (stopped for 40 s: the paused clock jumps
    /// before the connection's loop runs again) is dated from before the stop, and the store refuses it; a
    /// move sent once the server runs again is played.
    #[tokio::test(start_paused = true)]
    async fn a_move_read_after_the_server_could_not_run_is_refused_and_not_stored() {
        let hub = hub(Limits::default());
        let room = friend_game(&hub);
        let mut player = Peer::connect(&hub, &room, Some(Side::Blue));
        player.next_of("state").await;
        player.send(r#"{"type":"move","move":"a3a4"}"#).await;
        // No await between the frame and the jump: the loop has not run.
        tokio::time::advance(Duration::from_secs(40)).await;
        let refused = player.next_of("error").await;
        assert!(
            refused["message"].as_str().unwrap().contains("too late"),
            "{refused}"
        );
        assert!(hub.store.moves(&room.id).unwrap().is_empty());
        assert_eq!(room.snapshot().ply, 0);
        // Running normally again (the loop's timer on time): the same move is played.
        tokio::time::sleep(HEARTBEAT * 2).await;
        player.send(r#"{"type":"move","move":"a3a4"}"#).await;
        loop {
            if player.next_of("state").await["ply"] == 1 {
                break;
            }
        }
        assert_eq!(hub.store.moves(&room.id).unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_flood_gets_one_error_and_the_connection_ends() {
        // Six a minute: one at once, then one every ten seconds.
        let limits = Limits {
            messages_per_minute: 6,
            ..Limits::default()
        };
        let hub = hub(limits);
        let room = friend_game(&hub);
        let mut peer = Peer::connect(&hub, &room, Some(Side::Blue));
        peer.next_of("state").await;
        peer.send(r#"{"type":"ping"}"#).await;
        peer.next_of("pong").await;
        peer.send(r#"{"type":"ping"}"#).await;
        assert_eq!(peer.next_of("error").await["message"], FLOOD_MESSAGE);
        assert!(peer.next().await.is_none());
    }
}
