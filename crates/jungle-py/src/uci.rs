//! `doushouqi.uci.Engine`: any program speaking the protocol of `jungle uci`, driven over pipes (the engine
//! process of `jungle match`).

use std::path::PathBuf;
use std::sync::{Mutex, TryLockError};
use std::time::Duration;

use jungle_match::engine::{EngineConfig, EngineProcess, EngineScore};
use jungle_match::time_control::SearchLimits as MatchLimits;
use jungle_rules::{Game, Rules};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::{move_error, value_error};
use crate::game_arg::GameArg;
use crate::limits::SearchLimits;
use crate::moves::PyMove;
use crate::rules::{PyRules, RulesArg};
use crate::score::PyScore;

/// A child process speaking the engine protocol.
///
/// ``Engine(command, options=None, rules=None, timeout=10.0)``: ``command`` is a program path or a list
/// (``["jungle", "uci"]``); ``options`` are sent as ``setoption`` after the handshake; ``rules`` go to the
/// engine as its ``Rules`` option, and only games under those rules can be searched. ``timeout`` bounds every
/// wait beyond a search's own time. ``RuntimeError`` when the program cannot start, dies or stalls. Use it as a
/// context manager or call ``quit()``.
#[pyclass(name = "Engine", module = "doushouqi.uci", frozen)]
#[derive(Debug)]
pub struct PyUciEngine {
    process: Mutex<Option<EngineProcess>>,
    rules: Rules,
    timeout: Duration,
}

/// A search's answer: the ``best_move`` (checked to be legal), the last ``score`` and ``depth`` the engine
/// reported (``None`` if it reported none), and the seconds it took.
#[pyclass(name = "UciResult", module = "doushouqi.uci", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyUciResult {
    best_move: PyMove,
    score: Option<PyScore>,
    depth: Option<u32>,
    seconds: f64,
}

#[pymethods]
impl PyUciResult {
    fn __repr__(&self) -> String {
        let score = self.score.map_or("no score".to_string(), |s| s.to_string());
        format!(
            "<UciResult {} {score} depth {:?}>",
            self.best_move.0, self.depth
        )
    }
}

/// A command argument: a program path or a list of program and arguments.
#[derive(Debug, FromPyObject)]
pub enum Command {
    Program(PathBuf),
    Line(Vec<String>),
}

fn position_line(game: &Game) -> String {
    let mut line = format!("position fen {}", game.start_position());
    if !game.moves().is_empty() {
        line.push_str(" moves");
        for m in game.moves() {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

fn go_line(limits: &SearchLimits) -> String {
    let mut line = String::from("go");
    if let Some(d) = limits.depth {
        line.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        line.push_str(&format!(" nodes {n}"));
    }
    if let Some(t) = limits.time {
        line.push_str(&format!(" movetime {}", t.as_millis().max(1)));
    }
    line
}

fn runtime_error(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

impl PyUciEngine {
    /// Runs `f` on the process, if it is running and no other thread is using it.
    fn with_process<T>(&self, f: impl FnOnce(&mut EngineProcess) -> PyResult<T>) -> PyResult<T> {
        let mut slot = self.process.try_lock().map_err(|e| match e {
            TryLockError::WouldBlock => runtime_error("the engine is busy in another thread"),
            TryLockError::Poisoned(_) => runtime_error("the engine failed earlier"),
        })?;
        let process = slot
            .as_mut()
            .ok_or_else(|| runtime_error("the engine has quit"))?;
        let result = f(process);
        if result.is_err() {
            // A crashed or stalled engine is no use any more: end it rather than leave it running.
            if let Some(process) = slot.take() {
                process.kill();
            }
        }
        result
    }
}

#[pymethods]
impl PyUciEngine {
    #[new]
    #[pyo3(signature = (command, options = None, rules = None, timeout = 10.0))]
    fn new(
        py: Python<'_>,
        command: Command,
        options: Option<Vec<(String, String)>>,
        rules: Option<RulesArg<'_>>,
        timeout: f64,
    ) -> PyResult<PyUciEngine> {
        let rules = RulesArg::resolve(rules)?;
        if !(timeout.is_finite() && timeout > 0.0 && timeout <= 3600.0) {
            return Err(value_error(format!(
                "timeout {timeout} should be above 0 and at most 3600 seconds"
            )));
        }
        let timeout = Duration::from_secs_f64(timeout);
        let (program, args) = match command {
            Command::Program(path) => (path, Vec::new()),
            Command::Line(mut line) => {
                if line.is_empty() {
                    return Err(value_error("the command is empty"));
                }
                let program = PathBuf::from(line.remove(0));
                (program, line)
            }
        };
        let mut setoptions = options.unwrap_or_default();
        if !rules.is_standard() {
            setoptions.push(("Rules".to_string(), rules.to_string()));
        }
        let config = EngineConfig {
            name: program.display().to_string(),
            command: program,
            args,
            working_dir: None,
            options: setoptions,
            limits: MatchLimits::default(),
        };
        let process = py
            .detach(|| EngineProcess::start(&config, timeout, None))
            .map_err(runtime_error)?;
        Ok(PyUciEngine {
            process: Mutex::new(Some(process)),
            rules,
            timeout,
        })
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.rules.clone())
    }

    /// Searches a ``Game`` or ``Position`` within ``depth``, ``nodes`` or ``time`` (seconds; at least one
    /// limit); waits at most ``time`` plus the timeout (the timeout alone without ``time``).
    #[pyo3(signature = (game, depth = None, nodes = None, time = None))]
    fn search(
        &self,
        py: Python<'_>,
        game: GameArg<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<PyUciResult> {
        let limits = SearchLimits::new(depth, nodes, time)?;
        let game = game.to_game();
        if game.rules() != &self.rules {
            return Err(value_error(format!(
                "the game is under rules \"{}\", the engine was started with \"{}\"",
                game.rules(),
                self.rules
            )));
        }
        if let Some(outcome) = game.outcome() {
            return Err(value_error(format!("the game is over: {outcome}")));
        }
        let deadline = limits.time.unwrap_or_default() + self.timeout;
        let (position, go) = (position_line(&game), go_line(&limits));
        let answer = self.with_process(|process| {
            py.detach(|| process.search(&position, &go, deadline))
                .map_err(runtime_error)
        })?;
        let m = game
            .position()
            .parse_move(game.rules(), &answer.best_move)
            .map_err(|e| {
                move_error(format!(
                    "the engine answered bestmove \"{}\": {e}",
                    answer.best_move
                ))
            })?;
        Ok(PyUciResult {
            best_move: PyMove(m),
            score: answer.info.score.map(|s| match s {
                EngineScore::Cp(cp) => PyScore::cp(cp),
                EngineScore::Mate(n) => PyScore::mate_in_moves(n),
            }),
            depth: answer.info.depth,
            seconds: answer.elapsed.as_secs_f64(),
        })
    }

    /// Tells the engine a new game begins (it forgets what it learnt).
    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        let timeout = self.timeout;
        self.with_process(|process| {
            py.detach(|| process.new_game(timeout))
                .map_err(runtime_error)
        })
    }

    /// Asks the engine to quit (killing it if it does not at once). Idempotent.
    fn quit(&self, py: Python<'_>) {
        let taken = match self.process.lock() {
            Ok(mut slot) => slot.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(process) = taken {
            py.detach(|| process.quit());
        }
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.quit(py);
    }
}

impl Drop for PyUciEngine {
    fn drop(&mut self) {
        if let Ok(slot) = self.process.get_mut()
            && let Some(process) = slot.take()
        {
            process.kill();
        }
    }
}
