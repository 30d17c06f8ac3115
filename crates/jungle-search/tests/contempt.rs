//! Contempt: a draw found inside the search is worth less than zero to the side to move at the root (and as
//! much more to the other side); with none it is worth zero to both.

use jungle_rules::{Game, Position, Rules};
use jungle_search::{Engine, EngineOptions, Limits, Score};

#[test]
fn a_draw_by_the_quiet_ply_rule_scores_minus_the_contempt_for_the_root_side() {
    // Two Elephants far apart: every line of four plies is drawn by the quiet-ply rule after the second ply.
    let rules: Rules = "quiet-ply-limit=2".parse().unwrap();
    for (side, fen) in [
        ("Blue", "6e/7/7/7/7/7/7/7/E6 w"),
        ("Red", "6e/7/7/7/7/7/7/7/E6 b"),
    ] {
        let pos = Position::from_fen(fen, &rules).unwrap();
        for contempt in [0, 40, -25] {
            let mut engine = Engine::new(EngineOptions {
                hash_mb: 1,
                contempt,
                ..EngineOptions::default()
            });
            engine.set_game(&Game::from_position(rules.clone(), pos));
            let result = engine.go(&Limits::depth(4), &mut |_| {});
            assert_eq!(
                result.score,
                Score::Cp(-contempt),
                "{side} to move, contempt {contempt}"
            );
        }
    }
}

#[test]
fn contempt_is_clamped_to_its_range() {
    let options = EngineOptions {
        contempt: 50_000,
        ..EngineOptions::default()
    }
    .clamped();
    assert_eq!(options.contempt, EngineOptions::MAX_CONTEMPT);
}
