//! The bench without the CLI: `cargo run --release -p jungle-search --example benchrun -- [depth] [threads]`.
use std::ops::ControlFlow;

use jungle_search::{BENCH_DEPTH, Engine, EngineOptions, bench};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args
        .get(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(BENCH_DEPTH);
    let threads = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
    let mut engine = Engine::new(EngineOptions {
        threads,
        ..EngineOptions::default()
    });
    let report = bench(&mut engine, depth, |i, _, n| {
        if std::env::var_os("VERBOSE").is_some() {
            eprintln!("{i} {n}");
        }
        ControlFlow::Continue(())
    });
    println!("Total time (ms) : {}", report.elapsed.as_millis());
    println!("Nodes searched: {}", report.nodes);
    println!("Nodes/second: {}", report.nodes_per_second());
}
