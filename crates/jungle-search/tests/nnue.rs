//! The learned evaluation inside the engine: used for the rules it was trained on, by the search too.

use std::sync::Arc;

use jungle_rules::{Game, Position, Preset, Rules};
use jungle_search::{Engine, EngineOptions, Evaluator, Limits, Network};

fn engine(use_nnue: bool) -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 4,
        use_nnue,
        ..EngineOptions::default()
    })
}

/// The presets with a built-in net: each one's net won an SPRT against the hand-written evaluation under its
/// rules (docs/engine.md). Today that is every preset; an option string that is no preset is evaluated by hand.
const PRESETS_WITH_A_NET: [Preset; 5] = [
    Preset::Standard,
    Preset::Modern,
    Preset::Leiden,
    Preset::Mistboard,
    Preset::AnimalCheckers,
];

fn standard_net() -> &'static Arc<Network> {
    Network::built_in(&Rules::default()).expect("the standard rules have a net")
}

#[test]
fn an_eval_file_evaluates_the_rules_it_was_trained_on_and_only_those() {
    let fen = "l4ct/1d5/rp2w1e/7/7/7/2P2R1/ECW2D1/T5L b 9 5";
    let dir = std::env::temp_dir().join(format!("jungle-nnue-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("standard.nnue");
    std::fs::write(&path, standard_net().to_bytes()).unwrap();
    let net = Network::load(&path).unwrap();
    for (rules, serves) in [
        ("standard", true),
        ("quiet-ply-limit=50", true),
        ("modern", false),
        ("leiden", false),
        ("dog-swims=true", false),
    ] {
        let rules: Rules = rules.parse().unwrap();
        assert_eq!(net.serves(&rules), serves, "{rules}");
        let pos = Position::from_fen(fen, &rules).unwrap();
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 4,
            eval_file: Some(path.clone()),
            ..EngineOptions::default()
        });
        engine.set_game(&Game::from_position(rules.clone(), pos));
        assert_eq!(engine.active_network().is_some(), serves, "{rules}");
        let expected = if serves {
            net.evaluate(&pos)
        } else {
            Evaluator::new(&rules).evaluate(&pos)
        };
        assert_eq!(engine.evaluate(), expected, "{rules}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The default options evaluate with the built-in net of the game's rules (the presets of
/// `PRESETS_WITH_A_NET`, also under other draw rules) and by hand under every other rule set;
/// `use_nnue: false` is the hand-written evaluation everywhere.
#[test]
fn by_default_each_preset_with_a_net_is_evaluated_by_it_and_every_other_rule_set_by_hand() {
    assert!(EngineOptions::default().use_nnue);
    let mut strings: Vec<String> = Preset::ALL.iter().map(|p| p.name().to_string()).collect();
    strings.extend(
        Preset::ALL
            .iter()
            .map(|p| format!("{},repetition-draw=0", p.name())),
    );
    strings.extend(["dog-swims=true", "modern,leopard-jumps=true"].map(String::from));
    for text in strings {
        let rules: Rules = text.parse().unwrap();
        let preset = Preset::ALL.into_iter().find(|p| {
            let mut options = *rules.options();
            options.repetition_draw = Rules::default().options().repetition_draw;
            Rules::preset(*p).options() == &options
        });
        let has_net = preset.is_some_and(|p| PRESETS_WITH_A_NET.contains(&p));
        let pos = Position::start(&rules);
        let game = Game::from_position(rules.clone(), pos);
        let mut default = Engine::new(EngineOptions::default());
        default.set_game(&game);
        assert_eq!(default.active_network().is_some(), has_net, "{text}");
        let hand = Evaluator::new(&rules).evaluate(&pos);
        match default.active_network() {
            Some(net) => {
                assert!(net.serves(&rules), "{text}");
                assert_eq!(default.evaluate(), net.evaluate(&pos), "{text}");
            }
            None => assert_eq!(default.evaluate(), hand, "{text}"),
        }
        let mut by_hand = engine(false);
        by_hand.set_game(&game);
        assert!(by_hand.active_network().is_none());
        assert_eq!(by_hand.evaluate(), hand, "{text}");
    }
    // Each built-in net is its preset's, and the list above is the whole list.
    let built_in: Vec<Preset> = Network::built_in_nets().iter().map(|(p, _)| *p).collect();
    assert_eq!(built_in, PRESETS_WITH_A_NET);
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
    let bytes = standard_net().to_bytes();
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
    std::fs::write(&path, standard_net().to_bytes()).unwrap();
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
