//! `jungle bench [DEPTH] [--threads N] [--hash MB] [--hand]`: searches the fixed bench positions to a fixed depth
//! with the engine's defaults (the learned net under the standard rules, the hand-written evaluation under the
//! others); the last lines are `Nodes searched: N` and `Nodes/second: M`. With one thread, 16 MiB and no
//! `--hand`, N is the search's signature. It is the protocol's `bench` command, run by the same `Session` as
//! `jungle uci`.

use std::process::ExitCode;

use jungle_protocol::{Command, Session};
use jungle_search::{BENCH_DEPTH, Engine, EngineOptions};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Depth of each search in plies.
    #[arg(default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Search threads (the node count is deterministic only with one).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Evaluate by hand under every rule set (`Use NNUE` off) instead of with the learned net where it
    /// applies; the signature is that of the default (the net).
    #[arg(long)]
    hand: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let engine = Engine::new(EngineOptions {
        hash_mb: args.hash as usize,
        threads: usize::from(args.threads),
        use_nnue: !args.hand,
        ..EngineOptions::default()
    });
    let script = format!("{}\n", Command::Bench(Some(args.depth)));
    Session::with_engine(engine, script.as_bytes(), std::io::stdout()).run()?;
    Ok(ExitCode::SUCCESS)
}
