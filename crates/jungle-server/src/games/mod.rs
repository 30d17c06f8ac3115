//! The games: the home page, a game's page and replay, its state, PGN, seats and rematch, PGN import, the
//! one-shot analysis, and the game's websocket ([`socket`]).

mod socket;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use jungle_platform::hub::{HubError, NewGame, is_game_id};
use jungle_platform::room::open::pgn_player_name;
use jungle_platform::side_name;
use jungle_rules::pgn::PgnGame;
use jungle_rules::{BySide, Game};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::shared::assets::Assets;
use crate::shared::error::{ApiError, find_room, no_game};
use crate::shared::guard::Client;
use crate::shared::pages::{Files, page};
use crate::shared::seat_cookie::{seat_cookie, seat_of_request};
use crate::shared::session::Viewer;
use crate::shared::socket::{bounded, open_connection, refuse_cross_site, text_frames};
use socket::serve_connection;

/// The games' pages and API: the home page, a game's page, replay, state, PGN, seats, rematches, PGN import, the
/// one-shot analysis, the game's websocket, and whether its node answers.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/game/{id}", get(game_page))
        .route("/replay/{id}", get(replay_page))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_json))
        .route("/api/games/{id}/join", axum::routing::post(join_game))
        .route("/api/games/{id}/rematch", axum::routing::post(rematch_game))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/games/{id}/analysis", get(analysis))
        .route("/api/import", axum::routing::post(import_pgn))
        .route("/ws/{id}", get(websocket))
        .route("/api/alive/{id}", get(alive))
}

/// `GET /api/alive/ID`: 204 from whichever node answers it. The game is not looked up: its id is there for the
/// front door, which sends the request where the game's socket would go (deploy/nginx), so a page about to
/// reconnect learns in one short wait whether that node answers and, if it does not, the front door passes it
/// over for the socket that follows instead of waiting for it again.
async fn alive(Path(_game): Path<String>) -> StatusCode {
    StatusCode::NO_CONTENT
}

/// The media type a PGN import must be sent as. Not one a cross-site form or a "simple" cross-site request
/// can send, so another site cannot make a visitor's browser import games.
pub const PGN_MEDIA_TYPE: &str = "application/x-chess-pgn";

async fn home(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "home.html")
}

/// The page of a game that cannot be opened: none, a damaged record, or a server failure.
fn unavailable_page(assets: &Assets, e: Option<HubError>) -> Response {
    match e {
        None => page(assets, StatusCode::NOT_FOUND, "not_found.html"),
        Some(e @ HubError::Damaged { .. }) => {
            tracing::warn!(error = %e, "a damaged game was asked for");
            page(assets, StatusCode::CONFLICT, "damaged.html")
        }
        Some(other) => ApiError::from(other).into_response(),
    }
}

/// The game page. Opening it never takes a seat (a chat app's link preview opens it too): a visitor takes
/// the free seat of a friend game with the page's "Join" button, which posts to [`join_game`].
async fn game_page(
    State(hub): State<AppState>,
    Extension(assets): Files,
    Path(id): Path<String>,
) -> Response {
    match hub.room(&id) {
        Ok(Some(_)) => page(&assets, StatusCode::OK, "game.html"),
        Ok(None) => unavailable_page(&assets, None),
        Err(e) => unavailable_page(&assets, Some(e)),
    }
}

/// Gives the requester the free seat of a friend game (`{"seat":"red"}` and the seat cookie), or says which
/// seat they already hold. Only from the server's own pages (the CSRF check, `accounts::csrf`), so another
/// site cannot seat its visitors here; `409` when no seat is free.
async fn join_game(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    Viewer(viewer): Viewer,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let room = find_room(&hub, &id)?;
    if let Some(seat) = seat_of_request(&hub, &room, &headers, viewer.as_ref())? {
        return Ok(Json(json!({ "seat": side_name(seat) })).into_response());
    }
    match hub.claim_seat(&room)? {
        Some((seat, token)) => Ok({
            if let Some(account) = &viewer {
                hub.bind_seat(&room, seat, account)?;
            }
            // The wait for the first moves starts now.
            hub.after_change(&room);
            (
                [seat_cookie(&hub, &id, &token)],
                Json(json!({ "seat": side_name(seat) })),
            )
                .into_response()
        }),
        None => Err(ApiError(
            StatusCode::CONFLICT,
            "no seat is free in this game: you can watch it".into(),
        )),
    }
}

async fn replay_page(
    State(hub): State<AppState>,
    Extension(assets): Files,
    Path(id): Path<String>,
) -> Response {
    match hub.room(&id) {
        Ok(Some(_)) => page(&assets, StatusCode::OK, "replay.html"),
        Ok(None) => unavailable_page(&assets, None),
        Err(e) => unavailable_page(&assets, Some(e)),
    }
}

async fn list_games(State(hub): State<AppState>) -> Result<Json<Value>, ApiError> {
    use jungle_platform::store::GameList;
    let list = |which| hub.store.list(which, 20).map_err(HubError::from);
    Ok(Json(json!({
        "live": list(GameList::Live)?,
        "recent": list(GameList::Finished)?,
        "imports": list(GameList::Imported)?,
    })))
}

async fn create_game(
    State(hub): State<AppState>,
    Client(client): Client,
    Viewer(viewer): Viewer,
    body: Result<Json<NewGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let (room, side, token) = hub.create(&request, client)?;
    if let Some(account) = &viewer {
        hub.bind_seat(&room, side, account)?;
    }
    let url = format!("/game/{}", room.id);
    Ok((
        StatusCode::CREATED,
        [seat_cookie(&hub, &room.id, &token)],
        Json(json!({ "id": room.id, "url": url, "seat": side_name(side) })),
    )
        .into_response())
}

/// The rematch of a finished game for a player of it (the seat cookie): `{"id","url","seat"}` and the seat
/// cookie of the new game, made by the first player to ask. Only from the server's own pages (the CSRF check).
async fn rematch_game(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    Viewer(viewer): Viewer,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let room = find_room(&hub, &id)?;
    let Some(seat) = seat_of_request(&hub, &room, &headers, viewer.as_ref())? else {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "only the players of a game may ask for its rematch".into(),
        ));
    };
    let (new_id, new_seat, token) = hub.rematch(&room, seat, client)?;
    if let Some(new_room) = hub.room(&new_id)? {
        hub.bind_rematch_seats(&room, &new_room, new_seat, viewer.as_ref())?;
    }
    let url = format!("/game/{new_id}");
    Ok((
        [seat_cookie(&hub, &new_id, &token)],
        Json(json!({ "id": new_id, "url": url, "seat": side_name(new_seat) })),
    )
        .into_response())
}

/// A game's full record: the live state plus every position, for the replay page.
#[derive(serde::Serialize)]
struct GameRecordReply {
    #[serde(flatten)]
    state: jungle_platform::protocol::Snapshot,
    /// The position before each move and after the last, as FEN.
    fens: Vec<String>,
}

async fn game_json(
    State(hub): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameRecordReply>, ApiError> {
    let room = find_room(&hub, &id)?;
    let state = room.snapshot();
    let fens: Vec<String> = room
        .lock()
        .game
        .positions()
        .iter()
        .map(jungle_rules::fen::to_fen)
        .collect();
    Ok(Json(GameRecordReply { state, fens }))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PgnNotation {
    Coordinates,
    Animal,
}

#[derive(Debug, Deserialize)]
struct PgnQuery {
    notation: Option<PgnNotation>,
}

/// The PGN of a game, as a download; `?notation=animal` writes the moves with their animals (`Ea3-a4`).
async fn game_pgn(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<PgnQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let room = find_room(&hub, &id)?;
    let record = hub.store.game(&id).map_err(HubError::from)?;
    let notation = match query.notation {
        Some(PgnNotation::Animal) => jungle_rules::Notation::Animal,
        _ => jungle_rules::Notation::default(),
    };
    let text = pgn_text(&room.lock(), record.map(|r| r.created_at), notation)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"jungle-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// A game's PGN with this site's tags (event, site, date of `created_at`, the players' names).
///
/// # Errors
/// When a tag cannot be written (a name PGN cannot carry).
pub(crate) fn pgn_text(
    state: &jungle_platform::room::RoomState,
    created_at: Option<i64>,
    notation: jungle_rules::Notation,
) -> Result<String, jungle_rules::pgn::TagError> {
    let mut pgn = PgnGame::new(state.game.clone());
    pgn.notation = notation;
    let pgn_name = |side| pgn_player_name(state, side).unwrap_or_else(|| "?".to_string());
    let tags = [
        ("Event", "Jungle game".to_string()),
        ("Site", "jungle serve".to_string()),
        ("Date", created_at.map(pgn_date).unwrap_or_default()),
        // docs/rules.md: `White` names the Blue player and `Black` the Red player.
        ("White", pgn_name(jungle_rules::Side::Blue)),
        ("Black", pgn_name(jungle_rules::Side::Red)),
    ];
    for (name, value) in tags {
        pgn.set_tag(name, &value)?;
    }
    Ok(pgn.to_string())
}

/// `YYYY.MM.DD` of a Unix time in milliseconds (UTC), for the PGN `Date` tag.
fn pgn_date(ms: i64) -> String {
    jungle_rules::pgn::date_tag(ms.div_euclid(1000))
}

#[derive(Debug, Deserialize)]
struct AnalysisQuery {
    ply: Option<usize>,
}

/// The engine's evaluation and best line after `ply` moves of a game.
async fn analysis(
    State(hub): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    query: Result<Query<AnalysisQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query?;
    let room = find_room(&hub, &id)?;
    hub.engine_has_room()?;
    let game: Game = {
        let state = room.lock();
        let total = state.game.moves().len();
        let ply = query.ply.unwrap_or(total);
        if ply > total {
            return Err(ApiError(
                StatusCode::BAD_REQUEST,
                format!("ply {ply} is past the end of the game ({total} moves)"),
            ));
        }
        // Rebuilt from the moves, so a declared ending (resignation, time) stays out: the engine looks at the
        // board.
        let mut game =
            Game::from_position(state.game.rules().clone(), *state.game.start_position());
        for &m in &state.game.moves()[..ply] {
            if game.play(m).is_err() {
                break;
            }
        }
        game
    };
    let analysis = hub
        .engine
        .analyse(&client.requester(), game)
        .await
        .ok_or_else(|| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "the engine is not available".into(),
            )
        })?;
    Ok(Json(json!(analysis)))
}

/// Stores a PGN game for replay and analysis; answers with its id and page. The body must be sent as
/// [`PGN_MEDIA_TYPE`].
async fn import_pgn(
    State(hub): State<AppState>,
    headers: HeaderMap,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let media_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::trim);
    if media_type != Some(PGN_MEDIA_TYPE) {
        return Err(ApiError(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("send the PGN as Content-Type: {PGN_MEDIA_TYPE}"),
        ));
    }
    let body = body?;
    let body = std::str::from_utf8(&body)
        .map_err(|_| ApiError(StatusCode::BAD_REQUEST, "the PGN is not UTF-8 text".into()))?;
    let record: PgnGame = body
        .parse()
        .map_err(|e: jungle_rules::pgn::ParsePgnError| {
            ApiError(StatusCode::BAD_REQUEST, e.to_string())
        })?;
    let name = |tag: &str| {
        record
            .tag(tag)
            .filter(|v| !v.is_empty() && *v != "?")
            .map(|v| v.chars().take(60).collect::<String>())
    };
    let names = BySide::new(name("White"), name("Black"));
    let id = hub.import(&record.game, names)?;
    let url = format!("/replay/{id}");
    Ok(Json(json!({ "id": id, "url": url })))
}

/// The websocket of a game. The seat comes from the cookie; a connection without a valid one watches.
async fn websocket(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    Viewer(viewer): Viewer,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !is_game_id(&id) {
        return Err(no_game(&id));
    }
    refuse_cross_site(&hub, &headers)?;
    let room = find_room(&hub, &id)?;
    let place = open_connection(&hub, client)?;
    let seat = seat_of_request(&hub, &room, &headers, viewer.as_ref())?;
    Ok(
        bounded(upgrade).on_upgrade(move |socket: WebSocket| async move {
            let _place = place;
            let (tx, rx) = text_frames(socket);
            serve_connection(hub.clone(), room.clone(), seat, tx, rx).await;
            hub.evict_if_idle(&room);
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_platform::Hub;

    #[test]
    fn a_seat_cookie_is_secure_when_the_site_is_reached_over_https() {
        let cookie = |public_origin: Option<&str>| {
            let hub = Hub::with_limits(
                crate::Store::in_memory().unwrap(),
                crate::EnginePool::new(1),
                crate::Limits::default(),
                public_origin.map(str::to_string),
            );
            let (name, value) = seat_cookie(&hub, "g1", "t1");
            assert_eq!(name, header::SET_COOKIE);
            value.to_str().unwrap().to_string()
        };
        assert_eq!(
            cookie(None),
            "seat_g1=t1; Path=/; SameSite=Lax; Max-Age=31536000; HttpOnly"
        );
        assert_eq!(
            cookie(Some("https://jungle.example")),
            "seat_g1=t1; Path=/; SameSite=Lax; Max-Age=31536000; HttpOnly; Secure"
        );
        assert!(!cookie(Some("http://jungle.example")).contains("Secure"));
    }

    #[test]
    fn pgn_dates_are_civil_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_796_000_000_000), "2026.11.30");
    }
}
