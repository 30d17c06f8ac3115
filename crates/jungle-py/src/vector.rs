//! `jungle.VectorEnv`: n games stepped at once from an array of actions, writing into numpy arrays it owns.

use jungle_rules::{Move, MoveList, Outcome, Position, Rules, Termination};
use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::encoding::{self, ACTIONS, OBSERVATION_SIZE, Observer, PLANES};
use crate::errors::{fen_error, value_error};
use crate::rules::{PyRules, RulesArg};

/// Games below this many per thread are not worth handing to another thread.
const MIN_GAMES_PER_TASK: usize = 64;
/// The most games one `VectorEnv` may hold (about 1.9 KB of arrays each).
const MAX_GAMES: usize = 1 << 20;

/// One game of the batch: the position and its legal moves, the hashes since the last capture (for
/// repetitions), its length and its own random generator (so results do not depend on how games are spread
/// over threads).
#[derive(Clone, Debug)]
struct Slot {
    /// The legal actions of `pos` as a bit set: checking a batch of actions reads only this.
    legal: [u64; 4],
    /// The legal moves of `pos`, generated once per ply for the outcome, the mask, sampling and decoding, and
    /// their actions.
    moves: MoveList,
    actions: [u8; MoveList::CAPACITY],
    pos: Position,
    since_capture: Vec<u64>,
    /// A Bloom filter of `since_capture`: most positions are new, and then the scan for repetitions is skipped.
    seen: [u64; SEEN_WORDS],
    /// Earlier occurrences of `pos` (same side to move) since the last capture.
    repetitions: usize,
    plies: u32,
    rng: SmallRng,
}

const SEEN_WORDS: usize = 16;

/// The rules and start shared by every game.
#[derive(Debug)]
struct Setup {
    rules: Rules,
    start: Position,
    observer: Observer,
    max_plies: u32,
}

impl Slot {
    fn new(setup: &Setup, seed: u64) -> Slot {
        let mut slot = Slot {
            legal: [0; 4],
            moves: MoveList::new(),
            actions: [0; MoveList::CAPACITY],
            pos: setup.start,
            since_capture: Vec::new(),
            seen: [0; SEEN_WORDS],
            repetitions: 0,
            plies: 0,
            rng: SmallRng::seed_from_u64(seed),
        };
        slot.restart(setup);
        slot
    }

    fn restart(&mut self, setup: &Setup) {
        self.pos = setup.start;
        self.refresh_moves(&setup.rules);
        self.since_capture.clear();
        self.seen = [0; SEEN_WORDS];
        self.remember(setup.start.hash());
        self.repetitions = 0;
        self.plies = 0;
    }

    /// The Bloom filter's word and bit for a hash (its top bits: the low ones pick table slots elsewhere).
    fn seen_bit(hash: u64) -> (usize, u64) {
        let bit = (hash >> 54) as usize; // 10 bits: 0..1024
        (bit / 64 % SEEN_WORDS, 1 << (bit % 64))
    }

    fn remember(&mut self, hash: u64) {
        self.since_capture.push(hash);
        let (word, bit) = Slot::seen_bit(hash);
        self.seen[word] |= bit;
    }

    /// Earlier occurrences of a position with this hash (same side to move: every other entry) since the
    /// last capture, before it is remembered.
    fn count_earlier(&self, hash: u64) -> usize {
        let (word, bit) = Slot::seen_bit(hash);
        if self.seen[word] & bit == 0 {
            return 0;
        }
        self.since_capture
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == hash)
            .count()
    }

    /// The end of the game, in the order `Game.outcome` decides it: the board, repetition, the quiet-ply limit.
    fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.moves.is_empty() {
            return self.pos.outcome(rules);
        }
        let options = rules.options();
        if options.repetition_draw != 0 && self.repetitions + 1 >= options.repetition_draw as usize
        {
            return Some(Outcome::draw(Termination::Repetition));
        }
        if options.quiet_ply_limit != 0 && self.pos.quiet_plies() >= options.quiet_ply_limit {
            return Some(Outcome::draw(Termination::QuietPlyLimit));
        }
        None
    }

    fn refresh_moves(&mut self, rules: &Rules) {
        self.moves = self.pos.legal_moves(rules);
        self.legal = [0; 4];
        for (i, &m) in self.moves.iter().enumerate() {
            let action = encoding::encode(m);
            self.actions[i] = action as u8; // below 252
            self.legal[action / 64] |= 1 << (action % 64);
        }
    }

    fn is_legal_action(&self, action: i64) -> bool {
        usize::try_from(action)
            .is_ok_and(|a| a < ACTIONS && self.legal[a / 64] & (1 << (a % 64)) != 0)
    }

    /// The legal move of a legal action.
    fn decode(&self, action: i64) -> Move {
        let i = self.actions[..self.moves.len()]
            .iter()
            .position(|&a| i64::from(a) == action)
            .expect("the action was checked to be legal");
        self.moves[i]
    }

    /// Plays a legal move and writes what follows: the mover's reward, whether the game terminated or was
    /// truncated (then it restarts), the observation and the mask.
    fn step(&mut self, setup: &Setup, m: Move, out: Outputs<'_>) {
        let (reward, terminated, truncated) = self.play(setup, m, out.observation);
        (*out.reward, *out.terminated, *out.truncated) = (reward, terminated, truncated);
        if terminated || truncated {
            self.restart(setup);
            setup.observer.write(&self.pos, 0, out.observation);
        }
        self.write_mask(out.mask);
    }

    fn play(&mut self, setup: &Setup, m: Move, observation: &mut [u8]) -> (f32, bool, bool) {
        let mover = self.pos.side_to_move();
        let piece = self
            .pos
            .piece_at(m.from)
            .expect("a legal move starts on a piece");
        let captured = self.pos.piece_at(m.to);
        self.pos.play_unchecked(m);
        self.refresh_moves(&setup.rules);
        if self.pos.quiet_plies() == 0 {
            self.since_capture.clear();
            self.seen = [0; SEEN_WORDS];
        }
        let hash = self.pos.hash();
        self.repetitions = self.count_earlier(hash);
        self.remember(hash);
        self.plies += 1;
        setup
            .observer
            .update(m, piece, captured, &self.pos, self.repetitions, observation);
        match self.outcome(&setup.rules) {
            Some(outcome) => {
                let reward = match outcome.winner {
                    Some(w) if w == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
                (reward, true, false)
            }
            None => (
                0.0,
                false,
                setup.max_plies != 0 && self.plies >= setup.max_plies,
            ),
        }
    }

    fn observe(&self, setup: &Setup, obs: &mut [u8], mask: &mut [bool]) {
        setup.observer.write(&self.pos, self.repetitions, obs);
        self.write_mask(mask);
    }

    fn write_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        for &a in &self.actions[..self.moves.len()] {
            mask[usize::from(a)] = true;
        }
    }

    /// A uniformly random legal action (there is always one: finished games restart at once).
    fn random_action(&mut self) -> i64 {
        i64::from(self.actions[self.rng.random_range(0..self.moves.len())])
    }
}

/// Where one game's step results go.
struct Outputs<'a> {
    observation: &'a mut [u8],
    mask: &'a mut [bool],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
}

/// ``n`` games under one set of rules, stepped together.
///
/// ``VectorEnv(n, rules=None, seed=0, max_plies=1000, fen=None)``. The arrays ``observations``
/// ``(n, 26, 9, 7) uint8``, ``action_masks`` ``(n, 252) bool``, ``rewards`` ``(n,) float32``, ``terminated``
/// and ``truncated`` ``(n,) bool`` are allocated once and overwritten by every ``reset``/``step``; observations
/// are updated in place from the previous step, so treat the arrays as read-only and copy what you keep. ``step(actions)`` plays one action per game (an ``(n,)`` integer array; ``ValueError`` naming
/// the game if one is illegal, nothing played then); the reward is for the side that just moved (+1 win, -1
/// loss, 0 otherwise). A game that ends (or reaches ``max_plies``, 0 = no limit) restarts at once: its
/// observation and mask are then the new game's (auto-reset), its reward and flags the finished game's.
/// Work is spread over the cores with the GIL released.
#[pyclass(name = "VectorEnv", module = "jungle")]
#[derive(Debug)]
pub struct PyVectorEnv {
    setup: Setup,
    slots: Vec<Slot>,
    seed: u64,
    #[pyo3(get)]
    observations: Py<PyArray4<u8>>,
    #[pyo3(get)]
    action_masks: Py<PyArray2<bool>>,
    #[pyo3(get)]
    rewards: Py<PyArray1<f32>>,
    #[pyo3(get)]
    terminated: Py<PyArray1<bool>>,
    #[pyo3(get)]
    truncated: Py<PyArray1<bool>>,
}

/// The per-game seed: games get unrelated streams from one base seed.
fn game_seed(seed: u64, game: usize) -> u64 {
    seed ^ (game as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl PyVectorEnv {
    /// Writes every game's observation and mask.
    fn observe_all(&self, py: Python<'_>) -> PyResult<()> {
        let mut obs = self.observations.bind(py).try_readwrite()?;
        let mut masks = self.action_masks.bind(py).try_readwrite()?;
        let (obs, masks) = (obs.as_slice_mut()?, masks.as_slice_mut()?);
        let (setup, slots) = (&self.setup, &self.slots);
        py.detach(|| {
            slots
                .par_iter()
                .zip(obs.par_chunks_mut(OBSERVATION_SIZE))
                .zip(masks.par_chunks_mut(ACTIONS))
                .with_min_len(MIN_GAMES_PER_TASK)
                .for_each(|((slot, obs), mask)| slot.observe(setup, obs, mask));
        });
        Ok(())
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
        let env = PyVectorEnv {
            slots: (0..n)
                .map(|i| Slot::new(&setup, game_seed(seed, i)))
                .collect(),
            setup,
            seed,
            observations: PyArray4::zeros(py, [n, PLANES, 9, 7], false).unbind(),
            action_masks: PyArray2::zeros(py, [n, ACTIONS], false).unbind(),
            rewards: PyArray1::zeros(py, [n], false).unbind(),
            terminated: PyArray1::zeros(py, [n], false).unbind(),
            truncated: PyArray1::zeros(py, [n], false).unbind(),
        };
        env.observe_all(py)?;
        Ok(env)
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

    /// Restarts every game (and, with a ``seed``, every random generator); returns ``observations``.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<Py<PyArray4<u8>>> {
        if let Some(s) = seed {
            self.seed = s;
        }
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.restart(&self.setup);
            if seed.is_some() {
                slot.rng = SmallRng::seed_from_u64(game_seed(self.seed, i));
            }
        }
        self.rewards
            .bind(py)
            .try_readwrite()?
            .as_slice_mut()?
            .fill(0.0);
        self.terminated
            .bind(py)
            .try_readwrite()?
            .as_slice_mut()?
            .fill(false);
        self.truncated
            .bind(py)
            .try_readwrite()?
            .as_slice_mut()?
            .fill(false);
        self.observe_all(py)?;
        Ok(self.observations.clone_ref(py))
    }

    /// Plays one action per game; returns ``(observations, rewards, terminated, truncated)`` (the env's own
    /// arrays).
    #[allow(clippy::type_complexity)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<(
        Py<PyArray4<u8>>,
        Py<PyArray1<f32>>,
        Py<PyArray1<bool>>,
        Py<PyArray1<bool>>,
    )> {
        let actions = actions.as_slice()?;
        if actions.len() != self.slots.len() {
            return Err(value_error(format!(
                "{} actions for {} games",
                actions.len(),
                self.slots.len()
            )));
        }
        let (setup, slots) = (&self.setup, &mut self.slots);
        // Check every action before playing any, so a bad one leaves every game as it was.
        let first_bad = py.detach(|| {
            slots
                .par_iter()
                .zip(actions.par_iter())
                .with_min_len(MIN_GAMES_PER_TASK)
                .enumerate()
                .filter(|(_, (slot, a))| !slot.is_legal_action(**a))
                .map(|(i, _)| i)
                .min()
        });
        if let Some(i) = first_bad {
            return Err(value_error(format!(
                "game {i}: action {} is not legal in {} (see action_masks[{i}])",
                actions[i], slots[i].pos
            )));
        }
        let mut obs = self.observations.bind(py).try_readwrite()?;
        let mut masks = self.action_masks.bind(py).try_readwrite()?;
        let mut rewards = self.rewards.bind(py).try_readwrite()?;
        let mut terminated = self.terminated.bind(py).try_readwrite()?;
        let mut truncated = self.truncated.bind(py).try_readwrite()?;
        let (obs, masks) = (obs.as_slice_mut()?, masks.as_slice_mut()?);
        let (rewards, terminated, truncated) = (
            rewards.as_slice_mut()?,
            terminated.as_slice_mut()?,
            truncated.as_slice_mut()?,
        );
        py.detach(|| {
            slots
                .par_iter_mut()
                .zip(actions.par_iter())
                .zip(obs.par_chunks_mut(OBSERVATION_SIZE))
                .zip(masks.par_chunks_mut(ACTIONS))
                .zip(rewards.par_iter_mut())
                .zip(terminated.par_iter_mut())
                .zip(truncated.par_iter_mut())
                .with_min_len(MIN_GAMES_PER_TASK)
                .for_each(
                    |((((((slot, &a), observation), mask), reward), terminated), truncated)| {
                        let m = slot.decode(a);
                        let out = Outputs {
                            observation,
                            mask,
                            reward,
                            terminated,
                            truncated,
                        };
                        slot.step(setup, m, out);
                    },
                );
        });
        Ok((
            self.observations.clone_ref(py),
            self.rewards.clone_ref(py),
            self.terminated.clone_ref(py),
            self.truncated.clone_ref(py),
        ))
    }

    /// One uniformly random legal action per game from each game's seeded generator, as an ``(n,)`` int64 array.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let slots = &mut self.slots;
        let actions: Vec<i64> = py.detach(|| {
            slots
                .par_iter_mut()
                .with_min_len(MIN_GAMES_PER_TASK)
                .map(Slot::random_action)
                .collect()
        });
        PyArray1::from_vec(py, actions)
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
}
