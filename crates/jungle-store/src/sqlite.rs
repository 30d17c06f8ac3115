//! The SQLite backend (the default: one file, nothing else to run).
//!
//! One connection behind a mutex: each write is a single small statement (WAL journal), far quicker than the
//! network round trip that caused it, so a pool would buy nothing. Statements are prepared once per
//! connection and cached by their text.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ToSql};

use super::StoreError;
use super::db::{Conn, Database, Param, Row, RowLock, Value};

/// The migrations, in order; `PRAGMA user_version` records how many have been applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_games_and_moves.sql"),
    include_str!("../migrations/0002_damaged_games.sql"),
    include_str!("../migrations/0003_accounts.sql"),
    include_str!("../migrations/0004_game_accounts.sql"),
    include_str!("../migrations/0005_ratings.sql"),
    include_str!("../migrations/0006_puzzles.sql"),
    include_str!("../migrations/0007_lobby.sql"),
    include_str!("../migrations/0008_engine_jobs.sql"),
    include_str!("../migrations/0009_hidden_games.sql"),
    include_str!("../migrations/0010_rematches.sql"),
    include_str!("../migrations/0011_unfinished_games.sql"),
    include_str!("../migrations/0012_game_list.sql"),
    include_str!("../migrations/0013_hidden_game_names.sql"),
    include_str!("../migrations/0014_lessons.sql"),
    include_str!("../migrations/0015_puzzle_history.sql"),
    include_str!("../migrations/0016_opening_explorer.sql"),
    include_str!("../migrations/0017_tournaments.sql"),
];

/// Enough cached statements for every statement of the store (about sixty) with room to spare.
const STATEMENT_CACHE: usize = 128;

#[derive(Debug)]
pub struct Sqlite {
    conn: Mutex<Connection>,
}

impl Sqlite {
    /// Opens (creating if needed) the database file and applies any migrations it lacks.
    ///
    /// # Errors
    /// When the file cannot be opened or written, or a migration fails.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        Sqlite::from_connection(Connection::open(path)?)
    }

    /// A private in-memory database.
    ///
    /// # Errors
    /// When a migration fails.
    pub fn in_memory() -> Result<Sqlite, StoreError> {
        Sqlite::from_connection(Connection::open_in_memory()?)
    }

    fn from_connection(mut conn: Connection) -> Result<Sqlite, StoreError> {
        // WAL + NORMAL: a committed move survives a crash of the process (the OS has it); only a power cut
        // can lose the last moves. busy_timeout lets a second process (e.g. an inspection) share the file.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        if conn.is_readonly(rusqlite::MAIN_DB)? {
            return Err(StoreError::ReadOnly);
        }
        let applied: usize = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
            let tx = conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", i + 1)?;
            tx.commit()?;
        }
        Ok(Sqlite {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-written statement (SQLite is transactional).
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Database for Sqlite {
    fn with_conn(
        &self,
        work: &mut dyn FnMut(&dyn Conn) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        work(&On(&self.lock()))
    }

    fn transaction(
        &self,
        work: &mut dyn FnMut(&dyn Conn) -> Result<bool, StoreError>,
    ) -> Result<(), StoreError> {
        let mut conn = self.lock();
        // Immediate: the write lock is taken at the start, so what the transaction reads stays true until it
        // commits, even with another process on the same file (a deferred transaction that read first
        // could only fail when it came to write).
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Dropping the transaction uncommitted rolls it back.
        if work(&On(&tx))? {
            tx.commit()?;
        }
        Ok(())
    }
}

/// Statements on a connection (a transaction derefs to its connection).
struct On<'a>(&'a Connection);

impl Conn for On<'_> {
    fn execute(&self, sql: &str, params: &[&dyn Param]) -> Result<u64, StoreError> {
        let changed = self
            .0
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(params.iter().map(|p| p.value())))?;
        Ok(changed as u64)
    }

    fn query(&self, sql: &str, params: &[&dyn Param]) -> Result<Vec<Row>, StoreError> {
        let mut stmt = self.0.prepare_cached(sql)?;
        let columns: Arc<[String]> = stmt.column_names().into_iter().map(String::from).collect();
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter().map(|p| p.value())))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let values = (0..columns.len())
                .map(|i| Ok(value_of(row.get_ref(i)?)))
                .collect::<Result<_, StoreError>>()?;
            out.push(Row::new(values, columns.clone()));
        }
        Ok(out)
    }

    fn row_lock(&self, _: RowLock) -> &'static str {
        ""
    }

    fn clock_ms(&self) -> &'static str {
        // In this process: the same clock as the server's.
        "CAST(unixepoch('subsec') * 1000 AS INTEGER)"
    }
}

/// A stored cell as a [`Value`]. SQLite lets any cell hold any type, so a hand-edited file may hold a blob or
/// text that is not UTF-8 where the schema means something else: that cell reads as
/// [`Value::Unreadable`], and only a reader of it fails (the rest of the answer reads as usual).
fn value_of(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(text) => Value::Text(text.to_string()),
            Err(e) => Value::Unreadable(format!("text that is not UTF-8 ({e})")),
        },
        ValueRef::Blob(b) => Value::Unreadable(format!("a blob of {} bytes", b.len())),
    }
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Value::Real(r) => ToSqlOutput::Borrowed(ValueRef::Real(*r)),
            Value::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
            Value::Unreadable(what) => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    format!("{what} is no parameter").into(),
                ));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_the_process_may_not_write_is_refused_with_a_clear_message() {
        let dir = std::env::temp_dir().join(format!("jungle-sqlite-ro-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let _ = std::fs::remove_file(&path);
        drop(Sqlite::open(&path).unwrap());
        // Root ignores file permissions, so the connection itself is opened read-only here.
        let read_only =
            Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let refused = Sqlite::from_connection(read_only).unwrap_err();
        assert!(matches!(refused, StoreError::ReadOnly), "{refused}");
        assert!(refused.to_string().contains("read-only"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_of_the_current_release_opens_and_keeps_its_games() {
        use crate::{GameList, Store};
        let dir =
            std::env::temp_dir().join(format!("jungle-sqlite-release-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let _ = std::fs::remove_file(&path);
        {
            // What the release before the backend interface wrote: its migrations, by its own means
            // (`user_version` counting them), and a game with moves in its tables. Its migrations end
            // with 0011: opening the file applies 0012, which fills in the game's move count and last move
            // from its moves.
            let conn = Connection::open(&path).unwrap();
            for (i, sql) in MIGRATIONS.iter().enumerate().take(11) {
                conn.execute_batch(sql).unwrap();
                conn.pragma_update(None, "user_version", i + 1).unwrap();
            }
            conn.execute_batch(
                "INSERT INTO games (id, created_at, mode, rules, start_fen, blue_token, clock_initial_ms,
                    clock_increment_ms)
                 VALUES ('old', 1, 'friend', 'standard', 'start', 'tok', 60000, 1000);
                 INSERT INTO moves VALUES ('old', 0, 'a3a4', 59000, 60000, 2), ('old', 1, 'g7g6', 59000, 58000, 3);",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let game = store.game("old").unwrap().unwrap();
        assert_eq!(
            (game.clock_initial_ms, game.blue_token.as_deref()),
            (Some(60_000), Some("tok"))
        );
        let moves = store.moves("old").unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(
            (moves[1].mv.as_str(), moves[1].red_ms),
            ("g7g6", Some(58_000))
        );
        let listed = &store.list(GameList::Live, 5).unwrap()[0];
        assert_eq!(
            (listed.plies, listed.blue_ms, listed.red_ms),
            (2, Some(59_000), Some(58_000))
        );
        assert_eq!(store.last_move_at("old").unwrap(), Some(3));
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
