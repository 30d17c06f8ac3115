//! The gamble one world cannot see. After the kept world's search the top levels check the move it chose against
//! the posterior: a Tiger, Lion or Elephant of ours that attacks an unknown piece, or steps next to unknown
//! pieces, is safe in the world searched (else the search would have seen the loss), but may not be in the
//! other setups the belief allows — a piece the world made the Cat may as likely be the Elephant standing on the
//! mirror square. When the posterior gives the loss at least the plan's chance
//! (`LevelPlan::screen_percent`), the AI searches a second world, drawn from the belief given that the likeliest
//! danger is real, and plays that search's move.

use jungle_rules::{Animal, Move, Position};

use super::Belief;
use crate::View;

/// The animals whose loss the screen guards against.
const GUARDED: [Animal; 3] = [Animal::Tiger, Animal::Lion, Animal::Elephant];

/// A move that risks a guarded piece on unknown pieces' animals.
#[derive(Clone, Debug, PartialEq)]
pub struct Gamble {
    /// The unknown piece likeliest to take ours.
    pub square: jungle_rules::Square,
    /// The animals with which that piece takes ours.
    pub takers: Vec<Animal>,
    /// The posterior's chance that some unknown piece takes ours (by winning our attack, or by attacking it next).
    pub chance: f64,
}

/// The gamble `m` makes, when it moves a guarded piece onto an unknown piece or next to unknown pieces and the
/// world searched (`world`) says none of them takes it.
pub fn gamble(view: &View, belief: &Belief, world: &Position, m: Move) -> Option<Gamble> {
    let us = view.viewer()?;
    let rules = view.rules();
    let animal = view.piece_at(m.from)?.animal?;
    if !GUARDED.contains(&animal) {
        return None;
    }
    let unknown_enemy = |sq| {
        view.piece_at(sq)
            .is_some_and(|seen| seen.side != us && seen.animal.is_none())
    };
    let in_play = || Animal::ALL.into_iter().filter(|&a| rules.in_play(a));
    let dangers: Vec<(jungle_rules::Square, Vec<Animal>)> = if unknown_enemy(m.to) {
        let beat_us = in_play()
            .filter(|&a| !rules.can_capture(us, animal, m.from, a, m.to))
            .collect();
        vec![(m.to, beat_us)]
    } else if view.piece_at(m.to).is_none() {
        [(0, 1), (0, -1), (1, 0), (-1, 0)]
            .into_iter()
            .filter_map(|(df, dr)| m.to.offset(df, dr))
            .filter(|&sq| sq != m.from && unknown_enemy(sq))
            .map(|sq| {
                let take_us = in_play()
                    .filter(|&a| rules.can_capture(!us, a, sq, animal, m.to))
                    .collect();
                (sq, take_us)
            })
            .collect()
    } else {
        return None;
    };
    let world_says_safe = dangers.iter().all(|(sq, takers)| {
        world
            .piece_at(*sq)
            .is_some_and(|piece| !takers.contains(&piece.animal))
    });
    if dangers.is_empty() || !world_says_safe {
        return None;
    }
    let chance = belief.chance_any(&dangers);
    let likeliest = dangers.into_iter().max_by(|a, b| {
        let p =
            |d: &(jungle_rules::Square, Vec<Animal>)| belief.chance_any(std::slice::from_ref(d));
        p(a).total_cmp(&p(b))
    })?;
    Some(Gamble {
        square: likeliest.0,
        takers: likeliest.1,
        chance,
    })
}

#[cfg(test)]
mod tests {
    use jungle_rules::{Rules, Side, Square};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::ai::setup::SetupTable;
    use crate::ai::world;
    use crate::{Arrangement, HiddenGame};

    /// Blue's Lion jumps to d4 and walks to d6, next to nothing yet (Red shuffles b8); Blue to move.
    fn lion_on_d6(red: &str) -> HiddenGame {
        let rules = Rules::default();
        let mut game = HiddenGame::new(
            rules.clone(),
            Arrangement::parse(&rules, Side::Blue, "TECDLWPR").unwrap(),
            Arrangement::parse(&rules, Side::Red, red).unwrap(),
        )
        .unwrap();
        for m in "a3a4 b8b9 a4d4 b9b8 d4d5 b8b9 d5d6 b9b8".split_whitespace() {
            game.play(m.parse().unwrap()).unwrap();
        }
        game
    }

    /// The true position of `game`: the world with every animal where it is.
    fn truth(game: &HiddenGame) -> Position {
        let all = game.view_with_everything_shown(Side::Blue);
        let belief = Belief::of(&all, Side::Red, false);
        world::sample(&all, &belief, &mut StdRng::seed_from_u64(0)).unwrap()
    }

    #[test]
    fn a_lion_stepping_between_unknown_pieces_the_table_makes_the_elephant_gambles() {
        // Red's c7 and e7 are the Leopard and the Wolf: a world with them says d7 is safe for the Lion, but the
        // table puts Red's Elephant on c7 or e7 in about 89 % of its setups.
        let game = lion_on_d6("RPWEDCLT");
        let view = game.view(Some(Side::Blue));
        let belief = Belief::posterior(&view, Side::Red, &SetupTable::FITTED, 100);
        let step: Move = "d6d7".parse().unwrap();
        let found = gamble(&view, &belief, &truth(&game), step).unwrap();
        assert!(
            [Square::C7, Square::E7].contains(&found.square),
            "{found:?}"
        );
        assert_eq!(found.takers, [Animal::Lion, Animal::Elephant]);
        assert!(found.chance > 0.85 && found.chance < 1.0, "{found:?}");
        // With a uniform prior the same danger is 2 animals of 8 on either of two squares: 1 - (6·5)/(8·7).
        let uniform = Belief::posterior(&view, Side::Red, &SetupTable::FITTED, 0);
        let found = gamble(&view, &uniform, &truth(&game), step).unwrap();
        assert!(
            (found.chance - (1.0 - 30.0 / 56.0)).abs() < 1e-9,
            "{found:?}"
        );
        // A world that has the Elephant on c7 already shows the danger to the search: no gamble.
        let elephant_c7 = lion_on_d6("REWPDCLT");
        assert_eq!(elephant_c7.view(Some(Side::Blue)), view);
        assert_eq!(gamble(&view, &belief, &truth(&elephant_c7), step), None);
        // A step away from unknown pieces, or a piece that is not guarded, gambles nothing.
        assert_eq!(
            gamble(&view, &belief, &truth(&game), "d6d5".parse().unwrap()),
            None
        );
        assert_eq!(
            gamble(&view, &belief, &truth(&game), "g3g4".parse().unwrap()),
            None
        );
    }
}
