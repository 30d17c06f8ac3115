//! One connection to PostgreSQL, whose I/O runs on the thread or task that waits for its answer.
//!
//! Why not the connection's task on a runtime of its own, as `tokio-postgres` is usually run: then a
//! statement was three hand-offs between threads — the caller's request woke the connection's thread, which
//! wrote it, waited for the answer and woke the caller again — and a profile of a node storing moves spent a
//! third of its CPU on wake-ups, futexes and eventfd writes. Here whoever holds the connection polls the
//! connection's future beside the statement's: it writes the statement, waits on the socket and reads the
//! answer itself. A connection for blocking callers has a small current-thread runtime of its own, which only
//! the thread that leased it runs; a *shared* one was opened on a server's multi-thread runtime, which watches
//! its socket, and only that runtime's tasks await statements on it ([`race`]: a player's move, with no thread
//! given up or woken). The two kinds are never mixed: a blocking caller parked on a shared connection would
//! depend on the runtime's other threads to hear its socket.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::runtime::{Handle, Runtime, RuntimeFlavor};
use tokio_postgres::tls::NoTlsStream;
use tokio_postgres::{Client, Config, Connection, NoTls, Socket, Statement};

use super::in_place::InPlace;
use crate::StoreError;

/// How a statement's wait ended.
pub(super) enum Outcome<T> {
    /// The database answered (with rows, or with an error of the statement).
    Answered(Result<T, tokio_postgres::Error>),
    /// No answer within the time allowed.
    TimedOut,
    /// The connection ended first (the database closed it, or its socket broke).
    Ended(Option<tokio_postgres::Error>),
}

/// The connection's own future, which does its I/O whenever it is polled.
pub(super) type Driven = Pin<Box<Connection<Socket, NoTlsStream>>>;

/// What watches a connection's socket.
enum Driver {
    /// A current-thread runtime of the connection's own, run by the thread that holds the connection.
    Own(Runtime),
    /// The multi-thread runtime the connection was opened on, which watches the socket all the time.
    Shared(Handle),
}

/// A connection with the statements it has prepared (keyed by their text; the store's statements are a fixed
/// set, so the map stays small).
pub(super) struct Session {
    pub client: Client,
    statements: RefCell<HashMap<String, Statement>>,
    /// `None` once it ended, or was left half-way through a statement that timed out.
    connection: RefCell<Option<Driven>>,
    /// An `Option` only so `Drop` can shut an own runtime down in any context.
    driver: Option<Driver>,
}

impl Session {
    /// Opens a connection for blocking callers, with a runtime of its own (the config's own connect timeout
    /// bounds the wait).
    pub fn open(config: &Config) -> Result<Session, StoreError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| {
                StoreError::Unavailable(format!("cannot start a database connection: {e}"))
            })?;
        let connected = off_the_runtime(|| runtime.block_on(config.connect(NoTls)));
        Session::new(connected, Driver::Own(runtime))
    }

    /// Opens a connection on the current runtime, for statements awaited by its tasks ([`race`]).
    pub async fn open_shared(config: &Config) -> Result<Session, StoreError> {
        let connected = config.connect(NoTls).await;
        Session::new(connected, Driver::Shared(Handle::current()))
    }

    fn new(
        connected: Result<(Client, Connection<Socket, NoTlsStream>), tokio_postgres::Error>,
        driver: Driver,
    ) -> Result<Session, StoreError> {
        let (client, connection) = connected.map_err(|e| StoreError::Unavailable(e.to_string()))?;
        Ok(Session {
            client,
            statements: RefCell::new(HashMap::new()),
            connection: RefCell::new(Some(Box::pin(connection))),
            driver: Some(driver),
        })
    }

    /// The statement prepared for `sql` on this connection, if it was.
    pub fn prepared(&self, sql: &str) -> Option<Statement> {
        self.statements.borrow().get(sql).cloned()
    }

    pub fn remember(&self, sql: &str, statement: Statement) {
        self.statements
            .borrow_mut()
            .insert(sql.to_string(), statement);
    }

    /// Whether the connection is driven only by tasks of the runtime it was opened on: never lent to a
    /// blocking caller.
    pub fn is_shared(&self) -> bool {
        matches!(&self.driver, Some(Driver::Shared(_)))
    }

    /// Whether a statement may be awaited on `runtime`: the connection was opened there.
    pub fn runs_on(&self, runtime: &Handle) -> bool {
        matches!(&self.driver, Some(Driver::Shared(own)) if own.id() == runtime.id())
    }

    /// The connection, taken out to be driven beside a statement ([`race`]); `None` once it ended.
    pub fn take_connection(&self) -> Option<Driven> {
        self.connection.borrow_mut().take()
    }

    /// Gives back a connection that answered its statement.
    pub fn put_back(&self, connection: Driven) {
        *self.connection.borrow_mut() = Some(connection);
    }

    /// Waits at most `timeout` for `answer`, blocking this thread and driving the connection meanwhile (a
    /// connection with a runtime of its own: a shared one is never lent to a blocking caller). A connection
    /// that ended, or that a statement timed out on (its state unknown), is not driven again:
    /// [`Session::is_open`] is false.
    pub fn run<T: Send>(
        &self,
        answer: impl Future<Output = Result<T, tokio_postgres::Error>> + Send,
        timeout: Duration,
    ) -> Outcome<T> {
        let (Some(Driver::Own(runtime)), Some(mut connection)) =
            (&self.driver, self.take_connection())
        else {
            return Outcome::Ended(None);
        };
        let outcome = off_the_runtime(|| {
            runtime.block_on(async {
                tokio::time::timeout(timeout, race(&mut connection, answer))
                    .await
                    .unwrap_or(Outcome::TimedOut)
            })
        });
        if let Outcome::Answered(_) = outcome {
            self.put_back(connection);
        }
        outcome
    }

    /// Whether the connection is still open. The database may have closed it since its last statement (it
    /// restarted), which only its socket tells: the connection is polled, and on a runtime of its own polled
    /// again after that runtime looked at the socket once without waiting — a system call, not a round trip.
    /// (A shared runtime watches the socket all the time: one poll tells.)
    pub fn is_open(&self) -> bool {
        let mut slot = self.connection.borrow_mut();
        let (Some(driver), Some(connection)) = (&self.driver, slot.as_mut()) else {
            return false;
        };
        let ended = match driver {
            Driver::Shared(_) => connection
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
                .is_ready(),
            Driver::Own(runtime) => off_the_runtime(|| {
                runtime.block_on(async {
                    for _ in 0..2 {
                        if poll_fn(|cx| Poll::Ready(connection.as_mut().poll(cx).is_ready())).await
                        {
                            return true;
                        }
                        // Lets the runtime poll its socket with no wait before this task runs again.
                        tokio::task::yield_now().await;
                    }
                    false
                })
            }),
        };
        if ended {
            *slot = None;
        }
        !ended
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.connection.get_mut().take();
        // Dropping a runtime inside another (a store dropped in an async test) would panic; this does not.
        if let Some(Driver::Own(runtime)) = self.driver.take() {
            runtime.shutdown_background();
        }
    }
}

/// Waits for `answer`, driving `connection` meanwhile; `Outcome::Ended` if the connection ends first. The
/// answer the connection reads is taken in the same poll ([`InPlace`]).
pub(super) async fn race<T>(
    connection: &mut Driven,
    answer: impl Future<Output = Result<T, tokio_postgres::Error>>,
) -> Outcome<T> {
    let mut answer = pin!(answer);
    let in_place = InPlace::new();
    poll_fn(|cx| {
        in_place.poll(cx, |cx| {
            // The statement first: its first poll queues the request the connection then sends.
            if let Poll::Ready(answer) = answer.as_mut().poll(cx) {
                return Poll::Ready(Outcome::Answered(answer));
            }
            connection
                .as_mut()
                .poll(cx)
                .map(|ended| Outcome::Ended(ended.err()))
        })
    })
    .await
}

/// Runs `f`, which blocks on a runtime: on a multi-thread runtime's worker after telling the runtime
/// (`block_in_place`, so the worker's other tasks move to another thread meanwhile), on a thread of its own
/// inside a current-thread runtime (tests: there a runtime cannot be blocked on, nor the thread given up),
/// and directly anywhere else.
fn off_the_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    match Handle::try_current().map(|runtime| runtime.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        Ok(_) => std::thread::scope(|scope| {
            scope
                .spawn(f)
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }),
        Err(_) => f(),
    }
}
