//! `doushouqi.Tablebases`: endgame tables, probed for win/draw/loss, distance and best moves, and generated.

use std::path::PathBuf;

use jungle_rules::Rules;
use jungle_tb::{BuildOptions, Material, Probe, Tablebases, Wdl, build};
use pyo3::prelude::*;

use crate::errors::{tablebase_error, value_error};
use crate::moves::PyMove;
use crate::position::PyPosition;
use crate::rules::{PyRules, RulesArg};

/// The most working memory `generate` may be allowed, in MiB (64 GiB).
const MAX_MEMORY_MB: u64 = 65_536;

/// A table's verdict on a position for its side to move: ``wdl`` is ``"win"``, ``"draw"`` or ``"loss"`` with
/// perfect play; ``plies`` the distance to the end of the game (winner hurrying, loser delaying), ``None``
/// for a draw, 0 for a game already over.
#[pyclass(
    name = "TablebaseProbe",
    module = "doushouqi",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyProbe(Probe);

#[pymethods]
impl PyProbe {
    #[getter]
    fn wdl(&self) -> &'static str {
        self.0.wdl.as_str()
    }

    #[getter]
    fn plies(&self) -> Option<u32> {
        self.0.plies
    }

    /// ``1`` for a win, ``0`` for a draw, ``-1`` for a loss (a value target for learning).
    fn value(&self) -> i32 {
        match self.0.wdl {
            Wdl::Win => 1,
            Wdl::Draw => 0,
            Wdl::Loss => -1,
        }
    }

    fn __repr__(&self) -> String {
        match self.0.plies {
            Some(n) => format!("<TablebaseProbe {} in {n} plies>", self.0.wdl),
            None => format!("<TablebaseProbe {}>", self.0.wdl),
        }
    }
}

/// The tables of one directory (``jungle tb generate`` or ``Tablebases.generate``), all made under one rule set:
/// ``Tablebases(directory, rules=None)``. Tables are read on first use. ``TablebaseError`` when the directory
/// cannot be used or its tables were made under other rules.
#[pyclass(name = "Tablebases", module = "doushouqi", frozen)]
#[derive(Debug)]
pub struct PyTablebases(Tablebases);

impl PyTablebases {
    /// The position, if it is under the tables' rules.
    fn check<'a>(&self, position: &'a PyPosition) -> PyResult<&'a jungle_rules::Position> {
        if &position.rules != self.0.rules() {
            return Err(value_error(format!(
                "the position is under rules \"{}\", the tables under \"{}\"",
                position.rules,
                self.0.rules()
            )));
        }
        Ok(&position.pos)
    }
}

#[pymethods]
impl PyTablebases {
    #[new]
    #[pyo3(signature = (directory, rules = None))]
    fn new(directory: PathBuf, rules: Option<RulesArg<'_>>) -> PyResult<PyTablebases> {
        let rules = RulesArg::resolve(rules)?;
        Tablebases::open(&directory, &rules)
            .map(PyTablebases)
            .map_err(tablebase_error)
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.0.rules().clone())
    }

    /// The most pieces of any table present: positions with more are never found.
    #[getter]
    fn max_pieces(&self) -> usize {
        self.0.max_pieces()
    }

    /// The material keys present (``"LR-e"``: Blue's animals, ``-``, Red's).
    #[getter]
    fn materials(&self) -> Vec<String> {
        self.0.materials().iter().map(ToString::to_string).collect()
    }

    /// The value of a position for its side to move, or ``None`` when no table covers it.
    fn probe(&self, position: &PyPosition) -> PyResult<Option<PyProbe>> {
        Ok(self.0.probe(self.check(position)?).map(PyProbe))
    }

    /// Every legal move with its value for the side to move, best first (quickest win, draws, slowest loss);
    /// ``None`` when a successor is not covered or the game is over.
    fn probe_moves(&self, position: &PyPosition) -> PyResult<Option<Vec<(PyMove, PyProbe)>>> {
        let moves = self.0.probe_moves(self.check(position)?);
        Ok(moves.map(|list| {
            list.into_iter()
                .map(|(m, p)| (PyMove(m), PyProbe(p)))
                .collect()
        }))
    }

    /// The moves that keep the best value (all quickest wins, all draws, or all slowest losses); empty when
    /// not covered.
    fn best_moves(&self, position: &PyPosition) -> PyResult<Vec<PyMove>> {
        let Some(moves) = self.0.probe_moves(self.check(position)?) else {
            return Ok(Vec::new());
        };
        let best = moves[0].1;
        Ok(moves
            .into_iter()
            .take_while(|(_, p)| *p == best)
            .map(|(m, _)| PyMove(m))
            .collect())
    }

    /// Generates the tables of ``materials`` (keys like ``"R-e"``; the smaller materials their captures lead
    /// to are added) into ``directory`` under ``rules``, keeping tables already there, and returns every
    /// material made or kept. Runs with the GIL released on ``threads`` threads (0: one per core) within
    /// ``memory_mb`` of working memory.
    #[staticmethod]
    #[pyo3(signature = (directory, materials, rules = None, memory_mb = 1024, threads = 0))]
    fn generate(
        py: Python<'_>,
        directory: PathBuf,
        materials: Vec<String>,
        rules: Option<RulesArg<'_>>,
        memory_mb: u64,
        threads: usize,
    ) -> PyResult<Vec<String>> {
        let rules: Rules = RulesArg::resolve(rules)?;
        if !(1..=MAX_MEMORY_MB).contains(&memory_mb) {
            return Err(value_error(format!(
                "memory_mb {memory_mb} should be 1 to {MAX_MEMORY_MB}"
            )));
        }
        let materials = materials
            .iter()
            .map(|key| key.parse::<Material>().map_err(value_error))
            .collect::<PyResult<Vec<_>>>()?;
        let options = BuildOptions {
            with_smaller_materials: true,
            out: directory,
            materials,
            memory_limit: memory_mb << 20,
            threads,
            dtz: false,
        };
        let reports = py
            .detach(|| build(&rules, &options, &|_| {}))
            .map_err(tablebase_error)?;
        Ok(reports.iter().map(|r| r.material.to_string()).collect())
    }
}
