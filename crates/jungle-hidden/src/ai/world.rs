//! Worlds: complete positions consistent with a view (every unknown piece given an animal), which the open-game
//! engine can search, and the quiet moves that led to them, so those searches see repetitions.

use jungle_rules::{Animal, Game, Move, Position, Setup, Square};
use rand::Rng;

use super::Belief;
use crate::View;
use crate::moves::Effect;

/// How many draws [`sample`] makes before giving up on an assignment the placement rules refuse.
const TRIES: usize = 16;

/// An animal for each unknown piece, the piece named by its start square (which it keeps for the whole game,
/// so an assignment made for one view can be carried to a later one).
pub type Assignment = Vec<(Square, Animal)>;

/// A position consistent with `view`, the unknown pieces drawn from `belief`; `None` when no valid one was drawn.
pub fn sample(view: &View, belief: &Belief, rng: &mut impl Rng) -> Option<Position> {
    sample_keeping(view, belief, &[], rng).map(|(world, _)| world)
}

/// A position consistent with `view` in which every unknown piece keeps the animal `kept` gave it, while the
/// view still allows it; only the pieces the game has since contradicted (a reveal took their animal, the
/// terrain ruled it out) are drawn from `belief`. With the last move's assignment it is the last move's world,
/// changed as little as the game demands. Returns the world with its assignment; `None` when no valid one was
/// drawn.
pub fn sample_keeping(
    view: &View,
    belief: &Belief,
    kept: &[(Square, Animal)],
    rng: &mut impl Rng,
) -> Option<(Position, Assignment)> {
    (0..TRIES).find_map(|_| {
        let drawn = belief.sample_keeping(rng, |sq| {
            view.piece_at(sq)
                .and_then(|seen| animal_of(kept, seen.origin))
        });
        let assignment: Assignment = drawn
            .iter()
            .filter_map(|&(sq, animal)| view.piece_at(sq).map(|seen| (seen.origin, animal)))
            .collect();
        let world = realise(view, |_, origin| animal_of(&assignment, origin))?;
        Some((world, assignment))
    })
}

fn animal_of(assignment: &[(Square, Animal)], origin: Square) -> Option<Animal> {
    assignment
        .iter()
        .find(|(o, _)| *o == origin)
        .map(|&(_, animal)| animal)
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
