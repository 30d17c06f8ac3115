//! One game under a real clock (both sides the engine), checking nobody oversteps its time:
//! `cargo run --release -p jungle-search --example clockgame -- TIME_MS INC_MS`.
use std::time::{Duration, Instant};

use jungle_rules::{BySide, Game, Rules, Side};
use jungle_search::{Clock, Engine, EngineOptions, Limits};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let time: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let inc: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut clock = BySide::new(Duration::from_millis(time), Duration::from_millis(time));
    let mut engine = Engine::new(EngineOptions {
        move_overhead_ms: 10,
        ..EngineOptions::default()
    });
    let mut game = Game::new(Rules::default());
    let mut worst = Duration::MAX;
    while !game.is_over() && game.moves().len() < 300 {
        let side = game.side_to_move();
        engine.set_game(&game);
        let limits = Limits {
            clock: Some(Clock {
                time: clock,
                increment: BySide::new(Duration::from_millis(inc), Duration::from_millis(inc)),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let started = Instant::now();
        let m = engine.go(&limits, &mut |_| {}).best_move.unwrap();
        let used = started.elapsed();
        if used > clock[side] {
            println!(
                "{side} lost on time at ply {} ({used:?} > {:?})",
                game.moves().len(),
                clock[side]
            );
            return;
        }
        clock[side] = clock[side] - used + Duration::from_millis(inc);
        worst = worst.min(clock[side]);
        game.play(m).unwrap();
    }
    println!(
        "{} plies, outcome {:?}, clocks left blue {:?} red {:?}, lowest {:?}",
        game.moves().len(),
        game.outcome(),
        clock[Side::Blue],
        clock[Side::Red],
        worst
    );
}
