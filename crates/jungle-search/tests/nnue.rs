//! The learned evaluation inside the engine: used for the rules it was trained on, by the search too.

use jungle_rules::{Game, Position, Rules};
use jungle_search::{Engine, EngineOptions, Evaluator, Limits, Network};

fn engine(use_nnue: bool) -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 4,
        use_nnue,
        ..EngineOptions::default()
    })
}

#[test]
fn the_net_evaluates_the_rules_it_was_trained_on_and_only_those() {
    let fen = "l4ct/1d5/rp2w1e/7/7/7/2P2R1/ECW2D1/T5L b 9 5";
    let net = Network::embedded();
    for rules in ["standard", "modern", "leiden"] {
        let rules: Rules = rules.parse().unwrap();
        let pos = Position::from_fen(fen, &rules).unwrap();
        let mut engine = engine(true);
        engine.set_game(&Game::from_position(rules.clone(), pos));
        let expected = if &rules == net.rules() {
            net.evaluate(&pos)
        } else {
            Evaluator::new(&rules).evaluate(&pos)
        };
        assert_eq!(engine.evaluate(), expected, "{rules}");
    }
}

/// The default options evaluate with the built-in net under the standard rules (the net won the SPRTs in
/// docs/engine.md) and by hand under every rule set it was not trained on; `use_nnue: false` is the
/// hand-written evaluation everywhere.
#[test]
fn by_default_the_net_evaluates_the_standard_rules_and_the_hand_written_evaluation_the_others() {
    assert!(EngineOptions::default().use_nnue);
    assert_eq!(Network::embedded().rules(), &Rules::default());
    let fen = "l4ct/1d5/rp2w1e/7/7/7/2P2R1/ECW2D1/T5L b 9 5";
    for (rules, net) in [
        ("standard", true),
        ("modern", false),
        ("leiden", false),
        ("dog-swims=true", false),
    ] {
        let rules: Rules = rules.parse().unwrap();
        let pos = Position::from_fen(fen, &rules).unwrap();
        let game = Game::from_position(rules.clone(), pos);
        let mut default = Engine::new(EngineOptions::default());
        default.set_game(&game);
        assert_eq!(default.active_network().is_some(), net, "{rules}");
        let hand = Evaluator::new(&rules).evaluate(&pos);
        let expected = if net {
            Network::embedded().evaluate(&pos)
        } else {
            hand
        };
        assert_eq!(default.evaluate(), expected, "{rules}");
        let mut by_hand = engine(false);
        by_hand.set_game(&game);
        assert!(by_hand.active_network().is_none());
        assert_eq!(by_hand.evaluate(), hand, "{rules}");
    }
}

#[test]
fn the_search_uses_the_net_and_plays_legal_moves() {
    let rules = Rules::default();
    let mut game = Game::new(rules.clone());
    let mut with = engine(true);
    let mut without = engine(false);
    let mut differed = false;
    for _ in 0..12 {
        with.set_game(&game);
        without.set_game(&game);
        let a = with.go(&Limits::depth(6), &mut |_| {});
        let b = without.go(&Limits::depth(6), &mut |_| {});
        differed |= a.nodes != b.nodes;
        let m = a.best_move.expect("the game goes on");
        assert!(game.position().is_legal(&rules, m));
        game.play(m).unwrap();
        if game.is_over() {
            break;
        }
    }
    assert!(
        differed,
        "the net's search visited the same trees as the hand-written one"
    );
}

#[test]
fn an_unreadable_eval_file_leaves_the_hand_written_evaluation() {
    let dir = std::env::temp_dir().join(format!("jungle-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.nnue");
    let bytes = Network::embedded().to_bytes();
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    let mut engine = Engine::new(EngineOptions {
        use_nnue: true,
        eval_file: Some(path.clone()),
        ..EngineOptions::default()
    });
    let error = engine.take_network_error().expect("the file is refused");
    assert!(
        error.contains("broken.nnue") && error.contains("truncated"),
        "{error}"
    );
    assert!(engine.active_network().is_none());
    let game = Game::new(Rules::default());
    engine.set_game(&game);
    assert_eq!(
        engine.evaluate(),
        Evaluator::new(&Rules::default()).evaluate(game.position())
    );
    // A readable file is used.
    std::fs::write(&path, Network::embedded().to_bytes()).unwrap();
    engine.set_options(EngineOptions {
        eval_file: Some(path.with_extension("other")),
        ..engine.options().clone()
    });
    assert!(engine.take_network_error().is_some());
    std::fs::rename(&path, path.with_extension("other")).unwrap();
    engine.set_options(EngineOptions {
        eval_file: None,
        ..engine.options().clone()
    });
    engine.set_options(EngineOptions {
        eval_file: Some(path.with_extension("other")),
        ..engine.options().clone()
    });
    assert_eq!(engine.take_network_error(), None);
    assert!(engine.active_network().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
