//! Worlds: complete positions consistent with a view (every unknown piece given an animal), which the open-game
//! engine can search, and the quiet moves that led to them, so those searches see repetitions.

use jungle_rules::{Animal, Game, Move, Position, Setup, Square};
use rand::Rng;

use super::Belief;
use crate::View;
use crate::moves::Effect;

/// How many draws [`sample`] makes before giving up on an assignment the placement rules refuse.
const TRIES: usize = 16;

/// A position consistent with `view`, the unknown pieces drawn from `belief`; `None` when no valid one was drawn.
pub fn sample(view: &View, belief: &Belief, rng: &mut impl Rng) -> Option<Position> {
    (0..TRIES).find_map(|_| {
        let assignment = belief.sample(rng);
        realise(view, |sq, _| {
            assignment.iter().find(|(s, _)| *s == sq).map(|&(_, a)| a)
        })
    })
}

/// The position of `view` with each piece the viewer does not know given the animal `unknown(square, origin)`
/// says; `None` if it names none for some piece or the rules refuse the placement.
fn realise(view: &View, unknown: impl Fn(Square, Square) -> Option<Animal>) -> Option<Position> {
    let mut setup = Setup {
        side_to_move: view.side_to_move(),
        quiet_plies: view.quiet_plies(),
        move_number: view.move_number(),
        ..Setup::default()
    };
    for (sq, seen) in view.pieces() {
        let animal = seen.animal.or_else(|| unknown(sq, seen.origin))?;
        setup.board[sq.index()] = Some(jungle_rules::Piece::new(seen.side, animal));
    }
    Position::from_setup(&setup, view.rules()).ok()
}

/// The quiet moves since the last attack of a view, with the view before them: every piece then is still on the
/// board (each attack removes one), so any world of the view can replay them with its own animals.
#[derive(Clone, Debug)]
pub struct QuietStretch {
    start: View,
    moves: Vec<Move>,
}

impl QuietStretch {
    pub fn of(view: &View) -> QuietStretch {
        let history = view.history();
        let first_quiet = history
            .iter()
            .rposition(|public| public.effect != Effect::Quiet)
            .map_or(0, |i| i + 1);
        let mut start = None;
        let mut index = 0;
        view.walk(|before, _| {
            if index == first_quiet {
                start = Some(before.clone());
            }
            index += 1;
        });
        QuietStretch {
            start: start.unwrap_or_else(|| view.clone()),
            moves: history[first_quiet..].iter().map(|p| p.mv).collect(),
        }
    }

    /// `world` as a game whose history is the quiet stretch played by the world's animals (each piece followed
    /// from its start square); the world alone if the stretch does not lead to it.
    pub fn game(&self, view: &View, world: &Position) -> Game {
        let alone = || Game::from_position(view.rules().clone(), *world);
        if self.moves.is_empty() {
            return alone();
        }
        let animal_of = |origin: Square| {
            view.pieces()
                .find(|(_, seen)| seen.origin == origin)
                .and_then(|(sq, _)| world.piece_at(sq))
                .map(|piece| piece.animal)
        };
        let Some(start) = realise(&self.start, |_, origin| animal_of(origin)) else {
            return alone();
        };
        let mut game = Game::from_position(view.rules().clone(), start);
        for &m in &self.moves {
            if game.play(m).is_err() {
                return alone();
            }
        }
        if game.position() == world {
            game
        } else {
            alone()
        }
    }
}
