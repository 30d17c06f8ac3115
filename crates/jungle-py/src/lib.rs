//! The Python package `doushouqi`, compiled as the extension module `doushouqi._core` (maturin packs it with the
//! pure-Python parts in `python/doushouqi`). One file per Python concept; errors become `ValueError` subclasses.

mod drawing;
mod encoding;
mod engine;
mod errors;
mod game;
mod game_arg;
mod hidden;
mod interrupt;
mod limits;
mod moves;
mod outcome;
mod pgn;
mod pieces;
mod position;
mod rng;
mod rules;
mod score;
mod tablebases;
mod uci;
mod vector;

use pyo3::prelude::*;

#[pymodule(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    pieces::register(m)?;
    m.add_class::<rules::PyRules>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<outcome::PyOutcome>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<pgn::PyPgnGame>()?;
    m.add_function(wrap_pyfunction!(pgn::read_pgn_games, m)?)?;
    m.add_class::<score::PyScore>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyLine>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<tablebases::PyTablebases>()?;
    m.add_class::<tablebases::PyProbe>()?;
    m.add("UciEngine", m.py().get_type::<uci::PyUciEngine>())?;
    m.add("UciResult", m.py().get_type::<uci::PyUciResult>())?;
    m.add("START_FEN", jungle_rules::START_FEN)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_class::<hidden::PyHiddenGame>()?;
    m.add("ACTION_COUNT", encoding::ACTIONS)?;
    m.add("OBSERVATION_SHAPE", (encoding::PLANES, 9, 7))?;
    m.add("PLANE_NAMES", encoding::PLANE_NAMES.to_vec())?;
    let mirrored: Vec<usize> = (0..encoding::ACTIONS)
        .map(encoding::mirror_action)
        .collect();
    m.add("MIRRORED_ACTIONS", mirrored)?;
    Ok(())
}
