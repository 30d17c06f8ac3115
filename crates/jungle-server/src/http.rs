//! The HTTP side: pages, static files, the JSON API, PGN download and import, and the websocket upgrade.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::HeaderName;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use jungle_rules::pgn::PgnGame;
use jungle_rules::{BySide, Game};
use serde::Deserialize;
use serde_json::{Value, json};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::accounts::Viewer;
use crate::accounts::cookies::{CookieRules, secure_origin, set_cookie};
use crate::assets::Assets;
use crate::connections::ConnectionRefused;
use crate::guard::{Client, guard, json_error};
use crate::hub::{Hub, HubError, NewGame, is_game_id};
use crate::room::{Room, pgn_player_name};
use crate::ws::{Incoming, serve_connection};
use crate::{AppState, side_name};

/// The largest request body (a PGN import); everything else is far smaller.
pub const MAX_BODY: usize = 64 * 1024;
/// The largest websocket frame the transport accepts; the protocol's own limit is lower.
pub const MAX_WS_FRAME: usize = 16 * 1024;
/// A websocket's read buffer (the transport's default, 128 KiB, made an idle connection cost that much).
pub const WS_READ_BUFFER: usize = 4 * 1024;

/// The pages load scripts, styles and images from this server only, open websockets to it only, run no
/// inline code and may not be framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The media type a PGN import must be sent as. Not one a cross-site form or a "simple" cross-site request
/// can send, so another site cannot make a visitor's browser import games.
pub const PGN_MEDIA_TYPE: &str = "application/x-chess-pgn";

/// The application, with its front end from `assets`.
pub fn router(state: AppState, assets: Assets) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/game/{id}", get(game_page))
        .route("/replay/{id}", get(replay_page))
        .route("/static/{file}", get(static_file))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_json))
        .route("/api/games/{id}/join", axum::routing::post(join_game))
        .route("/api/games/{id}/rematch", axum::routing::post(rematch_game))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/games/{id}/analysis", get(analysis))
        .route(
            "/api/games/{id}/evaluations",
            get(crate::analysis::evaluations),
        )
        .route("/ws/analysis", get(crate::analysis::socket))
        .route("/editor", get(crate::editor::editor_page))
        .route("/api/position", get(crate::editor::check_position))
        .route("/api/import", axum::routing::post(import_pgn))
        .route("/ws/{id}", get(websocket))
        .merge(crate::accounts::routes())
        .merge(crate::ratings::routes())
        .merge(crate::profile::routes())
        .merge(crate::puzzles::routes())
        .merge(crate::lobby::http::routes())
        .merge(crate::hidden::http::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::accounts::csrf::require_csrf,
        ))
        .layer(Extension(Arc::new(assets)))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
        .layer(axum::middleware::map_response(security_headers))
        // Outermost last: the id is set first, so the span and the response both carry it.
        .layer(PropagateRequestIdLayer::new(HeaderName::from_static(
            REQUEST_ID,
        )))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .layer(SetRequestIdLayer::new(
            HeaderName::from_static(REQUEST_ID),
            MakeRequestUuid,
        ))
        .with_state(state)
}

/// The header carrying each request's id: taken from the client (a proxy's id) or made here, logged with
/// every event of the request, and sent back in the response.
pub const REQUEST_ID: &str = "x-request-id";

/// One log span per request (method, path, request id), with a line when it is answered (status, time).
fn request_span(request: &axum::extract::Request) -> tracing::Span {
    let id = request
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    tracing::info_span!("request", method = %request.method(), path = %request.uri().path(), id)
}

/// Headers on every answer: the content security policy, no content-type guessing, no framing, no referrer.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// An API error: a status and a one-line message as `{"error": ...}`.
#[derive(Debug)]
pub struct ApiError(pub(crate) StatusCode, pub(crate) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_error(self.0, &self.1)
    }
}

/// A body or query string a handler could not read is answered with the framework's status and reason.
macro_rules! rejections_are_api_errors {
    ($($rejection:ty),*) => {$(
        impl From<$rejection> for ApiError {
            fn from(e: $rejection) -> ApiError {
                ApiError(e.status(), e.body_text())
            }
        }
    )*};
}

rejections_are_api_errors!(
    axum::extract::rejection::JsonRejection,
    axum::extract::rejection::QueryRejection,
    axum::extract::rejection::BytesRejection
);

impl From<HubError> for ApiError {
    fn from(e: HubError) -> ApiError {
        let status = match &e {
            HubError::BadRequest(_) => StatusCode::BAD_REQUEST,
            HubError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            HubError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            HubError::Damaged { .. } => StatusCode::CONFLICT,
            HubError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status.is_server_error() {
            tracing::error!(error = %e, "request failed");
        }
        ApiError(status, e.to_string())
    }
}

fn no_game(id: &str) -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        format!("no game \"{}\"", id.chars().take(20).collect::<String>()),
    )
}

pub(crate) fn find_room(hub: &Hub, id: &str) -> Result<Arc<Room>, ApiError> {
    hub.room(id)?.ok_or_else(|| no_game(id))
}

fn cookie_name(id: &str) -> String {
    format!("seat_{id}")
}

/// The seat token a request carries for a game, from its `Cookie` headers.
pub fn seat_token(headers: &HeaderMap, id: &str) -> Option<String> {
    crate::accounts::cookies::read_cookie(headers, &cookie_name(id)).map(str::to_string)
}

/// The `Set-Cookie` header of a game's seat: hidden from the pages' scripts, sent when following a link here
/// (`Lax`), kept a year, and `Secure` when the site is reached over HTTPS (`--public-origin https://…`), as
/// the session's cookie.
pub(crate) fn seat_cookie(hub: &Hub, id: &str, token: &str) -> (header::HeaderName, HeaderValue) {
    let rules = CookieRules {
        http_only: true,
        strict: false,
        secure: secure_origin(hub.public_origin.as_deref()),
        max_age: SEAT_COOKIE_SECS,
    };
    set_cookie(&cookie_name(id), token, rules)
}

/// How long a browser keeps a seat's cookie: a year (a correspondence game lasts months).
const SEAT_COOKIE_SECS: u64 = 365 * 24 * 3600;

/// The front end, shared by the handlers below.
pub(crate) type Files = Extension<Arc<Assets>>;

pub(crate) fn page(assets: &Assets, status: StatusCode, name: &str) -> Response {
    (status, Html(assets.page(name))).into_response()
}

async fn home(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "home.html")
}

async fn not_found(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::NOT_FOUND, "not_found.html")
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
    if let Some(seat) = hub.seat_for(&room, &headers, viewer.as_ref())? {
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

async fn static_file(Extension(assets): Files, Path(file): Path<String>) -> Response {
    match assets.file(&file) {
        Some((content_type, bytes)) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => page(&assets, StatusCode::NOT_FOUND, "not_found.html"),
    }
}

async fn list_games(State(hub): State<AppState>) -> Result<Json<Value>, ApiError> {
    use crate::store::GameList;
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
    let Some(seat) = hub.seat_for(&room, &headers, viewer.as_ref())? else {
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
    state: crate::protocol::Snapshot,
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
    state: &crate::room::RoomState,
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
    let analysis = hub.engine.analyse(game).await.ok_or_else(|| {
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
    let seat = hub.seat_for(&room, &headers, viewer.as_ref())?;
    Ok(
        bounded(upgrade).on_upgrade(move |socket: WebSocket| async move {
            let _place = place;
            let (tx, rx) = text_frames(socket);
            serve_connection(hub.clone(), room.clone(), seat, tx, rx).await;
            hub.evict_if_idle(&room);
        }),
    )
}

/// Refuses a websocket opened by another site's page (see [`origin_allowed`]).
pub(crate) fn refuse_cross_site(hub: &Hub, headers: &HeaderMap) -> Result<(), ApiError> {
    if origin_allowed(headers, hub.public_origin.as_deref()) {
        Ok(())
    } else {
        Err(ApiError(
            StatusCode::FORBIDDEN,
            "cross-site websocket refused".into(),
        ))
    }
}

/// A websocket upgrade with the frame and buffer limits every socket of the site has.
pub(crate) fn bounded(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .max_message_size(MAX_WS_FRAME)
        .max_frame_size(MAX_WS_FRAME)
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
}

/// A websocket as the connection loops see it: text out, [`Incoming`] in (pings are the library's business).
pub(crate) fn text_frames(
    socket: WebSocket,
) -> (
    impl Sink<String, Error = axum::Error> + Unpin + Send,
    impl Stream<Item = Incoming> + Unpin + Send,
) {
    let (sink, stream) = socket.split();
    let tx = Box::pin(
        sink.with(|text: String| async move { Ok::<_, axum::Error>(Message::Text(text.into())) }),
    );
    let rx = Box::pin(stream.filter_map(|frame| async move {
        match frame {
            Ok(Message::Text(text)) => Some(Incoming::Text(text.to_string())),
            Ok(Message::Binary(_)) => Some(Incoming::Binary),
            Ok(Message::Ping(_) | Message::Pong(_)) => None,
            Ok(Message::Close(_)) | Err(_) => Some(Incoming::Broken),
        }
    }));
    (tx, rx)
}

/// Counts a new websocket against the connection limits (total and per client).
pub(crate) fn open_connection(
    hub: &Hub,
    client: Option<std::net::IpAddr>,
) -> Result<crate::connections::ConnectionPlace, ApiError> {
    hub.connections
        .open(client.unwrap_or(std::net::IpAddr::from([0, 0, 0, 0])))
        .map_err(|refused| {
            let status = match refused {
                ConnectionRefused::Full => StatusCode::SERVICE_UNAVAILABLE,
                ConnectionRefused::TooManyFromClient => StatusCode::TOO_MANY_REQUESTS,
            };
            ApiError(status, refused.to_string())
        })
}

/// A browser always sends `Origin`; it must name this server, so a page elsewhere cannot act with our
/// cookies. With a configured public origin, only that origin. Without one, the origin must name the `Host`
/// the request was sent to, and that must be `localhost` or an IP address: a DNS-rebinding page has a domain
/// name of its own as both its origin and the `Host`, so it is refused.
pub(crate) fn origin_allowed(headers: &HeaderMap, public_origin: Option<&str>) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true; // not a browser
    };
    if let Some(public) = public_origin {
        return origin.trim_end_matches('/') == public.trim_end_matches('/');
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    origin_host.is_some() && origin_host == host && origin_host.is_some_and(is_address_or_localhost)
}

/// Whether `host[:port]` names `localhost` or an IP address (not a domain name).
fn is_address_or_localhost(host_port: &str) -> bool {
    let host = match host_port.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => host_port
            .rsplit_once(':')
            .map_or(host_port, |(host, _)| host),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin_headers(origin: &str, host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ORIGIN, origin.parse().unwrap());
        headers.insert(header::HOST, host.parse().unwrap());
        headers
    }

    #[test]
    fn websocket_origins_are_checked_against_the_public_origin_or_an_address() {
        let ok = |origin, host, public| origin_allowed(&origin_headers(origin, host), public);
        assert!(ok("http://127.0.0.1:8080", "127.0.0.1:8080", None));
        assert!(ok("http://localhost:8080", "localhost:8080", None));
        assert!(ok("http://[::1]:8080", "[::1]:8080", None));
        assert!(
            !ok("http://evil.example", "127.0.0.1:8080", None),
            "another site"
        );
        assert!(
            !ok("http://evil.example:8080", "evil.example:8080", None),
            "DNS rebinding"
        );
        assert!(!ok("null", "127.0.0.1:8080", None));
        let public = Some("https://jungle.example");
        assert!(ok("https://jungle.example", "jungle.example", public));
        assert!(!ok("http://127.0.0.1:8080", "127.0.0.1:8080", public));
        assert!(!ok("https://evil.example", "jungle.example", public));
        assert!(origin_allowed(&HeaderMap::new(), public), "not a browser");
    }

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
