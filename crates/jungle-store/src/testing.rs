//! What the store's tests run on: each test once on SQLite and once on PostgreSQL (a scratch schema of the
//! test PostgreSQL server), and a PostgreSQL server of a test's own that it may stop and start.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::scratch::{ScratchSchema, test_postgres_url};
use super::{GameRecord, Store, StoreError, now_ms};

/// A store for one test; a PostgreSQL one's schema is dropped after the store.
#[derive(Debug)]
pub struct TestStore {
    store: Option<Store>,
    _schema: Option<ScratchSchema>,
}

impl TestStore {
    pub fn sqlite() -> TestStore {
        TestStore {
            store: Some(Store::in_memory().expect("an in-memory SQLite store")),
            _schema: None,
        }
    }

    /// A store in a fresh schema of the test PostgreSQL server; fails the test when the server is
    /// unreachable (a skipped backend would pass silently).
    pub fn postgres() -> TestStore {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let store = Store::open(Path::new(&schema.url())).expect("a PostgreSQL store");
        TestStore {
            store: Some(store),
            _schema: Some(schema),
        }
    }
}

impl std::ops::Deref for TestStore {
    type Target = Store;

    fn deref(&self) -> &Store {
        self.store
            .as_ref()
            .expect("the store lives until the test store is dropped")
    }
}

impl Drop for TestStore {
    fn drop(&mut self) {
        // The connections close before the schema is dropped.
        self.store = None;
    }
}

impl Store {
    /// Runs SQL statements as given, separated by `;` (no `;` inside them), on one connection, each committed
    /// on its own: for tests that damage rows behind the store's back, as a hand edit of the database would.
    ///
    /// # Errors
    /// When a statement fails (the schema refused the damage).
    pub fn execute_raw(&self, sql: &str) -> Result<(), StoreError> {
        self.with(|conn| {
            for statement in sql.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                conn.execute(statement, &[])?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
/// Tests that run on both backends: `on_both_backends! { fn name(store) { … } }` makes the tests
/// `name::sqlite` and `name::postgres`, each with `store: &Store` of its backend.
macro_rules! on_both_backends {
    ($(fn $name:ident($store:ident) $body:block)*) => {$(
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            fn run($store: &$crate::Store) $body

            #[test]
            fn sqlite() {
                run(&$crate::testing::TestStore::sqlite());
            }

            #[test]
            fn postgres() {
                run(&$crate::testing::TestStore::postgres());
            }
        }
    )*};
}
#[cfg(test)]
pub(crate) use on_both_backends;

/// A PostgreSQL server of a test's own (Debian's binaries, a data folder under the temporary folder, a
/// free port), which the test may stop and start; stopped and removed when dropped.
#[derive(Debug)]
pub struct OwnPostgres {
    dir: PathBuf,
    port: u16,
}

const BIN: &str = "/usr/lib/postgresql/15/bin";

impl OwnPostgres {
    /// Makes and starts the server.
    pub fn start() -> OwnPostgres {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir =
            std::env::temp_dir().join(format!("jungle-own-postgres-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the data folder");
        let server = OwnPostgres { dir, port };
        if as_root() {
            // PostgreSQL refuses to run as root: its files and processes belong to the postgres user.
            run(Command::new("chown").arg("postgres:").arg(&server.dir));
        }
        run(server
            .command("initdb")
            .args(["-A", "trust", "-U", "postgres", "-D"])
            .arg(server.data()));
        server.resume();
        server
    }

    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server at once, as a crash would (`immediate`: no clean shutdown of its connections).
    pub fn stop(&self) {
        run(self
            .command("pg_ctl")
            .args(["stop", "-m", "immediate", "-D"])
            .arg(self.data()));
    }

    /// Starts the stopped server again, waiting until it takes connections.
    pub fn resume(&self) {
        let options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {}",
            self.port,
            self.dir.display()
        );
        run(self
            .command("pg_ctl")
            .args(["start", "-w", "-D"])
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.join("log"))
            .args(["-o", &options]));
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn command(&self, program: &str) -> Command {
        let program = Path::new(BIN).join(program);
        if as_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .args(["stop", "-m", "immediate", "-D"])
            .arg(self.data())
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

fn run(command: &mut Command) {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A friend game's record under the standard rules, Blue's seat taken: the game most tests start from.
pub fn record(id: &str) -> GameRecord {
    GameRecord {
        id: id.into(),
        created_at: now_ms(),
        mode: "friend".into(),
        rules: "standard".into(),
        start_fen: jungle_rules::START_FEN.into(),
        engine_level: None,
        engine_side: None,
        blue_token: Some("t".into()),
        red_token: None,
        blue_name: None,
        red_name: None,
        clock_initial_ms: None,
        clock_increment_ms: None,
        result: None,
        winner: None,
        termination: None,
        finished_at: None,
    }
}

/// SQLite's plan for `sql` with `params` (`EXPLAIN QUERY PLAN`), one step a line: which tables and indexes
/// it reads, and whether it sorts (`TEMP B-TREE`).
#[cfg(test)]
pub(crate) fn query_plan(store: &Store, sql: &str, params: &[&dyn crate::db::Param]) -> String {
    let steps: Vec<String> = store
        .with(|conn| conn.query_map(&format!("EXPLAIN QUERY PLAN {sql}"), params, |r| r.get(3)))
        .expect("SQLite explains the query");
    steps.join("\n")
}
