//! Engine self-play games for a collection. Every move is the engine's own at a fixed node budget (so a
//! collection does not depend on the machine's speed or load); variety comes from the engine too: in the first
//! plies it searches several lines and plays one at random among those within a small margin of the best, so
//! the openings are moves a strong player might choose, not random ones. A game and its number give the same
//! moves on every run.

use jungle_rules::{Game, Move, Rules};
use jungle_search::{Engine, EngineOptions, Limits, Score};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::collection::CollectedGame;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub rules: Rules,
    /// Nodes a move.
    pub nodes: u64,
    /// The plies in which the engine chooses among its best lines; later it plays its best move.
    pub varied_plies: usize,
    /// The lines searched in those plies.
    pub lines: usize,
    /// A line is chosen only within this many centipawns of the best.
    pub margin_cp: i64,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    pub seed: u64,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay {
            rules: Rules::default(),
            nodes: 2_000,
            varied_plies: 16,
            lines: 3,
            margin_cp: 30,
            max_plies: 300,
            seed: 1,
        }
    }
}

impl SelfPlay {
    /// What the header of a collection of these games says.
    pub fn describe(&self) -> String {
        format!(
            "engine self-play: {} nodes a move, one of the best {} lines within {} cp in the first {} plies, \
             a draw after {} plies, seed {}",
            self.nodes, self.lines, self.margin_cp, self.varied_plies, self.max_plies, self.seed
        )
    }

    /// Plays game `number`.
    pub fn play(&self, number: u64) -> CollectedGame {
        let mut rng = StdRng::seed_from_u64(self.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ number);
        let varied = EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: self.lines,
            ..EngineOptions::default()
        };
        let mut engine = Engine::new(varied.clone());
        let mut game = Game::new(self.rules.clone());
        while !game.is_over() && game.moves().len() < self.max_plies {
            if game.moves().len() == self.varied_plies {
                engine.set_options(EngineOptions {
                    multipv: 1,
                    ..varied.clone()
                });
            }
            engine.set_game(&game);
            // The last report of each line is its score at the deepest depth it completed.
            let mut lines: Vec<(Move, Score)> = Vec::new();
            let result = engine.go(&Limits::nodes(self.nodes), &mut |info| {
                if let Some(&first) = info.pv.first() {
                    let index = info.multipv - 1;
                    if index < lines.len() {
                        lines[index] = (first, info.score);
                    } else if index == lines.len() {
                        lines.push((first, info.score));
                    }
                }
            });
            let Some(best) = result.best_move else { break };
            let chosen = if game.moves().len() < self.varied_plies {
                choose(&lines, best, self.margin_cp, &mut rng)
            } else {
                best
            };
            if game.play(chosen).is_err() {
                break;
            }
        }
        CollectedGame {
            winner: game.outcome().and_then(|o| o.winner),
            moves: game.moves().to_vec(),
        }
    }
}

/// One of the lines within `margin_cp` of the best line's score, at random; the best move when there is no
/// line to choose from.
fn choose(lines: &[(Move, Score)], best: Move, margin_cp: i64, rng: &mut StdRng) -> Move {
    let Some(top) = lines.iter().map(|(_, s)| s.order_key()).max() else {
        return best;
    };
    let close: Vec<Move> = lines
        .iter()
        .filter(|(_, s)| top - s.order_key() <= margin_cp)
        .map(|(m, _)| *m)
        .collect();
    close.choose(rng).copied().unwrap_or(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> SelfPlay {
        SelfPlay {
            nodes: 300,
            max_plies: 24,
            varied_plies: 8,
            ..SelfPlay::default()
        }
    }

    #[test]
    fn a_game_is_legal_and_the_same_for_the_same_number() {
        let options = quick();
        let game = options.play(7);
        assert!(!game.moves.is_empty() && game.moves.len() <= 24);
        let mut replay = Game::new(options.rules.clone());
        for m in &game.moves {
            replay.play(*m).unwrap();
        }
        assert_eq!(options.play(7), game);
    }

    #[test]
    fn the_engine_varies_its_openings_between_games() {
        let options = quick();
        let openings: std::collections::BTreeSet<Vec<Move>> = (1..=6)
            .map(|n| options.play(n).moves[..options.varied_plies].to_vec())
            .collect();
        assert!(openings.len() > 1, "six games, one opening: {openings:?}");
    }

    #[test]
    fn a_line_is_chosen_only_within_the_margin() {
        let rules = Rules::default();
        let game = Game::new(rules);
        let moves: Vec<Move> = game.legal_moves().as_slice()[..3].to_vec();
        let lines = vec![
            (moves[0], Score::Cp(50)),
            (moves[1], Score::Cp(30)),
            (moves[2], Score::Cp(-40)),
        ];
        let mut rng = StdRng::seed_from_u64(3);
        let chosen: std::collections::BTreeSet<Move> = (0..100)
            .map(|_| choose(&lines, moves[0], 30, &mut rng))
            .collect();
        assert_eq!(chosen, [moves[0], moves[1]].into_iter().collect());
        assert_eq!(choose(&[], moves[2], 30, &mut rng), moves[2]);
    }
}
