//! `doushouqi.Outcome`: how a game ended.

use jungle_rules::{Outcome, Termination};
use pyo3::prelude::*;

use crate::errors::value_error;
use crate::pieces::PySide;

/// The end of a game: ``winner`` (a ``Side``, or ``None`` for a draw) and ``termination``, the reason as the
/// PGN ``Termination`` tag writes it (``"den entered"``, ``"all pieces captured"``, ``"no legal move"``,
/// ``"repetition"``, ``"quiet-ply limit"``, ``"resignation"``, ``"time forfeit"``, ``"draw agreed"``,
/// ``"adjudication"``, ``"illegal move"``, ``"abandoned"``).
#[pyclass(
    name = "Outcome",
    module = "doushouqi",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyOutcome(pub Outcome);

#[pymethods]
impl PyOutcome {
    #[new]
    #[pyo3(signature = (winner, termination))]
    fn new(winner: Option<PySide>, termination: &str) -> PyResult<PyOutcome> {
        let termination: Termination = termination.parse().map_err(value_error)?;
        Ok(PyOutcome(Outcome {
            winner: winner.map(Into::into),
            termination,
        }))
    }

    #[getter]
    fn winner(&self) -> Option<PySide> {
        self.0.winner.map(Into::into)
    }

    #[getter]
    fn termination(&self) -> &'static str {
        self.0.termination.as_str()
    }

    /// The PGN result: ``"1-0"`` (Blue won), ``"0-1"`` (Red won) or ``"1/2-1/2"``.
    fn result(&self) -> &'static str {
        self.0.result_str()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// Pickles as its winner and termination.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyAny>, (Option<PySide>, &'static str)) {
        let o = slf.get().0;
        (
            slf.get_type().into_any(),
            (o.winner.map(Into::into), o.termination.as_str()),
        )
    }

    fn __repr__(&self) -> String {
        let winner = match self.0.winner {
            Some(side) => format!("Side.{}", side.name().to_uppercase()),
            None => "None".to_string(),
        };
        format!("Outcome({winner}, '{}')", self.0.termination)
    }
}
