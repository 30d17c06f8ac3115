//! `doushouqi.Position`: a position under some rules with its move stack, python-chess's `Board` for Jungle.

use jungle_rules::{Move, Position, Rules, Square, perft_parallel};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::drawing;
use crate::errors::{fen_error, value_error};
use crate::moves::{MoveArg, PyMove, action_move, py_move, py_moves, sorted_legal_moves};
use crate::outcome::PyOutcome;
use crate::pieces::{PyPiece, PySide, SquareArg};
use crate::rules::{PyRules, RulesArg};

/// Perft depths above this would run for hours; refusing them keeps a typo from hanging the interpreter.
const MAX_PERFT_DEPTH: u32 = 10;

/// A Jungle position under some rules, with the stack of moves pushed onto it.
///
/// ``Position()`` is the start position of the standard rules; ``Position(fen, rules="modern")`` reads FEN
/// (``FenError`` for bad text or a position the rules forbid). ``push``/``pop`` play and take back moves.
/// ``outcome()`` gives the board's endings (den entered, all pieces captured, no legal move); the draw rules
/// need the game's history and are ``Game``'s.
#[pyclass(name = "Position", module = "doushouqi", eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyPosition {
    pub rules: Rules,
    pub pos: Position,
    /// The moves pushed, each with the position before it.
    pub stack: Vec<(Move, Position)>,
}

impl PyPosition {
    /// Checks and plays a move, remembering it on the stack.
    fn push_move(&mut self, r#move: &MoveArg) -> PyResult<Move> {
        let m = r#move.legal_in(&self.pos, &self.rules)?;
        self.stack.push((m, self.pos));
        self.pos.play_unchecked(m);
        Ok(m)
    }

    pub fn new_at(rules: Rules, pos: Position) -> PyPosition {
        PyPosition {
            rules,
            pos,
            stack: Vec::new(),
        }
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen = None, rules = None))]
    fn new(fen: Option<&str>, rules: Option<RulesArg<'_>>) -> PyResult<PyPosition> {
        let rules = RulesArg::resolve(rules)?;
        let pos = match fen {
            None => Position::start(&rules),
            Some(text) => Position::from_fen(text, &rules).map_err(fen_error)?,
        };
        Ok(PyPosition::new_at(rules, pos))
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.rules.clone())
    }

    /// The FEN text of the position.
    fn fen(&self) -> String {
        self.pos.to_string()
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> PySide {
        self.pos.side_to_move().into()
    }

    /// Plies since the last capture.
    #[getter]
    fn quiet_plies(&self) -> u32 {
        self.pos.quiet_plies()
    }

    /// The move number: 1 at the start, increasing after Red's move.
    #[getter]
    fn move_number(&self) -> u32 {
        self.pos.move_number()
    }

    /// The 64-bit Zobrist hash of placement and side to move.
    #[getter]
    fn zobrist(&self) -> u64 {
        self.pos.hash()
    }

    /// The legal moves, sorted by origin then destination square; none once the board has decided the game.
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        py_moves(py, &sorted_legal_moves(&self.pos, &self.rules))
    }

    /// Whether a move (a ``Move`` or move text) is legal here. Text that is not a move raises
    /// ``IllegalMoveError``.
    fn is_legal(&self, r#move: MoveArg) -> PyResult<bool> {
        Ok(self.pos.is_legal(&self.rules, r#move.parse()?))
    }

    /// Whether a legal move captures.
    fn is_capture(&self, r#move: MoveArg) -> PyResult<bool> {
        let m = r#move.legal_in(&self.pos, &self.rules)?;
        Ok(self.pos.is_capture(m))
    }

    /// Plays a move (a ``Move`` or text). An illegal one raises ``IllegalMoveError`` naming the broken rule
    /// and leaves the position unchanged.
    fn push(&mut self, py: Python<'_>, r#move: MoveArg) -> PyResult<Py<PyMove>> {
        let m = self.push_move(&r#move)?;
        py_move(py, m)
    }

    /// Takes back the last pushed move and returns it; ``IndexError`` when nothing was pushed.
    fn pop(&mut self) -> PyResult<PyMove> {
        let (m, before) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no pushed moves"))?;
        self.pos = before;
        Ok(PyMove(m))
    }

    /// The last pushed move, or ``None``.
    fn peek(&self) -> Option<PyMove> {
        self.stack.last().map(|(m, _)| PyMove(m.to_owned()))
    }

    /// The legal move of an action (``from_square * 4 + direction``); ``IllegalMoveError`` if it has none.
    fn decode_action(&self, action: i64) -> PyResult<PyMove> {
        action_move(action, &self.pos, &self.rules).map(PyMove)
    }

    /// The pushed moves, oldest first.
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves: Vec<Move> = self.stack.iter().map(|&(m, _)| m).collect();
        py_moves(py, &moves)
    }

    /// The board's ending, if the position ends the game: ``Outcome`` or ``None``.
    fn outcome(&self) -> Option<PyOutcome> {
        self.pos.outcome(&self.rules).map(PyOutcome)
    }

    fn is_game_over(&self) -> bool {
        self.pos.outcome(&self.rules).is_some()
    }

    /// The piece on a square (index or name), or ``None``.
    fn piece_at(&self, square: SquareArg) -> PyResult<Option<PyPiece>> {
        Ok(self.pos.piece_at(square.square()?).map(PyPiece))
    }

    /// Every piece as ``{square index: Piece}``.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(py);
        for sq in self.pos.occupied() {
            if let Some(p) = self.pos.piece_at(sq) {
                map.set_item(sq.index(), PyPiece(p))?;
            }
        }
        Ok(map)
    }

    /// The square of a piece, or ``None`` when it is captured (or not in play).
    fn square_of(&self, piece: PyPiece) -> Option<usize> {
        self.pos.square_of(piece.0).map(Square::index)
    }

    /// The position mirrored left–right (a ↔ g), without the move stack.
    fn mirror(&self) -> PyPosition {
        PyPosition::new_at(self.rules.clone(), self.pos.mirror())
    }

    /// The position rotated by 180° with the colours swapped (the same game seen from the other side), without
    /// the move stack.
    fn swap_colours(&self) -> PyPosition {
        PyPosition::new_at(self.rules.clone(), self.pos.swap_colours())
    }

    /// The number of leaf positions ``depth`` plies below (the standard check of a move generator), counted on
    /// every core with the interpreter released. Depth 0 to 10.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(value_error(format!(
                "perft depth {depth} is over the limit of {MAX_PERFT_DEPTH}"
            )));
        }
        let (pos, rules) = (self.pos, self.rules.clone());
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        Ok(py.detach(move || perft_parallel(&pos, &rules, depth, threads)))
    }

    /// A copy with its own move stack.
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    /// An SVG picture of the board, ``size`` pixels wide.
    #[pyo3(signature = (size = 320))]
    fn svg(&self, size: u32) -> String {
        drawing::svg(&self.pos, &self.rules, size)
    }

    fn _repr_svg_(&self) -> String {
        drawing::svg(&self.pos, &self.rules, 320)
    }

    fn __str__(&self) -> String {
        drawing::text(&self.pos, &self.rules)
    }

    /// The board drawn as text, then the FEN and rules that rebuild it.
    fn __repr__(&self) -> String {
        format!(
            "{}\nPosition('{}', rules='{}')",
            drawing::text(&self.pos, &self.rules),
            self.pos,
            self.rules
        )
    }

    /// Pickles as the FEN before the first pushed move and the rules, then the pushed moves (replayed).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Vec<String>)> {
        let this = slf.borrow();
        let start = this.stack.first().map_or(this.pos, |(_, before)| *before);
        let args = PyTuple::new(slf.py(), [start.to_string(), this.rules.to_string()])?;
        let moves = this.stack.iter().map(|(m, _)| m.to_string()).collect();
        Ok((slf.get_type().into_any(), args, moves))
    }

    fn __setstate__(&mut self, moves: Vec<String>) -> PyResult<()> {
        for m in moves {
            self.push_move(&MoveArg::Text(m))?;
        }
        Ok(())
    }
}
