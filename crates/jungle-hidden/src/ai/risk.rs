//! The danger the world searched does not see: after a move, a piece of ours standing next to an unknown enemy
//! piece that the world says cannot capture it may still be captured, because the world's animal for that piece
//! is only one guess. The search of one world is blind to it — an unknown Elephant took the AI's Lion in about a
//! third of the games against the baseline (docs/hidden.md) — so the top levels weigh their best few root moves
//! by it (`LevelPlan::risk_percent`).

use jungle_rules::{Move, Position, Rules, Side, Square};

use super::Belief;
use crate::View;
use crate::moves;

/// The expected material (the engine's values by rank) the AI loses to an attack right after its move `m` in
/// `world`, over what `world` already expects: for each piece of the AI next to unknown enemy pieces the world
/// says cannot take it, its value times the belief's probability that one of them can. (Counting also the
/// chance that an attack of ours on an unknown piece is lost scored less: docs/hidden.md.)
pub fn unseen_danger(view: &View, belief: &Belief, world: &Position, m: Move) -> i32 {
    let rules = view.rules();
    let us = world.side_to_move();
    let (after, _) = moves::resolve(world, rules, m);
    let mut danger = 0.0;
    for square in Square::all() {
        let Some(piece) = after.piece_at(square) else {
            continue;
        };
        if piece.side != us {
            continue;
        }
        let mut safe = 1.0;
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let Some(from) = square.offset(df, dr) else {
                continue;
            };
            safe *= 1.0 - unseen_capture(view, belief, &after, rules, !us, from, square);
        }
        let value = jungle_search::EVAL_WEIGHTS.rank_value[usize::from(rules.rank(piece.animal))];
        danger += f64::from(value) * (1.0 - safe);
    }
    danger.round() as i32
}

/// The probability that the enemy piece on `from` (of `them`), unknown in `view`, can capture our piece on
/// `to` in `after` although the world's animal for it cannot; 0 when the world's animal can (the search saw
/// that) or the piece is known.
fn unseen_capture(
    view: &View,
    belief: &Belief,
    after: &Position,
    rules: &Rules,
    them: Side,
    from: Square,
    to: Square,
) -> f64 {
    let (Some(enemy), Some(ours)) = (after.piece_at(from), after.piece_at(to)) else {
        return 0.0;
    };
    let unknown = view
        .piece_at(from)
        .is_some_and(|seen| seen.side == them && seen.animal.is_none());
    if enemy.side != them
        || !unknown
        || rules.can_capture(them, enemy.animal, from, ours.animal, to)
    {
        return 0.0;
    }
    let Some(probabilities) = belief.probabilities(from) else {
        return 0.0;
    };
    jungle_rules::Animal::ALL
        .into_iter()
        .filter(|&hunter| rules.can_capture(them, hunter, from, ours.animal, to))
        .map(|hunter| probabilities[hunter.index()])
        .sum()
}

#[cfg(test)]
mod tests {
    use jungle_rules::{Rules, Side};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::{Arrangement, HiddenGame};

    #[test]
    fn a_lion_landing_among_unknown_pieces_runs_a_danger_a_quiet_rat_does_not() {
        let rules = Rules::default();
        let mut game = HiddenGame::new(
            rules.clone(),
            Arrangement::parse(&rules, Side::Blue, "TECDWLPR").unwrap(),
            Arrangement::parse(&rules, Side::Red, "RPWEDCLT").unwrap(),
        )
        .unwrap();
        for m in ["c3b3", "g9g8"] {
            game.play(m.parse().unwrap()).unwrap();
        }
        let view = game.view(Some(Side::Blue));
        let belief = Belief::of(&view, Side::Red, true);
        for seed in 0..8 {
            let world =
                super::super::sample_world(&view, &belief, &mut StdRng::seed_from_u64(seed))
                    .unwrap();
            // The Lion jumps the river to b7, next to a7, c7 and b8: any of them may be the Elephant.
            let jump = unseen_danger(&view, &belief, &world, "b3b7".parse().unwrap());
            assert!(jump > 0, "seed {seed}: {jump}");
            assert_eq!(
                unseen_danger(&view, &belief, &world, "g3g4".parse().unwrap()),
                0
            );
        }
    }
}
