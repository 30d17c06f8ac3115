//! The bench without the CLI: `cargo run --release -p jungle-search --example benchrun -- [depth] [threads]`.
use jungle_search::{BENCH_DEPTH, EngineOptions, bench};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args
        .get(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(BENCH_DEPTH);
    let threads = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
    let report = bench(
        depth,
        &EngineOptions {
            threads,
            ..EngineOptions::default()
        },
        |i, _, n| {
            if std::env::var_os("VERBOSE").is_some() {
                eprintln!("{i} {n}");
            }
        },
    );
    println!("Total time (ms) : {}", report.elapsed.as_millis());
    println!("Nodes searched: {}", report.nodes);
    println!("Nodes/second: {}", report.nodes_per_second());
}
