//! Twin games, for the tests that hidden information never leaks: two games with the same Blue setup and
//! different Red setups, played with the same moves. Whatever Blue or a spectator is sent must be the same in
//! both for as long as their public moves agree.

use jungle_rules::{Move, Rules, Side};
use rand::Rng;

use crate::{Arrangement, HiddenGame};

/// Two games that differ only in Red's (random) setup.
#[derive(Clone, Debug)]
pub struct Twins {
    pub games: [HiddenGame; 2],
}

impl Twins {
    pub fn random(rules: &Rules, rng: &mut impl Rng) -> Twins {
        let blue = Arrangement::random(rules, Side::Blue, rng);
        let mut game = || {
            let red = Arrangement::random(rules, Side::Red, rng);
            HiddenGame::new(rules.clone(), blue.clone(), red).expect("random setups are valid")
        };
        Twins {
            games: [game(), game()],
        }
    }

    /// A random move legal in both games; `None` once either is over or they share no legal move.
    pub fn shared_move(&self, rng: &mut impl Rng) -> Option<Move> {
        let [a, b] = &self.games;
        let shared: Vec<Move> = a
            .legal_moves()
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| b.legal_moves().contains(m))
            .collect();
        (!shared.is_empty()).then(|| shared[rng.random_range(0..shared.len())])
    }
}
