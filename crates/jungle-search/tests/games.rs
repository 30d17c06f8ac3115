//! Many short games from random positions at tiny limits under every preset and more options: every move the
//! engine returns is legal, and it returns one whenever the game is not over.

use jungle_rules::{Game, Rules};
use jungle_search::{Engine, EngineOptions, Limits};

/// A small deterministic generator, so a failure can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn every_bestmove_is_legal_in_short_games_under_every_preset() {
    let rule_sets = [
        "standard",
        "modern",
        "leiden",
        "mistboard",
        "animal-checkers",
        "dog-swims=true,leopard-jumps=true,rat-from-water=all",
        "universal-traps=true,trap-max-rank=4,capture-all-wins=false",
        "lion-jumps-horizontally=false,elephant-captures-rat=false,repetition-draw=2,quiet-ply-limit=20",
    ];
    let mut rng = Lcg(7);
    let mut moves_checked = 0;
    for rules_text in rule_sets {
        let rules: Rules = rules_text.parse().unwrap();
        for game_number in 0..6 {
            let mut game = Game::new(rules.clone());
            // A random opening of 0..=24 plies.
            for _ in 0..rng.next(25) {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.next(moves.len())]).unwrap();
            }
            let mut engines = [0, 1].map(|i| {
                Engine::new(EngineOptions {
                    hash_mb: 1,
                    skill_level: if i == 0 {
                        8
                    } else {
                        1 + (game_number % 8) as u8
                    },
                    multipv: 1 + game_number % 2,
                    ..EngineOptions::default()
                })
            });
            for ply in 0..40 {
                let engine = &mut engines[ply % 2];
                engine.set_game(&game);
                let limits = if ply % 3 == 0 {
                    Limits::depth(3)
                } else {
                    Limits::nodes(1500)
                };
                let result = engine.go(&limits, &mut |_| {});
                match result.best_move {
                    Some(m) => {
                        game.play(m).unwrap_or_else(|e| {
                            panic!("{rules_text}: {} {m}: {e}", game.position())
                        });
                        moves_checked += 1;
                    }
                    None => {
                        assert!(
                            game.is_over(),
                            "{rules_text}: no move in {}",
                            game.position()
                        );
                        break;
                    }
                }
                if game.is_over() {
                    break;
                }
            }
        }
    }
    assert!(moves_checked > 500, "{moves_checked}");
}
