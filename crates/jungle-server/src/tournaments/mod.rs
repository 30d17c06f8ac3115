//! The tournaments' routes: the list page and a tournament's page, and their JSON — the lists, creating a
//! tournament, one tournament's state (players, standings, games, the viewer's own game; polled by its page
//! every few seconds), joining and leaving, and the tournament a game belongs to (for the game page's link).
//! What happens is `jungle_platform::tournament_play`'s; this is only how it is reached.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Serialize;
use serde_json::json;

use jungle_platform::store::{
    Tournament, TournamentGame, TournamentKind, TournamentStatus, now_ms,
};
use jungle_platform::tournament_play::record::Record;
use jungle_platform::tournament_play::{
    self, CreateRequest, LIMITS, Line, TournamentError, standings,
};

use crate::AppState;
use crate::shared::error::ApiError;
use crate::shared::pages::{Files, page};
use crate::shared::session::{SignedIn, Viewer};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tournaments", get(list_page))
        .route("/tournaments/{id}", get(tournament_page))
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(one))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/leave", post(leave))
        .route("/api/tournaments/of-game/{game}", get(of_game))
}

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> ApiError {
        let status = match e {
            TournamentError::Hub(inner) => return ApiError::from(inner),
            TournamentError::Bad(_) => StatusCode::BAD_REQUEST,
            TournamentError::NoTournament(_) => StatusCode::NOT_FOUND,
            TournamentError::Refused(_) => StatusCode::CONFLICT,
            TournamentError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
        };
        ApiError(status, e.to_string())
    }
}

/// The most tournaments of each status a list shows.
const LIST_LIMIT: u32 = 50;
/// The most games a tournament's page lists, and top games it offers to watch.
const GAMES_SHOWN: usize = 60;
const TOP_GAMES: usize = 6;

async fn list_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "tournaments.html")
}

async fn tournament_page(Extension(assets): Files) -> Response {
    page(&assets, StatusCode::OK, "tournament.html")
}

/// A tournament in a list, with its number of players.
#[derive(Serialize)]
struct Listed {
    #[serde(flatten)]
    tournament: Tournament,
    players: usize,
}

/// The upcoming, running and recently finished tournaments, and what the creation form offers.
async fn list(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
) -> Result<Json<serde_json::Value>, ApiError> {
    let mut lists = serde_json::Map::new();
    for status in [
        TournamentStatus::Upcoming,
        TournamentStatus::Running,
        TournamentStatus::Finished,
    ] {
        let mut listed = Vec::new();
        for tournament in hub
            .store
            .tournaments(status, LIST_LIMIT)
            .map_err(TournamentError::from)?
        {
            let players = hub
                .store
                .tournament_players(&tournament.id)
                .map_err(TournamentError::from)?
                .len();
            listed.push(Listed {
                tournament,
                players,
            });
        }
        lists.insert(status.name().to_string(), json!(listed));
    }
    Ok(Json(json!({
        "me": viewer.map(|v| v.name),
        "now": now_ms(),
        "upcoming": lists.remove("upcoming"),
        "running": lists.remove("running"),
        "finished": lists.remove("finished"),
        "max_name": tournament_play::terms::MAX_NAME,
        "max_rounds": tournament_play::terms::MAX_ROUNDS,
        "max_players": LIMITS.players,
    })))
}

async fn create(
    State(hub): State<AppState>,
    SignedIn(creator): SignedIn,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let tournament = tournament_play::create(&hub, &creator, &request)?;
    let url = format!("/tournaments/{}", tournament.id);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "tournament": tournament, "url": url })),
    )
        .into_response())
}

/// A game as a tournament's page lists it.
#[derive(Serialize)]
struct GameView {
    id: String,
    round: u32,
    blue: Option<String>,
    red: Option<String>,
    result: Option<String>,
    playing: bool,
    plies: u32,
    /// The best (lowest) rank of its two players: the top games are those of the leaders.
    rank: u32,
}

fn game_view(game: &TournamentGame, lines: &[Line]) -> GameView {
    let rank_of = |account: i64| {
        lines
            .iter()
            .find(|l| l.user_id == account)
            .map_or(u32::MAX, |l| l.rank)
    };
    GameView {
        id: game.id.clone(),
        round: game.round,
        blue: game.blue_name.clone(),
        red: game.red_name.clone(),
        result: game.result.clone(),
        playing: game.finished_at.is_none(),
        plies: game.plies,
        rank: rank_of(game.players.blue).min(rank_of(game.players.red)),
    }
}

/// One tournament: its terms, standings, games (newest first), the top games being played, the podium once
/// it is over, and for a signed-in viewer whether they are in it and the game they should be playing.
async fn one(
    State(hub): State<AppState>,
    Viewer(viewer): Viewer,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let tournament = tournament_play::find(&hub, &id)?;
    let record = Record::load(&hub.store, tournament).map_err(TournamentError::from)?;
    let table = standings(&record);
    let mut games: Vec<GameView> = record
        .games
        .iter()
        .rev()
        .take(GAMES_SHOWN)
        .map(|g| game_view(g, &table.lines))
        .collect();
    let mut top: Vec<&GameView> = games.iter().filter(|g| g.playing).collect();
    top.sort_by_key(|g| g.rank);
    let top: Vec<String> = top
        .into_iter()
        .take(TOP_GAMES)
        .map(|g| g.id.clone())
        .collect();
    games.sort_by_key(|g| (!g.playing, std::cmp::Reverse(g.round)));
    let me = viewer.map(|v| {
        let entry = record.players.iter().find(|p| p.user_id == v.id);
        let game = record
            .unfinished()
            .find(|g| g.players.blue == v.id || g.players.red == v.id)
            .map(|g| g.id.clone());
        json!({
            "name": v.name,
            "joined": entry.is_some(),
            "active": entry.is_some_and(|p| p.active),
            "game": game,
        })
    });
    let t = &record.tournament;
    let ends_at = t.ends_at();
    let podium = (t.status == TournamentStatus::Finished).then(|| table.podium().to_vec());
    Ok(Json(json!({
        "tournament": t,
        "now": now_ms(),
        "ends_at": ends_at,
        "players": record.players.len(),
        "max_players": LIMITS.players,
        "standings": table.lines,
        "podium": podium,
        "games": games,
        "top_games": top,
        "me": me,
    })))
}

async fn join(
    State(hub): State<AppState>,
    SignedIn(player): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    tournament_play::join(&hub, &player, &id)?;
    Ok(StatusCode::NO_CONTENT)
}

async fn leave(
    State(hub): State<AppState>,
    SignedIn(player): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    tournament_play::leave(&hub, &player, &id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// The tournament and round of a game: `{id, name, round, kind}`, or 404 for a game of no tournament.
async fn of_game(
    State(hub): State<AppState>,
    Path(game): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let not_one = || ApiError(StatusCode::NOT_FOUND, "not a tournament game".into());
    if !jungle_platform::hub::is_game_id(&game) {
        return Err(not_one());
    }
    let (id, round) = hub
        .store
        .tournament_of_game(&game)
        .map_err(TournamentError::from)?
        .ok_or_else(not_one)?;
    let tournament = tournament_play::find(&hub, &id)?;
    let kind = match tournament.kind {
        TournamentKind::Swiss { .. } => "swiss",
        TournamentKind::Arena { .. } => "arena",
    };
    Ok(Json(json!({
        "id": tournament.id,
        "name": tournament.name,
        "round": round,
        "kind": kind,
        "url": format!("/tournaments/{}", tournament.id),
    })))
}
