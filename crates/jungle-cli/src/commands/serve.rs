//! `jungle serve`: the web platform — play the engine or a friend in the browser, watch, replay, analyse.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::input::bad_input;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The address to listen on (use 0.0.0.0:PORT to let other machines in).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Where games are kept: a SQLite file (created if missing), or a PostgreSQL database as a URL,
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?pool_max=N]` (several servers may share one).
    #[arg(long, default_value = "jungle-games.db")]
    pub db: PathBuf,
    /// At most this many engine searches at once (default: all cores but one).
    #[arg(long)]
    pub engine_threads: Option<usize>,
    /// Threads that serve connections (default: one per core). Several nodes on one machine share its
    /// cores: give each its share (docs/deployment.md, "One worker thread a node").
    #[arg(long)]
    pub worker_threads: Option<usize>,
    /// Log lines on stderr: `text` (readable) or `json` (one object per line, for production). `RUST_LOG`
    /// sets the level (default info).
    #[arg(long, default_value = "text")]
    pub log_format: jungle_server::logging::LogFormat,
    /// The origin browsers reach the server at, e.g. `https://jungle.example` (behind a proxy, or on a
    /// domain name): websockets from pages of any other origin are refused.
    #[arg(long)]
    pub public_origin: Option<String>,
    /// Changes one limit, `NAME=VALUE` (repeatable; docs/security.md lists every limit and its default).
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    pub limits: Vec<String>,
    /// A reverse proxy in front of this server (e.g. `127.0.0.1` for nginx on the same machine), repeatable:
    /// for requests from it, the client is the address it appends to `X-Forwarded-For`, so per-client limits
    /// count each player, not the proxy. Never name an address clients can connect from themselves.
    #[arg(long = "trust-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<IpAddr>,
    /// Development: serve the pages, styles and scripts from this folder (e.g.
    /// `crates/jungle-server/static`), read on every request, so an edit needs no rebuild.
    #[arg(long, value_name = "DIR")]
    pub static_dir: Option<PathBuf>,
    /// Work with other `jungle serve` nodes on the same database through this NATS broker, e.g.
    /// `nats://127.0.0.1:4222` (any node then serves any game; docs/deployment.md). None: a single server.
    #[arg(long, value_name = "URL")]
    pub broker: Option<String>,
    /// This node's name among the nodes (default: a random one). Only with `--broker`.
    #[arg(long, value_name = "NAME", requires = "broker")]
    pub node_id: Option<String>,
    /// Endgame tables made by `jungle tb generate` (all under one rule set) for the tablebase explorer
    /// (`/tablebase` and the analysis board): every move of a position they cover, with its result and
    /// distance. Without it the explorer says no position is covered.
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
}

/// More threads than this serve no machine better; a typo of many more would exhaust its memory.
const MAX_WORKER_THREADS: usize = 1024;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let addr: SocketAddr = args
        .addr
        .parse()
        .map_err(|e| bad_input(format!("--addr \"{}\": {e}", args.addr)))?;
    if args.engine_threads == Some(0) {
        return Err(bad_input("--engine-threads must be at least 1"));
    }
    if let Some(threads) = args.worker_threads
        && !(1..=MAX_WORKER_THREADS).contains(&threads)
    {
        return Err(bad_input(format!(
            "--worker-threads {threads}: should be 1 to {MAX_WORKER_THREADS}"
        )));
    }
    let mut limits = jungle_server::Limits::default();
    for setting in &args.limits {
        limits
            .set(setting)
            .map_err(|e| bad_input(format!("--limit: {e}")))?;
    }
    if let Some(origin) = &args.public_origin
        && !(origin.starts_with("http://") || origin.starts_with("https://"))
    {
        return Err(bad_input(format!(
            "--public-origin \"{origin}\" should be like https://jungle.example"
        )));
    }
    if let Some(dir) = &args.static_dir
        && !dir.join("game.html").is_file()
    {
        return Err(bad_input(format!(
            "--static-dir {}: no game.html there (point it at crates/jungle-server/static)",
            dir.display()
        )));
    }
    let cluster = match &args.broker {
        Some(url) if !(url.starts_with("nats://") || url.starts_with("tls://")) => {
            return Err(bad_input(format!(
                "--broker \"{url}\" should be like nats://127.0.0.1:4222"
            )));
        }
        Some(url) => {
            let mut cluster = jungle_server::ClusterConfig::new(url.clone());
            if let Some(name) = &args.node_id {
                if name.is_empty()
                    || name.len() > 64
                    || !name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
                {
                    return Err(bad_input(format!(
                        "--node-id \"{name}\" should be 1 to 64 letters, digits, '-', '_' or '.'"
                    )));
                }
                cluster.node_id = name.clone();
            }
            Some(cluster)
        }
        None => None,
    };
    jungle_server::logging::init(args.log_format);
    let config = jungle_server::Config {
        engine_threads: args
            .engine_threads
            .unwrap_or_else(jungle_server::default_engine_threads),
        worker_threads: args.worker_threads,
        limits,
        public_origin: args.public_origin.clone(),
        static_dir: args.static_dir.clone(),
        cluster,
        trusted_proxies: args.trusted_proxies.clone(),
        tablebases: args.tablebases.clone(),
        ..jungle_server::Config::new(addr, args.db.clone())
    };
    jungle_server::run_blocking(&config, |bound| {
        println!(
            "jungle serve: open http://{bound}/ (games are saved in {})",
            jungle_server::Store::describe(&args.db)
        );
        println!("press Ctrl-C to stop");
    })?;
    Ok(ExitCode::SUCCESS)
}
