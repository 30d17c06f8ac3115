#![doc = include_str!("../README.md")]

mod accounts;
mod analysis;
mod editor;
mod explorer;
mod games;
mod hidden;
mod lessons;
mod lobby;
pub mod profile;
mod puzzles;
mod ratings;
mod router;
pub mod shared;
pub mod tablebase;
mod tournaments;

pub use jungle_platform::{
    ClusterConfig, ClusterError, EnginePool, Hub, HubError, Limits, NewGame, Store, StoreError,
    cluster, default_engine_threads, logging, store,
};

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;

/// The server's shared state: the hub of game rooms (with the store and the engine pool).
pub type AppState = Arc<Hub>;

/// The whole web application: pages, static files, the JSON API and the websockets.
pub fn app(state: AppState) -> Router {
    router::router(state, shared::assets::Assets::embedded())
}

/// The application with its front end read from `dir` on every request (development: no rebuild for an
/// edit of the pages, styles or scripts).
pub fn app_with_static_dir(state: AppState, dir: PathBuf) -> Router {
    router::router(state, shared::assets::Assets::from_dir(dir))
}

/// How to run a server.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub db: PathBuf,
    /// At most this many engine searches at once.
    pub engine_threads: usize,
    /// The runtime's threads for connections in [`run_blocking`] (none: tokio's default, one per core).
    pub worker_threads: Option<usize>,
    pub limits: Limits,
    /// The origin browsers reach the server at (`https://jungle.example`); websockets from other origins are
    /// refused. Without it only loopback and IP-address origins naming this server's own `Host` are taken.
    pub public_origin: Option<String>,
    /// Serve the front end from this folder, read on every request, instead of the embedded files.
    pub static_dir: Option<PathBuf>,
    /// Work with other nodes on the same database through a broker (none: a single server).
    pub cluster: Option<ClusterConfig>,
    /// Reverse proxies (nginx in front of the nodes) whose `X-Forwarded-For` names the client; none by
    /// default, so a client cannot pick its own address.
    pub trusted_proxies: Vec<IpAddr>,
    /// A directory of endgame tables (`jungle tb generate`) for the tablebase explorer; none: the explorer
    /// says no position is covered.
    pub tablebases: Option<PathBuf>,
}

impl Config {
    /// A server on `addr` with the database `db` and every other setting at its default.
    pub fn new(addr: SocketAddr, db: PathBuf) -> Config {
        Config {
            addr,
            db,
            engine_threads: default_engine_threads(),
            worker_threads: None,
            limits: Limits::default(),
            public_origin: None,
            static_dir: None,
            cluster: None,
            trusted_proxies: Vec::new(),
            tablebases: None,
        }
    }
}

/// How often idle rooms and forgotten rate-limit entries are swept.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(30);
/// How often each node looks at the tournaments that are due or running.
const TOURNAMENT_SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Hub(#[from] HubError),
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    /// The whole reason is in the message (not a chained source), so it is printed once.
    #[error("cannot open the tablebases: {error}")]
    Tablebases {
        dir: PathBuf,
        error: jungle_tb::TbError,
    },
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// A server that is listening: its address and its state (the caller runs it with [`Server::run`]).
#[derive(Debug)]
pub struct Server {
    pub listener: tokio::net::TcpListener,
    pub state: AppState,
    pub static_dir: Option<PathBuf>,
    pub trusted_proxies: shared::proxy::TrustedProxies,
    pub tablebases: Option<tablebase::Tables>,
}

impl Server {
    /// Opens the database, reopens the games in progress (restarting their engines and clocks) and binds.
    ///
    /// # Errors
    /// When the database cannot be opened or the address cannot be bound.
    pub async fn bind(config: &Config) -> Result<Server, ServeError> {
        // Only the headers are read now (tables on first use), so a bad directory stops the start at once.
        let tablebases = match &config.tablebases {
            Some(dir) => Some(Arc::new(jungle_tb::Tablebases::open_dir(dir).map_err(
                |error| ServeError::Tablebases {
                    dir: dir.clone(),
                    error,
                },
            )?)),
            None => None,
        };
        let store = Store::open(&config.db)?;
        let state = Hub::with_limits(
            store,
            EnginePool::new(config.engine_threads),
            config.limits.clone(),
            config.public_origin.clone(),
        );
        match &config.cluster {
            // In a cluster a game's room is opened on the nodes its players and watchers connect to, not
            // on every node that starts.
            Some(cluster) => state.join_cluster(cluster).await?,
            None => {
                let resumed = state.resume()?;
                tracing::info!(db = %Store::describe(&config.db), resumed, "games reopened");
            }
        }
        // Correspondence games whose time ran out while the server was down are decided now.
        jungle_platform::correspondence::sweep(&state)?;
        // Tournaments move on every second on every node (start times, an arena's end, games that ended on
        // another node, a dead node's work); the database decides each step once (docs/server.md).
        let tournaments = Arc::downgrade(&state);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(TOURNAMENT_SWEEP_EVERY);
            loop {
                every.tick().await;
                let Some(hub) = tournaments.upgrade() else {
                    break;
                };
                jungle_platform::tournament_play::sweep(&hub);
            }
        });
        let sweeper = Arc::downgrade(&state);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            loop {
                every.tick().await;
                let Some(hub) = sweeper.upgrade() else { break };
                hub.tidy(false);
                hub.rates.forget_idle();
                jungle_platform::lobby::sweep(&hub);
                if hub.cluster().is_some()
                    && let Err(e) = jungle_platform::unattended::sweep(&hub)
                {
                    tracing::error!(error = %e, "the sweep for games nobody holds failed");
                }
            }
        });
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| ServeError::Bind {
                addr: config.addr,
                source,
            })?;
        Ok(Server {
            listener,
            state,
            static_dir: config.static_dir.clone(),
            trusted_proxies: shared::proxy::TrustedProxies::new(&config.trusted_proxies),
            tablebases,
        })
    }

    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves until the task is dropped or the process ends.
    ///
    /// # Errors
    /// When accepting connections fails.
    pub async fn run(self) -> Result<(), ServeError> {
        let app = service(
            self.state,
            self.static_dir,
            self.trusted_proxies,
            self.tablebases,
        );
        axum::serve(shared::listener::listening(self.listener), app).await?;
        Ok(())
    }
}

/// The application as a service that knows each connection's address (limits are per client address), or
/// the client's behind a trusted proxy.
fn service(
    state: AppState,
    static_dir: Option<PathBuf>,
    trusted_proxies: shared::proxy::TrustedProxies,
    tablebases: Option<tablebase::Tables>,
) -> axum::extract::connect_info::IntoMakeServiceWithConnectInfo<Router, SocketAddr> {
    let mut router = match static_dir {
        Some(dir) => app_with_static_dir(state, dir),
        None => app(state),
    };
    if let Some(tables) = tablebases {
        router = router.layer(axum::Extension(tables));
    }
    if !trusted_proxies.is_empty() {
        router = router.layer(axum::middleware::from_fn_with_state(
            trusted_proxies,
            shared::proxy::real_client,
        ));
    }
    router.into_make_service_with_connect_info::<SocketAddr>()
}

/// Runs a server on its own multi-threaded runtime until Ctrl-C, calling `on_listening` with the bound address
/// once it accepts connections (the `jungle serve` command prints the URL there).
///
/// # Errors
/// When the runtime, database or address fails.
pub fn run_blocking(
    config: &Config,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = config.worker_threads {
        builder.worker_threads(threads);
    }
    let runtime = builder.enable_all().build()?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        let addr = server.local_addr()?;
        tracing::info!(%addr, "listening");
        on_listening(addr);
        let app = service(
            server.state,
            server.static_dir,
            server.trusted_proxies,
            server.tablebases,
        );
        axum::serve(shared::listener::listening(server.listener), app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
