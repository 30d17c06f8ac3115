//! Analysis for people: the engine running continuously on the position a page shows (`/ws/analysis`), and
//! the evaluation of every position of a game with its mistakes marked (`/api/games/ID/evaluations`).
//!
//! Both go through the engine's fair line in short slices (`jungle_platform::analysis`), so an analysis takes
//! turns with games and can never hold an engine thread for long: a game's move waits at most one slice
//! behind it.
//!
//! The socket protocol. Client → server: `{"type":"analyse","fen":"…","rules":"…"}` (replaces whatever the
//! connection was analysing), `{"type":"stop"}`, `{"type":"ping"}`. Server → client: `{"type":"info", …}`
//! after each completed depth (`jungle_platform::analysis::Info`), `{"type":"done","fen":…}` when the position's time is used up,
//! `{"type":"error","message":…}` for a refused request (bad position, engine busy), `{"type":"pong"}`.

use std::sync::Arc;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use axum::{Json, Router};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use jungle_platform::Requester;
use jungle_platform::analysis::{
    ANALYSIS_HASH_MB, Graph, analyse_continuously, graph, read_position,
};
use jungle_platform::hub::Hub;
use jungle_platform::protocol::{MAX_MESSAGE_BYTES, ServerMessage};
use jungle_search::{Engine, EngineOptions, StopHandle};
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Duration, Instant};

use crate::AppState;
use crate::shared::arrival::HEARTBEAT_JSON;
use crate::shared::error::{ApiError, find_room};
use crate::shared::guard::Client;
use crate::shared::relay::{FLOOD_MESSAGE, Incoming};
use crate::shared::socket::{bounded, open_connection, refuse_cross_site, text_frames};

/// The analysis board's heartbeat: every 2 s, not after a game socket's 4 s of silence
/// ([`crate::shared::arrival::HEARTBEAT`]). Its sockets go to the least busy node, which the page cannot ask
/// about before reconnecting as a game's page does, so nginx keeps its 4 s bound on the upgrade and the
/// tunnel alike (deploy/nginx); the sockets are few, and their heartbeats cost little.
const HEARTBEAT_EVERY: Duration = Duration::from_secs(2);

/// The analysis socket and the evaluation graph.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/evaluations", get(evaluations))
        .route("/ws/analysis", get(socket))
}

/// Depth reports of one position waiting to be sent; more are dropped (the next one supersedes them).
const PENDING_INFOS: usize = 32;

/// What a page may send on the analysis socket.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnalysisRequest {
    Analyse { fen: String, rules: String },
    Stop,
    Ping,
}

/// An error reply.
fn error_json(message: &str) -> String {
    ServerMessage::Error { message }.to_json()
}

/// A running analysis of one position.
struct Running {
    task: JoinHandle<()>,
    stop: StopHandle,
}

impl Running {
    /// Ends it: the search stops at once and its thread goes back to the line.
    fn end(self) {
        self.stop.stop();
        self.task.abort();
    }
}

/// Serves one analysis connection until either side closes it, nothing arrives for the idle limit, or the
/// client floods it. At most one analysis runs per connection: a new position replaces the old one.
pub async fn serve_analysis<Tx, Rx>(hub: Arc<Hub>, requester: Requester, mut tx: Tx, mut rx: Rx)
where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = Incoming> + Unpin,
{
    let idle = hub.limits.connection_idle;
    let per_minute = hub.limits.messages_per_minute;
    let flood = jungle_platform::rate::message_flood(per_minute);
    let (reports, mut outgoing) = mpsc::channel::<(u64, String)>(PENDING_INFOS);
    let mut running: Option<Running> = None;
    // Each analysis has a number; reports of a replaced one that were already on their way are dropped.
    let mut generation = 0u64;
    let mut heard = Instant::now();
    // The page takes a connection silent for a few seconds for dead, as a game's (`shared::arrival`).
    let mut heartbeat = tokio::time::interval_at(heard + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(heard + idle) => break,
            _ = heartbeat.tick() => {
                if tx.send(HEARTBEAT_JSON.to_string()).await.is_err() {
                    break;
                }
            }
            report = outgoing.recv() => {
                let Some((of, text)) = report else { break };
                if of == generation && tx.send(text).await.is_err() {
                    break;
                }
            }
            frame = rx.next() => {
                heard = Instant::now();
                if frame.is_some() && flood.check().is_err() {
                    let _ = tx.send(error_json(FLOOD_MESSAGE)).await;
                    break;
                }
                let text = match frame {
                    None | Some(Incoming::Broken) => break,
                    Some(Incoming::Binary) => {
                        let _ = tx.send(error_json("binary messages are not accepted; send JSON text")).await;
                        continue;
                    }
                    Some(Incoming::Text(text)) => text,
                };
                let request = if text.len() > MAX_MESSAGE_BYTES {
                    Err(format!("message of {} bytes is too large (at most {MAX_MESSAGE_BYTES})", text.len()))
                } else {
                    serde_json::from_str::<AnalysisRequest>(&text).map_err(|e| format!("unreadable message: {e}"))
                };
                let reply = match request {
                    Ok(AnalysisRequest::Ping) => Some(ServerMessage::Pong.to_json()),
                    Ok(AnalysisRequest::Stop) => {
                        generation += 1;
                        if let Some(old) = running.take() {
                            old.end();
                        }
                        None
                    }
                    Ok(AnalysisRequest::Analyse { fen, rules }) => {
                        generation += 1;
                        if let Some(old) = running.take() {
                            old.end();
                        }
                        match start(&hub, &requester, &fen, &rules, generation, reports.clone()) {
                            Ok(started) => {
                                running = Some(started);
                                None
                            }
                            Err(message) => Some(error_json(&message)),
                        }
                    }
                    Err(message) => Some(error_json(&message)),
                };
                if let Some(reply) = reply
                    && tx.send(reply).await.is_err()
                {
                    break;
                }
            }
        }
    }
    if let Some(running) = running {
        running.end();
    }
}

/// Starts analysing a position; its reports go to `reports` tagged with `generation`.
fn start(
    hub: &Hub,
    requester: &Requester,
    fen: &str,
    rules: &str,
    generation: u64,
    reports: mpsc::Sender<(u64, String)>,
) -> Result<Running, String> {
    let game = read_position(fen, rules)?;
    hub.engine_has_room().map_err(|e| e.to_string())?;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: ANALYSIS_HASH_MB,
        move_overhead_ms: 0,
        ..EngineOptions::default()
    });
    engine.set_game(&game);
    let stop = engine.stop_handle();
    let task = tokio::spawn(analyse_continuously(
        hub.engine.clone(),
        requester.clone(),
        engine,
        game,
        move |text| {
            // A full queue means the page is far behind: this report is superseded by the next anyway.
            let _ = reports.try_send((generation, text));
        },
    ));
    Ok(Running { task, stop })
}

/// `GET /ws/analysis`: the analysis socket (same origin and connection limits as a game's socket).
async fn socket(
    State(hub): State<AppState>,
    Client(client): Client,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    refuse_cross_site(&hub, &headers)?;
    let place = open_connection(&hub, client)?;
    let requester = Client(client).requester();
    Ok(
        bounded(upgrade).on_upgrade(move |socket: WebSocket| async move {
            let _place = place;
            let (tx, rx) = text_frames(socket);
            serve_analysis(hub, requester, tx, rx).await;
        }),
    )
}

/// `GET /api/games/ID/evaluations`: the game's [`Graph`].
async fn evaluations(
    State(hub): State<AppState>,
    client: Client,
    Path(id): Path<String>,
) -> Result<Json<Graph>, ApiError> {
    let room = find_room(&hub, &id)?;
    hub.engine_has_room()?;
    let game = room.lock().game.clone();
    let graph = graph(&hub.engine, &client.requester(), &game)
        .await
        .ok_or_else(|| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "the engine is not available".into(),
            )
        })?;
    Ok(Json(graph))
}
