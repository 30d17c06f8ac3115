//! `doushouqi.pgn`: game records in PGN with their headers, read and written.

use jungle_rules::pgn::PgnGame;
use jungle_rules::read_games;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::pgn_error;
use crate::game::PyGame;

/// A game with its record's headers (``Event``, ``White``, …). The headers derived from the game itself
/// (``Result``, ``Variant``, ``FEN``, ``Rules``, ``Termination``) are written from it and cannot be set.
/// ``str(record)`` is the PGN text.
#[pyclass(name = "PgnGame", module = "doushouqi.pgn")]
#[derive(Clone, Debug)]
pub struct PyPgnGame(pub PgnGame);

#[pymethods]
impl PyPgnGame {
    #[new]
    #[pyo3(signature = (game, headers = None))]
    fn new(game: &PyGame, headers: Option<Vec<(String, String)>>) -> PyResult<PyPgnGame> {
        let mut record = PyPgnGame(PgnGame::new(game.0.clone()));
        for (name, value) in headers.unwrap_or_default() {
            record.set_header(&name, &value)?;
        }
        Ok(record)
    }

    /// Reads exactly one game; ``PgnError`` says where the text is wrong.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyPgnGame> {
        text.parse().map(PyPgnGame).map_err(pgn_error)
    }

    /// The game (a copy: change it and assign it back).
    #[getter]
    fn game(&self) -> PyGame {
        PyGame(self.0.game.clone())
    }

    #[setter(game)]
    fn set_game(&mut self, game: &PyGame) {
        self.0.game = game.0.clone();
    }

    /// The stored headers in order as ``{name: value}`` (a copy).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.0.tags() {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// Sets a header; ``PgnError`` for a name PGN cannot hold or a derived one.
    fn set_header(&mut self, name: &str, value: &str) -> PyResult<()> {
        self.0.set_tag(name, value).map_err(pgn_error)
    }

    /// Removes a header, returning its value (``None`` if it was not set).
    fn remove_header(&mut self, name: &str) -> Option<String> {
        self.0.remove_tag(name)
    }

    /// The result text: ``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"`` while the game goes on.
    fn result(&self) -> &'static str {
        self.0.result()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<PgnGame {} vs {}, {} moves, {}>",
            self.0.tag("White").unwrap_or("?"),
            self.0.tag("Black").unwrap_or("?"),
            self.0.game.moves().len(),
            self.0.result()
        )
    }
}

/// Every game of a PGN text (none for empty text); ``PgnError`` at the first problem.
#[pyfunction]
pub fn read_pgn_games(text: &str) -> PyResult<Vec<PyPgnGame>> {
    let games = read_games(text).map_err(pgn_error)?;
    Ok(games.into_iter().map(PyPgnGame).collect())
}
