//! The engine solves the tactical positions of `tests/data/tactics.txt` (forced den entries and wins in at most
//! five plies under several rule sets) at a modest fixed depth.

use jungle_rules::{Game, Position, Rules};
use jungle_search::{Engine, EngineOptions, Features, Limits, Score};

#[test]
fn tactical_positions_are_solved() {
    let text = include_str!("data/tactics.txt");
    let mut cases = 0;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 5, "line {}: {line}", number + 1);
        let rules: Rules = fields[0].parse().unwrap();
        let pos = Position::from_fen(fields[1], &rules).unwrap();
        let depth: u32 = fields[2].parse().unwrap();
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 4,
            ..EngineOptions::default()
        });
        engine.set_game(&Game::from_position(rules.clone(), pos));
        let result = engine.go(&Limits::depth(depth), &mut |_| {});
        let best = result.best_move.expect("a move");
        assert!(pos.is_legal(&rules, best));
        let context = format!("line {}: {line}: got {best} {:?}", number + 1, result.score);
        if fields[3] != "*" {
            assert_eq!(best.to_string(), fields[3], "{context}");
        }
        let (kind, n) = fields[4].rsplit_once(' ').unwrap();
        let n: i32 = n.parse().unwrap();
        match kind {
            "win" => assert_eq!(result.score, Score::Mate(n), "{context}"),
            "lose" => assert_eq!(result.score, Score::Mate(-n), "{context}"),
            "no-win-within" => {
                assert!(
                    !matches!(result.score, Score::Mate(m) if m > 0 && m <= n),
                    "{context}"
                )
            }
            other => panic!("line {}: unknown expectation {other}", number + 1),
        }
        cases += 1;
    }
    assert!(cases >= 10);
}

/// Issue 17 item 5 (depth 1 beat depth 3 by den entry): here Blue's Dog on e2 is all that keeps the Red
/// Elephant on f2 from stepping to e2, two steps from Blue's den, from where it threatens e1 and d2 at once.
/// Red's quiet approach was pruned as a late quiet move at the node below the root, so at depth 3 Blue moved
/// the Dog away (e2e3, then mated in 3). Quiet moves to two steps of the enemy den are no longer pruned.
#[test]
fn a_double_den_threat_two_steps_away_is_seen_at_depth_3() {
    let rules: Rules = "modern".parse().unwrap();
    let pos =
        Position::from_fen("l4t1/1dpw3/r3Lc1/7/7/5R1/E2P3/TCW1De1/7 w 26 14", &rules).unwrap();
    // The hand-written evaluation, with which the blunder was found: the control below needs an evaluation
    // under which the pruned approach loses (the modern rules' net judges the position otherwise).
    let depth_3 = |features: Features| {
        let mut engine = Engine::new(EngineOptions {
            use_nnue: false,
            ..EngineOptions::default()
        });
        engine.set_features(features);
        engine.set_game(&Game::from_position(rules.clone(), pos));
        engine.go(&Limits::depth(3), &mut |_| {})
    };
    let result = depth_3(Features::ALL);
    let best = result.best_move.expect("a move").to_string();
    assert_ne!(best, "e2e3", "{result:?}");
    // The move kept does not lose by force within the horizon either.
    assert!(
        !matches!(result.score, Score::Mate(n) if n < 0),
        "{result:?}"
    );
    // Without the feature the old blunder comes back: the test can fail.
    let without = depth_3(Features {
        den_approach: false,
        ..Features::ALL
    });
    assert_eq!(without.best_move.expect("a move").to_string(), "e2e3");
}
