//! Prints positions from engine self-play at a weak skill level, for the bench list:
//! `cargo run --release -p jungle-search --example genpos -- RULES SEED PLIES...`.
use std::time::Duration;

use jungle_rules::{Game, Rules};
use jungle_search::{Engine, EngineOptions, Limits};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: Rules = args[1].parse().expect("rules");
    let seed: u64 = args[2].parse().expect("seed");
    let plies: Vec<usize> = args[3..].iter().map(|p| p.parse().expect("ply")).collect();
    let mut engine = Engine::new(EngineOptions {
        skill_level: 5,
        hash_mb: 4,
        ..EngineOptions::default()
    });
    let mut game = Game::new(rules);
    let mut x = seed;
    for ply in 0..*plies.iter().max().unwrap_or(&0) {
        if game.is_over() {
            break;
        }
        engine.set_game(&game);
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = if ply < 4 {
            let moves = game.legal_moves();
            moves[(x >> 33) as usize % moves.len()]
        } else {
            engine
                .go(
                    &Limits {
                        depth: Some(5),
                        movetime: Some(Duration::from_millis(200)),
                        ..Limits::default()
                    },
                    &mut |_| {},
                )
                .best_move
                .unwrap()
        };
        game.play(m).unwrap();
        if plies.contains(&(ply + 1)) && !game.is_over() {
            println!(
                "\"{}\", \"{}\", \"ply {}\";",
                args[1],
                game.position(),
                ply + 1
            );
        }
    }
}
