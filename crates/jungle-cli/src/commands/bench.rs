//! `jungle bench [DEPTH] [--threads N] [--hash MB]`: searches the fixed bench positions to a fixed depth;
//! the last lines are `Nodes searched: N` and `Nodes/second: M`. With one thread N is the search's signature.

use std::process::ExitCode;

use jungle_search::{BENCH_DEPTH, EngineOptions, bench};

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
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let options = EngineOptions {
        hash_mb: args.hash as usize,
        threads: usize::from(args.threads),
        ..EngineOptions::default()
    };
    let count = jungle_search::bench_positions().len();
    let report = bench(args.depth, &options, |i, position, nodes| {
        let rules = if position.rules.is_empty() {
            "standard"
        } else {
            position.rules
        };
        println!(
            "position {:>2}/{count} {:<10} {:>12} nodes  {} ({})",
            i + 1,
            rules,
            nodes,
            position.fen,
            position.what
        );
    });
    say!("Total time (ms) : {}", report.elapsed.as_millis());
    say!("Nodes searched: {}", report.nodes);
    say!("Nodes/second: {}", report.nodes_per_second());
    Ok(ExitCode::SUCCESS)
}
