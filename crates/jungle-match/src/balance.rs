//! The balance check of generated openings: a shallow search of the built-in engine must find neither side
//! already clearly winning, so that an opening tests the engines rather than the dice.

use jungle_rules::Game;
use jungle_search::{Engine, EngineOptions, Limits, Score};

/// Searches to `depth` and accepts the position when the score is within ±`margin` centipawns.
#[derive(Debug)]
pub struct BalanceCheck {
    engine: Engine,
    depth: u32,
    margin: i32,
}

impl BalanceCheck {
    pub fn new(depth: u32, margin: i32) -> BalanceCheck {
        // The hand-written evaluation, not the engine's default (the learned net under the standard rules):
        // a seed (`-srand`) keeps generating the openings of the matches measured before the switch.
        let options = EngineOptions {
            hash_mb: 4,
            use_nnue: false,
            ..EngineOptions::default()
        };
        BalanceCheck {
            engine: Engine::new(options),
            depth,
            margin,
        }
    }

    /// The score the shallow search gives the side to move.
    pub fn score(&mut self, game: &Game) -> Score {
        self.engine.clear();
        self.engine.set_game(game);
        self.engine
            .go(&Limits::depth(self.depth), &mut |_| {})
            .score
    }

    pub fn is_balanced(&mut self, game: &Game) -> bool {
        !game.is_over() && matches!(self.score(game), Score::Cp(cp) if cp.abs() <= self.margin)
    }
}

#[cfg(test)]
mod tests {
    use jungle_rules::{Position, Rules};

    use super::*;

    #[test]
    fn the_start_is_balanced_and_a_lost_position_is_not() {
        let rules = Rules::default();
        let mut check = BalanceCheck::new(3, 150);
        assert!(check.is_balanced(&Game::new(rules.clone())));
        // Red has only its rat left against Blue's full army.
        let lopsided = Position::from_fen("r6/7/7/7/7/7/E1W1P1R/1C3D1/T5L w 0 1", &rules).unwrap();
        assert!(!check.is_balanced(&Game::from_position(rules, lopsided)));
    }
}
