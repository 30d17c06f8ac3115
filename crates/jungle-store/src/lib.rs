//! Storage: every game and every move is written as it happens, so a restarted server loses nothing.
//!
//! Every method is written once, as SQL over the backend-neutral interface of [`db`]; the backend is SQLite
//! (one file, the default) or PostgreSQL (several servers on one database).

use std::path::Path;

pub mod db;
mod postgres;
pub mod scratch;
mod sqlite;
use db::{Conn, Database, RowLock, params};

mod accounts;
pub use accounts::{Account, AccountKey, Credentials, MAX_SESSIONS_PER_ACCOUNT, name_key};
mod category;
pub use category::Category;
mod correspondence;
pub use correspondence::{Correspondence, DAY_MS};
mod explorer;
pub use explorer::{EXPLORER_PLIES, OpeningGame, OpeningMove, opening_plies, position_key};
pub mod rating_rule;
pub use rating_rule::{Outcome, Rating, Settings};
mod seek;
pub use seek::{Colour, SEEK_GRACE_MS, Seek, TimeControl};
mod sides;
pub use sides::{PerSide, side_from_name, side_name};
mod profile;
mod ratings;
pub use profile::{GameFilter, PlayerGame, PlayerResult, Totals};
pub use ratings::{
    CategoryRating, GameRatings, HistoryPoint, MAX_HISTORY, MarkRatedError, RatedGame, SeatRating,
    mark_rated_on, rated_game_on,
};
mod puzzles;
pub use puzzles::{PuzzleRating, RatedAttempt};
mod puzzle_history;
pub use puzzle_history::PuzzleAttempt;
mod lobby;
pub use lobby::{LiveGame, Pairing, Taken};
mod cluster;
pub use cluster::{EngineJob, TimedMove};
mod hidden;
pub use hidden::HiddenRecord;
mod late_move;
mod lessons;
pub use late_move::MOVE_MAX_AGE;
mod list;
mod one_move;
mod overdue;
mod rematch;
mod tournaments;
pub use list::{GameList, GameSummary};
pub use overdue::{Ending, Sweep, Swept, Unattended, Verdict};
pub use tournaments::{
    Joined, RoundGame, Tournament, TournamentGame, TournamentKind, TournamentPlayer,
    TournamentStatus,
};

/// A storage failure (the database could not be opened or written, a statement failed, or a stored value is
/// not what the schema means).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error(
        "the database is read-only: the server writes every move, so it needs a writable file (check the \
         file's permissions, its folder and the disk)"
    )]
    ReadOnly,
    /// A query whose answer is not what the store expects (a column it does not have, no row from an
    /// aggregate): a bug, not damage.
    #[error("database: unexpected answer: {0}")]
    Value(String),
    /// A stored value that cannot be what the schema means (a hand-edited or damaged database): a cell of
    /// the wrong type, text that is not UTF-8, a number out of range, a name the store does not know. It
    /// concerns the row read, not the database: the callers quarantine that row's game and go on
    /// ([`StoreError::is_unreadable`]).
    #[error("database: unreadable stored value: {0}")]
    Unreadable(String),
    /// PostgreSQL refused a statement (a constraint, a syntax error).
    #[error("database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// The database cannot be reached, or did not answer in time; a later call may succeed.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// The backend answered without running the work it was given (a backend's bug, never expected).
    #[error("database: the backend did not run the statement")]
    NotRun,
    /// A move for a game whose ending is stored (another node decided it first: a flag, an abort).
    #[error("the game is over: no move is stored after its ending")]
    Finished,
    /// A player's move that reached the database more than [`MOVE_MAX_AGE`] after its server received it
    /// (the server was stopped or starved, or the database slow): refused, so it never appears after its
    /// player gave up on it.
    #[error("the move arrived too late ({age_ms} ms after the server received it)")]
    Late { age_ms: i64 },
}

impl StoreError {
    /// Whether the error is a damaged stored value ([`StoreError::Unreadable`]): the row read is wrong, the
    /// database itself works.
    pub fn is_unreadable(&self) -> bool {
        matches!(self, StoreError::Unreadable(_))
    }
}

/// A game's fixed facts, as stored when it was created (plus seat tokens filled in as seats are taken).
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub id: String,
    pub created_at: i64,
    pub mode: String,
    pub rules: String,
    pub start_fen: String,
    pub engine_level: Option<u8>,
    pub engine_side: Option<String>,
    pub blue_token: Option<String>,
    pub red_token: Option<String>,
    pub blue_name: Option<String>,
    pub red_name: Option<String>,
    pub clock_initial_ms: Option<u64>,
    pub clock_increment_ms: Option<u64>,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub termination: Option<String>,
    /// When its ending was stored (Unix ms), with its result; written by [`Store::finish`] only, so a record
    /// to insert leaves it `None`.
    pub finished_at: Option<i64>,
}

/// One stored move with the clocks right after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub ply: u32,
    pub mv: String,
    pub blue_ms: Option<u64>,
    pub red_ms: Option<u64>,
}

#[derive(Debug)]
pub struct Store {
    db: Box<dyn Database>,
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Store {
    /// Opens the database `db` names and applies any migrations it lacks: a `postgres://` (or
    /// `postgresql://`) URL connects to PostgreSQL (`?pool_max=N` bounds its connections, default 8);
    /// anything else is a SQLite file, created if missing.
    ///
    /// # Errors
    /// When the database cannot be opened or reached, or a migration fails.
    pub fn open(db: &Path) -> Result<Store, StoreError> {
        match db.to_str() {
            Some(url) if postgres::is_postgres_url(url) => {
                Store::ready(postgres::Postgres::open(url)?)
            }
            _ => Store::ready(sqlite::Sqlite::open(db)?),
        }
    }

    /// A private in-memory database (for tests).
    ///
    /// # Errors
    /// When a migration fails.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::ready(sqlite::Sqlite::in_memory()?)
    }

    /// The database `db` names, as it may be shown or logged (a PostgreSQL URL without its password).
    pub fn describe(db: &Path) -> String {
        match db.to_str() {
            Some(url) if postgres::is_postgres_url(url) => postgres::without_password(url),
            _ => db.display().to_string(),
        }
    }

    /// The store on a migrated database, with the games that ended before the opening explorer's index
    /// existed counted in it (a second opening finds none).
    fn ready(db: impl Database + 'static) -> Result<Store, StoreError> {
        let store = Store { db: Box::new(db) };
        let taken = store.backfill_openings()?;
        if taken > 0 {
            tracing::info!(
                games = taken,
                "finished games counted in the opening explorer"
            );
        }
        Ok(store)
    }

    /// Runs `work` on one connection, each statement committed on its own.
    fn with<R, E: From<StoreError>>(
        &self,
        work: impl FnOnce(&dyn Conn) -> Result<R, E>,
    ) -> Result<R, E> {
        let mut work = Some(work);
        let mut answer = None;
        self.db.with_conn(&mut |conn| {
            if let Some(work) = work.take() {
                answer = Some(work(conn));
            }
            Ok(())
        })?;
        answer.unwrap_or_else(|| Err(StoreError::NotRun.into()))
    }

    /// Runs `work` in one transaction: committed when it succeeds, rolled back when it fails.
    fn transaction<R, E: From<StoreError>>(
        &self,
        work: impl FnOnce(&dyn Conn) -> Result<R, E>,
    ) -> Result<R, E> {
        let mut work = Some(work);
        let mut answer = None;
        self.db.transaction(&mut |conn| {
            let Some(work) = work.take() else {
                return Ok(false);
            };
            let result = work(conn);
            let commit = result.is_ok();
            answer = Some(result);
            Ok(commit)
        })?;
        answer.unwrap_or_else(|| Err(StoreError::NotRun.into()))
    }

    pub fn insert_game(&self, g: &GameRecord) -> Result<(), StoreError> {
        self.with(|conn| insert_game_on(conn, g))
    }

    /// Records who took a free seat.
    pub fn set_token(&self, id: &str, side_name: &str, token: &str) -> Result<(), StoreError> {
        let sql = if side_name == "blue" {
            "UPDATE games SET blue_token = ?2 WHERE id = ?1"
        } else {
            "UPDATE games SET red_token = ?2 WHERE id = ?1"
        };
        self.with(|conn| conn.execute(sql, params![id, token]))?;
        Ok(())
    }

    /// Stores a move of an unfinished game: [`StoreError::Finished`] when the game's ending is stored,
    /// a conflict ([`StoreError::is_conflict`]) when its ply is.
    pub fn insert_move(&self, id: &str, m: &MoveRecord) -> Result<(), StoreError> {
        self.store_move(id, m, None, None)
    }

    /// Stores a player's move as [`Store::insert_move`] does, unless it reaches the database more than
    /// [`MOVE_MAX_AGE`] after `received_at_ms`, when its server received it: then [`StoreError::Late`] and
    /// nothing is stored.
    pub fn insert_players_move(
        &self,
        id: &str,
        m: &MoveRecord,
        received_at_ms: i64,
    ) -> Result<(), StoreError> {
        self.store_move(id, m, None, Some(received_at_ms))
    }

    /// Inserts many moves in one transaction (PGN import).
    pub fn insert_moves(&self, id: &str, moves: &[MoveRecord]) -> Result<(), StoreError> {
        self.transaction(|tx| insert_moves_on(tx, id, moves))
    }

    /// Removes the moves from `ply` on (a takeback) and clears any recorded ending.
    pub fn truncate_moves(&self, id: &str, ply: u32) -> Result<(), StoreError> {
        self.transaction(|tx| truncate_moves_on(tx, id, ply))
    }

    /// A takeback between people, decided by the store as a move is: removes the moves from `keep` on as
    /// [`Store::truncate_moves`] does, if the game still has exactly `plies` moves and no ending (its row is
    /// locked while this is checked, as a move's insert locks it); `false`, and nothing changed, when a move
    /// or an ending was stored meanwhile (by another server, say).
    pub fn take_back(&self, id: &str, plies: u32, keep: u32) -> Result<bool, StoreError> {
        self.transaction(|tx| {
            let current = tx.execute(
                "UPDATE games SET plies = plies WHERE id = ?1 AND plies = ?2 AND result IS NULL",
                params![id, plies],
            )?;
            if current == 0 {
                return Ok(false);
            }
            truncate_moves_on(tx, id, keep)?;
            Ok(true)
        })
    }

    /// Stores a game's ending — the one place results are written — as decided after its first `plies`
    /// moves, unless it already has one or a move after them is stored; for a rated game it moves both
    /// players' ratings in the same transaction. A game's ending is decided once: of several calls (from
    /// several servers, say) exactly one answers `true`, and the others change nothing; and a flag or an
    /// abort never stands beside a move made at the same moment (the game's row is locked while
    /// both are checked, as a move's insert locks it: [`Store::insert_move`]). (A takeback,
    /// [`Store::truncate_moves`], clears the ending.)
    pub fn finish(
        &self,
        id: &str,
        plies: u32,
        result: &str,
        winner: Option<&str>,
        termination: &str,
    ) -> Result<bool, StoreError> {
        self.transaction(|tx| finish_on(tx, id, plies, result, winner, termination))
    }

    pub fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.with(|conn| game_on(conn, id))
    }

    pub fn moves(&self, id: &str) -> Result<Vec<MoveRecord>, StoreError> {
        self.with(|conn| moves_on(conn, id))
    }

    /// Marks a game whose record no longer replays: it leaves the live list and is not reopened.
    pub fn mark_damaged(&self, id: &str, reason: &str) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.execute(
                "UPDATE games SET damaged = ?2 WHERE id = ?1",
                params![id, reason],
            )
        })?;
        Ok(())
    }

    /// Why a game is damaged, if it is.
    pub fn damaged(&self, id: &str) -> Result<Option<String>, StoreError> {
        let reason = self.with(|conn| {
            conn.query_opt(
                "SELECT damaged FROM games WHERE id = ?1",
                params![id],
                |r| r.get::<Option<String>>(0),
            )
        })?;
        Ok(reason.flatten())
    }

    /// The ids of the games still in progress (to reopen their rooms after a restart). An id that does not
    /// read (a damaged row, which no id can then name) is logged and left out.
    pub fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        self.with(|conn| {
            conn.query_readable(
                "SELECT id FROM games WHERE finished_at IS NULL AND damaged IS NULL AND mode != 'import'
                 ORDER BY created_at",
                params![],
                |r| r.get(0),
            )
        })
    }
}

/// A query of [`GameRecord`]s: the columns [`read_game`] reads, then `$rest` (the filter). A macro so each
/// query stays one static string.
macro_rules! game_query {
    ($rest:literal) => {
        concat!(
            "SELECT id, created_at, mode, rules, start_fen, engine_level, engine_side, blue_token, red_token,
                blue_name, red_name, clock_initial_ms, clock_increment_ms, result, winner, termination,
                finished_at, blue_user_id, red_user_id, rating_category, days_per_move, deadline_at, rematch_of
             FROM games ",
            $rest
        )
    };
}
use game_query;

/// A row of a [`game_query`]: [`StoreError::Unreadable`] when any of the game's columns holds what the schema
/// cannot mean, including those other methods read (the seats' accounts, the rating category, a
/// correspondence game's time, the game it is a rematch of), so a damaged game is found wherever it is read.
fn read_game(r: &db::Row) -> Result<GameRecord, StoreError> {
    let _: (Option<i64>, Option<i64>, Option<String>) = (r.get(17)?, r.get(18)?, r.get(19)?);
    let _: (Option<u32>, Option<i64>, Option<String>) = (r.get(20)?, r.get(21)?, r.get(22)?);
    Ok(GameRecord {
        id: r.get(0)?,
        created_at: r.get(1)?,
        mode: r.get(2)?,
        rules: r.get(3)?,
        start_fen: r.get(4)?,
        engine_level: r.get(5)?,
        engine_side: r.get(6)?,
        blue_token: r.get(7)?,
        red_token: r.get(8)?,
        blue_name: r.get(9)?,
        red_name: r.get(10)?,
        clock_initial_ms: r.get(11)?,
        clock_increment_ms: r.get(12)?,
        result: r.get(13)?,
        winner: r.get(14)?,
        termination: r.get(15)?,
        finished_at: r.get(16)?,
    })
}

/// A game's record read through `conn` (a connection, or a transaction that holds its row).
fn game_on(conn: &dyn Conn, id: &str) -> Result<Option<GameRecord>, StoreError> {
    conn.query_opt(game_query!("WHERE id = ?1"), params![id], read_game)
}

/// A game's moves in order, read through `conn`: [`StoreError::Unreadable`] when any of their columns holds
/// what the schema cannot mean (the moment each was played too, which the catching up of a cluster reads).
fn moves_on(conn: &dyn Conn, id: &str) -> Result<Vec<MoveRecord>, StoreError> {
    conn.query_map(
        "SELECT ply, mv, blue_ms, red_ms, played_at FROM moves WHERE game_id = ?1 ORDER BY ply",
        params![id],
        |r| {
            let _: i64 = r.get(4)?;
            Ok(MoveRecord {
                ply: r.get(0)?,
                mv: r.get(1)?,
                blue_ms: r.get(2)?,
                red_ms: r.get(3)?,
            })
        },
    )
}

/// Inserts a game row through `conn` (a connection, or a transaction that writes more with it).
fn insert_game_on(conn: &dyn Conn, g: &GameRecord) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO games (id, created_at, mode, rules, start_fen, engine_level, engine_side, blue_token,
            red_token, blue_name, red_name, clock_initial_ms, clock_increment_ms, result, winner, termination)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        params![
            g.id,
            g.created_at,
            g.mode,
            g.rules,
            g.start_fen,
            g.engine_level,
            g.engine_side,
            g.blue_token,
            g.red_token,
            g.blue_name,
            g.red_name,
            g.clock_initial_ms,
            g.clock_increment_ms,
            g.result,
            g.winner,
            g.termination
        ],
    )?;
    Ok(())
}

/// The two tables a kind of game is stored in: its row (with its ending) and its moves (one a ply, the key
/// (game, ply)). Open and hidden games end, and refuse moves after their ending, by the same code over their
/// own tables ([`end_on`], [`refuse_if_ended`]).
#[derive(Clone, Copy, Debug)]
struct Tables {
    games: &'static str,
    moves: &'static str,
}

/// Open games: `games` and `moves`.
const OPEN: Tables = Tables {
    games: "games",
    moves: "moves",
};

/// Hidden Jungle games: `hidden_games` and `hidden_moves`.
const HIDDEN: Tables = Tables {
    games: "hidden_games",
    moves: "hidden_moves",
};

/// Locks a game's row until the end of the transaction `tx` (every write that must see the game as it is —
/// a move, an ending — takes this lock first, so two of them never both act on what they read); whether the
/// game has an ending, `None` when there is no such game.
fn lock_game(tx: &dyn Conn, tables: Tables, id: &str) -> Result<Option<bool>, StoreError> {
    let sql = format!(
        "SELECT result FROM {} WHERE id = ?1{}",
        tables.games,
        tx.row_lock(RowLock::Wait)
    );
    tx.query_opt(&sql, params![id], |r| {
        Ok(r.get::<Option<String>>(0)?.is_some())
    })
}

/// Locks a game's row for a move (inside the transaction `tx` that then inserts it): [`StoreError::Finished`]
/// when the game's ending is stored.
fn refuse_if_ended(tx: &dyn Conn, tables: Tables, id: &str) -> Result<(), StoreError> {
    if lock_game(tx, tables, id)?.is_some_and(|ended| ended) {
        return Err(StoreError::Finished);
    }
    Ok(())
}

/// Stores a game's ending inside the transaction `tx`, as decided after its first `plies` moves, unless it
/// already has one or a move at `plies` or later is stored (both read under the game's row lock); whether
/// this call decided it, and when (Unix ms).
fn end_on(
    tx: &dyn Conn,
    tables: Tables,
    id: &str,
    plies: u32,
    ending: (&str, Option<&str>, &str),
) -> Result<Option<i64>, StoreError> {
    if lock_game(tx, tables, id)?.is_some_and(|ended| ended) || stored_from(tx, tables, id, plies)?
    {
        return Ok(None);
    }
    let (result, winner, termination) = ending;
    let now = now_ms();
    let sql = format!(
        "UPDATE {} SET result = ?2, winner = ?3, termination = ?4, finished_at = ?5
         WHERE id = ?1 AND result IS NULL",
        tables.games
    );
    let decided = tx.execute(&sql, params![id, result, winner, termination, now])? == 1;
    Ok(decided.then_some(now))
}

/// [`Store::truncate_moves`] inside the transaction `tx`.
fn truncate_moves_on(tx: &dyn Conn, id: &str, ply: u32) -> Result<(), StoreError> {
    let removed = tx.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
        params![id, ply],
    )?;
    // The new last move is found through the key (game, ply): one lookup, not a count.
    tx.execute(
        "UPDATE games SET result = NULL, winner = NULL, termination = NULL, finished_at = NULL,
            plies = plies - ?2,
            last_move_at = (SELECT m.played_at FROM moves m WHERE m.game_id = ?1 ORDER BY m.ply DESC LIMIT 1),
            last_blue_ms = (SELECT m.blue_ms FROM moves m WHERE m.game_id = ?1 ORDER BY m.ply DESC LIMIT 1),
            last_red_ms = (SELECT m.red_ms FROM moves m WHERE m.game_id = ?1 ORDER BY m.ply DESC LIMIT 1)
         WHERE id = ?1",
        params![id, removed],
    )?;
    Ok(())
}

/// [`Store::finish`] inside the transaction `tx`.
fn finish_on(
    tx: &dyn Conn,
    id: &str,
    plies: u32,
    result: &str,
    winner: Option<&str>,
    termination: &str,
) -> Result<bool, StoreError> {
    let Some(now) = end_on(tx, OPEN, id, plies, (result, winner, termination))? else {
        return Ok(false);
    };
    ratings::settle_on(tx, id, result, winner, now)?;
    // Counted with its ending or not at all.
    explorer::index_on(tx, id)?;
    Ok(true)
}

/// Whether a move at `ply` or later is stored.
fn stored_from(conn: &dyn Conn, tables: Tables, id: &str, ply: u32) -> Result<bool, StoreError> {
    let sql = format!(
        "SELECT 1 FROM {} WHERE game_id = ?1 AND ply >= ?2 LIMIT 1",
        tables.moves
    );
    Ok(conn
        .query_opt(&sql, params![id, ply], |_| Ok(()))?
        .is_some())
}

/// Inserts moves inside the transaction `tx` (an import), only while the game has no ending (its row locked:
/// [`refuse_if_ended`]); the key (game, ply) refuses a second move at the same ply. The game's row counts
/// them and, when the last is the latest ply, keeps its time and clocks (what the game lists show): one
/// update of the row for all of them (an import of 12,800 plies writes it once). One move of a game in
/// play is stored by [`Store::store_move`] instead, in one statement.
fn insert_moves_on(tx: &dyn Conn, id: &str, moves: &[MoveRecord]) -> Result<(), StoreError> {
    let Some(last) = moves.iter().max_by_key(|m| m.ply) else {
        return Ok(());
    };
    refuse_if_ended(tx, OPEN, id)?;
    let played_at = now_ms();
    for m in moves {
        tx.execute(
            "INSERT INTO moves (game_id, ply, mv, blue_ms, red_ms, played_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, m.ply, m.mv, m.blue_ms, m.red_ms, played_at],
        )?;
    }
    // The right-hand sides read the row as it was: `plies` is the count before these moves. The casts give
    // PostgreSQL the placeholders' type.
    tx.execute(
        "UPDATE games SET plies = plies + ?6,
            last_move_at = CASE WHEN ?2 >= plies THEN CAST(?3 AS BIGINT) ELSE last_move_at END,
            last_blue_ms = CASE WHEN ?2 >= plies THEN CAST(?4 AS BIGINT) ELSE last_blue_ms END,
            last_red_ms = CASE WHEN ?2 >= plies THEN CAST(?5 AS BIGINT) ELSE last_red_ms END
         WHERE id = ?1",
        params![
            id,
            last.ply,
            played_at,
            last.blue_ms,
            last.red_ms,
            moves.len() as u64
        ],
    )?;
    Ok(())
}

#[cfg(any(test, feature = "testing"))]
pub mod testing;

#[cfg(test)]
pub(crate) mod tests {
    use super::testing::on_both_backends;
    use super::*;

    pub(crate) use crate::testing::record;

    /// Rounds of a race test: enough that two writers meet inside each other's transaction many times.
    const RACES: usize = 200;

    /// Races, [`RACES`] times on a new game each time, a move at ply 1 against an ending decided after ply 0,
    /// and checks that exactly one of them is stored: `setup(id)` makes the game with its first move,
    /// `mv(id)` stores ply 1, `end(id)` the ending, `stored(id)` says how many moves are stored and whether
    /// an ending is (open and hidden games alike).
    pub(crate) fn race_a_move_and_an_ending(
        setup: impl Fn(&str),
        mv: impl Fn(&str) -> Result<(), StoreError> + Sync,
        end: impl Fn(&str) -> Result<bool, StoreError> + Sync,
        stored: impl Fn(&str) -> (usize, bool),
    ) {
        for round in 0..RACES {
            let id = format!("g{round}");
            setup(&id);
            let (moved, ended) = std::thread::scope(|s| {
                let mover = s.spawn(|| mv(&id));
                let ender = s.spawn(|| end(&id));
                (mover.join().unwrap(), ender.join().unwrap().unwrap())
            });
            match moved {
                Ok(()) => assert!(
                    !ended,
                    "round {round}: a move and an ending at ply 1 both stored"
                ),
                Err(e) => assert!(
                    e.is_conflict() && ended,
                    "round {round}: {e}, ended {ended}"
                ),
            }
            let (moves, has_ending) = stored(&id);
            assert_eq!(moves == 2, !has_ending, "round {round}");
        }
    }

    pub(crate) fn a_move(ply: u32, mv: &str) -> MoveRecord {
        MoveRecord {
            ply,
            mv: mv.into(),
            blue_ms: Some(60_000 - u64::from(ply)),
            red_ms: None,
        }
    }

    on_both_backends! {
        fn moves_are_stored_in_order_and_truncated_by_takebacks(store) {
            store.insert_game(&record("g1")).unwrap();
            for (ply, mv) in ["a3a4", "g7g6", "a4a5"].iter().enumerate() {
                store.insert_move("g1", &a_move(ply as u32, mv)).unwrap();
            }
            assert_eq!(store.moves("g1").unwrap()[1], a_move(1, "g7g6"));
            assert_eq!(store.moves("g1").unwrap().len(), 3);
            assert_eq!(store.list(GameList::Live, 10).unwrap()[0].plies, 3);
            assert_eq!(store.list(GameList::Live, 10).unwrap()[0].blue_ms, Some(59_998));
            assert!(store.list(GameList::Live, 10).unwrap()[0].open_seat);
            store.set_token("g1", "red", "t2").unwrap();
            assert!(!store.list(GameList::Live, 10).unwrap()[0].open_seat);
            store.truncate_moves("g1", 1).unwrap();
            let moves = store.moves("g1").unwrap();
            assert_eq!(moves.len(), 1);
            assert_eq!(moves[0].mv, "a3a4");
        }

        fn a_duplicate_ply_is_refused_by_the_database(store) {
            store.insert_game(&record("g1")).unwrap();
            store.insert_move("g1", &a_move(0, "a3a4")).unwrap();
            assert!(store.insert_move("g1", &a_move(0, "g7g6")).is_err());
            // Inside a transaction too (an import, a correspondence move): nothing of it is kept.
            assert!(store.insert_moves("g1", &[a_move(1, "g7g6"), a_move(0, "a3a4")]).is_err());
            assert!(store.insert_move_with_deadline("g1", &a_move(0, "a3a4"), 5, None).is_err());
            assert_eq!(store.moves("g1").unwrap(), [a_move(0, "a3a4")]);
            assert_eq!(store.correspondence("g1").unwrap(), None);
        }

        fn finished_games_leave_the_live_list(store) {
            store.insert_game(&record("g1")).unwrap();
            assert!(store.finish("g1", 0, "1-0", Some("blue"), "resignation").unwrap());
            assert!(store.list(GameList::Live, 10).unwrap().is_empty());
            assert_eq!(store.list(GameList::Finished, 10).unwrap()[0].id, "g1");
            assert!(store.unfinished_ids().unwrap().is_empty());
            assert_eq!(store.game("g1").unwrap().unwrap().result.as_deref(), Some("1-0"));
        }

        fn a_game_ends_once_and_a_takeback_reopens_it(store) {
            store.insert_game(&record("g1")).unwrap();
            store.insert_move("g1", &a_move(0, "a3a4")).unwrap();
            assert!(store.finish("g1", 1, "1-0", Some("blue"), "resignation").unwrap());
            assert!(!store.finish("g1", 1, "0-1", Some("red"), "timeout").unwrap(), "decided already");
            let game = store.game("g1").unwrap().unwrap();
            assert_eq!((game.result.as_deref(), game.termination.as_deref()), (Some("1-0"), Some("resignation")));
            store.truncate_moves("g1", 0).unwrap();
            assert!(store.finish("g1", 0, "0-1", Some("red"), "timeout").unwrap());
        }

        fn a_takeback_is_refused_after_a_move_or_an_ending_it_did_not_know_of(store) {
            store.insert_game(&record("g1")).unwrap();
            store.insert_move("g1", &a_move(0, "a3a4")).unwrap();
            store.insert_move("g1", &a_move(1, "g7g6")).unwrap();
            // Node A accepts a takeback of Red's move as node B stores Blue's next move: the move was first.
            store.insert_move("g1", &a_move(2, "a4a5")).unwrap();
            assert!(!store.take_back("g1", 2, 1).unwrap());
            assert_eq!(store.moves("g1").unwrap().len(), 3);
            assert!(store.take_back("g1", 3, 1).unwrap());
            assert_eq!(store.moves("g1").unwrap().len(), 1);
            assert!(store.finish("g1", 1, "1-0", Some("blue"), "resignation").unwrap());
            assert!(!store.take_back("g1", 1, 0).unwrap(), "a result is final");
            assert_eq!(store.moves("g1").unwrap().len(), 1);
        }

        fn of_concurrent_endings_exactly_one_is_decided(store) {
            for round in 0..10 {
                let id = format!("g{round}");
                store.insert_game(&record(&id)).unwrap();
                let won: Vec<bool> = std::thread::scope(|s| {
                    let racers: Vec<_> = ["1-0", "0-1", "1/2-1/2", "*"]
                        .into_iter()
                        .map(|result| s.spawn(|| store.finish(&id, 0, result, None, "race").unwrap()))
                        .collect();
                    racers.into_iter().map(|r| r.join().unwrap()).collect()
                });
                assert_eq!(won.iter().filter(|w| **w).count(), 1, "round {round}: {won:?}");
            }
        }

        fn a_flag_is_refused_after_a_move_at_its_ply_and_a_move_after_an_ending(store) {
            store.insert_game(&record("g1")).unwrap();
            store.insert_move("g1", &a_move(0, "a3a4")).unwrap();
            // Node A stores Red's move (ply 1) as node B, which had not heard of it, flags Red after ply 0.
            store.insert_move("g1", &a_move(1, "g7g6")).unwrap();
            assert!(!store.finish("g1", 1, "1-0", Some("blue"), "time forfeit").unwrap());
            assert_eq!(store.game("g1").unwrap().unwrap().result, None);
            // The other order: B's flag of Blue after ply 1 first, then A's move for ply 2.
            assert!(store.finish("g1", 2, "0-1", Some("red"), "time forfeit").unwrap());
            let refused = store.insert_move("g1", &a_move(2, "a4a5")).unwrap_err();
            assert!(matches!(refused, StoreError::Finished) && refused.is_conflict(), "{refused}");
            // A correspondence move too.
            assert!(store.insert_move_with_deadline("g1", &a_move(2, "a4a5"), 5, None).unwrap_err().is_conflict());
            assert_eq!(store.moves("g1").unwrap().len(), 2);
        }

        fn of_a_move_and_a_flag_at_the_same_moment_exactly_one_is_stored(store) {
            race_a_move_and_an_ending(
                |id| {
                    store.insert_game(&record(id)).unwrap();
                    store.insert_move(id, &a_move(0, "a3a4")).unwrap();
                },
                |id| store.insert_move(id, &a_move(1, "g7g6")),
                |id| store.finish(id, 1, "1-0", Some("blue"), "time forfeit"),
                |id| (store.moves(id).unwrap().len(), store.game(id).unwrap().unwrap().result.is_some()),
            );
        }

        fn damaged_games_leave_the_live_list_and_are_not_reopened(store) {
            store.insert_game(&record("g1")).unwrap();
            store.insert_game(&record("g2")).unwrap();
            store.mark_damaged("g1", "move 3: illegal").unwrap();
            assert_eq!(store.unfinished_ids().unwrap(), ["g2"]);
            assert_eq!(store.list(GameList::Live, 10).unwrap().len(), 1);
            assert_eq!(store.damaged("g1").unwrap().as_deref(), Some("move 3: illegal"));
            assert_eq!(store.damaged("g2").unwrap(), None);
        }
    }

    #[test]
    fn reopening_a_file_keeps_everything_and_migrates_once() {
        let dir = std::env::temp_dir().join(format!("jungle-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let _ = std::fs::remove_file(&path);
        {
            let store = Store::open(&path).unwrap();
            store.insert_game(&record("g1")).unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert!(store.game("g1").unwrap().is_some());
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
