//! The PostgreSQL backend: several servers on one database.
//!
//! Why `tokio-postgres`, each connection driven by the thread that waits for its answer ([`session`]), and
//! not the synchronous `postgres` crate: the store is called from synchronous code (a room holds a std mutex
//! while it stores a move) running on tokio's worker threads, and also from plain threads and current-thread
//! runtimes in tests. The `postgres` crate blocks on a runtime of its own inside each call, which panics on a
//! tokio thread unless the thread was first given up (`block_in_place`, which a current-thread runtime cannot
//! do); a session does the same but chooses how to leave the caller's runtime. A caller never blocks
//! forever: a database that is down fails the connect at once, one that stops answering fails the statement
//! after [`Settings::statement_timeout`], and a pool whose connections are all busy fails the checkout after
//! the same time.
//!
//! A small pool (at most [`Settings::max_connections`]) keeps connections; one that broke (the database
//! restarted, a statement timed out) is dropped and the next checkout opens a fresh one, so the store
//! recovers by itself once the database is back. Each connection prepares a statement once and keeps it.

mod in_place;
mod session;

use std::cell::Cell;
use std::future::Future;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bytes::BytesMut;
use tokio_postgres::Statement;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use session::{Outcome, Session, race};

use super::StoreError;
use super::db::{Awaited, Conn, Database, Param, Row, RowLock, Value, params};

/// The migrations, in order, each recorded in `schema_migrations` once applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_schema.sql"),
    include_str!("../../migrations/postgres/0002_engine_jobs.sql"),
    include_str!("../../migrations/postgres/0003_hidden_games.sql"),
    include_str!("../../migrations/postgres/0004_rematches.sql"),
    include_str!("../../migrations/postgres/0005_unfinished_games.sql"),
    include_str!("../../migrations/postgres/0006_game_list.sql"),
    include_str!("../../migrations/postgres/0007_hidden_game_names.sql"),
    include_str!("../../migrations/postgres/0008_lessons.sql"),
    include_str!("../../migrations/postgres/0009_puzzle_history.sql"),
    include_str!("../../migrations/postgres/0010_opening_explorer.sql"),
    include_str!("../../migrations/postgres/0011_tournaments.sql"),
];

/// The advisory lock migrations run under, so servers starting together migrate once (any constant that
/// no other lock of the database uses: "jungle" in ASCII).
const MIGRATION_LOCK: i64 = 0x6a75_6e67_6c65;

/// How long PostgreSQL lets one of the store's sessions sit in an open transaction with nothing to do before
/// it ends the session, rolling the transaction back. The store sends a transaction's statements back to back
/// (milliseconds); a node that hangs in the middle of one (a stopped process, a frozen machine) would
/// otherwise keep the game's row locked, and every other node's move in that game would wait until it runs
/// again. Set on each session, unless the URL's `options` set it.
const IDLE_IN_TRANSACTION: Duration = Duration::from_secs(5);

/// How a PostgreSQL store connects and how long it waits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// At most this many connections at once (the URL's `pool_max`; default 8).
    pub max_connections: usize,
    /// The longest wait for a connection to open.
    pub connect_timeout: Duration,
    /// The longest wait for a statement's answer, or for a free connection when all are busy.
    pub statement_timeout: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            max_connections: 8,
            connect_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(10),
        }
    }
}

/// Whether a `--db` value names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// A `postgres://` URL as it may be shown or logged: its password, if it has one, left out.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    // The user information ends at the last `@` before the host's path or query.
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => match rest[..at].split_once(':') {
            Some((user, _password)) => format!("{scheme}://{user}:***{}", &rest[at..]),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// The connection settings of a `postgres://` URL, with its `pool_max=N` parameter (the store's own, not
/// PostgreSQL's) taken out into [`Settings`].
///
/// # Errors
/// When the URL does not parse or `pool_max` is not a number from 1 to 1000.
pub fn parse_url(url: &str) -> Result<(tokio_postgres::Config, Settings), StoreError> {
    let mut settings = Settings::default();
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.strip_prefix("pool_max=") {
            Some(n) => {
                settings.max_connections = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=1000).contains(n))
                    .ok_or_else(|| {
                        StoreError::Unavailable(format!(
                            "pool_max={n} in the database URL: give a number of connections from 1 to 1000"
                        ))
                    })?;
            }
            None => kept.push(pair),
        }
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| StoreError::Unavailable(format!("the database URL does not parse: {e}")))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(settings.connect_timeout);
    }
    config.application_name("jungle");
    let idle = format!(
        "-c idle_in_transaction_session_timeout={}",
        IDLE_IN_TRANSACTION.as_millis()
    );
    let options = match config.get_options() {
        Some(own) if own.contains("idle_in_transaction_session_timeout") => own.to_string(),
        Some(own) => format!("{own} {idle}"),
        None => idle,
    };
    config.options(&options);
    Ok((config, settings))
}

pub struct Postgres {
    config: tokio_postgres::Config,
    settings: Settings,
    pool: Mutex<Pool>,
    returned: Condvar,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Pool {
    idle: Vec<Session>,
    /// Connections open or opening, idle or lent.
    open: usize,
    /// Blocking callers waiting for a connection to come back: only then is a return told (`notify_one` is
    /// a system call, and a connection comes back after every statement).
    waiting: usize,
}

impl Postgres {
    /// Connects to the database at `url` (a `postgres://` URL) and applies any migrations it lacks.
    ///
    /// # Errors
    /// When the URL is wrong, the database cannot be reached, or a migration fails.
    pub fn open(url: &str) -> Result<Postgres, StoreError> {
        let (config, settings) = parse_url(url)?;
        Postgres::connect(config, settings)
    }

    /// Connects with `config` and applies any migrations the database lacks.
    ///
    /// # Errors
    /// When the database cannot be reached or a migration fails.
    pub fn connect(
        config: tokio_postgres::Config,
        settings: Settings,
    ) -> Result<Postgres, StoreError> {
        let db = Postgres {
            config,
            settings,
            pool: Mutex::new(Pool::default()),
            returned: Condvar::new(),
        };
        db.migrate()?;
        Ok(db)
    }

    /// Applies the migrations the database lacks, in one transaction under an advisory lock: of several
    /// servers starting at once, the first migrates and the others then find nothing left to do.
    fn migrate(&self) -> Result<(), StoreError> {
        blocking(|| self.migrate_here())
    }

    fn migrate_here(&self) -> Result<(), StoreError> {
        let lease = self.checkout()?;
        let tx = lease.on()?;
        tx.execute_batch("BEGIN")?;
        let migrated = tx.apply_migrations();
        let end = if migrated.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        tx.execute_batch(end)?;
        migrated
    }

    fn lock_pool(&self) -> MutexGuard<'_, Pool> {
        self.pool.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes a caller waiting for a connection, if there is one; `pool` is the pool's lock, held.
    fn tell_waiting(&self, pool: MutexGuard<'_, Pool>) {
        let anyone = pool.waiting > 0;
        drop(pool);
        if anyone {
            self.returned.notify_one();
        }
    }

    /// A connection counted as open is not (it failed to open, or broke): its place goes to whoever waits.
    fn give_up_slot(&self) {
        let mut pool = self.lock_pool();
        pool.open -= 1;
        self.tell_waiting(pool);
    }

    /// A connection of the pool: an idle one, a new one while the pool has room, else the first one given
    /// back within the statement timeout.
    fn checkout(&self) -> Result<Lease<'_>, StoreError> {
        let deadline = Instant::now() + self.settings.statement_timeout;
        let mut pool = self.lock_pool();
        loop {
            if let Some(at) = pool.idle.iter().rposition(|s| !s.is_shared()) {
                let session = pool.idle.swap_remove(at);
                // Looked at outside the pool's lock: the look is a system call.
                drop(pool);
                if session.is_open() {
                    return Ok(Lease::new(self, session));
                }
                drop(session);
                pool = self.lock_pool();
                pool.open -= 1;
                continue;
            }
            // A full pool with a connection only tasks can use idle: it makes room for one this caller can.
            if pool.open >= self.settings.max_connections && !pool.idle.is_empty() {
                pool.idle.pop();
                pool.open -= 1;
            }
            if pool.open < self.settings.max_connections {
                pool.open += 1;
                drop(pool);
                return match Session::open(&self.config) {
                    Ok(session) => Ok(Lease::new(self, session)),
                    Err(e) => {
                        self.give_up_slot();
                        Err(e)
                    }
                };
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(StoreError::Unavailable(format!(
                    "all {} database connections stayed busy for {:?}",
                    self.settings.max_connections, self.settings.statement_timeout
                )));
            }
            pool.waiting += 1;
            pool = self
                .returned
                .wait_timeout(pool, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            pool.waiting -= 1;
        }
    }
}

/// A connection lent out of the pool; it goes back when dropped, unless it broke.
struct Lease<'a> {
    db: &'a Postgres,
    session: Option<Session>,
    broken: Cell<bool>,
}

impl<'a> Lease<'a> {
    fn new(db: &'a Postgres, session: Session) -> Lease<'a> {
        Lease {
            db,
            session: Some(session),
            broken: Cell::new(false),
        }
    }

    fn on(&self) -> Result<On<'_>, StoreError> {
        let session = self
            .session
            .as_ref()
            .ok_or_else(|| StoreError::Unavailable("the connection was given back".into()))?;
        Ok(On {
            session,
            broken: &self.broken,
            timeout: self.db.settings.statement_timeout,
        })
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        let mut pool = self.db.lock_pool();
        match self.session.take() {
            Some(session) if !self.broken.get() => {
                pool.idle.push(session);
            }
            _ => pool.open -= 1,
        }
        self.db.tell_waiting(pool);
    }
}

impl Database for Postgres {
    fn with_conn(
        &self,
        work: &mut dyn FnMut(&dyn Conn) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let lease = self.checkout()?;
            work(&lease.on()?)
        })
    }

    fn transaction(
        &self,
        work: &mut dyn FnMut(&dyn Conn) -> Result<bool, StoreError>,
    ) -> Result<(), StoreError> {
        blocking(|| self.transaction_here(work))
    }

    fn updates_in_with_clauses(&self) -> bool {
        true
    }

    fn execute_awaited<'a>(&'a self, sql: &'a str, params: Vec<Value>) -> Option<Awaited<'a>> {
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        if runtime.runtime_flavor() != tokio::runtime::RuntimeFlavor::MultiThread {
            return None;
        }
        let idle = {
            let mut pool = self.lock_pool();
            match pool.idle.iter().rposition(|s| s.runs_on(&runtime)) {
                Some(at) => Some(pool.idle.swap_remove(at)),
                None if pool.open < self.settings.max_connections => {
                    pool.open += 1;
                    None
                }
                // Every connection is busy, or idle for blocking callers: this statement is one of those.
                None => return None,
            }
        };
        Some(Box::pin(async move {
            // A connection the database closed while it idled (it restarted) gives its place in the pool to
            // a new one: the statement does not fail on it.
            let mut lease = match idle.filter(Session::is_open) {
                Some(session) => Lease::new(self, session),
                None => match Session::open_shared(&self.config).await {
                    Ok(session) => Lease::new(self, session),
                    Err(e) => {
                        self.give_up_slot();
                        return Err(e);
                    }
                },
            };
            lease.execute_awaited(sql, &params).await
        }))
    }
}

/// Runs `f`, which waits for the database, after telling a multi-thread tokio runtime (`block_in_place`), so
/// the worker's other tasks move to another thread while a commit waits for its disk; on any other thread
/// (a current-thread runtime, where `block_in_place` would panic, or no runtime) it just runs.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) if runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

impl Postgres {
    fn transaction_here(
        &self,
        work: &mut dyn FnMut(&dyn Conn) -> Result<bool, StoreError>,
    ) -> Result<(), StoreError> {
        let lease = self.checkout()?;
        let on = lease.on()?;
        on.execute_batch("BEGIN")?;
        match work(&on) {
            Ok(true) => on.execute_batch("COMMIT"),
            Ok(false) => on.execute_batch("ROLLBACK"),
            Err(e) => {
                // A connection that cannot even roll back is dropped (closing it rolls back).
                if on.execute_batch("ROLLBACK").is_err() {
                    lease.broken.set(true);
                }
                Err(e)
            }
        }
    }
}

/// A statement's answer as the store's: a connection that ended, or that a statement timed out on (its
/// state unknown), or whose own error (not the statement's) came back, is marked `broken`: not given back to
/// the pool.
fn answered<T>(
    outcome: Outcome<T>,
    broken: &Cell<bool>,
    timeout: Duration,
) -> Result<T, StoreError> {
    match outcome {
        Outcome::Answered(Ok(value)) => Ok(value),
        Outcome::Answered(Err(e)) => {
            if e.as_db_error().is_none() {
                broken.set(true);
            }
            Err(unavailable_or_sql(e))
        }
        Outcome::Ended(e) => {
            broken.set(true);
            Err(StoreError::Unavailable(e.map_or_else(
                || "the database closed the connection".to_string(),
                |e| e.to_string(),
            )))
        }
        Outcome::TimedOut => {
            broken.set(true);
            Err(StoreError::Unavailable(format!(
                "the database did not answer within {timeout:?}"
            )))
        }
    }
}

impl Lease<'_> {
    /// Runs `sql` with `values`, awaited on the runtime the connection was opened on ([`Session::runs_on`]).
    /// A wait dropped half-way leaves the connection out of its session, which is then not lent again.
    async fn execute_awaited(&mut self, sql: &str, values: &[Value]) -> Result<u64, StoreError> {
        let timeout = self.db.settings.statement_timeout;
        let mut broken = false;
        let result = match self.session.as_mut() {
            Some(session) => execute_on(session, sql, values, timeout, &mut broken).await,
            None => Err(StoreError::Unavailable(
                "the connection was given back".into(),
            )),
        };
        if broken {
            self.broken.set(true);
        }
        result
    }
}

/// [`Lease::execute_awaited`] on its session; `broken` set when the connection is not to be trusted again.
async fn execute_on(
    session: &mut Session,
    sql: &str,
    values: &[Value],
    timeout: Duration,
    broken: &mut bool,
) -> Result<u64, StoreError> {
    let Some(mut connection) = session.take_connection() else {
        *broken = true;
        return Err(StoreError::Unavailable(
            "the database closed the connection".into(),
        ));
    };
    let (client, cached) = (&session.client, session.prepared(sql));
    let newly_prepared = cached.is_none();
    let work = async move {
        let statement = match cached {
            Some(statement) => statement,
            None => client.prepare(&dollar_placeholders(sql)).await?,
        };
        let params: Vec<&(dyn ToSql + Sync)> =
            values.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        let changed = client.execute(&statement, &params).await?;
        Ok((statement, changed))
    };
    let outcome = tokio::time::timeout(timeout, race(&mut connection, work))
        .await
        .unwrap_or(Outcome::TimedOut);
    if let Outcome::Answered(_) = outcome {
        session.put_back(connection);
    }
    let (statement, changed) = answered(outcome, Cell::from_mut(broken), timeout)?;
    if newly_prepared {
        session.remember(sql, statement);
    }
    Ok(changed)
}

/// Statements on a lent connection.
struct On<'a> {
    session: &'a Session,
    broken: &'a Cell<bool>,
    timeout: Duration,
}

impl On<'_> {
    /// Waits for `answer`; a connection that ended, or that a statement timed out on (its state unknown), is
    /// not given back to the pool.
    fn wait<T: Send>(
        &self,
        answer: impl Future<Output = Result<T, tokio_postgres::Error>> + Send,
    ) -> Result<T, StoreError> {
        answered(
            self.session.run(answer, self.timeout),
            self.broken,
            self.timeout,
        )
    }

    fn statement(&self, sql: &str) -> Result<Statement, StoreError> {
        if let Some(statement) = self.session.prepared(sql) {
            return Ok(statement);
        }
        let statement = self.wait(self.session.client.prepare(&dollar_placeholders(sql)))?;
        self.session.remember(sql, statement.clone());
        Ok(statement)
    }

    /// Applies the migrations not yet recorded, inside the caller's transaction.
    fn apply_migrations(&self) -> Result<(), StoreError> {
        // The lock function answers `void`, which no row of the store reads: only the lock matters.
        self.query(
            "SELECT 1 FROM (SELECT pg_advisory_xact_lock(?1)) AS locked",
            params![MIGRATION_LOCK],
        )?;
        self.execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                applied_at BIGINT NOT NULL
            )",
        )?;
        // Each migration not recorded, in order (not only those past the latest recorded: a test takes one
        // back to replay an older release's database).
        let applied: Vec<i64> = (self as &dyn Conn).query_map(
            "SELECT version FROM schema_migrations",
            params![],
            |r| r.get(0),
        )?;
        for (version, sql) in (1..).zip(MIGRATIONS).filter(|(v, _)| !applied.contains(v)) {
            self.execute_batch(sql)?;
            self.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
                params![version, super::now_ms()],
            )?;
        }
        Ok(())
    }

    /// Runs statements without parameters (a migration, `BEGIN`, `COMMIT`).
    fn execute_batch(&self, sql: &str) -> Result<(), StoreError> {
        self.wait(self.session.client.batch_execute(sql))
    }
}

impl Conn for On<'_> {
    fn execute(&self, sql: &str, params: &[&dyn Param]) -> Result<u64, StoreError> {
        let statement = self.statement(sql)?;
        let values: Vec<Value> = params.iter().map(|p| p.value()).collect();
        let params: Vec<&(dyn ToSql + Sync)> =
            values.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        self.wait(self.session.client.execute(&statement, &params))
    }

    fn query(&self, sql: &str, params: &[&dyn Param]) -> Result<Vec<Row>, StoreError> {
        let statement = self.statement(sql)?;
        let values: Vec<Value> = params.iter().map(|p| p.value()).collect();
        let params: Vec<&(dyn ToSql + Sync)> =
            values.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        let rows = self.wait(self.session.client.query(&statement, &params))?;
        let columns: Arc<[String]> = statement
            .columns()
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        rows.iter().map(|row| row_of(row, &columns)).collect()
    }

    fn row_lock(&self, lock: RowLock) -> &'static str {
        match lock {
            RowLock::Wait => " FOR UPDATE",
            RowLock::SkipLocked => " FOR UPDATE SKIP LOCKED",
        }
    }

    fn clock_ms(&self) -> &'static str {
        // `clock_timestamp()`, not `now()`: `now()` is when the transaction began.
        "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
    }
}

/// The store's `?N` placeholders as PostgreSQL's `$N` (a `?` inside a quoted literal stays).
fn dollar_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut in_literal = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => in_literal = !in_literal,
            '?' if !in_literal && chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

fn row_of(row: &tokio_postgres::Row, columns: &Arc<[String]>) -> Result<Row, StoreError> {
    let values = row
        .columns()
        .iter()
        .enumerate()
        .map(|(i, column)| {
            let value = match *column.type_() {
                Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Value::Int),
                Type::INT4 => row
                    .try_get::<_, Option<i32>>(i)?
                    .map(|v| Value::Int(v.into())),
                Type::INT2 => row
                    .try_get::<_, Option<i16>>(i)?
                    .map(|v| Value::Int(v.into())),
                Type::BOOL => row
                    .try_get::<_, Option<bool>>(i)?
                    .map(|v| Value::Int(v.into())),
                Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Value::Real),
                Type::FLOAT4 => row
                    .try_get::<_, Option<f32>>(i)?
                    .map(|v| Value::Real(v.into())),
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
                    row.try_get::<_, Option<String>>(i)?.map(Value::Text)
                }
                ref other => {
                    return Err(StoreError::Value(format!(
                        "column {} is of type {other}, which the store does not read",
                        column.name()
                    )));
                }
            };
            Ok(value.unwrap_or(Value::Null))
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(Row::new(values, columns.clone()))
}

/// A value sent as the type PostgreSQL inferred for its placeholder (an integer for a `BIGINT` column, a
/// `DOUBLE PRECISION`, text).
impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match (self, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (Value::Int(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::BOOL) => (*i != 0).to_sql(ty, out),
            (Value::Int(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (Value::Real(r), &Type::FLOAT8) => r.to_sql(ty, out),
            (Value::Real(r), &Type::FLOAT4) => (*r as f32).to_sql(ty, out),
            (Value::Text(t), _) => t.as_str().to_sql(ty, out),
            (value, ty) => Err(format!("{value:?} for a parameter of type {ty}").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// An error of the connection (the database is down or restarting) as [`StoreError::Unavailable`], any
/// other (a constraint, a statement) as [`StoreError::Postgres`].
fn unavailable_or_sql(e: tokio_postgres::Error) -> StoreError {
    if e.as_db_error().is_some() {
        StoreError::Postgres(e)
    } else {
        StoreError::Unavailable(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars_outside_quoted_literals() {
        assert_eq!(
            dollar_placeholders(
                "SELECT '?1', x FROM t WHERE a = ?1 AND b IN (?2, ?10) AND c = '?'"
            ),
            "SELECT '?1', x FROM t WHERE a = $1 AND b IN ($2, $10) AND c = '?'"
        );
    }

    #[test]
    fn the_pool_size_comes_from_the_url_and_the_rest_goes_to_postgres() {
        let (config, settings) =
            parse_url("postgres://ann@db.example:5433/games?pool_max=3&sslmode=disable").unwrap();
        assert_eq!(settings.max_connections, 3);
        assert_eq!(config.get_user(), Some("ann"));
        assert_eq!(config.get_dbname(), Some("games"));
        for bad in ["0", "1001", "many"] {
            let refused = parse_url(&format!("postgres://x/y?pool_max={bad}")).unwrap_err();
            assert!(refused.to_string().contains("pool_max"), "{refused}");
        }
        assert!(parse_url("postgres://x/y?nonsense=1").is_err());
        assert!(is_postgres_url("postgresql://x/y") && !is_postgres_url("games.db"));
        assert_eq!(
            without_password("postgres://ann:s3cr@t@db:5432/games?pool_max=2"),
            "postgres://ann:***@db:5432/games?pool_max=2"
        );
        assert_eq!(
            without_password("postgres://ann@db/games"),
            "postgres://ann@db/games"
        );
    }

    use crate::scratch::{ScratchSchema, test_postgres_url};
    use crate::testing::OwnPostgres;
    use crate::tests::{a_move, record};
    use crate::{Store, StoreError};

    #[test]
    fn sessions_end_a_transaction_left_idle_unless_the_url_says_otherwise() {
        let (config, _) = parse_url("postgres://x/y").unwrap();
        assert_eq!(
            config.get_options(),
            Some("-c idle_in_transaction_session_timeout=5000")
        );
        let (config, _) = parse_url("postgres://x/y?options=-c%20search_path%3Ds1").unwrap();
        assert_eq!(
            config.get_options(),
            Some("-c search_path=s1 -c idle_in_transaction_session_timeout=5000")
        );
        let own = "-c idle_in_transaction_session_timeout=0";
        let (config, _) = parse_url(&format!(
            "postgres://x/y?options={}",
            own.replace(' ', "%20").replace('=', "%3D")
        ))
        .unwrap();
        assert_eq!(config.get_options(), Some(own));
    }

    /// A node that hangs inside a transaction (here: a thread that sleeps there) holding a game's row: its
    /// session is ended after [`IDLE_IN_TRANSACTION`], its transaction rolled back, and another node's move
    /// in the game goes through instead of waiting for it.
    #[test]
    fn a_transaction_left_idle_is_ended_and_the_game_s_row_freed() {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let url = schema.url();
        let hung = Store::open(std::path::Path::new(&url)).unwrap();
        let other = Store::open(std::path::Path::new(&url)).unwrap();
        hung.insert_game(&record("g1")).unwrap();
        std::thread::scope(|s| {
            let holder = s.spawn(|| {
                hung.transaction(|tx| {
                    crate::refuse_if_ended(tx, crate::OPEN, "g1")?;
                    std::thread::sleep(IDLE_IN_TRANSACTION + Duration::from_secs(2));
                    Ok::<_, StoreError>(())
                })
            });
            std::thread::sleep(Duration::from_millis(500));
            other.insert_move("g1", &a_move(0, "a3a4")).unwrap();
            assert!(
                holder.join().unwrap().is_err(),
                "the idle transaction was committed"
            );
        });
        assert_eq!(other.moves("g1").unwrap(), [a_move(0, "a3a4")]);
    }

    #[test]
    fn servers_starting_together_migrate_once() {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let url = schema.url();
        let stores: Vec<Store> = std::thread::scope(|s| {
            let starting: Vec<_> = (0..3)
                .map(|_| s.spawn(|| Store::open(std::path::Path::new(&url)).unwrap()))
                .collect();
            starting.into_iter().map(|t| t.join().unwrap()).collect()
        });
        let versions = ScratchSchema::count(&url, "schema_migrations");
        assert_eq!(versions, MIGRATIONS.len() as i64);
        stores[0].insert_game(&record("g1")).unwrap();
        assert!(stores[2].game("g1").unwrap().is_some(), "one database");
    }

    #[test]
    fn the_game_list_migration_fills_in_the_move_count_and_last_move_of_existing_games() {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let url = schema.url();
        {
            // The database as the release before migration 0006 left it: 0006 undone, and a game's moves
            // written as that release wrote them (the games' rows untouched).
            let store = Store::open(std::path::Path::new(&url)).unwrap();
            store.insert_game(&record("old")).unwrap();
            store
                .with(|conn| {
                    for sql in [
                        "DELETE FROM schema_migrations WHERE version = 6",
                        "DROP INDEX games_live_list, games_finished_list, games_imported_list,
                            games_finished_by_blue_user, games_finished_by_red_user",
                        "ALTER TABLE games DROP COLUMN plies, DROP COLUMN last_move_at,
                            DROP COLUMN last_blue_ms, DROP COLUMN last_red_ms",
                        "CREATE INDEX games_by_state ON games (finished_at, created_at)",
                        "INSERT INTO moves VALUES ('old', 0, 'a3a4', 59000, 60000, 2),
                            ('old', 1, 'g7g6', 59000, 58000, 3)",
                    ] {
                        conn.execute(sql, &[])?;
                    }
                    Ok::<_, StoreError>(())
                })
                .unwrap();
        }
        let store = Store::open(std::path::Path::new(&url)).unwrap();
        let listed = &store.list(crate::GameList::Live, 5).unwrap()[0];
        assert_eq!(
            (listed.plies, listed.blue_ms, listed.red_ms),
            (2, Some(59_000), Some(58_000))
        );
        assert_eq!(store.last_move_at("old").unwrap(), Some(3));
        assert_eq!(
            ScratchSchema::count(&url, "schema_migrations"),
            MIGRATIONS.len() as i64
        );
    }

    /// Ends the database session `pid` from another connection (as a restart would) and waits until it is
    /// gone.
    fn terminate(admin: &Store, pid: i64) {
        admin
            .with(|conn| conn.query("SELECT pg_terminate_backend(?1)", params![pid]))
            .unwrap();
        let gone = (0..200).any(|_| {
            let left: i64 = admin
                .with(|conn| {
                    conn.query_map(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid = ?1",
                        params![pid],
                        |r| r.get(0),
                    )
                })
                .unwrap()[0];
            std::thread::sleep(Duration::from_millis(10));
            left == 0
        });
        assert!(gone, "the backend was not terminated");
    }

    /// A connection the database closed while it sat in the pool (here an administrator's
    /// `pg_terminate_backend`; a restart alike) is noticed when it is next lent and replaced: no statement
    /// fails on it. Each statement's thread drives its own connection, so nothing else would notice.
    #[test]
    fn a_connection_closed_while_idle_is_replaced_before_it_is_lent() {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let url = schema.url();
        let store = Store::open(std::path::Path::new(&url)).unwrap();
        let admin = Store::open(std::path::Path::new(&url)).unwrap();
        let backend = |store: &Store| -> i64 {
            store
                .with(|conn| conn.query_map("SELECT pg_backend_pid()", params![], |r| r.get(0)))
                .unwrap()[0]
        };
        store.insert_game(&record("g1")).unwrap();
        let first = backend(&store);
        terminate(&admin, first);
        assert!(store.game("g1").unwrap().is_some());
        assert_ne!(backend(&store), first, "a new connection");
    }

    /// A caller waiting for a connection of a full pool is woken when one comes back, not left to its
    /// deadline (a return tells the pool's condition only while someone waits, to spare a system call).
    #[test]
    fn a_caller_waiting_for_a_busy_pool_gets_the_connection_given_back() {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let (config, _) = parse_url(&schema.url()).unwrap();
        let settings = Settings {
            max_connections: 1,
            // Longer than the wait below: a waiter that was not woken would still be waiting.
            statement_timeout: Duration::from_secs(120),
            ..Settings::default()
        };
        let db = Postgres::connect(config, settings).unwrap();
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::scope(|threads| {
            let held = db.checkout().unwrap();
            assert_eq!(db.lock_pool().waiting, 0);
            threads.spawn(|| {
                let lent = db.checkout().map(drop);
                done.send(lent).unwrap();
            });
            while db.lock_pool().waiting == 0 {
                std::thread::yield_now();
            }
            drop(held);
            let lent = finished
                .recv_timeout(Duration::from_secs(60))
                .expect("the waiting caller was woken");
            assert!(lent.is_ok(), "{lent:?}");
        });
        assert_eq!(db.lock_pool().waiting, 0);
        assert_eq!(
            db.lock_pool().open,
            1,
            "the one connection, given back twice"
        );
    }

    /// The same for a connection of a server's runtime (an awaited statement): a player's move is not
    /// refused because the database restarted while the connection idled.
    #[test]
    fn a_runtimes_connection_closed_while_idle_is_replaced_before_it_is_lent() {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let url = schema.url();
        let admin = Store::open(std::path::Path::new(&url)).unwrap();
        admin.insert_game(&record("g1")).unwrap();
        let db = Postgres::open(&url).unwrap();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let backend = || -> i64 {
            runtime.block_on(async {
                let sql = "UPDATE games SET plies = pg_backend_pid() WHERE id = ?1";
                let awaited = db.execute_awaited(sql, vec![Value::Text("g1".into())]);
                awaited.expect("offered").await.unwrap();
            });
            admin
                .with(|conn| conn.query_map("SELECT plies FROM games", params![], |r| r.get(0)))
                .unwrap()[0]
        };
        let first = backend();
        let open = db.lock_pool().open;
        terminate(&admin, first);
        assert_ne!(backend(), first, "a new connection answered");
        assert_eq!(db.lock_pool().open, open, "in the place of the closed one");
    }

    /// On a server's (multi-thread) runtime a statement is awaited on a connection opened on that runtime,
    /// which a blocking caller is never lent; with no such runtime the await is not offered.
    #[test]
    fn statements_are_awaited_on_a_multi_thread_runtime_on_its_own_connections() {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let url = schema.url();
        Store::open(std::path::Path::new(&url))
            .unwrap()
            .insert_game(&record("g1"))
            .unwrap();
        let db = Postgres::open(&url).unwrap();
        let sql = "UPDATE games SET plies = plies + 1 WHERE id = ?1";
        let game = || vec![Value::Text("g1".into())];
        assert!(db.execute_awaited(sql, game()).is_none(), "no runtime");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let changed = runtime.block_on(async {
            let mut changed = Vec::new();
            for _ in 0..2 {
                let awaited = db.execute_awaited(sql, game()).expect("offered");
                changed.push(awaited.await.unwrap());
            }
            changed
        });
        assert_eq!(changed, [1, 1]);
        let shared = |db: &Postgres| db.lock_pool().idle.iter().filter(|s| s.is_shared()).count();
        assert_eq!(shared(&db), 1, "one connection of the runtime served both");
        let plies = |conn: &dyn Conn| {
            conn.query_map("SELECT plies FROM games WHERE id = 'g1'", params![], |r| {
                r.get::<i64>(0)
            })
        };
        let mut seen = Vec::new();
        db.with_conn(&mut |conn| {
            seen = plies(conn)?;
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, [2]);
        assert_eq!(
            db.lock_pool().open,
            2,
            "the blocking caller had a connection of its own"
        );
    }

    #[test]
    fn a_database_that_goes_away_gives_errors_then_the_store_recovers() {
        let server = OwnPostgres::start();
        let store = Store::open(std::path::Path::new(&format!(
            "{}?pool_max=2",
            server.url()
        )))
        .unwrap();
        store.insert_game(&record("g1")).unwrap();
        store.insert_move("g1", &a_move(0, "a3a4")).unwrap();

        server.stop();
        let refused = store.insert_move("g1", &a_move(1, "g7g6")).unwrap_err();
        assert!(matches!(refused, StoreError::Unavailable(_)), "{refused}");
        assert!(matches!(store.game("g1"), Err(StoreError::Unavailable(_))));

        server.resume();
        // A connection the pool kept from before may fail once more; the next ones are new.
        let stored = (0..20).find_map(|_| match store.insert_move("g1", &a_move(1, "g7g6")) {
            Ok(()) => Some(()),
            Err(StoreError::Unavailable(_)) => {
                std::thread::sleep(Duration::from_millis(100));
                None
            }
            Err(e) => panic!("{e}"),
        });
        assert!(stored.is_some(), "the store did not recover");
        assert_eq!(
            store.moves("g1").unwrap(),
            [a_move(0, "a3a4"), a_move(1, "g7g6")]
        );
    }
}
