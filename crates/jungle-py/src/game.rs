//! `doushouqi.Game`: a game with its history, so the draw rules (repetition, quiet-ply limit) and endings from
//! outside the board (resignation, time, agreement) apply.

use jungle_rules::{Game, Move, Outcome, Position, Termination};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyDeprecationWarning;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::encoding::{self, ACTIONS, OBSERVATION_SIZE, Observer, PLANES};

use crate::errors::{fen_error, move_error, value_error};
use crate::moves::{MoveArg, PyMove, action_move, py_move, py_moves, sorted_legal_moves};
use crate::outcome::PyOutcome;
use crate::pieces::PySide;
use crate::position::PyPosition;
use crate::rules::{PyRules, RulesArg};

/// The endings decided off the board (`Termination` lists the rules' own five first).
const DECLARED: &[Termination] = Termination::ALL.as_slice().split_at(5).1;

/// The first argument of `Game`: a FEN, or (the old order) rules. A string is a FEN when it has a `/` (every
/// FEN has eight; no rule string has one).
#[derive(Debug)]
pub enum FenOrRules<'py> {
    Fen(String),
    Rules(RulesArg<'py>),
}

impl<'py> FromPyObject<'_, 'py> for FenOrRules<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<FenOrRules<'py>> {
        if let Ok(text) = obj.extract::<String>()
            && text.contains('/')
        {
            return Ok(FenOrRules::Fen(text));
        }
        Ok(FenOrRules::Rules(obj.extract()?))
    }
}

/// A game under fixed rules from a start position: ``Game(fen=None, rules=None)``, the arguments in the order of
/// ``Position`` (``Game(rules)`` alone, the old order, still works and warns).
///
/// ``play`` checks and plays moves, ``undo`` takes them back, ``outcome()`` applies the board's endings, then
/// the draw rules of the rules (``repetition-draw``, ``quiet-ply-limit``), and endings declared with
/// ``resign``/``declare``.
#[pyclass(name = "Game", module = "doushouqi")]
#[derive(Clone, Debug)]
pub struct PyGame(pub Game);

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (fen = None, rules = None))]
    fn new(
        py: Python<'_>,
        fen: Option<FenOrRules<'_>>,
        rules: Option<RulesArg<'_>>,
    ) -> PyResult<PyGame> {
        let (fen, rules) = match (fen, rules) {
            (Some(FenOrRules::Rules(old_order)), None) => {
                PyErr::warn(
                    py,
                    &py.get_type::<PyDeprecationWarning>(),
                    c"Game(rules) is deprecated: the first argument of Game is the FEN, as for Position; \
                      write Game(rules=...)",
                    1,
                )?;
                (None, Some(old_order))
            }
            (Some(FenOrRules::Rules(_)), Some(_)) => {
                return Err(value_error(
                    "Game(fen, rules): the first argument is a FEN, not rules",
                ));
            }
            (Some(FenOrRules::Fen(fen)), rules) => (Some(fen), rules),
            (None, rules) => (None, rules),
        };
        let rules = RulesArg::resolve(rules)?;
        let start = match fen {
            None => Position::start(&rules),
            Some(text) => Position::from_fen(&text, &rules).map_err(fen_error)?,
        };
        Ok(PyGame(Game::from_position(rules, start)))
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.0.rules().clone())
    }

    /// The current position, with the game's moves as its move stack.
    #[getter]
    fn position(&self) -> PyPosition {
        let game = &self.0;
        PyPosition {
            rules: game.rules().clone(),
            pos: *game.position(),
            stack: game
                .moves()
                .iter()
                .copied()
                .zip(game.positions().iter().copied())
                .collect(),
        }
    }

    /// The FEN of the start position.
    fn start_fen(&self) -> String {
        self.0.start_position().to_string()
    }

    /// The FEN of the current position.
    fn fen(&self) -> String {
        self.0.position().to_string()
    }

    #[getter]
    fn turn(&self) -> PySide {
        self.0.side_to_move().into()
    }

    /// The moves played, oldest first.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        py_moves(py, self.0.moves())
    }

    /// The legal moves now, sorted; none once the game is over.
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.0.is_over() {
            return Ok(PyList::empty(py));
        }
        py_moves(py, &sorted_legal_moves(self.0.position(), self.0.rules()))
    }

    /// Checks and plays a move (a ``Move`` or text); ``IllegalMoveError`` when it is not legal or the game is
    /// over, the game unchanged.
    fn play(&mut self, py: Python<'_>, r#move: MoveArg) -> PyResult<Py<PyMove>> {
        let m = r#move.parse()?;
        self.0.play(m).map_err(move_error)?;
        py_move(py, m)
    }

    /// Takes back the last move (and any declared ending); returns it, or ``None`` at the start.
    fn undo(&mut self) -> Option<PyMove> {
        self.0.undo().map(PyMove)
    }

    /// How many times the current position (placement and side to move) has occurred, this time included.
    fn repetitions(&self) -> usize {
        self.0.repetitions()
    }

    /// The end of the game, or ``None`` while it goes on.
    fn outcome(&self) -> Option<PyOutcome> {
        self.0.outcome().map(PyOutcome)
    }

    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// ``side`` resigns: the other side wins. Ignored when the game is already over.
    fn resign(&mut self, side: PySide) {
        let winner = !jungle_rules::Side::from(side);
        self.0
            .declare(Outcome::win(winner, Termination::Resignation));
    }

    /// Ends the game off the board: ``declare(Side.BLUE, "time forfeit")``, ``declare(None, "draw agreed")``.
    /// Only the endings from outside the board are accepted. Ignored when the game is already over.
    #[pyo3(signature = (winner, termination))]
    fn declare(&mut self, winner: Option<PySide>, termination: &str) -> PyResult<()> {
        let termination: Termination = termination.parse().map_err(value_error)?;
        if !DECLARED.contains(&termination) {
            return Err(value_error(format!(
                "\"{termination}\" is decided by the board, not declared"
            )));
        }
        self.0.declare(Outcome {
            winner: winner.map(Into::into),
            termination,
        });
        Ok(())
    }

    /// The observation planes of the current position, ``(26, 9, 7) uint8`` (see ``doushouqi.PLANE_NAMES``).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let mut planes = vec![0u8; OBSERVATION_SIZE];
        Observer::new(self.0.rules()).write(
            self.0.position(),
            self.0.repetitions() - 1,
            &mut planes,
        );
        PyArray1::from_vec(py, planes).reshape([PLANES, 9, 7])
    }

    /// The legal actions now, ``(252,) bool``; all false once the game is over.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; ACTIONS];
        encoding::write_mask(
            self.0.position(),
            self.0.rules(),
            self.0.is_over(),
            &mut mask,
        );
        PyArray1::from_vec(py, mask)
    }

    /// The legal actions now, sorted, as a list of ints (none once the game is over): for a Python loop picking
    /// one, without numpy.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.0.is_over() {
            return Ok(PyList::empty(py));
        }
        // A bit per action: reading the bits back gives them sorted.
        let mut bits = [0u64; 4];
        self.0
            .position()
            .for_each_move_set(self.0.rules(), |_, from, targets| {
                for to in targets {
                    let action = encoding::encode(Move::new(from, to));
                    bits[action / 64] |= 1 << (action % 64);
                }
            });
        let actions = (0..ACTIONS).filter(|&a| bits[a / 64] >> (a % 64) & 1 != 0);
        PyList::new(py, actions)
    }

    /// Plays the move of an action (``from_square * 4 + direction``); ``IllegalMoveError`` if it has no legal
    /// move here or the game is over.
    fn play_action(&mut self, py: Python<'_>, action: i64) -> PyResult<Py<PyMove>> {
        let m = action_move(action, self.0.position(), self.0.rules())?;
        self.0.play(m).map_err(move_error)?;
        py_move(py, m)
    }

    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// Pickles as the start FEN and the rules, then the moves (replayed) and any declared ending.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (String, String),
        (Vec<String>, Option<PyOutcome>),
    )> {
        let game = &slf.borrow().0;
        let args = (game.start_position().to_string(), game.rules().to_string());
        let moves = game.moves().iter().map(ToString::to_string).collect();
        let declared = game
            .outcome()
            .filter(|o| DECLARED.contains(&o.termination))
            .map(PyOutcome);
        Ok((slf.get_type().into_any(), args, (moves, declared)))
    }

    fn __setstate__(&mut self, state: (Vec<String>, Option<PyOutcome>)) -> PyResult<()> {
        let (moves, declared) = state;
        for m in moves {
            self.0.play_text(&m).map_err(move_error)?;
        }
        if let Some(outcome) = declared {
            self.0.declare(outcome.0);
        }
        Ok(())
    }

    fn __len__(&self) -> usize {
        self.0.moves().len()
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.0.moves().iter().map(ToString::to_string).collect();
        format!(
            "Game(rules='{}', start='{}', moves='{}')",
            self.0.rules(),
            self.0.start_position(),
            moves.join(" ")
        )
    }
}
