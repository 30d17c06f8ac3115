//! The routes of hidden games: creating and joining one, its page, its state and record for the requester's
//! seat, and its websocket. A seat is held by the `hidden_ID` cookie (set like an open game's seat cookie);
//! a request without it is a spectator's.

use std::sync::Arc;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use jungle_rules::Side;
use serde_json::json;

mod socket;

use crate::AppState;
use crate::shared::cookies::{read_cookie, set_cookie};
use crate::shared::error::ApiError;
use crate::shared::guard::Client;
use crate::shared::pages::Files;
use crate::shared::pages::page;
use crate::shared::relay::{Peer, Reply, relay};
use crate::shared::session::Viewer;
use crate::shared::socket::bounded;
use crate::shared::socket::open_connection;
use crate::shared::socket::refuse_cross_site;
use crate::shared::socket::text_frames;
use jungle_platform::hub::{Hub, HubError, new_token};
use jungle_platform::room::hidden::HiddenRoom;
use jungle_platform::room::hidden::wire::NewHiddenGame;
use jungle_platform::side_name;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/hidden/{id}", get(hidden_page))
        .route("/api/hidden", post(create))
        .route("/api/hidden/{id}", get(state))
        .route("/api/hidden/{id}/join", post(join))
        .route("/api/hidden/{id}/pgn", get(pgn))
        .route("/ws/hidden/{id}", get(websocket))
}

fn cookie_name(id: &str) -> String {
    format!("hidden_{id}")
}

/// The seat cookie of a hidden game: by the same rules as an open game's.
fn seat_cookie(hub: &Hub, id: &str, token: &str) -> (header::HeaderName, header::HeaderValue) {
    set_cookie(
        &cookie_name(id),
        token,
        crate::shared::seat_cookie::seat_cookie_rules(hub),
    )
}

/// The seat a request's cookie holds in `room` (`None`: a spectator).
fn seat_of(hub: &Hub, room: &HiddenRoom, headers: &HeaderMap) -> Result<Option<Side>, ApiError> {
    let Some(token) = read_cookie(headers, &cookie_name(&room.id)) else {
        return Ok(None);
    };
    if let Some(seat) = room.lock().seat_of(token) {
        return Ok(Some(seat));
    }
    // In a cluster the seat may have been taken on another node a moment ago: read the game once more.
    if hub.cluster().is_some() {
        room.reload(&hub.store)
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        return Ok(room.lock().seat_of(token));
    }
    Ok(None)
}

fn no_game(id: &str) -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        format!(
            "no hidden game \"{}\"",
            id.chars().take(20).collect::<String>()
        ),
    )
}

fn find_room(hub: &Arc<Hub>, id: &str) -> Result<Arc<HiddenRoom>, ApiError> {
    hub.hidden_room(id)?.ok_or_else(|| no_game(id))
}

/// `{"id","side","url"}`, as creating and joining answer.
fn seated(id: &str, side: Side) -> Json<serde_json::Value> {
    Json(json!({ "id": id, "side": side_name(side), "url": format!("/hidden/{id}") }))
}

async fn create(
    State(hub): State<AppState>,
    Client(client): Client,
    Viewer(viewer): Viewer,
    body: Result<Json<NewHiddenGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let creator = viewer.as_ref().map(|account| account.name.as_str());
    let (room, side, token) = hub.create_hidden(&request, client, creator)?;
    // The AI may have the first move.
    hub.after_hidden_change(&room);
    Ok((
        StatusCode::CREATED,
        [seat_cookie(&hub, &room.id, &token)],
        seated(&room.id, side),
    )
        .into_response())
}

/// Gives the requester the free seat of a friend game, or says which seat they already hold; `409` when no
/// seat is free. Only from the server's own pages (the CSRF check).
async fn join(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    Viewer(viewer): Viewer,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let room = find_room(&hub, &id)?;
    if let Some(seat) = seat_of(&hub, &room, &headers)? {
        return Ok(seated(&room.id, seat).into_response());
    }
    let token = new_token();
    let name = viewer.as_ref().map(|account| account.name.as_str());
    match room.take_seat(&hub.store, &token, name) {
        Ok(Some(side)) => Ok((
            [seat_cookie(&hub, &room.id, &token)],
            seated(&room.id, side),
        )
            .into_response()),
        Ok(None) => Err(ApiError(
            StatusCode::CONFLICT,
            "no seat is free in this game: you can watch it".into(),
        )),
        Err(e) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
}

/// The page. It holds nothing of the game: the script asks for the state.
async fn hidden_page(
    State(hub): State<AppState>,
    axum::Extension(assets): Files,
    Path(id): Path<String>,
) -> Response {
    match hub.hidden_room(&id) {
        Ok(Some(_)) => page(&assets, StatusCode::OK, "hidden.html"),
        Ok(None) => page(&assets, StatusCode::NOT_FOUND, "not_found.html"),
        Err(e @ HubError::Damaged { .. }) => {
            tracing::warn!(error = %e, "a damaged hidden game was asked for");
            page(&assets, StatusCode::CONFLICT, "damaged.html")
        }
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// The requester's state: the same message its websocket is sent.
async fn state(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let room = find_room(&hub, &id)?;
    let seat = seat_of(&hub, &room, &headers)?;
    let text = room.frames().of(seat).to_string();
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// The requester's record: its own setup, both once the game is over.
async fn pgn(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let room = find_room(&hub, &id)?;
    let seat = seat_of(&hub, &room, &headers)?;
    let text = room.lock().record(seat).to_pgn();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"jungle-hidden-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// The websocket of a hidden game. The seat comes from the cookie; a connection without a valid one watches.
async fn websocket(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    refuse_cross_site(&hub, &headers)?;
    let room = find_room(&hub, &id)?;
    let place = open_connection(&hub, client)?;
    let seat = seat_of(&hub, &room, &headers)?;
    Ok(
        bounded(upgrade).on_upgrade(move |socket: WebSocket| async move {
            let _place = place;
            let (tx, rx) = text_frames(socket);
            let peer = Peer {
                tx,
                rx,
                seat,
                welcome: None,
                error_json: socket::error_json,
            };
            relay(&hub.limits, &room, peer, |text, received_at_ms| {
                Reply::Now(socket::handle(&hub, &room, seat, text, received_at_ms))
            })
            .await;
            hub.hidden.evict_if_idle(&room);
        }),
    )
}
