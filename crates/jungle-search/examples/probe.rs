//! Searches one position and prints the progress: `cargo run --release -p jungle-search --example probe -- [depth] [fen] [rules]`.
use jungle_rules::{Game, Position, Rules};
use jungle_search::{Engine, EngineOptions, Limits};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(10);
    let rules: Rules = args
        .get(3)
        .map_or("", String::as_str)
        .parse()
        .expect("rules");
    let pos = match args.get(2) {
        Some(fen) => Position::from_fen(fen, &rules).expect("fen"),
        None => Position::start(&rules),
    };
    let threads = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let mut engine = Engine::new(EngineOptions {
        threads,
        ..EngineOptions::default()
    });
    engine.set_game(&Game::from_position(rules, pos));
    let r = engine.go(&Limits::depth(depth), &mut |i| {
        let pv: Vec<String> = i.pv.iter().map(ToString::to_string).collect();
        println!(
            "depth {} sel {} score {} nodes {} nps {} time {:?} pv {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.nps,
            i.time,
            pv.join(" ")
        );
    });
    println!(
        "best {:?} score {:?} nodes {}",
        r.best_move.map(|m| m.to_string()),
        r.score,
        r.nodes
    );
}
