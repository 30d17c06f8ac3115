//! One connection to PostgreSQL, whose I/O runs on the thread that waits for its answer.
//!
//! Why not the connection's task on a runtime of its own, as `tokio-postgres` is usually run: then a
//! statement was three hand-offs between threads — the caller's request woke the connection's thread, which
//! wrote it, waited for the answer and woke the caller again — and a profile of a node storing moves spent a
//! third of its CPU on wake-ups, futexes and eventfd writes. Here the thread that holds the connection polls
//! the connection's future beside the statement's: it writes the statement, waits on the socket itself and
//! reads the answer. Each connection has a small current-thread runtime for its socket and its timer, and only
//! the thread that leased the connection from the pool runs it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use tokio::runtime::{Handle, Runtime, RuntimeFlavor};
use tokio_postgres::tls::NoTlsStream;
use tokio_postgres::{Client, Config, Connection, NoTls, Socket, Statement};

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

type Driven = Pin<Box<Connection<Socket, NoTlsStream>>>;

/// A connection with the statements it has prepared (keyed by their text; the store's statements are a fixed
/// set, so the map stays small).
pub(super) struct Session {
    pub client: Client,
    pub statements: RefCell<HashMap<String, Statement>>,
    /// `None` once it ended, or was left half-way through a statement that timed out.
    connection: RefCell<Option<Driven>>,
    /// Runs the connection's socket and timer (an `Option` only so `Drop` can shut it down in any context).
    runtime: Option<Runtime>,
}

impl Session {
    /// Opens a connection (the config's own connect timeout bounds the wait).
    pub fn open(config: &Config) -> Result<Session, StoreError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| {
                StoreError::Unavailable(format!("cannot start a database connection: {e}"))
            })?;
        let connected = off_the_runtime(|| runtime.block_on(config.connect(NoTls)));
        let (client, connection) = connected.map_err(|e| StoreError::Unavailable(e.to_string()))?;
        Ok(Session {
            client,
            statements: RefCell::new(HashMap::new()),
            connection: RefCell::new(Some(Box::pin(connection))),
            runtime: Some(runtime),
        })
    }

    /// Waits at most `timeout` for `answer`, driving the connection meanwhile. A connection that ended, or
    /// that a statement timed out on (its state unknown), is not driven again: [`Session::is_open`] is false.
    pub fn run<T: Send>(
        &self,
        answer: impl Future<Output = Result<T, tokio_postgres::Error>> + Send,
        timeout: Duration,
    ) -> Outcome<T> {
        let (Some(runtime), Some(mut connection)) =
            (&self.runtime, self.connection.borrow_mut().take())
        else {
            return Outcome::Ended(None);
        };
        let driving = &mut connection;
        let outcome = off_the_runtime(|| {
            runtime.block_on(async move {
                let raced = async move {
                    // The statement first: its first poll queues the request the connection then sends.
                    tokio::select! {
                        biased;
                        answer = answer => Outcome::Answered(answer),
                        ended = driving.as_mut() => Outcome::Ended(ended.err()),
                    }
                };
                tokio::time::timeout(timeout, raced)
                    .await
                    .unwrap_or(Outcome::TimedOut)
            })
        });
        if let Outcome::Answered(_) = outcome {
            *self.connection.borrow_mut() = Some(connection);
        }
        outcome
    }

    /// Whether the connection is still open. The database may have closed it since its last statement (it
    /// restarted), which only its socket tells: the connection is polled, the runtime looks at the socket
    /// once without waiting, and it is polled again — a system call, not a round trip.
    pub fn is_open(&self) -> bool {
        let mut slot = self.connection.borrow_mut();
        let (Some(runtime), Some(connection)) = (&self.runtime, slot.as_mut()) else {
            return false;
        };
        let ended = off_the_runtime(|| {
            runtime.block_on(async {
                for _ in 0..2 {
                    if poll_fn(|cx| Poll::Ready(connection.as_mut().poll(cx).is_ready())).await {
                        return true;
                    }
                    // Lets the runtime poll its socket with no wait before this task runs again.
                    tokio::task::yield_now().await;
                }
                false
            })
        });
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
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Runs `f`, which blocks on a runtime of its own: on a multi-thread runtime's worker after telling the
/// runtime (`block_in_place`, so the worker's other tasks move to another thread meanwhile), on a thread of
/// its own inside a current-thread runtime (tests: there a runtime cannot be blocked on, nor the thread
/// given up), and directly anywhere else.
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
