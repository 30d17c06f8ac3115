//! The server the load runs against when no `--target` is given: in this process, on a throwaway database.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::target::Target;

/// A running server; dropping it stops it and deletes its database.
#[derive(Debug)]
pub struct InProcessServer {
    runtime: Option<tokio::runtime::Runtime>,
    db: PathBuf,
    pub target: Target,
}

impl InProcessServer {
    /// Starts a server on a loopback port with one engine thread on two runtime threads, with the per-client
    /// limits lifted (every game's players come from this machine's address).
    pub fn start() -> Result<InProcessServer, String> {
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let db = std::env::temp_dir().join(format!(
            "jungle-load-{}-{}.db",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("server runtime: {e}"))?;
        let mut limits = jungle_server::Limits::default();
        for setting in LIFTED_LIMITS {
            limits.set(setting).expect("a known limit");
        }
        let config = jungle_server::Config {
            engine_threads: 1,
            limits,
            ..jungle_server::Config::new("127.0.0.1:0".parse().expect("an address"), db.clone())
        };
        let server = runtime
            .block_on(jungle_server::Server::bind(&config))
            .map_err(|e| format!("the server does not start: {e}"))?;
        let addr = server.local_addr().map_err(|e| e.to_string())?;
        runtime.spawn(async move { server.run().await });
        Ok(InProcessServer {
            runtime: Some(runtime),
            db,
            target: Target {
                authority: addr.to_string(),
                addr,
            },
        })
    }
}

/// The limits a load run lifts, as `jungle serve --limit` takes them: the ones per client address (all the
/// load comes from one machine, or through one front door) and the memory bounds (the run holds many rooms).
pub const LIFTED_LIMITS: [&str; 7] = [
    "connections=1000000",
    "connections-per-client=1000000",
    "creates-per-minute=1000000",
    "requests-per-minute=1000000",
    "messages-per-minute=1000000",
    "rooms-memory-mib=1000000",
    "process-memory-mib=0",
];

impl Drop for InProcessServer {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.db.display()));
        }
    }
}
