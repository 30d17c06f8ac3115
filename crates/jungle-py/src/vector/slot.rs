//! One game of a `VectorEnv` batch, in two parts: `Legal` (its legal actions and random stream, what sampling
//! and checking a batch of actions read) and `Slot` (the position and the history the draw rules need). The
//! batch keeps each part in its own array, so the quick passes over `Legal` — 40 bytes a game, 160 KB for 4096
//! games — stay in the core's cache instead of dragging every game's position through it.

use jungle_rules::terrain::{Direction, JUMPS};
use jungle_rules::{Move, Outcome, Position, Rules, Square, Termination};

use crate::encoding::{self, ACTIONS, Observer};
use crate::rng::GameRng;

use super::prefetch;

/// The rules and start shared by every game of a batch.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub start: Position,
    pub observer: Observer,
    pub max_plies: u32,
}

/// A game's legal actions as a bit set, and its own random generator (so results do not depend on how games
/// are spread over threads).
#[derive(Clone, Copy, Debug)]
pub struct Legal {
    bits: [u64; 4],
    pub rng: GameRng,
}

/// The rest of a game: the position, which legal actions are river jumps (to decode them), the hashes since
/// the last capture (for repetitions), the repetitions of the current position and its length.
#[derive(Clone, Debug)]
pub struct Slot {
    pub pos: Position,
    jumps: [u64; 4],
    repetitions: usize,
    plies: u32,
    since_capture: Vec<u64>,
    /// A Bloom filter of `since_capture`: most positions are new, and then the scan for repetitions is skipped.
    seen: [u64; SEEN_WORDS],
}

const SEEN_WORDS: usize = 16;

/// Each byte value with its eight bits spread to eight bytes (bit i to byte i, as 0 or 1).
static SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte] |= ((byte as u64 >> bit) & 1) << (8 * bit);
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// A game's state as plain values (for pickling): the FEN, the hashes since the last capture, the repetitions
/// of the current position, the plies played and the random state.
pub type SlotState = (String, Vec<u64>, usize, u32, u64);

/// Where one game's step results go.
pub struct Outputs<'a> {
    pub observation: &'a mut [u8],
    pub final_observation: &'a mut [u8],
    pub mask: &'a mut [u8],
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

impl Legal {
    pub fn new(rng: GameRng) -> Legal {
        Legal { bits: [0; 4], rng }
    }

    pub fn contains(&self, action: i64) -> bool {
        usize::try_from(action)
            .is_ok_and(|a| a < ACTIONS && self.bits[a / 64] & (1 << (a % 64)) != 0)
    }

    fn is_empty(&self) -> bool {
        self.bits == [0; 4]
    }

    /// The legal actions in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(word, &bits)| {
            let mut left = bits;
            std::iter::from_fn(move || {
                (left != 0).then(|| {
                    let bit = left.trailing_zeros() as usize;
                    left &= left - 1;
                    word * 64 + bit
                })
            })
        })
    }

    /// The `k`-th legal action in increasing order (`k` below their number).
    fn nth(&self, mut k: u32) -> usize {
        for (word, &bits) in self.bits.iter().enumerate() {
            let count = bits.count_ones();
            if k < count {
                let mut left = bits;
                for _ in 0..k {
                    left &= left - 1;
                }
                return word * 64 + left.trailing_zeros() as usize;
            }
            k -= count;
        }
        unreachable!("k is below the number of legal actions")
    }

    /// A uniformly random legal action (there is always one: finished games restart at once).
    pub fn random_action(&mut self) -> i64 {
        let count: u32 = self.bits.iter().map(|b| b.count_ones()).sum();
        let k = self.rng.below(count as usize) as u32;
        self.nth(k) as i64
    }

    /// A legal action drawn with probability proportional to `weight(action)` (legal actions only).
    pub fn weighted_action(&mut self, weight: impl Fn(usize) -> f64) -> Result<i64, SampleError> {
        let mut total = 0.0;
        for a in self.iter() {
            let w = weight(a);
            if !(w >= 0.0 && w.is_finite()) {
                return Err(SampleError::BadWeight {
                    action: a,
                    weight: w,
                });
            }
            total += w;
        }
        if total <= 0.0 {
            return Err(SampleError::NoWeight);
        }
        let mut left = self.rng.unit() * total;
        let mut last = None;
        for a in self.iter() {
            let w = weight(a);
            if left < w {
                return Ok(a as i64);
            }
            left -= w;
            if w > 0.0 {
                last = Some(a);
            }
        }
        // Rounding left a sliver past the last weight: the last action with weight takes it.
        Ok(last.expect("the total is positive") as i64)
    }

    /// The legal action of highest `score` (the first of equals).
    pub fn best_action(&self, score: impl Fn(usize) -> f64) -> Result<i64, SampleError> {
        let mut best: Option<(usize, f64)> = None;
        for a in self.iter() {
            let s = score(a);
            if s.is_nan() {
                return Err(SampleError::BadWeight {
                    action: a,
                    weight: s,
                });
            }
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((a, s));
            }
        }
        Ok(best.expect("a legal action").0 as i64)
    }

    /// Writes the mask of the legal actions (`mask.len() == ACTIONS`, bytes 0 or 1), eight bytes at a time: a
    /// batch's masks are too big for the cache, and fewer, wider stores wait less on memory.
    fn write_mask(&self, mask: &mut [u8]) {
        let mut bytes = self.bits.iter().flat_map(|word| word.to_le_bytes());
        let mut chunks = mask.chunks_exact_mut(8);
        for (chunk, byte) in (&mut chunks).zip(&mut bytes) {
            chunk.copy_from_slice(&SPREAD[usize::from(byte)].to_le_bytes());
        }
        // The last 252 % 8 = 4 actions.
        let last = SPREAD[usize::from(bytes.next().unwrap_or(0))].to_le_bytes();
        for (m, &b) in chunks.into_remainder().iter_mut().zip(&last) {
            *m = b;
        }
    }
}

impl Slot {
    /// A game at the start; `legal` gets its legal actions.
    pub fn new(setup: &Setup, legal: &mut Legal) -> Slot {
        let mut slot = Slot {
            pos: setup.start,
            jumps: [0; 4],
            repetitions: 0,
            plies: 0,
            since_capture: Vec::new(),
            seen: [0; SEEN_WORDS],
        };
        slot.restart(setup, legal);
        slot
    }

    /// A game restored from its `state`; `None` if the FEN is not a position of the rules or one without a
    /// legal move (a batch's games always have one: finished games restart at once).
    pub fn from_state(setup: &Setup, state: SlotState) -> Option<(Slot, Legal)> {
        let (fen, since_capture, repetitions, plies, rng) = state;
        let mut legal = Legal::new(GameRng(rng));
        let mut slot = Slot::new(setup, &mut legal);
        slot.pos = Position::from_fen(&fen, &setup.rules).ok()?;
        slot.refresh_moves(&setup.rules, &mut legal);
        if legal.is_empty() {
            return None;
        }
        slot.since_capture.clear();
        slot.seen = [0; SEEN_WORDS];
        for hash in since_capture {
            slot.remember(hash);
        }
        (slot.repetitions, slot.plies) = (repetitions, plies);
        Some((slot, legal))
    }

    pub fn state(&self, legal: &Legal) -> SlotState {
        (
            self.pos.to_string(),
            self.since_capture.clone(),
            self.repetitions,
            self.plies,
            legal.rng.0,
        )
    }

    pub fn restart(&mut self, setup: &Setup, legal: &mut Legal) {
        self.pos = setup.start;
        self.refresh_moves(&setup.rules, legal);
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
    fn outcome(&self, rules: &Rules, legal: &Legal) -> Option<Outcome> {
        if legal.is_empty() {
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

    /// Generates the legal moves of `pos` into `legal` (and which of them jump).
    fn refresh_moves(&mut self, rules: &Rules, legal: &mut Legal) {
        let (mut bits, mut jumps) = ([0u64; 4], [0u64; 4]);
        self.pos.for_each_move_set(rules, |_, from, targets| {
            for to in targets {
                let action = encoding::encode(Move::new(from, to));
                let bit = 1 << (action % 64);
                bits[action / 64] |= bit;
                if !matches!(to.index().abs_diff(from.index()), 1 | 7) {
                    jumps[action / 64] |= bit;
                }
            }
        });
        (legal.bits, self.jumps) = (bits, jumps);
    }

    /// The legal move of a legal action: the step in its direction, or the river jump when the action jumps.
    fn decode(&self, action: usize) -> Move {
        let from = Square::new((action / 4) as u8).expect("an action starts on a square");
        let direction = action % 4;
        let to = if self.jumps[action / 64] >> (action % 64) & 1 != 0 {
            JUMPS[from.index()][direction]
                .expect("a jump action has a jump")
                .to
        } else {
            let (df, dr) = Direction::ALL[direction].delta();
            from.offset(df, dr)
                .expect("a step action stays on the board")
        };
        Move::new(from, to)
    }

    /// Plays a legal action and writes what follows: the mover's reward, whether the game terminated or was
    /// truncated (then its final observation is kept and it restarts), the observation and the mask.
    pub fn step(&mut self, setup: &Setup, legal: &mut Legal, action: i64, out: Outputs<'_>) {
        let m = self.decode(action as usize);
        let (reward, terminated, truncated) = self.play(setup, legal, m, out.observation);
        (*out.reward, *out.terminated, *out.truncated) = (reward, terminated, truncated);
        if terminated || truncated {
            out.final_observation.copy_from_slice(out.observation);
            self.restart(setup, legal);
            setup.observer.write(&self.pos, 0, out.observation);
        }
        legal.write_mask(out.mask);
    }

    /// Fetches ahead the lines `step(action)` will touch: the history's end, the mover's plane at both squares,
    /// the counter planes and the mask (a capture's plane and a restart are left to the step).
    pub fn prefetch_step(&self, action: i64, observation: *const u8, mask: *const u8) {
        let m = self.decode(action as usize);
        prefetch::prefetch(
            self.since_capture
                .as_ptr()
                .wrapping_add(self.since_capture.len()),
        );
        if let Some(piece) = self.pos.piece_at(m.from) {
            for offset in encoding::update_offsets(piece, m) {
                prefetch::prefetch(observation.wrapping_add(offset));
            }
        }
        let counters = encoding::COUNTER_BYTES;
        prefetch::prefetch_bytes(observation.wrapping_add(counters.start), counters.len());
        prefetch::prefetch_bytes(mask, ACTIONS);
    }

    fn play(
        &mut self,
        setup: &Setup,
        legal: &mut Legal,
        m: Move,
        observation: &mut [u8],
    ) -> (f32, bool, bool) {
        let mover = self.pos.side_to_move();
        let piece = self
            .pos
            .piece_at(m.from)
            .expect("a legal move starts on a piece");
        let captured = self.pos.piece_at(m.to);
        self.pos.play_unchecked(m);
        self.refresh_moves(&setup.rules, legal);
        if self.pos.quiet_plies() == 0 {
            self.since_capture.clear();
            self.seen = [0; SEEN_WORDS];
        }
        let hash = self.pos.hash();
        let before = self.repetitions;
        self.repetitions = self.count_earlier(hash);
        self.remember(hash);
        self.plies += 1;
        setup.observer.update(
            m,
            piece,
            captured,
            &self.pos,
            (before != self.repetitions).then_some(self.repetitions),
            observation,
        );
        match self.outcome(&setup.rules, legal) {
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

    pub fn observe(&self, setup: &Setup, legal: &Legal, obs: &mut [u8], mask: &mut [u8]) {
        setup.observer.write(&self.pos, self.repetitions, obs);
        legal.write_mask(mask);
    }
}
