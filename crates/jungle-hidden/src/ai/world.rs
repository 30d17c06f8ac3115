//! Worlds: complete positions consistent with a view (every unknown piece given an animal), which the open-game
//! engine can search.

use jungle_rules::{Position, Setup};
use rand::Rng;

use super::Belief;
use crate::View;

/// How many draws [`sample`] makes before giving up on an assignment the placement rules refuse.
const TRIES: usize = 16;

/// A position consistent with `view`, the unknown pieces drawn from `belief`; `None` when no valid one was drawn.
pub fn sample(view: &View, belief: &Belief, rng: &mut impl Rng) -> Option<Position> {
    (0..TRIES).find_map(|_| {
        let assignment = belief.sample(rng);
        let mut setup = Setup {
            side_to_move: view.side_to_move(),
            quiet_plies: view.quiet_plies(),
            move_number: view.move_number(),
            ..Setup::default()
        };
        for (sq, seen) in view.pieces() {
            let animal = seen
                .animal
                .or_else(|| assignment.iter().find(|(s, _)| *s == sq).map(|&(_, a)| a))?;
            setup.board[sq.index()] = Some(jungle_rules::Piece::new(seen.side, animal));
        }
        Position::from_setup(&setup, view.rules()).ok()
    })
}
