//! `jungle serve`: the web platform — play the engine or a friend in the browser, watch, replay, analyse.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::input::bad_input;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The address to listen on (use 0.0.0.0:PORT to let other machines in).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The SQLite database file of games (created if missing).
    #[arg(long, default_value = "jungle-games.db")]
    pub db: PathBuf,
    /// At most this many engine searches at once (default: all cores but one).
    #[arg(long)]
    pub engine_threads: Option<usize>,
    /// Log lines on stderr: `text` (readable) or `json` (one object per line, for production). `RUST_LOG`
    /// sets the level (default info).
    #[arg(long, default_value = "text")]
    pub log_format: jungle_server::logging::LogFormat,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let addr: SocketAddr = args
        .addr
        .parse()
        .map_err(|e| bad_input(format!("--addr \"{}\": {e}", args.addr)))?;
    if args.engine_threads == Some(0) {
        return Err(bad_input("--engine-threads must be at least 1"));
    }
    jungle_server::logging::init(args.log_format);
    let config = jungle_server::Config {
        addr,
        db: args.db.clone(),
        engine_threads: args
            .engine_threads
            .unwrap_or_else(jungle_server::default_engine_threads),
    };
    jungle_server::run_blocking(&config, |bound| {
        println!(
            "jungle serve: open http://{bound}/ (games are saved in {})",
            args.db.display()
        );
        println!("press Ctrl-C to stop");
    })?;
    Ok(ExitCode::SUCCESS)
}
