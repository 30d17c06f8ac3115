//! `doushouqi.Engine`: the engine searching in-process, the interpreter released while it thinks.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, TryLockError};

use jungle_search::{Engine, EngineOptions, Limits, SearchInfo, StopHandle};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::{tablebase_error, value_error};
use crate::game_arg::GameArg;
use crate::interrupt::run_interruptible;
use crate::limits::SearchLimits;
use crate::moves::PyMove;
use crate::score::PyScore;

/// The Jungle engine, in this process.
///
/// ``Engine(threads=1, hash_mb=16, skill=8, multipv=1, tablebases=None)``: search threads (1 is deterministic),
/// transposition table MiB, skill level 1 (beginner) to 8 (full strength), lines reported, and a directory of
/// endgame tables made under the rules of the games searched. ``search`` releases the GIL while it thinks and
/// stops early on Ctrl-C (raising ``KeyboardInterrupt``) or on ``stop()`` from another thread.
#[pyclass(name = "Engine", module = "doushouqi", frozen)]
#[derive(Debug)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    stop: StopHandle,
}

/// One principal variation of a search.
#[pyclass(name = "Line", module = "doushouqi", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyLine {
    /// 1 for the best line, 2 for the second best, …
    multipv: usize,
    score: PyScore,
    depth: u32,
    pv: Vec<PyMove>,
}

#[pymethods]
impl PyLine {
    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.pv.iter().map(|m| m.0.to_string()).collect();
        format!(
            "<Line {} depth {} {} pv {}>",
            self.multipv,
            self.depth,
            self.score,
            pv.join(" ")
        )
    }
}

/// What a search found: ``best_move`` (``None`` only when the game is over), its ``score``, the ``depth``
/// reached, ``nodes`` searched, the principal variation ``pv`` and every MultiPV line of the last depth
/// (``lines``, best first).
#[pyclass(name = "SearchResult", module = "doushouqi", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PySearchResult {
    best_move: Option<PyMove>,
    score: PyScore,
    depth: u32,
    nodes: u64,
    pv: Vec<PyMove>,
    lines: Vec<PyLine>,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        let best = self
            .best_move
            .map_or("None".to_string(), |m| m.0.to_string());
        format!(
            "<SearchResult {best} {} depth {} nodes {}>",
            self.score, self.depth, self.nodes
        )
    }
}

/// The last report of each line at the deepest depth reached, best line first.
fn final_lines(infos: &[SearchInfo]) -> Vec<PyLine> {
    let Some(depth) = infos.iter().map(|i| i.depth).max() else {
        return Vec::new();
    };
    let mut lines: Vec<PyLine> = Vec::new();
    for info in infos.iter().filter(|i| i.depth == depth) {
        let line = PyLine {
            multipv: info.multipv,
            score: info.score.into(),
            depth: info.depth,
            pv: info.pv.iter().copied().map(PyMove).collect(),
        };
        match lines.iter_mut().find(|l| l.multipv == info.multipv) {
            Some(slot) => *slot = line,
            None => lines.push(line),
        }
    }
    lines.sort_by_key(|l| l.multipv);
    lines
}

impl PyEngine {
    /// The engine, if no other thread is using it (waiting for it with the GIL held could deadlock).
    fn lock(&self) -> PyResult<MutexGuard<'_, Engine>> {
        self.engine.try_lock().map_err(|e| match e {
            TryLockError::WouldBlock => {
                PyRuntimeError::new_err("the engine is searching in another thread")
            }
            TryLockError::Poisoned(_) => {
                PyRuntimeError::new_err("the engine failed in an earlier search")
            }
        })
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 16, skill = 8, multipv = 1, tablebases = None))]
    fn new(
        threads: usize,
        hash_mb: usize,
        skill: u8,
        multipv: usize,
        tablebases: Option<PathBuf>,
    ) -> PyResult<PyEngine> {
        let check = |name: &str, value: usize, max: usize| {
            if (1..=max).contains(&value) {
                Ok(())
            } else {
                Err(value_error(format!("{name} {value} should be 1 to {max}")))
            }
        };
        check("threads", threads, EngineOptions::MAX_THREADS)?;
        check("hash_mb", hash_mb, EngineOptions::MAX_HASH_MB)?;
        check("multipv", multipv, EngineOptions::MAX_MULTIPV)?;
        let (min_skill, max_skill) = (
            jungle_search::skill::MIN_LEVEL,
            jungle_search::skill::MAX_LEVEL,
        );
        if !(min_skill..=max_skill).contains(&skill) {
            return Err(value_error(format!(
                "skill {skill} should be {min_skill} to {max_skill}"
            )));
        }
        if let Some(dir) = &tablebases
            && !dir.is_dir()
        {
            return Err(tablebase_error(format!(
                "\"{}\" is not a directory",
                dir.display()
            )));
        }
        let engine = Engine::new(EngineOptions {
            threads,
            hash_mb,
            skill_level: skill,
            multipv,
            tablebase_path: tablebases,
            ..EngineOptions::default()
        });
        let stop = engine.stop_handle();
        Ok(PyEngine {
            engine: Mutex::new(engine),
            stop,
        })
    }

    /// Searches a ``Game`` or ``Position`` (its pushed moves count for repetitions) until one of the limits:
    /// ``depth`` (plies), ``nodes``, ``time`` (seconds). At least one is needed. Raises ``TablebaseError`` when
    /// the engine's tables were made under other rules than the game's.
    #[pyo3(signature = (game, depth = None, nodes = None, time = None))]
    fn search(
        &self,
        py: Python<'_>,
        game: GameArg<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<PySearchResult> {
        let limits = SearchLimits::new(depth, nodes, time)?;
        let limits = Limits {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.time,
            ..Limits::default()
        };
        let game = game.to_game();
        let mut engine = self.lock()?;
        let engine = &mut *engine;
        engine.set_game(&game);
        if let Some(error) = engine.take_tablebase_error() {
            return Err(tablebase_error(error));
        }
        self.stop.clear();
        let (result, infos) = run_interruptible(
            py,
            || {
                let mut infos = Vec::new();
                let result = engine.go(&limits, &mut |info| infos.push(info.clone()));
                (result, infos)
            },
            || self.stop.stop(),
        )?;
        Ok(PySearchResult {
            best_move: result.best_move.map(PyMove),
            score: result.score.into(),
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv.iter().copied().map(PyMove).collect(),
            lines: final_lines(&infos),
        })
    }

    /// Asks a running search (in another thread) to return its best move now.
    fn stop(&self) {
        self.stop.stop();
    }

    /// The static evaluation of a game's current position, from the side to move's point of view.
    fn evaluate(&self, game: GameArg<'_>) -> PyResult<i32> {
        let mut engine = self.lock()?;
        engine.set_game(&game.to_game());
        Ok(engine.evaluate())
    }

    /// Forgets what earlier searches learnt (a new game): the transposition table and move-ordering statistics.
    fn clear(&self) -> PyResult<()> {
        self.lock()?.clear();
        Ok(())
    }
}
