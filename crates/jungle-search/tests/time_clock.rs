//! The engine under a game clock, through the public API: a clock too short to pay the Move Overhead still gets
//! a legal move after depth 1 (no time is planned beyond it), and absurd clocks (0 ms, centuries, huge
//! increments) never panic. No assertion here depends on how fast the machine is.

use std::time::Duration;

use jungle_rules::{BySide, Game, Rules};
use jungle_search::{Clock, Engine, EngineOptions, Limits, SearchResult};

fn clock_limits(blue_ms: u64, red_ms: u64, inc_ms: u64, moves_to_go: Option<u32>) -> Limits {
    Limits {
        clock: Some(Clock {
            time: BySide::new(
                Duration::from_millis(blue_ms),
                Duration::from_millis(red_ms),
            ),
            increment: BySide::new(Duration::from_millis(inc_ms), Duration::from_millis(inc_ms)),
            moves_to_go,
        }),
        ..Limits::default()
    }
}

fn search(game: &Game, limits: &Limits) -> SearchResult {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        ..EngineOptions::default()
    });
    engine.set_game(game);
    let result = engine.go(limits, &mut |_| {});
    let best = result.best_move.expect("the game is not over");
    assert!(game.legal_moves().contains(best), "illegal {best:?}");
    result
}

/// A few positions: the start and some plies into the game, for both sides to move.
fn games() -> Vec<Game> {
    let mut out = Vec::new();
    for rules_text in ["standard", "modern"] {
        let rules: Rules = rules_text.parse().unwrap();
        let mut game = Game::new(rules);
        for ply in 0..7 {
            if ply % 3 == 0 {
                out.push(game.clone());
            }
            let moves = game.legal_moves();
            game.play(moves[(ply * 7) % moves.len()]).unwrap();
        }
    }
    out
}

#[test]
fn a_clock_below_the_overhead_plays_after_depth_one() {
    // Default Move Overhead is 30 ms: 0, 1 and 30 ms leave nothing to plan, whatever the increment.
    for game in games() {
        for (ms, inc) in [(0, 0), (1, 0), (1, 20), (30, 0), (30, 1_000_000)] {
            for moves_to_go in [None, Some(1), Some(40)] {
                let result = search(&game, &clock_limits(ms, ms, inc, moves_to_go));
                assert_eq!(result.depth, 1, "{ms} ms +{inc} mtg {moves_to_go:?}");
            }
        }
    }
}

#[test]
fn the_reported_time_loss_position_gets_no_time_beyond_depth_one() {
    // 2 s + 20 ms, the mover's clock down to 50 ms: the overheads of the moves ahead exceed the clock plus the
    // increments to come, so the engine moves at once and the clock recovers by the increment.
    for game in games() {
        let result = search(&game, &clock_limits(50, 50, 20, None));
        assert_eq!(result.depth, 1);
    }
}

#[test]
fn enormous_clocks_do_not_overflow() {
    let game = Game::new(Rules::default());
    for (ms, inc) in [
        (u64::MAX, 0),
        (u64::MAX, u64::MAX),
        (1, u64::MAX),
        (1 << 50, 1 << 50),
    ] {
        for moves_to_go in [None, Some(0), Some(1), Some(u32::MAX)] {
            let limits = Limits {
                depth: Some(2),
                ..clock_limits(ms, ms, inc, moves_to_go)
            };
            let result = search(&game, &limits);
            assert!(result.depth >= 1 && result.depth <= 2, "{ms} +{inc}");
        }
    }
}

#[test]
fn only_the_side_to_moves_clock_counts() {
    // Blue to move with a long clock, Red's nearly empty: Blue is not rushed into depth 1 (a fixed depth keeps
    // this independent of the machine's speed; the hard limit is far away).
    let game = Game::new(Rules::default());
    let limits = Limits {
        depth: Some(3),
        ..clock_limits(3_600_000, 1, 0, None)
    };
    assert_eq!(search(&game, &limits).depth, 3);
    // Red to move with the empty clock plays after depth 1.
    let mut red = game.clone();
    red.play(game.legal_moves()[0]).unwrap();
    assert_eq!(search(&red, &clock_limits(3_600_000, 1, 0, None)).depth, 1);
}
