//! Storing one move of a game in play: the write every move of every game makes, so it is as cheap as the
//! database allows — on PostgreSQL one statement (one round trip, committed on its own), on SQLite one short
//! transaction of two statements in this process.
//!
//! The statement updates the game's row only while the game has no ending (and, for a player's move, while
//! the move is young enough: [`MOVE_MAX_AGE`]), and inserts the move only when that update did. The update
//! locks the row as `SELECT … FOR UPDATE` did before, so a move and an ending still never both act on what
//! they read; the key (game, ply) still refuses a second move at a ply, undoing the row's update with it. Only
//! when nothing was stored does a second query ask why (the game has ended, or the move was too late).

use std::sync::OnceLock;

use crate::db::{Conn, Param, Value, params};
use crate::late_move::{self, MOVE_MAX_AGE};
use crate::{MoveRecord, Store, StoreError, Tables, now_ms};

/// The update of the game's row for a move (what the game lists show: its count, the last move's time and
/// clocks; a correspondence game's new deadline), made only while the game may take it. Its parameters: ?1
/// the game, ?2 the ply, ?4 and ?5 the clocks, ?6 the time, ?7 the deadline or NULL, ?8 when the player's
/// move reached its server or NULL, ?9 the oldest a move may be (ms); ?3 (the move) is the insert's. The
/// casts give PostgreSQL the placeholders' type. `{young}` is [`late_move::young_enough`].
const UPDATE_GAME: &str = "UPDATE games SET plies = plies + 1,
        last_move_at = CASE WHEN ?2 >= plies THEN CAST(?6 AS BIGINT) ELSE last_move_at END,
        last_blue_ms = CASE WHEN ?2 >= plies THEN CAST(?4 AS BIGINT) ELSE last_blue_ms END,
        last_red_ms = CASE WHEN ?2 >= plies THEN CAST(?5 AS BIGINT) ELSE last_red_ms END,
        deadline_at = COALESCE(CAST(?7 AS BIGINT), deadline_at)
    WHERE id = ?1 AND result IS NULL
        AND {young}";

/// The statements a move runs, written out once: PostgreSQL's one statement and SQLite's update (each path is
/// one backend's, so each is made with that backend's clock) — not again for every move.
static ONE_STATEMENT: OnceLock<String> = OnceLock::new();
static UPDATE_ONLY: OnceLock<String> = OnceLock::new();

impl Store {
    /// Stores move `m` of game `id` (with the new `deadline_at` of a correspondence game; a player's move
    /// with the moment its server received it, `received_at_ms`). [`StoreError::Finished`] when the game's
    /// ending is stored, [`StoreError::Late`] when a player's move is older than [`MOVE_MAX_AGE`] when it
    /// would be stored, a conflict ([`StoreError::is_conflict`]) when its ply is stored: nothing is stored
    /// then.
    pub(crate) fn store_move(
        &self,
        id: &str,
        m: &MoveRecord,
        deadline_at: Option<i64>,
        received_at_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let played_at = now_ms();
        let values = move_values(id, m, played_at, deadline_at, received_at_ms);
        let values: &[&dyn Param] = &values.iter().map(|v| v as &dyn Param).collect::<Vec<_>>();
        let update =
            |conn: &dyn Conn| UPDATE_GAME.replace("{young}", &late_move::young_enough(conn, 8, 9));
        let stored = if self.db.updates_in_with_clauses() {
            self.with(|conn| {
                let sql = ONE_STATEMENT.get_or_init(|| {
                    format!(
                        "WITH game AS ({} RETURNING id)
                         INSERT INTO moves (game_id, ply, mv, blue_ms, red_ms, played_at)
                         SELECT id, ?2, ?3, ?4, ?5, ?6 FROM game",
                        update(conn)
                    )
                });
                conn.execute(sql, values)
            })?
        } else {
            self.transaction(|tx| {
                let updated = tx.execute(UPDATE_ONLY.get_or_init(|| update(tx)), values)?;
                if updated == 0 {
                    return Ok(0);
                }
                tx.execute(
                    "INSERT INTO moves (game_id, ply, mv, blue_ms, red_ms, played_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![id, m.ply, m.mv, m.blue_ms, m.red_ms, played_at],
                )
            })?
        };
        if stored == 1 {
            return Ok(());
        }
        Err(self.why_not_stored(crate::OPEN, id, received_at_ms))
    }

    /// [`Store::insert_players_move`], awaited on the caller's runtime where the database allows it
    /// ([`crate::db::Database::execute_awaited`]: PostgreSQL, on a server's runtime): the caller's thread is
    /// neither blocked nor given up while the move is committed. Anywhere else, and for a game's first move
    /// on this server (which writes out the statement), it is stored the blocking way.
    ///
    /// # Errors
    /// As [`Store::insert_players_move`].
    pub async fn insert_players_move_awaited(
        &self,
        id: &str,
        m: &MoveRecord,
        received_at_ms: i64,
    ) -> Result<(), StoreError> {
        let values = move_values(id, m, now_ms(), None, Some(received_at_ms));
        let awaited = ONE_STATEMENT
            .get()
            .and_then(|sql| self.db.execute_awaited(sql, values));
        let Some(answer) = awaited else {
            return self.insert_players_move(id, m, received_at_ms);
        };
        if answer.await? == 1 {
            return Ok(());
        }
        Err(self.why_not_stored(crate::OPEN, id, Some(received_at_ms)))
    }

    /// Why a move of game `id` (open or hidden: `tables`) was not stored: its ending is stored, or the
    /// player's move is too old.
    pub(crate) fn why_not_stored(
        &self,
        tables: Tables,
        id: &str,
        received_at_ms: Option<i64>,
    ) -> StoreError {
        let answer = self.with(|conn| {
            let sql = format!(
                "SELECT CASE WHEN result IS NULL THEN 0 ELSE 1 END, {} - CAST(?2 AS BIGINT)
                 FROM {} WHERE id = ?1",
                conn.clock_ms(),
                tables.games
            );
            conn.query_opt(&sql, params![id, received_at_ms], |r| {
                Ok((r.get::<bool>(0)?, r.get::<Option<i64>>(1)?))
            })
        });
        match answer {
            Err(e) => e,
            Ok(None) => StoreError::Value(format!("no game {id} to store a move of")),
            Ok(Some((true, _))) => StoreError::Finished,
            Ok(Some((false, Some(age_ms)))) if age_ms > MOVE_MAX_AGE.as_millis() as i64 => {
                StoreError::Late { age_ms }
            }
            Ok(Some(_)) => StoreError::Value(format!(
                "a move of game {id} was not stored, and its row does not say why"
            )),
        }
    }
}

/// The parameters of a move's update (?1 to ?9: [`UPDATE_GAME`]), which the one statement's insert shares.
fn move_values(
    id: &str,
    m: &MoveRecord,
    played_at: i64,
    deadline_at: Option<i64>,
    received_at_ms: Option<i64>,
) -> Vec<Value> {
    let max_age_ms = MOVE_MAX_AGE.as_millis() as i64;
    params![
        id,
        m.ply,
        m.mv,
        m.blue_ms,
        m.red_ms,
        played_at,
        deadline_at,
        received_at_ms,
        max_age_ms
    ]
    .iter()
    .map(|p| p.value())
    .collect()
}
