//! A scratch PostgreSQL schema for a test: made fresh, dropped afterwards, so tests share one PostgreSQL
//! server without seeing each other's tables. The store's tests and the server's integration tests use it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// The PostgreSQL server tests use: `JUNGLE_TEST_POSTGRES`, else the local one `scripts/test` starts.
pub fn test_postgres_url() -> String {
    std::env::var("JUNGLE_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string())
}

/// A schema of its own on a PostgreSQL server, dropped (with everything in it) when this is dropped.
#[derive(Debug)]
pub struct ScratchSchema {
    server: String,
    name: String,
}

impl ScratchSchema {
    /// Makes a fresh schema on the server at `server` (a `postgres://` URL).
    ///
    /// # Errors
    /// When the server cannot be reached: the message says so and where it looked.
    pub fn new(server: &str) -> Result<ScratchSchema, String> {
        static MADE: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "jungle_test_{}_{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        );
        run(
            server,
            format!("DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"),
        )
        .map_err(|e| {
            format!(
                "PostgreSQL at {server} is unreachable or refused a new schema ({e}): start it (scripts/test \
                 does) or point JUNGLE_TEST_POSTGRES at one"
            )
        })?;
        Ok(ScratchSchema {
            server: server.to_string(),
            name,
        })
    }

    /// A URL of the server whose connections work in this schema (their `search_path`).
    pub fn url(&self) -> String {
        let separator = if self.server.contains('?') { '&' } else { '?' };
        format!(
            "{}{separator}options=-c%20search_path%3D{}",
            self.server, self.name
        )
    }
}

impl ScratchSchema {
    /// How many rows the table `table` of the schema at `url` has (for tests that look past the store).
    ///
    /// # Panics
    /// When the server cannot be reached or the table does not exist.
    pub fn count(url: &str, table: &str) -> i64 {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        query_one(url, sql).unwrap_or_else(|e| panic!("counting {table}: {e}"))
    }
}

impl Drop for ScratchSchema {
    fn drop(&mut self) {
        if let Err(e) = run(
            &self.server,
            format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name),
        ) {
            eprintln!("could not drop the test schema {}: {e}", self.name);
        }
    }
}

/// Runs `sql` on the server at `url`.
fn run(url: &str, sql: String) -> Result<(), String> {
    on_own_thread(url, move |client| async move {
        client.batch_execute(&sql).await.map_err(|e| e.to_string())
    })
}

/// The one integer `sql` answers on the server at `url`.
fn query_one(url: &str, sql: String) -> Result<i64, String> {
    on_own_thread(url, move |client| async move {
        let row = client
            .query_one(&sql, &[])
            .await
            .map_err(|e| e.to_string())?;
        row.try_get(0).map_err(|e| e.to_string())
    })
}

/// Connects to `url` and runs `work` on a thread of its own (so from any thread or runtime).
fn on_own_thread<T, F>(
    url: &str,
    work: impl FnOnce(tokio_postgres::Client) -> F + Send + 'static,
) -> Result<T, String>
where
    T: Send + 'static,
    F: std::future::Future<Output = Result<T, String>>,
{
    let mut config: tokio_postgres::Config = url.parse().map_err(|e| format!("{e}"))?;
    config.connect_timeout(Duration::from_secs(5));
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            let (client, connection) = config
                .connect(tokio_postgres::NoTls)
                .await
                .map_err(|e| e.to_string())?;
            tokio::spawn(connection);
            work(client).await
        })
    })
    .join()
    .map_err(|_| "the thread running the statement panicked".to_string())?
}
