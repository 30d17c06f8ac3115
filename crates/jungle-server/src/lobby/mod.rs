//! The lobby's routes: the page, the lobby's state (polled by the page every few seconds), seeks and their
//! acceptance, direct challenges, quick pairing, and a player's seat in a paired game from any device.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use jungle_platform::lobby::seek::{DAYS_PER_MOVE, QUICK_PAIRINGS, Seek, SeekRequest, TimeControl};
use jungle_platform::lobby::{LIST_LIMIT, LobbyError, Quick, Seat, rating};

use crate::shared::error::ApiError;
use crate::shared::pages::Files;
use crate::shared::pages::page;
use crate::shared::seat_cookie::seat_cookie;
use crate::shared::session::{SignedIn, Viewer};
use crate::{AppState, Hub};
use jungle_platform::store::{LiveGame, now_ms};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/lobby", get(lobby_page))
        .route("/api/lobby", get(lobby_state))
        .route("/api/lobby/mine", get(my_games))
        .route("/api/lobby/quick", post(quick))
        .route("/api/lobby/games/{id}/seat", post(seat))
        .route("/api/seeks", post(create))
        .route("/api/seeks/{id}/cancel", post(cancel))
        .route("/api/seeks/{id}/accept", post(accept))
        .route("/api/seeks/{id}/decline", post(decline))
}

impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> ApiError {
        let status = match e {
            LobbyError::Hub(inner) => return ApiError::from(inner),
            LobbyError::Bad(_) => StatusCode::BAD_REQUEST,
            LobbyError::NoSeek(_) => StatusCode::NOT_FOUND,
            LobbyError::AlreadyTaken => StatusCode::CONFLICT,
            LobbyError::Refused(_) => StatusCode::FORBIDDEN,
            LobbyError::TooManySeeks => StatusCode::TOO_MANY_REQUESTS,
        };
        ApiError(status, e.to_string())
    }
}

async fn lobby_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "lobby.html")
}

/// A seek as the lobby shows it to one viewer.
#[derive(Serialize)]
struct SeekView {
    #[serde(flatten)]
    seek: Seek,
    /// The creator's rating in the seek's category.
    rating: i32,
    mine: bool,
    /// A direct challenge to the viewer.
    for_me: bool,
}

/// A game in the lobby's live list, with both players' ratings in its category.
#[derive(Serialize)]
struct GameView {
    #[serde(flatten)]
    game: LiveGame,
    ratings: jungle_platform::protocol::PerSide<Option<i32>>,
}

impl GameView {
    fn of(
        store: &jungle_platform::store::Store,
        game: LiveGame,
    ) -> Result<GameView, jungle_platform::store::StoreError> {
        let time = match (game.clock_initial_ms, game.days_per_move) {
            (_, Some(days_per_move)) => Some(TimeControl::Correspondence { days_per_move }),
            (Some(initial_ms), None) => Some(TimeControl::Clock {
                initial_ms,
                increment_ms: game.clock_increment_ms.unwrap_or(0),
            }),
            (None, None) => None,
        };
        let rating =
            |player: Option<i64>| -> Result<Option<i32>, jungle_platform::store::StoreError> {
                match (player, time) {
                    (Some(id), Some(time)) => Ok(Some(rating::rating_of(store, id, time)?)),
                    _ => Ok(None),
                }
            };
        Ok(GameView {
            ratings: jungle_platform::protocol::PerSide {
                blue: rating(game.players.blue)?,
                red: rating(game.players.red)?,
            },
            game,
        })
    }
}

#[derive(Deserialize)]
struct Since {
    /// The page's start (Unix ms): games paired from then on are announced to it.
    since: Option<i64>,
}

/// How far back a page may ask for its new games.
const PAIRED_LOOKBACK_MS: i64 = 10 * 60_000;

/// The lobby for the viewer: open seeks, live games with players and ratings, and for a signed-in viewer the
/// games paired since `since` (so the page of a seek's creator goes to the game). Asking keeps the viewer's
/// own real-time seeks open.
async fn lobby_state(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
    query: Result<Query<Since>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(query) = query?;
    let now = now_ms();
    let viewer_id = viewer.as_ref().map(|v| v.id);
    let mut paired = Vec::new();
    if let Some(id) = viewer_id {
        hub.store.touch_seeks(id, now).map_err(LobbyError::from)?;
        let since = query.since.unwrap_or(now).max(now - PAIRED_LOOKBACK_MS);
        for (seek, game) in hub
            .store
            .paired_since(id, since)
            .map_err(LobbyError::from)?
        {
            paired.push(json!({ "seek": seek, "game": game, "url": format!("/game/{game}") }));
        }
    }
    let mut seeks = Vec::new();
    for seek in hub
        .store
        .seeks_for(viewer_id, now, LIST_LIMIT)
        .map_err(LobbyError::from)?
    {
        let rating =
            rating::rating_of(&hub.store, seek.creator_id, seek.time).map_err(LobbyError::from)?;
        seeks.push(SeekView {
            mine: Some(seek.creator_id) == viewer_id,
            for_me: seek.target_id.is_some() && seek.target_id == viewer_id,
            rating,
            seek,
        });
    }
    let mut games = Vec::new();
    for game in hub
        .store
        .lobby_games(LIST_LIMIT)
        .map_err(LobbyError::from)?
    {
        games.push(GameView::of(&hub.store, game).map_err(LobbyError::from)?);
    }
    Ok(Json(json!({
        "me": viewer.map(|v| v.name),
        "now": now,
        "seeks": seeks,
        "games": games,
        "paired": paired,
        "quick": QUICK_PAIRINGS,
        "days": DAYS_PER_MOVE,
    })))
}

/// The signed-in viewer's games in progress from the lobby, their turn first, and how many await them
/// (a guest has none).
async fn my_games(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
) -> Result<Json<serde_json::Value>, ApiError> {
    let games = match viewer {
        Some(player) => jungle_platform::lobby::games_of(&hub, &player)?,
        None => Vec::new(),
    };
    let your_turn = games.iter().filter(|g| g.my_turn).count();
    Ok(Json(json!({ "games": games, "your_turn": your_turn })))
}

/// A seat in a game: its id and page, the seat, and the seat's cookie.
fn seat_reply(hub: &Hub, status: StatusCode, seat: &Seat) -> Response {
    let url = format!("/game/{}", seat.game_id);
    (
        status,
        [seat_cookie(hub, &seat.game_id, &seat.token)],
        Json(json!({
            "id": seat.game_id,
            "url": url,
            "seat": jungle_platform::side_name(seat.side),
        })),
    )
        .into_response()
}

async fn create(
    State(hub): State<AppState>,
    SignedIn(creator): SignedIn,
    body: Result<Json<SeekRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let seek = jungle_platform::lobby::create_seek(&hub, &creator, &request)?;
    Ok((StatusCode::CREATED, Json(json!({ "seek": seek }))).into_response())
}

async fn cancel(
    State(hub): State<AppState>,
    SignedIn(creator): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    jungle_platform::lobby::cancel_seek(&hub, &creator, &id)?;
    Ok(StatusCode::NO_CONTENT)
}

async fn decline(
    State(hub): State<AppState>,
    SignedIn(target): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    jungle_platform::lobby::decline(&hub, &target, &id)?;
    Ok(StatusCode::NO_CONTENT)
}

async fn accept(
    State(hub): State<AppState>,
    SignedIn(acceptor): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let seat = jungle_platform::lobby::accept(&hub, &acceptor, &id)?;
    Ok(seat_reply(&hub, StatusCode::CREATED, &seat))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuickRequest {
    minutes: u32,
    increment: u32,
}

/// Quick pairing: `{"paired": {id,url,seat}}` with the seat cookie, or `{"waiting": seek}`.
async fn quick(
    State(hub): State<AppState>,
    SignedIn(player): SignedIn,
    body: Result<Json<QuickRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    match jungle_platform::lobby::quick_pair(&hub, &player, request.minutes, request.increment)? {
        Quick::Paired(seat) => Ok(seat_reply(&hub, StatusCode::CREATED, &seat)),
        Quick::Waiting(seek) => Ok(Json(json!({ "waiting": seek })).into_response()),
    }
}

/// A player's seat in a game the lobby made, from any device.
async fn seat(
    State(hub): State<AppState>,
    SignedIn(player): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if !jungle_platform::hub::is_game_id(&id) {
        return Err(LobbyError::Refused("you do not play in this game".into()).into());
    }
    let seat = jungle_platform::lobby::seat(&hub, &player, &id)?;
    Ok(seat_reply(&hub, StatusCode::OK, &seat))
}
