//! Determinized search: every root move of the view is played in each sampled world (attacks resolved by that
//! world's animals) and the position after it searched by the open-game engine; a move's value is its average
//! over the worlds. Depth grows one ply at a time over the same worlds while the time lasts.

use std::time::Instant;

use jungle_rules::{Game, Move, Position, Rules};
use jungle_search::{Engine, Limits, Score};

use crate::moves;

/// A search score as one number from the point of view of the side to move (mates near ±30,000, as the engine
/// keeps them inside, so the skill levels' choice treats them alike).
pub fn score_value(score: Score) -> i32 {
    const MATE: i32 = 30_000;
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// The value of each root move in one world at `depth` plies after it, from the mover's point of view; `None`
/// if the deadline passed before every move was searched.
pub fn score_world(
    engine: &mut Engine,
    rules: &Rules,
    world: &Position,
    root: &[Move],
    depth: u32,
    deadline: Option<Instant>,
) -> Option<Vec<i32>> {
    let mut values = Vec::with_capacity(root.len());
    for &m in root {
        let (child, _) = moves::resolve(world, rules, m);
        let game = Game::from_position(rules.clone(), child);
        let value = match game.outcome() {
            Some(outcome) => match outcome.winner {
                None => 0,
                Some(winner) if winner == world.side_to_move() => score_value(Score::Mate(1)),
                Some(_) => -score_value(Score::Mate(1)),
            },
            None => {
                let movetime = match deadline {
                    Some(deadline) => Some(deadline.checked_duration_since(Instant::now())?),
                    None => None,
                };
                engine.set_game(&game);
                let result = engine.go(
                    &Limits {
                        depth: Some(depth),
                        movetime,
                        ..Limits::default()
                    },
                    &mut |_| {},
                );
                if result.depth < depth && deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
                -score_value(result.score)
            }
        };
        values.push(value);
    }
    Some(values)
}
