//! One game of a `VectorEnv` batch: its position, legal actions, the history the draw rules need and its own
//! random stream; playing an action writes the game's rows of the batch's arrays.

use jungle_rules::{Move, MoveList, Outcome, Position, Rules, Termination};

use crate::encoding::{self, ACTIONS, Observer};
use crate::rng::GameRng;

/// The rules and start shared by every game of a batch.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub start: Position,
    pub observer: Observer,
    pub max_plies: u32,
}

/// One game of the batch: the position and its legal moves, the hashes since the last capture (for
/// repetitions), its length and its own random generator (so results do not depend on how games are spread
/// over threads).
#[derive(Clone, Debug)]
pub struct Slot {
    /// The legal actions of `pos` as a bit set: checking a batch of actions reads only this.
    legal: [u64; 4],
    /// The legal moves of `pos`, generated once per ply for the outcome, the mask, sampling and decoding, and
    /// their actions.
    moves: MoveList,
    actions: [u8; MoveList::CAPACITY],
    pub pos: Position,
    since_capture: Vec<u64>,
    /// A Bloom filter of `since_capture`: most positions are new, and then the scan for repetitions is skipped.
    seen: [u64; SEEN_WORDS],
    /// Earlier occurrences of `pos` (same side to move) since the last capture.
    repetitions: usize,
    plies: u32,
    pub rng: GameRng,
}

const SEEN_WORDS: usize = 16;

/// What a game keeps between steps besides its position, as plain values (for pickling): the hashes since
/// the last capture, the repetitions of the current position, the plies played and the random state.
pub type SlotState = (String, Vec<u64>, usize, u32, u64);

/// Where one game's step results go.
pub struct Outputs<'a> {
    pub observation: &'a mut [u8],
    pub final_observation: &'a mut [u8],
    pub mask: &'a mut [bool],
    pub reward: &'a mut f32,
    pub terminated: &'a mut bool,
    pub truncated: &'a mut bool,
}

/// Why a game's policy row cannot be sampled.
#[derive(Debug)]
pub enum SampleError {
    /// A weight of a legal action is negative or not a number.
    BadWeight { action: usize, weight: f64 },
    /// Every legal action has weight 0.
    NoWeight,
}

impl Slot {
    pub fn new(setup: &Setup, rng: GameRng) -> Slot {
        let mut slot = Slot {
            legal: [0; 4],
            moves: MoveList::new(),
            actions: [0; MoveList::CAPACITY],
            pos: setup.start,
            since_capture: Vec::new(),
            seen: [0; SEEN_WORDS],
            repetitions: 0,
            plies: 0,
            rng,
        };
        slot.restart(setup);
        slot
    }

    /// A game restored from its `state`; `None` if the FEN is not a position of the rules.
    pub fn from_state(setup: &Setup, state: SlotState) -> Option<Slot> {
        let (fen, since_capture, repetitions, plies, rng) = state;
        let mut slot = Slot::new(setup, GameRng(rng));
        slot.pos = Position::from_fen(&fen, &setup.rules).ok()?;
        slot.refresh_moves(&setup.rules);
        slot.since_capture.clear();
        slot.seen = [0; SEEN_WORDS];
        for hash in since_capture {
            slot.remember(hash);
        }
        (slot.repetitions, slot.plies) = (repetitions, plies);
        Some(slot)
    }

    pub fn state(&self) -> SlotState {
        (
            self.pos.to_string(),
            self.since_capture.clone(),
            self.repetitions,
            self.plies,
            self.rng.0,
        )
    }

    pub fn restart(&mut self, setup: &Setup) {
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

    /// The legal actions now (there is always one: finished games restart at once).
    pub fn legal_actions(&self) -> &[u8] {
        &self.actions[..self.moves.len()]
    }

    pub fn is_legal_action(&self, action: i64) -> bool {
        usize::try_from(action)
            .is_ok_and(|a| a < ACTIONS && self.legal[a / 64] & (1 << (a % 64)) != 0)
    }

    /// The legal move of a legal action.
    fn decode(&self, action: i64) -> Move {
        let i = self
            .legal_actions()
            .iter()
            .position(|&a| i64::from(a) == action)
            .expect("the action was checked to be legal");
        self.moves[i]
    }

    /// Plays a legal action and writes what follows: the mover's reward, whether the game terminated or was
    /// truncated (then its final observation is kept and it restarts), the observation and the mask.
    pub fn step(&mut self, setup: &Setup, action: i64, out: Outputs<'_>) {
        let m = self.decode(action);
        let (reward, terminated, truncated) = self.play(setup, m, out.observation);
        (*out.reward, *out.terminated, *out.truncated) = (reward, terminated, truncated);
        if terminated || truncated {
            out.final_observation.copy_from_slice(out.observation);
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

    pub fn observe(&self, setup: &Setup, obs: &mut [u8], mask: &mut [bool]) {
        setup.observer.write(&self.pos, self.repetitions, obs);
        self.write_mask(mask);
    }

    fn write_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        for &a in self.legal_actions() {
            mask[usize::from(a)] = true;
        }
    }

    /// A uniformly random legal action.
    pub fn random_action(&mut self) -> i64 {
        let actions = &self.actions[..self.moves.len()];
        i64::from(actions[self.rng.below(actions.len())])
    }

    /// A legal action drawn with probability proportional to `weight(action)` (legal actions only).
    pub fn weighted_action(&mut self, weight: impl Fn(usize) -> f64) -> Result<i64, SampleError> {
        let mut total = 0.0;
        for &a in self.legal_actions() {
            let w = weight(usize::from(a));
            if !(w >= 0.0 && w.is_finite()) {
                return Err(SampleError::BadWeight {
                    action: usize::from(a),
                    weight: w,
                });
            }
            total += w;
        }
        if total <= 0.0 {
            return Err(SampleError::NoWeight);
        }
        let mut left = self.rng.unit() * total;
        let legal = self.legal_actions();
        for &a in legal {
            let w = weight(usize::from(a));
            if left < w {
                return Ok(i64::from(a));
            }
            left -= w;
        }
        // Rounding left a sliver past the last weight: the last action with weight takes it.
        let last = legal
            .iter()
            .rev()
            .find(|&&a| weight(usize::from(a)) > 0.0)
            .expect("the total is positive");
        Ok(i64::from(*last))
    }

    /// The legal action of highest `score` (the first of equals).
    pub fn best_action(&self, score: impl Fn(usize) -> f64) -> Result<i64, SampleError> {
        let mut best: Option<(u8, f64)> = None;
        for &a in self.legal_actions() {
            let s = score(usize::from(a));
            if s.is_nan() {
                return Err(SampleError::BadWeight {
                    action: usize::from(a),
                    weight: s,
                });
            }
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((a, s));
            }
        }
        Ok(i64::from(best.expect("a legal action").0))
    }
}
