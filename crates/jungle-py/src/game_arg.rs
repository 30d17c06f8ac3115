//! A game argument (`Game` or `Position`), and what needs one on the move class: `Move.from_action` (in a
//! `#[pymethods]` block of its own, so that `moves.rs` does not import the game types).

use jungle_rules::{Game, Position, Rules};
use pyo3::prelude::*;

use crate::game::PyGame;
use crate::moves::{PyMove, action_move};
use crate::position::PyPosition;

/// A game argument: a `Game`, or a `Position` whose pushed moves are the history (for the draw rules).
#[derive(Debug, FromPyObject)]
pub enum GameArg<'py> {
    Game(Bound<'py, PyGame>),
    Position(Bound<'py, PyPosition>),
}

impl GameArg<'_> {
    /// Calls `f` with the current position and the rules.
    pub fn with_position<T>(&self, f: impl FnOnce(&Position, &Rules) -> T) -> T {
        match self {
            GameArg::Game(g) => {
                let g = g.borrow();
                f(g.0.position(), g.0.rules())
            }
            GameArg::Position(p) => {
                let p = p.borrow();
                f(&p.pos, &p.rules)
            }
        }
    }

    pub fn to_game(&self) -> Game {
        match self {
            GameArg::Game(g) => g.borrow().0.clone(),
            GameArg::Position(p) => {
                let p = p.borrow();
                let start = p.stack.first().map_or(p.pos, |(_, before)| *before);
                let mut game = Game::from_position(p.rules.clone(), start);
                for (m, _) in &p.stack {
                    if game.play(*m).is_err() {
                        // The pushes went on past a draw the board alone does not see: search from here.
                        return Game::from_position(p.rules.clone(), p.pos);
                    }
                }
                game
            }
        }
    }
}

#[pymethods]
impl PyMove {
    /// The legal move of an action (``from_square * 4 + direction``) in a ``Position`` or the current position
    /// of a ``Game``; ``IllegalMoveError`` if it has none there. (The position is needed: an action names a
    /// direction, and whether that is a step or a river jump depends on the piece.)
    #[staticmethod]
    fn from_action(action: i64, position: GameArg<'_>) -> PyResult<PyMove> {
        position.with_position(|pos, rules| action_move(action, pos, rules).map(PyMove))
    }
}
