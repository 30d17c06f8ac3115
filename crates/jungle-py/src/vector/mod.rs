//! `doushouqi.VectorEnv`: n games stepped at once from an array of actions, writing into numpy arrays it owns.

mod arrays;
mod inputs;
mod prefetch;
mod sampling;
mod slot;

use jungle_rules::Position;
use numpy::{PyArray1, PyArray2, PyArray4};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rayon::prelude::*;

use crate::encoding::{ACTIONS, OBSERVATION_SIZE, Observer, PLANES};
use crate::errors::{fen_error, value_error};
use crate::rng::GameRng;
use crate::rules::{PyRules, RulesArg};
use arrays::Shared;
use inputs::{Actions, Rows};
use sampling::Pick;
use slot::{Legal, Outputs, Setup, Slot, SlotState};

/// Games below this many per thread are not worth handing to another thread (observing all games, sampling from
/// a policy's rows).
const MIN_GAMES_PER_TASK: usize = 64;
/// Games a thread steps per task: a step of a game costs a few hundred nanoseconds, and waking another thread,
/// handing it work and waiting for it costs tens of microseconds of CPU (its spinning while it looks for more
/// included), which smaller tasks did not pay back (with tasks of 64 games, `VectorEnv(256)` cost 2.5–3 M
/// env-steps per CPU-second against 4.7–5.2 M on the calling thread); up to this many are stepped there, and
/// n = 4096 is one task per core.
const STEP_GAMES_PER_TASK: usize = 2048;
/// The most games one `VectorEnv` may hold (about 3.5 KB of arrays each).
const MAX_GAMES: usize = 1 << 20;

/// ``n`` games under one set of rules, stepped together.
///
/// ``VectorEnv(n, rules=None, seed=0, max_plies=1000, fen=None)``. The arrays ``observations``
/// ``(n, 26, 9, 7) uint8``, ``action_masks`` ``(n, 252) bool``, ``rewards`` ``(n,) float32``, ``terminated``
/// and ``truncated`` ``(n,) bool`` and ``final_observations`` ``(n, 26, 9, 7) uint8`` are allocated once,
/// overwritten by every ``reset``/``step`` and read-only (writing raises ``ValueError``): copy what you keep.
/// ``step(actions)`` plays one action per game (``(n,)`` integers: an array of any integer dtype, a strided view
/// or a list; ``ValueError`` naming the game if one is illegal, nothing played then); the reward is for the side
/// that just moved (+1 win, -1 loss, 0 otherwise). A game that ends (or reaches ``max_plies``, 0 = no limit)
/// restarts at once: its observation and mask are then the new game's (auto-reset in the same step), its reward
/// and flags the finished game's, and ``final_observations[i]`` its last observation. Work is spread over the
/// cores with the GIL released.
#[pyclass(name = "VectorEnv", module = "doushouqi")]
#[derive(Debug)]
pub struct PyVectorEnv {
    setup: Setup,
    /// Each game's legal actions and generator (read by sampling and checking), then the rest of each game.
    legal: Vec<Legal>,
    slots: Vec<Slot>,
    seed: u64,
    observations: Shared<u8, numpy::Ix4>,
    /// Written as bytes, shown as `bool`.
    action_masks: Shared<u8, numpy::Ix2, bool>,
    rewards: Shared<f32, numpy::Ix1>,
    terminated: Shared<bool, numpy::Ix1>,
    truncated: Shared<bool, numpy::Ix1>,
    final_observations: Shared<u8, numpy::Ix4>,
    /// `observations` as float32, allocated at the first `float_observations()`.
    float_observations: Option<Shared<f32, numpy::Ix4>>,
}

/// The per-game seed: games get unrelated streams from one base seed.
fn game_seed(seed: u64, game: usize) -> u64 {
    seed ^ (game as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A reset seed: one for the whole batch, or one per game.
#[derive(Debug, FromPyObject)]
enum SeedArg {
    One(u64),
    PerGame(Vec<u64>),
}

/// A run of consecutive games and their rows of the batch's arrays, stepped one game after the other.
struct Run<'a> {
    slots: &'a mut [Slot],
    legal: &'a mut [Legal],
    actions: &'a [i64],
    observations: &'a mut [u8],
    final_observations: &'a mut [u8],
    masks: &'a mut [u8],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
}

impl Run<'_> {
    /// Plays each game's (legal) action. In a run too big for the core's cache each game's lines are fetched a
    /// few games ahead (see `prefetch`): at n = 4096 that took a fifth off the CPU of a step, where at n = 64 it
    /// only added the instructions.
    fn step(self, setup: &Setup) {
        let n = self.slots.len();
        let fetch_ahead = n >= PREFETCH_MIN_GAMES;
        for i in 0..n {
            if fetch_ahead {
                if let Some(ahead) = self.slots.get(i + SLOT_AHEAD) {
                    prefetch::prefetch_bytes((ahead as *const Slot).cast(), size_of::<Slot>());
                }
                let j = i + OUTPUTS_AHEAD;
                if let Some(next) = self.slots.get(j) {
                    next.prefetch_step(
                        self.actions[j],
                        self.observations[j * OBSERVATION_SIZE..].as_ptr(),
                        self.masks[j * ACTIONS..].as_ptr(),
                    );
                }
            }
            let rows = i * OBSERVATION_SIZE..(i + 1) * OBSERVATION_SIZE;
            let out = Outputs {
                observation: &mut self.observations[rows.clone()],
                final_observation: &mut self.final_observations[rows],
                mask: &mut self.masks[i * ACTIONS..(i + 1) * ACTIONS],
                reward: &mut self.rewards[i],
                terminated: &mut self.terminated[i],
                truncated: &mut self.truncated[i],
            };
            self.slots[i].step(setup, &mut self.legal[i], self.actions[i], out);
        }
    }
}

/// Runs of at least this many games fetch ahead (about 2.5 KB of arrays a game: 512 games fill a core's L2).
const PREFETCH_MIN_GAMES: usize = 512;
/// How many games ahead of the one being stepped its slot is fetched, and then the lines its step writes (found
/// from the slot's position, which has arrived by then). Measured at n = 4096: 4 and 2 as good as 8 and 4, and
/// the slot's fetch worth keeping (without it 3 % more CPU).
const SLOT_AHEAD: usize = 4;
const OUTPUTS_AHEAD: usize = 2;

type StepResult = (
    Py<PyArray4<u8>>,
    Py<PyArray1<f32>>,
    Py<PyArray1<bool>>,
    Py<PyArray1<bool>>,
);

fn zeros4(py: Python<'_>, n: usize) -> PyResult<Shared<u8, numpy::Ix4>> {
    Shared::new(PyArray4::zeros(py, [n, PLANES, 9, 7], false))
}

impl PyVectorEnv {
    fn with_games(
        py: Python<'_>,
        setup: Setup,
        (slots, legal): (Vec<Slot>, Vec<Legal>),
        seed: u64,
    ) -> PyResult<Self> {
        let n = slots.len();
        let env = PyVectorEnv {
            slots,
            legal,
            setup,
            seed,
            observations: zeros4(py, n)?,
            action_masks: Shared::new(PyArray2::zeros(py, [n, ACTIONS], false))?,
            rewards: Shared::new(PyArray1::zeros(py, [n], false))?,
            terminated: Shared::new(PyArray1::zeros(py, [n], false))?,
            truncated: Shared::new(PyArray1::zeros(py, [n], false))?,
            final_observations: zeros4(py, n)?,
            float_observations: None,
        };
        env.observe_all(py)?;
        Ok(env)
    }

    /// Writes every game's observation and mask.
    fn observe_all(&self, py: Python<'_>) -> PyResult<()> {
        let mut obs = self.observations.write(py)?;
        let mut masks = self.action_masks.write(py)?;
        let (obs, masks) = (obs.as_slice_mut()?, masks.as_slice_mut()?);
        let (setup, slots, legal) = (&self.setup, &self.slots, &self.legal);
        py.detach(|| {
            (
                slots.par_iter(),
                legal.par_iter(),
                obs.par_chunks_mut(OBSERVATION_SIZE),
                masks.par_chunks_mut(ACTIONS),
            )
                .into_par_iter()
                .with_min_len(MIN_GAMES_PER_TASK)
                .for_each(|(slot, legal, obs, mask)| slot.observe(setup, legal, obs, mask));
        });
        Ok(())
    }

    fn results(&self, py: Python<'_>) -> StepResult {
        (
            self.observations.view(py),
            self.rewards.view(py),
            self.terminated.view(py),
            self.truncated.view(py),
        )
    }

    /// Plays one legal action per game (checked by the caller).
    fn play(&mut self, py: Python<'_>, actions: &[i64]) -> PyResult<StepResult> {
        let mut obs = self.observations.write(py)?;
        let mut finals = self.final_observations.write(py)?;
        let mut masks = self.action_masks.write(py)?;
        let mut rewards = self.rewards.write(py)?;
        let mut terminated = self.terminated.write(py)?;
        let mut truncated = self.truncated.write(py)?;
        let (obs, finals, masks) = (
            obs.as_slice_mut()?,
            finals.as_slice_mut()?,
            masks.as_slice_mut()?,
        );
        let (rewards, terminated, truncated) = (
            rewards.as_slice_mut()?,
            terminated.as_slice_mut()?,
            truncated.as_slice_mut()?,
        );
        let (setup, slots, legal) = (&self.setup, &mut self.slots, &mut self.legal);
        if slots.len() <= STEP_GAMES_PER_TASK {
            // Handing them to the thread pool and waiting for them costs more than stepping them.
            Run {
                slots,
                legal,
                actions,
                observations: obs,
                final_observations: finals,
                masks,
                rewards,
                terminated,
                truncated,
            }
            .step(setup);
        } else {
            py.detach(|| {
                (
                    (
                        slots.par_chunks_mut(STEP_GAMES_PER_TASK),
                        legal.par_chunks_mut(STEP_GAMES_PER_TASK),
                        actions.par_chunks(STEP_GAMES_PER_TASK),
                    ),
                    obs.par_chunks_mut(STEP_GAMES_PER_TASK * OBSERVATION_SIZE),
                    finals.par_chunks_mut(STEP_GAMES_PER_TASK * OBSERVATION_SIZE),
                    masks.par_chunks_mut(STEP_GAMES_PER_TASK * ACTIONS),
                    (
                        rewards.par_chunks_mut(STEP_GAMES_PER_TASK),
                        terminated.par_chunks_mut(STEP_GAMES_PER_TASK),
                        truncated.par_chunks_mut(STEP_GAMES_PER_TASK),
                    ),
                )
                    .into_par_iter()
                    .for_each(
                        |(
                            (slots, legal, actions),
                            observations,
                            final_observations,
                            masks,
                            (rewards, terminated, truncated),
                        )| {
                            Run {
                                slots,
                                legal,
                                actions,
                                observations,
                                final_observations,
                                masks,
                                rewards,
                                terminated,
                                truncated,
                            }
                            .step(setup);
                        },
                    );
            });
        }
        Ok(self.results(py))
    }

    /// One action per game picked from its row of `rows` (legal actions only), from each game's generator.
    fn pick(&mut self, py: Python<'_>, rows: &Rows<'_>, how: Pick) -> PyResult<Vec<i64>> {
        let legal = &mut self.legal;
        match rows {
            Rows::F32(a) => {
                let a = a.as_slice()?;
                py.detach(|| sampling::pick(legal, a, how))
            }
            Rows::F64(a) => {
                let a = a.as_slice()?;
                py.detach(|| sampling::pick(legal, a, how))
            }
        }
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (n, rules = None, seed = 0, max_plies = 1000, fen = None))]
    fn new(
        py: Python<'_>,
        n: usize,
        rules: Option<RulesArg<'_>>,
        seed: u64,
        max_plies: u32,
        fen: Option<&str>,
    ) -> PyResult<PyVectorEnv> {
        if !(1..=MAX_GAMES).contains(&n) {
            return Err(value_error(format!("n {n} should be 1 to {MAX_GAMES}")));
        }
        let rules = RulesArg::resolve(rules)?;
        let start = match fen {
            None => Position::start(&rules),
            Some(text) => Position::from_fen(text, &rules).map_err(fen_error)?,
        };
        if start.outcome(&rules).is_some() {
            return Err(value_error("the start position is already decided"));
        }
        let setup = Setup {
            observer: Observer::new(&rules),
            rules,
            start,
            max_plies,
        };
        let games = (0..n)
            .map(|i| {
                let mut legal = Legal::new(GameRng(game_seed(seed, i)));
                (Slot::new(&setup, &mut legal), legal)
            })
            .unzip();
        PyVectorEnv::with_games(py, setup, games, seed)
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.setup.rules.clone())
    }

    #[getter]
    fn max_plies(&self) -> u32 {
        self.setup.max_plies
    }

    #[getter]
    fn observations(&self, py: Python<'_>) -> Py<PyArray4<u8>> {
        self.observations.view(py)
    }

    #[getter]
    fn action_masks(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.action_masks.view(py)
    }

    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray1<f32>> {
        self.rewards.view(py)
    }

    #[getter]
    fn terminated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.terminated.view(py)
    }

    #[getter]
    fn truncated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.truncated.view(py)
    }

    #[getter]
    fn final_observations(&self, py: Python<'_>) -> Py<PyArray4<u8>> {
        self.final_observations.view(py)
    }

    /// Restarts every game (and, with a ``seed``, every random generator: one int for the batch, or a list of
    /// one per game); returns ``observations``.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<SeedArg>) -> PyResult<Py<PyArray4<u8>>> {
        let seeds: Option<Vec<u64>> = match seed {
            None => None,
            Some(SeedArg::One(s)) => {
                self.seed = s;
                Some((0..self.slots.len()).map(|i| game_seed(s, i)).collect())
            }
            Some(SeedArg::PerGame(seeds)) if seeds.len() == self.slots.len() => Some(seeds),
            Some(SeedArg::PerGame(seeds)) => {
                return Err(value_error(format!(
                    "{} seeds for {} games",
                    seeds.len(),
                    self.slots.len()
                )));
            }
        };
        for (i, (slot, legal)) in self.slots.iter_mut().zip(&mut self.legal).enumerate() {
            slot.restart(&self.setup, legal);
            if let Some(seeds) = &seeds {
                legal.rng = GameRng(seeds[i]);
            }
        }
        self.rewards.write(py)?.as_slice_mut()?.fill(0.0);
        self.terminated.write(py)?.as_slice_mut()?.fill(false);
        self.truncated.write(py)?.as_slice_mut()?.fill(false);
        self.observe_all(py)?;
        Ok(self.observations.view(py))
    }

    /// Plays one action per game; returns ``(observations, rewards, terminated, truncated)`` (the env's own
    /// read-only arrays).
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<StepResult> {
        let actions = Actions::from_py(actions, self.slots.len())?;
        let actions = actions.as_slice();
        // Check every action before playing any, so a bad one leaves every game as it was (a quick pass over
        // the compact legal sets: not worth another thread).
        let first_bad = self
            .legal
            .iter()
            .zip(actions)
            .position(|(legal, &a)| !legal.contains(a));
        if let Some(i) = first_bad {
            return Err(value_error(format!(
                "game {i}: action {} is not legal in {} (see action_masks[{i}])",
                actions[i], self.slots[i].pos
            )));
        }
        self.play(py, actions)
    }

    /// One uniformly random legal action per game from each game's seeded generator, as an ``(n,)`` int64 array.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let legal = &mut self.legal;
        // A pass over 40 bytes a game: even 4096 games take less time than handing them to other threads.
        let actions: Vec<i64> = legal.iter_mut().map(Legal::random_action).collect();
        PyArray1::from_vec(py, actions)
    }

    /// One legal action per game drawn from ``probs`` ``(n, 252)`` (any non-negative weights: only the legal
    /// actions' count, renormalised), from each game's seeded generator; an ``(n,)`` int64 array. ``ValueError``
    /// naming the game when a legal action's weight is negative or NaN, or no legal action has any weight.
    fn sample_masked<'py>(
        &mut self,
        py: Python<'py>,
        probs: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let rows = Rows::from_py(probs, self.slots.len(), "probs")?;
        Ok(PyArray1::from_vec(
            py,
            self.pick(py, &rows, Pick::Probabilities)?,
        ))
    }

    /// One legal action per game drawn from the softmax of ``logits`` ``(n, 252)`` over the legal actions at
    /// ``temperature`` (0: the legal action of highest logit); an ``(n,)`` int64 array. Illegal actions' logits
    /// are ignored (they may be anything, ``-inf`` included).
    #[pyo3(signature = (logits, temperature = 1.0))]
    fn sample_logits<'py>(
        &mut self,
        py: Python<'py>,
        logits: &Bound<'py, PyAny>,
        temperature: f64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let how = Pick::logits(temperature)?;
        let rows = Rows::from_py(logits, self.slots.len(), "logits")?;
        Ok(PyArray1::from_vec(py, self.pick(py, &rows, how)?))
    }

    /// ``sample_logits`` then ``step`` in one call: returns ``(actions, observations, rewards, terminated,
    /// truncated)``, the actions played first.
    #[pyo3(signature = (logits, temperature = 1.0))]
    #[allow(clippy::type_complexity)]
    fn step_logits<'py>(
        &mut self,
        py: Python<'py>,
        logits: &Bound<'py, PyAny>,
        temperature: f64,
    ) -> PyResult<(
        Bound<'py, PyArray1<i64>>,
        Py<PyArray4<u8>>,
        Py<PyArray1<f32>>,
        Py<PyArray1<bool>>,
        Py<PyArray1<bool>>,
    )> {
        let how = Pick::logits(temperature)?;
        let rows = Rows::from_py(logits, self.slots.len(), "logits")?;
        let actions = self.pick(py, &rows, how)?;
        let (obs, rewards, terminated, truncated) = self.play(py, &actions)?;
        Ok((
            PyArray1::from_vec(py, actions),
            obs,
            rewards,
            terminated,
            truncated,
        ))
    }

    /// ``observations`` as float32 ``(n, 26, 9, 7)``, the layout a network takes (channels first), converted in
    /// Rust into an array allocated once and overwritten by the next call (read-only, like ``observations``).
    fn float_observations(&mut self, py: Python<'_>) -> PyResult<Py<PyArray4<f32>>> {
        if self.float_observations.is_none() {
            let n = self.slots.len();
            self.float_observations =
                Some(Shared::new(PyArray4::zeros(py, [n, PLANES, 9, 7], false))?);
        }
        let floats = self.float_observations.as_ref().expect("allocated above");
        let obs = self.observations.read(py)?;
        let mut out = floats.write(py)?;
        let (obs, out) = (obs.as_slice()?, out.as_slice_mut()?);
        py.detach(|| {
            out.par_chunks_mut(OBSERVATION_SIZE)
                .zip(obs.par_chunks(OBSERVATION_SIZE))
                .with_min_len(MIN_GAMES_PER_TASK)
                .for_each(|(out, obs)| {
                    for (f, &b) in out.iter_mut().zip(obs) {
                        *f = f32::from(b);
                    }
                });
        });
        Ok(floats.view(py))
    }

    /// The FEN of game ``i``'s current position.
    fn fen(&self, i: usize) -> PyResult<String> {
        self.slots
            .get(i)
            .map(|s| s.pos.to_string())
            .ok_or_else(|| value_error(format!("game {i} of {}", self.slots.len())))
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// A copy is a new batch in the same state (its own games, generators and arrays): copying shares nothing.
    fn __copy__(&self, py: Python<'_>) -> PyResult<PyVectorEnv> {
        Ok(PyVectorEnv {
            setup: self.setup.clone(),
            slots: self.slots.clone(),
            legal: self.legal.clone(),
            seed: self.seed,
            observations: self.observations.copy(py)?,
            action_masks: self.action_masks.copy(py)?,
            rewards: self.rewards.copy(py)?,
            terminated: self.terminated.copy(py)?,
            truncated: self.truncated.copy(py)?,
            final_observations: self.final_observations.copy(py)?,
            float_observations: None,
        })
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<PyVectorEnv> {
        self.__copy__(py)
    }

    /// Pickles as the constructor's arguments, then each game's state (position, history since the last
    /// capture, random state) and the last step's rewards, flags and final observations.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.borrow();
        let args = (
            this.slots.len(),
            this.setup.rules.to_string(),
            this.seed,
            this.setup.max_plies,
            this.setup.start.to_string(),
        )
            .into_pyobject(py)?;
        let games: Vec<SlotState> = this
            .slots
            .iter()
            .zip(&this.legal)
            .map(|(slot, legal)| slot.state(legal))
            .collect();
        let state = (
            games,
            this.rewards.snapshot(py)?,
            this.terminated.snapshot(py)?,
            this.truncated.snapshot(py)?,
            this.final_observations.snapshot(py)?,
        )
            .into_pyobject(py)?;
        Ok((slf.get_type().into_any(), args, state))
    }

    fn __setstate__(&mut self, py: Python<'_>, state: &Bound<'_, PyTuple>) -> PyResult<()> {
        let games: Vec<SlotState> = state.get_item(0)?.extract()?;
        if games.len() != self.slots.len() {
            return Err(value_error("the pickled state is of another batch size"));
        }
        let games: Vec<(Slot, Legal)> = games
            .into_iter()
            .map(|g| Slot::from_state(&self.setup, g))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                value_error(
                    "the pickled state holds a position the rules refuse or one without a move",
                )
            })?;
        (self.slots, self.legal) = games.into_iter().unzip();
        self.rewards.restore(py, &state.get_item(1)?)?;
        self.terminated.restore(py, &state.get_item(2)?)?;
        self.truncated.restore(py, &state.get_item(3)?)?;
        self.final_observations.restore(py, &state.get_item(4)?)?;
        self.observe_all(py)
    }
}
