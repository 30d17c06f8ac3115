//! `doushouqi.Move`: an origin and a destination square; the position decides whether it steps, jumps or captures.

use jungle_rules::{Bitboard, Move, MoveList, Position, Rules, Square};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple};

use crate::errors::move_error;
use crate::pieces::SquareArg;

/// A move from one square to another. ``Move.parse("a3a4")`` reads move text; ``str(move)`` writes it.
#[pyclass(
    name = "Move",
    module = "doushouqi",
    frozen,
    eq,
    hash,
    ord,
    from_py_object
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyMove(pub Move);

#[pymethods]
impl PyMove {
    #[new]
    fn new(from_square: SquareArg, to_square: SquareArg) -> PyResult<PyMove> {
        let (from, to) = (from_square.square()?, to_square.square()?);
        if from == to {
            return Err(move_error(format!(
                "move {from}{to} starts and ends on the same square"
            )));
        }
        Ok(PyMove(Move::new(from, to)))
    }

    /// Reads move text (``"a3a4"``, either case); raises ``IllegalMoveError`` for text that is not a move.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyMove> {
        text.trim().parse().map(PyMove).map_err(move_error)
    }

    /// The origin square (index).
    #[getter(from_square)]
    fn origin(&self) -> usize {
        self.0.from.index()
    }

    /// The destination square (index).
    #[getter(to_square)]
    fn destination(&self) -> usize {
        self.0.to.index()
    }

    /// The action number of this move: ``from_square * 4 + direction`` (0 north, 1 south, 2 east, 3 west;
    /// a river jump has its step's direction).
    fn action(&self) -> usize {
        crate::encoding::encode(self.0)
    }

    /// The move mirrored left–right (a ↔ g).
    fn mirror(&self) -> PyMove {
        PyMove(self.0.mirror())
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.0)
    }

    /// Pickles as its two squares.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let m = slf.get().0;
        let args = PyTuple::new(slf.py(), [m.from.index(), m.to.index()])?;
        Ok((slf.get_type().into_any(), args))
    }
}

/// The legal move of an action in a position; ``IllegalMoveError`` naming the position if it has none.
pub fn action_move(action: i64, pos: &Position, rules: &Rules) -> PyResult<Move> {
    usize::try_from(action)
        .ok()
        .and_then(|a| crate::encoding::decode(a, pos, rules))
        .ok_or_else(|| move_error(format!("action {action} is not legal in {pos}")))
}

/// A move argument: a `Move` or move text.
#[derive(Debug, FromPyObject)]
pub enum MoveArg {
    Move(PyMove),
    Text(String),
}

impl MoveArg {
    /// The move, if its text is a move (legality is not checked).
    pub fn parse(&self) -> PyResult<Move> {
        match self {
            MoveArg::Move(m) => Ok(m.0),
            MoveArg::Text(text) => PyMove::parse(text).map(|m| m.0),
        }
    }

    /// The move, checked for legality in `pos`; the error names the rule it breaks.
    pub fn legal_in(&self, pos: &Position, rules: &Rules) -> PyResult<Move> {
        let m = self.parse()?;
        pos.check_move(rules, m).map_err(move_error)?;
        Ok(m)
    }
}

/// Every move (origin, destination) as one shared Python object, made at the first use: listing the legal moves
/// then costs a reference each instead of an allocation each (moves are immutable, so sharing them is safe).
static MOVES: PyOnceLock<Vec<Py<PyMove>>> = PyOnceLock::new();

/// The shared Python object of a move.
pub fn py_move(py: Python<'_>, m: Move) -> PyResult<Py<PyMove>> {
    const SQUARES: usize = 63;
    let squares = || Square::all();
    let table = MOVES.get_or_try_init(py, || {
        squares()
            .flat_map(|from| squares().map(move |to| Move::new(from, to)))
            .map(|m| Py::new(py, PyMove(m)))
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(table[m.from.index() * SQUARES + m.to.index()].clone_ref(py))
}

/// The shared Python objects of moves, in order, as a list.
pub fn py_moves<'py>(py: Python<'py>, moves: &[Move]) -> PyResult<Bound<'py, PyList>> {
    let moves = moves
        .iter()
        .map(|&m| py_move(py, m))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, moves)
}

/// The legal moves sorted by origin, then destination square, generated in that order: the pieces (at most
/// eight) are sorted by square, and each one's destinations come in square order (sorting the list afterwards
/// took a fifth of `Position.legal_moves`'s time).
pub fn sorted_legal_moves(pos: &Position, rules: &Rules) -> MoveList {
    let mut sets: [(Square, Bitboard); 8] = [(Square::A1, Bitboard::EMPTY); 8];
    let mut count = 0;
    pos.for_each_move_set(rules, |_, from, targets| {
        sets[count] = (from, targets);
        count += 1;
    });
    sets[..count].sort_unstable_by_key(|&(from, _)| from);
    let mut moves = MoveList::new();
    for &(from, targets) in &sets[..count] {
        for to in targets {
            moves.push(Move::new(from, to));
        }
    }
    moves
}
