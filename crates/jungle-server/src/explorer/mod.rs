//! The opening explorer: `GET /api/explorer?rules=RULES&moves=a3a4,g7g6` (or `&fen=FEN` instead of the
//! moves) answers the moves played from that position in the finished games between people the server
//! stores, the most played first, each with its count, how often Blue won, drew and Red won (in per cent) and
//! the average rating of its rated games. The counts come from the store's index (`jungle_store`'s
//! explorer: one row per rules, position and move, counted as each game ends), read by the position's hash:
//! one range of one key, however many games are stored (docs/server.md, "Opening explorer").
//!
//! With `&source=selfplay` it answers from the engine self-play collection shipped with the server instead
//! (`jungle_platform::selfplay_openings`, held in memory), counted the same way; `collection_games` says how
//! many games that collection holds for the rules asked (0: none for them).

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use jungle_platform::hub::HubError;
use jungle_platform::selfplay_openings;
use jungle_platform::store::{EXPLORER_PLIES, OpeningMove};
use jungle_rules::{Game, Position, Rules, fen};
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::shared::error::ApiError;

/// The explorer's route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/explorer", get(explorer))
}

/// The most moves a request may name: far past the plies the index counts ([`EXPLORER_PLIES`]), so a page
/// deep in a game still asks (and finds a transposition into an opening, or nothing), while a request stays
/// small to replay.
pub const MAX_MOVES: usize = 300;

/// The longest rules or FEN text a request may send.
const MAX_TEXT: usize = 200;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExplorerQuery {
    /// The rules' option string (a preset such as `standard` or `modern`, then options); `standard` when
    /// left out.
    #[serde(default)]
    rules: Option<String>,
    /// The moves from the rules' start, comma-separated (`a3a4,g7g6`).
    #[serde(default)]
    moves: Option<String>,
    /// The position itself, instead of the moves to it.
    #[serde(default)]
    fen: Option<String>,
    /// Where the games come from; the server's own when left out.
    #[serde(default)]
    source: Source,
}

/// The games an answer counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Source {
    /// The finished games between people the server stores.
    #[default]
    Games,
    /// The engine self-play collection shipped with the server.
    Selfplay,
}

/// One move of the answer.
#[derive(Debug, Serialize)]
pub(crate) struct ExploredMove {
    #[serde(rename = "move")]
    mv: String,
    /// The position after it, to go deeper.
    fen_after: String,
    games: u64,
    blue_wins: u64,
    draws: u64,
    red_wins: u64,
    /// Per cent of its games, to one decimal.
    blue_percent: f64,
    draw_percent: f64,
    red_percent: f64,
    /// The mean of its rated games' average ratings, rounded; `None` when none was rated.
    rating: Option<i64>,
    rated_games: u64,
}

/// `{"rules", "fen", "games", "moves": [...], "plies_counted"}`.
#[derive(Debug, Serialize)]
pub(crate) struct Explored {
    /// The rules' canonical option string.
    rules: String,
    /// The position asked about.
    fen: String,
    /// The games that reached it and went on (the sum of its moves' counts).
    games: u64,
    moves: Vec<ExploredMove>,
    /// How many plies of each game the index counts.
    plies_counted: usize,
    source: Source,
    /// The games of the self-play collection under these rules (0: it has none for them); only with
    /// `source=selfplay`.
    #[serde(skip_serializing_if = "Option::is_none")]
    collection_games: Option<usize>,
}

fn bad(message: String) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message)
}

/// The position a query names: the rules' start after its moves, or its FEN.
fn position_of(query: &ExplorerQuery) -> Result<(Rules, Position), ApiError> {
    let rules_text = query.rules.as_deref().unwrap_or("standard").trim();
    if rules_text.len() > MAX_TEXT {
        return Err(bad(format!("rules: at most {MAX_TEXT} characters")));
    }
    let rules: Rules = rules_text.parse().map_err(|e| bad(format!("rules: {e}")))?;
    match (&query.moves, &query.fen) {
        (Some(_), Some(_)) => Err(bad("give the moves or the FEN, not both".into())),
        (None, Some(text)) => {
            if text.len() > MAX_TEXT {
                return Err(bad(format!("fen: at most {MAX_TEXT} characters")));
            }
            let position =
                Position::from_fen(text.trim(), &rules).map_err(|e| bad(format!("fen: {e}")))?;
            Ok((rules, position))
        }
        (moves, None) => {
            let moves = moves.as_deref().unwrap_or("").trim();
            let moves: Vec<&str> = if moves.is_empty() {
                Vec::new()
            } else {
                moves.split(',').collect()
            };
            if moves.len() > MAX_MOVES {
                return Err(bad(format!("moves: at most {MAX_MOVES}")));
            }
            let mut game = Game::new(rules.clone());
            for (i, text) in moves.iter().enumerate() {
                game.play_text(text).map_err(|e| {
                    let shown: String = text.chars().take(20).collect();
                    bad(format!("moves: move {} (\"{shown}\"): {e}", i + 1))
                })?;
            }
            Ok((rules, *game.position()))
        }
    }
}

/// A count as per cent of `total`, to one decimal.
fn percent(count: u64, total: u64) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (count as f64 * 1000.0 / total as f64).round() / 10.0
}

/// A move of the index as the answer shows it; `None` when it is not legal in the position (another position
/// with the same 64-bit hash: never seen, but a stored row must not put an illegal move on a page).
fn explored_move(rules: &Rules, position: &Position, m: OpeningMove) -> Option<ExploredMove> {
    let played = position.parse_move(rules, &m.mv).ok()?;
    let rating = (m.rated_games > 0).then(|| {
        let mean = m.rating_sum as f64 / m.rated_games as f64;
        mean.round() as i64
    });
    Some(ExploredMove {
        fen_after: fen::to_fen(&position.after(played)),
        blue_percent: percent(m.blue_wins, m.games),
        draw_percent: percent(m.draws, m.games),
        red_percent: percent(m.red_wins, m.games),
        mv: m.mv,
        games: m.games,
        blue_wins: m.blue_wins,
        draws: m.draws,
        red_wins: m.red_wins,
        rating,
        rated_games: m.rated_games,
    })
}

pub(crate) async fn explorer(
    State(hub): State<AppState>,
    query: Result<Query<ExplorerQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Explored>, ApiError> {
    let Query(query) = query?;
    let (rules, position) = position_of(&query)?;
    let (moves, collection_games) = match query.source {
        Source::Games => (
            hub.store
                .opening_moves(&rules, position.hash())
                .map_err(HubError::from)?,
            None,
        ),
        Source::Selfplay => {
            // The first call reads the shipped collection (about a second of a core: every game is replayed),
            // so off the async threads.
            let index = tokio::task::spawn_blocking(selfplay_openings::shipped)
                .await
                .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
            if *index.rules() == rules {
                (
                    index.moves_at(position.hash()).to_vec(),
                    Some(index.games()),
                )
            } else {
                (Vec::new(), Some(0))
            }
        }
    };
    let moves: Vec<ExploredMove> = moves
        .into_iter()
        .filter_map(|m| explored_move(&rules, &position, m))
        .collect();
    Ok(Json(Explored {
        rules: rules.to_string(),
        fen: fen::to_fen(&position),
        games: moves.iter().map(|m| m.games).sum(),
        moves,
        plies_counted: EXPLORER_PLIES,
        source: query.source,
        collection_games,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_to_one_decimal_and_an_empty_count_is_zero() {
        assert_eq!(percent(1, 3), 33.3);
        assert_eq!(percent(2, 3), 66.7);
        assert_eq!(percent(0, 0), 0.0);
    }
}
