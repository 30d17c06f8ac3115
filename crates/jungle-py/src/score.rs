//! `doushouqi.Score`: an engine's score from the side to move's point of view.

use std::fmt;

use jungle_search::Score;
use pyo3::prelude::*;

/// A score for the side to move: ``cp`` in centipawn-like units (a Cat is worth about 200), or ``mate``, the
/// full moves to a forced result (positive: the side to move wins; negative: it loses; 0: it has lost).
/// Exactly one of ``cp`` and ``mate`` is set.
#[pyclass(name = "Score", module = "doushouqi", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyScore {
    cp: Option<i32>,
    mate: Option<i32>,
}

impl PyScore {
    pub fn cp(cp: i32) -> PyScore {
        PyScore {
            cp: Some(cp),
            mate: None,
        }
    }

    pub fn mate_in_moves(moves: i32) -> PyScore {
        PyScore {
            cp: None,
            mate: Some(moves),
        }
    }
}

impl From<Score> for PyScore {
    fn from(score: Score) -> PyScore {
        match score {
            Score::Cp(cp) => PyScore::cp(cp),
            Score::Mate(_) => PyScore::mate_in_moves(score.mate_in_moves().unwrap_or(0)),
        }
    }
}

#[pymethods]
impl PyScore {
    #[getter(cp)]
    fn centipawns(&self) -> Option<i32> {
        self.cp
    }

    #[getter(mate)]
    fn mate_moves(&self) -> Option<i32> {
        self.mate
    }

    fn is_mate(&self) -> bool {
        self.mate.is_some()
    }

    fn __str__(&self) -> String {
        self.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Score {self}>")
    }
}

/// As UCI writes it: `cp 35`, `mate 3`, `mate -2`.
impl fmt::Display for PyScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.cp, self.mate) {
            (Some(cp), _) => write!(f, "cp {cp}"),
            (None, mate) => write!(f, "mate {}", mate.unwrap_or(0)),
        }
    }
}
