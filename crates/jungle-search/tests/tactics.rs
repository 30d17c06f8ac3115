//! The engine solves the tactical positions of `tests/data/tactics.txt` (forced den entries and wins in at most
//! five plies under several rule sets) at a modest fixed depth.

use jungle_rules::{Game, Position, Rules};
use jungle_search::{Engine, EngineOptions, Limits, Score};

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
