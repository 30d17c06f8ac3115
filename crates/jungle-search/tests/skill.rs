//! Skill levels: level 1 is beatable by a beginner (it neither always enters the den nor always answers a den
//! threat), level 3 up never miss either, and the levels below 8 are bounded by work, not time.

use std::time::Duration;

use jungle_rules::{Game, Move, Position, Rules};
use jungle_search::{Engine, EngineOptions, Limits};

fn engine(level: u8, fen: &str) -> (Engine, Position, Rules) {
    let rules = Rules::default();
    let pos = Position::from_fen(fen, &rules).unwrap();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        skill_level: level,
        ..EngineOptions::default()
    });
    engine.set_game(&Game::from_position(rules.clone(), pos));
    (engine, pos, rules)
}

/// The moves an engine at `level` plays from `fen` in `tries` searches, each given ample time.
fn moves_played(level: u8, fen: &str, tries: usize) -> Vec<Move> {
    let (mut engine, pos, rules) = engine(level, fen);
    (0..tries)
        .map(|_| {
            let result = engine.go(&Limits::movetime(Duration::from_secs(5)), &mut |_| {});
            let best = result.best_move.expect("a move");
            assert!(pos.is_legal(&rules, best));
            best
        })
        .collect()
}

/// Blue's Lion on d8 may enter Red's den on d9 (or walk to c8, e8 or d7); Red's Rat on a1 is far away.
const DEN_ENTRY: &str = "7/3L3/7/7/7/7/7/7/r6 w";
/// Red's Lion on d2 threatens Blue's den on d1; only Blue's Elephant on e2 can take it (or walk elsewhere).
/// Red's Rat on a9 keeps the capture from ending the game.
const DEN_THREAT: &str = "r6/7/7/7/7/7/7/3lE2/7 w";

#[test]
fn level_one_sometimes_misses_a_den_entry() {
    let played = moves_played(1, DEN_ENTRY, 40);
    let entered = played.iter().filter(|m| m.to_string() == "d8d9").count();
    // Careless on half its moves, and then one of the four moves: it enters about 5 times in 8.
    assert!(
        entered > 0 && entered < played.len(),
        "entered the den {entered} of {} times",
        played.len()
    );
}

#[test]
fn level_one_sometimes_ignores_a_den_threat() {
    let played = moves_played(1, DEN_THREAT, 40);
    let captured = played.iter().filter(|m| m.to_string() == "e2d2").count();
    assert!(
        captured > 0 && captured < played.len(),
        "took the Lion {captured} of {} times",
        played.len()
    );
}

#[test]
fn from_level_three_den_entries_and_threats_are_never_missed() {
    for level in [3, 5, 7] {
        for m in moves_played(level, DEN_ENTRY, 5) {
            assert_eq!(m.to_string(), "d8d9", "level {level}");
        }
        for m in moves_played(level, DEN_THREAT, 5) {
            assert_eq!(m.to_string(), "e2d2", "level {level}");
        }
    }
}

#[test]
fn levels_below_eight_are_bounded_by_nodes_not_time() {
    // The start position: no level runs out of moves to search before its cap.
    let start = jungle_rules::START_FEN;
    for (level, cap) in [(4, 2_500), (5, 5_000), (6, 10_000), (7, 30_000)] {
        let (mut engine, _, _) = engine(level, start);
        let result = engine.go(&Limits::movetime(Duration::from_secs(30)), &mut |_| {});
        // The clock is checked every 1,024 nodes, so the cap may be passed by that much.
        assert!(
            result.nodes <= cap + 1_024,
            "level {level}: {} nodes",
            result.nodes
        );
        assert!(
            result.nodes >= cap / 2,
            "level {level}: {} nodes",
            result.nodes
        );
    }
}
