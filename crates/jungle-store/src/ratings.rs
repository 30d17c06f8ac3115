//! The ratings' storage (migration 0005): which games are rated (`games.rating_category`, with the accounts
//! of the game's seats), each account's rating per speed category, and one history row per player of each
//! rated game that ended.

use super::db::{Conn, params};
use super::{Store, StoreError, now_ms};
use crate::Category;
use crate::rating_rule::{self as ratings, Outcome, Rating, SETTINGS};
use jungle_rules::{BySide, Side};

/// A rated game's fixed facts: the accounts it rates and its speed category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatedGame {
    pub category: Category,
    pub players: BySide<i64>,
}

/// Why a game cannot be marked rated.
#[derive(Debug, thiserror::Error)]
pub enum MarkRatedError {
    #[error("no game \"{0}\"")]
    NoGame(String),
    #[error("only games under the standard rules from the start position are rated")]
    NotStandard,
    #[error("games against the engine and imported games are never rated")]
    NotBetweenPlayers,
    #[error("a player cannot be rated against themselves")]
    SamePlayer,
    #[error("the game's seats belong to other accounts")]
    OtherPlayers,
    #[error("the game has already ended")]
    Finished,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// An account's rating in one category, with its counts (for profiles and the lobby).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CategoryRating {
    pub category: Category,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// The rating as shown: rounded, with "?" while provisional.
    pub shown: String,
    pub provisional: bool,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// One rated game in an account's rating history.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HistoryPoint {
    pub game_id: String,
    pub category: Category,
    /// When the game ended (Unix milliseconds).
    pub at: i64,
    pub outcome: &'static str,
    pub opponent_id: i64,
    pub rating_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
}

/// A player's rating in a rated game: before it, and after it once it has ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SeatRating {
    pub user_id: i64,
    pub before: f64,
    pub before_shown: String,
    pub after: Option<f64>,
    pub after_shown: Option<String>,
}

/// A rated game's category and its players' ratings (for the game page).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameRatings {
    pub category: Category,
    pub blue: SeatRating,
    pub red: SeatRating,
}

/// The most history points one request returns (a graph needs no more; older ones are left out).
pub const MAX_HISTORY: u32 = 2000;

/// Marks a new game rated for `players` (the accounts on its seats, filled in if the seats have none yet) in
/// `category`, through `conn` (a transaction that also makes the game, or the store's connection). The game
/// must be between people, under the standard rules from the start, not finished, and between two different
/// accounts; marking it again the same way changes nothing.
///
/// # Errors
/// When the game is not one that can be rated, or the database fails.
pub fn mark_rated_on(
    conn: &dyn Conn,
    game_id: &str,
    players: BySide<i64>,
    category: Category,
) -> Result<(), MarkRatedError> {
    let game = conn.query_opt(
        "SELECT mode, rules, start_fen, result FROM games WHERE id = ?1",
        params![game_id],
        |r| {
            Ok((
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<String>(2)?,
                r.get::<Option<String>>(3)?,
            ))
        },
    )?;
    let Some((mode, rules, start_fen, result)) = game else {
        return Err(MarkRatedError::NoGame(game_id.chars().take(20).collect()));
    };
    if mode == "engine" || mode == "import" {
        return Err(MarkRatedError::NotBetweenPlayers);
    }
    if !ratings::rateable_rules(&rules, &start_fen) {
        return Err(MarkRatedError::NotStandard);
    }
    if players.blue == players.red {
        return Err(MarkRatedError::SamePlayer);
    }
    if result.is_some() {
        return Err(MarkRatedError::Finished);
    }
    let marked = conn.execute(
        "UPDATE games SET blue_user_id = ?2, red_user_id = ?3, rating_category = ?4
         WHERE id = ?1 AND coalesce(blue_user_id, ?2) = ?2 AND coalesce(red_user_id, ?3) = ?3",
        params![game_id, players.blue, players.red, category.name()],
    )?;
    if marked == 0 {
        return Err(MarkRatedError::OtherPlayers);
    }
    Ok(())
}

/// Whether a game is rated, and whom it rates in which category.
pub fn rated_game_on(conn: &dyn Conn, game_id: &str) -> Result<Option<RatedGame>, StoreError> {
    let row = conn.query_opt(
        "SELECT rating_category, blue_user_id, red_user_id FROM games
         WHERE id = ?1 AND rating_category IS NOT NULL",
        params![game_id],
        |r| {
            Ok((
                r.get::<String>(0)?,
                r.get::<Option<i64>>(1)?,
                r.get::<Option<i64>>(2)?,
            ))
        },
    )?;
    let Some((category, Some(blue), Some(red))) = row else {
        return Ok(None);
    };
    Ok(Some(RatedGame {
        category: parse_category(&category)?,
        players: BySide::new(blue, red),
    }))
}

/// An account's rating in a category as of `now`: the stored one with its deviation grown for the days
/// since its last rated game there, or a newcomer's.
fn rating_on(
    conn: &dyn Conn,
    user_id: i64,
    category: Category,
    now: i64,
) -> Result<Rating, StoreError> {
    let row = conn.query_opt(
        "SELECT rating, deviation, volatility, updated_at FROM ratings
         WHERE user_id = ?1 AND category = ?2",
        params![user_id, category.name()],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<i64>(3)?)),
    )?;
    let Some((rating, deviation, volatility, updated_at)) = row else {
        return Ok(SETTINGS.initial);
    };
    let stored = stored_rating(rating, deviation, volatility)?;
    Ok(SETTINGS.idle(stored, ratings::idle_periods(updated_at, now)))
}

/// Moves both players' ratings for the end of `game_id` — if it is rated and was not settled before — with
/// Glicko-2 against each other's rating from before the game. `winner` and `result` are the stored ending
/// (an aborted or unterminated game, `*`, moves nothing). Returns whether ratings moved. Called by
/// [`Store::finish`] inside the transaction that stores the result.
pub(super) fn settle_on(
    conn: &dyn Conn,
    game_id: &str,
    result: &str,
    winner: Option<&str>,
    now: i64,
) -> Result<bool, StoreError> {
    let blue_outcome = match (result, winner.and_then(crate::side_from_name)) {
        ("*", _) => return Ok(false),
        (_, Some(Side::Blue)) => Outcome::Win,
        (_, Some(Side::Red)) => Outcome::Loss,
        (_, None) => Outcome::Draw,
    };
    let Some(game) = rated_game_on(conn, game_id)? else {
        return Ok(false);
    };
    lock_accounts(conn, &[game.players.blue, game.players.red])?;
    let before = BySide::new(
        rating_on(conn, game.players.blue, game.category, now)?,
        rating_on(conn, game.players.red, game.category, now)?,
    );
    for side in [Side::Blue, Side::Red] {
        let outcome = if side == Side::Blue {
            blue_outcome
        } else {
            blue_outcome.reversed()
        };
        let (player, opponent) = (before[side], before[side.opponent()]);
        let after = SETTINGS.update(player, &[jungle_glicko::Game { opponent, outcome }]);
        // The history row first: its key (game, player) turns a second settlement of this game into
        // nothing at all.
        let inserted = conn.execute(
            "INSERT INTO rating_history (game_id, user_id, category, opponent_id, outcome, rating_before,
                deviation_before, opponent_rating, opponent_deviation, rating_after, deviation_after,
                volatility_after, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
             ON CONFLICT (game_id, user_id) DO NOTHING",
            params![
                game_id,
                game.players[side],
                game.category.name(),
                game.players[side.opponent()],
                outcome_name(outcome),
                player.rating(),
                player.deviation(),
                opponent.rating(),
                opponent.deviation(),
                after.rating(),
                after.deviation(),
                after.volatility(),
                now
            ],
        )?;
        if inserted == 0 {
            return Ok(false);
        }
        let (win, draw, loss) = match outcome {
            Outcome::Win => (1, 0, 0),
            Outcome::Draw => (0, 1, 0),
            Outcome::Loss => (0, 0, 1),
        };
        conn.execute(
            "INSERT INTO ratings (user_id, category, rating, deviation, volatility, games, wins, draws, losses,
                updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9)
             ON CONFLICT (user_id, category) DO UPDATE SET rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility, games = ratings.games + 1,
                wins = ratings.wins + excluded.wins, draws = ratings.draws + excluded.draws,
                losses = ratings.losses + excluded.losses, updated_at = excluded.updated_at",
            params![
                game.players[side],
                game.category.name(),
                after.rating(),
                after.deviation(),
                after.volatility(),
                win,
                draw,
                loss,
                now
            ],
        )?;
    }
    Ok(true)
}

/// Locks the rows of `accounts` until the caller's transaction ends (a write that changes nothing), so a
/// transaction that reads their ratings and writes new ones is never interleaved with another doing the same
/// for one of them on another connection — whose update would otherwise be lost. (SQLite runs one
/// transaction at a time anyway.)
pub(super) fn lock_accounts(conn: &dyn Conn, accounts: &[i64]) -> Result<(), StoreError> {
    // Always in the same order, so two transactions locking the same two accounts cannot deadlock.
    let mut accounts = accounts.to_vec();
    accounts.sort_unstable();
    for id in accounts {
        conn.execute("UPDATE users SET name = name WHERE id = ?1", params![id])?;
    }
    Ok(())
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

fn parse_outcome(name: &str) -> Result<&'static str, StoreError> {
    ["win", "draw", "loss"]
        .into_iter()
        .find(|o| *o == name)
        .ok_or_else(|| corrupt(format!("unknown outcome \"{name}\"")))
}

fn parse_category(name: &str) -> Result<Category, StoreError> {
    Category::from_name(name).ok_or_else(|| corrupt(format!("unknown category \"{name}\"")))
}

fn stored_rating(rating: f64, deviation: f64, volatility: f64) -> Result<Rating, StoreError> {
    Rating::new(rating, deviation, volatility).map_err(|e| corrupt(e.to_string()))
}

/// A stored value that cannot be what the schema means (a hand-edited database).
fn corrupt(message: String) -> StoreError {
    StoreError::Unreadable(message)
}

impl Store {
    /// Marks a new game rated (see [`mark_rated_on`], which does the same inside a caller's transaction).
    ///
    /// # Errors
    /// When the game is not one that can be rated, or the database fails.
    pub fn mark_rated(
        &self,
        game_id: &str,
        players: BySide<i64>,
        category: Category,
    ) -> Result<(), MarkRatedError> {
        self.with(|conn| mark_rated_on(conn, game_id, players, category))
    }

    /// Whether a game is rated, and whom it rates in which category.
    ///
    /// # Errors
    /// When the database fails.
    pub fn rated_game(&self, game_id: &str) -> Result<Option<RatedGame>, StoreError> {
        self.with(|conn| rated_game_on(conn, game_id))
    }

    /// A rated game's players' ratings: from its history rows once it has ended, else their ratings now
    /// (what the game will move); `None` for a casual game.
    ///
    /// # Errors
    /// When the database fails.
    pub fn game_ratings(&self, game_id: &str) -> Result<Option<GameRatings>, StoreError> {
        self.with(|conn| game_ratings_on(conn, game_id))
    }

    /// An account's rating in a category now (a newcomer's when it has played no rated game there; the
    /// deviation grown for the days since its last one).
    ///
    /// # Errors
    /// When the database fails.
    pub fn rating_of(&self, user_id: i64, category: Category) -> Result<Rating, StoreError> {
        self.with(|conn| rating_on(conn, user_id, category, now_ms()))
    }

    /// An account's ratings in every category it has played rated games in, in [`Category::ALL`]'s order,
    /// each as of now.
    ///
    /// # Errors
    /// When the database fails.
    pub fn ratings_of(&self, user_id: i64) -> Result<Vec<CategoryRating>, StoreError> {
        let now = now_ms();
        let rows = self.with(|conn| {
            conn.query_map(
                "SELECT category, rating, deviation, volatility, games, wins, draws, losses, updated_at
                 FROM ratings WHERE user_id = ?1",
                params![user_id],
                |r| {
                    Ok((
                        r.get::<String>(0)?,
                        (r.get(1)?, r.get(2)?, r.get(3)?),
                        (r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?),
                        r.get::<i64>(8)?,
                    ))
                },
            )
        })?;
        let mut out = Vec::with_capacity(rows.len());
        for (category, (rating, deviation, volatility), (games, wins, draws, losses), at) in rows {
            let stored = stored_rating(rating, deviation, volatility)?;
            let now_rating = SETTINGS.idle(stored, ratings::idle_periods(at, now));
            out.push(CategoryRating {
                category: parse_category(&category)?,
                rating: now_rating.rating(),
                deviation: now_rating.deviation(),
                volatility: now_rating.volatility(),
                shown: ratings::shown(&now_rating),
                provisional: now_rating.is_provisional(),
                games,
                wins,
                draws,
                losses,
            });
        }
        out.sort_by_key(|r| Category::ALL.iter().position(|c| *c == r.category));
        Ok(out)
    }

    /// An account's rating history, oldest first: its latest [`MAX_HISTORY`] rated games at most.
    ///
    /// # Errors
    /// When the database fails.
    pub fn rating_history(&self, user_id: i64) -> Result<Vec<HistoryPoint>, StoreError> {
        let rows = self.with(|conn| {
            conn.query_map(
                "SELECT game_id, category, at, outcome, opponent_id, rating_before, rating_after,
                    deviation_after
                 FROM (SELECT rowid AS n, * FROM rating_history WHERE user_id = ?1 ORDER BY at DESC, n DESC
                       LIMIT ?2) AS latest
                 ORDER BY at, n",
                params![user_id, MAX_HISTORY],
                |r| {
                    Ok((
                        r.get::<String>(0)?,
                        r.get::<String>(1)?,
                        r.get::<i64>(2)?,
                        r.get::<String>(3)?,
                        r.get::<i64>(4)?,
                        (r.get(5)?, r.get(6)?, r.get(7)?),
                    ))
                },
            )
        })?;
        rows.into_iter()
            .map(
                |(game_id, category, at, outcome, opponent_id, (before, after, deviation))| {
                    Ok(HistoryPoint {
                        game_id,
                        category: parse_category(&category)?,
                        at,
                        outcome: parse_outcome(&outcome)?,
                        opponent_id,
                        rating_before: before,
                        rating_after: after,
                        deviation_after: deviation,
                    })
                },
            )
            .collect()
    }
}

/// A rated game's players' ratings (see [`Store::game_ratings`]).
fn game_ratings_on(conn: &dyn Conn, game_id: &str) -> Result<Option<GameRatings>, StoreError> {
    let Some(game) = rated_game_on(conn, game_id)? else {
        return Ok(None);
    };
    let now = now_ms();
    let seat = |user_id: i64| -> Result<SeatRating, StoreError> {
        let settled = conn.query_opt(
                "SELECT rating_before, deviation_before, rating_after, deviation_after, volatility_after
                 FROM rating_history WHERE game_id = ?1 AND user_id = ?2",
                params![game_id, user_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )?;
        Ok(match settled {
            Some((before, before_dev, after, after_dev, volatility)) => {
                // The volatility before is not kept; it does not change how the rating is shown.
                let shown_before = stored_rating(before, before_dev, volatility)?;
                let shown_after = stored_rating(after, after_dev, volatility)?;
                SeatRating {
                    user_id,
                    before,
                    before_shown: ratings::shown(&shown_before),
                    after: Some(after),
                    after_shown: Some(ratings::shown(&shown_after)),
                }
            }
            None => {
                let now_rating = rating_on(conn, user_id, game.category, now)?;
                SeatRating {
                    user_id,
                    before: now_rating.rating(),
                    before_shown: ratings::shown(&now_rating),
                    after: None,
                    after_shown: None,
                }
            }
        })
    };
    Ok(Some(GameRatings {
        category: game.category,
        blue: seat(game.players.blue)?,
        red: seat(game.players.red)?,
    }))
}
