//! Move ordering: the moves of a node with scores (hash move, den threats, captures by value, killers,
//! history), handed out best first by selection.

use jungle_rules::terrain::{DENS, STEPS};
use jungle_rules::{Bitboard, Move, Position, Rules};

use crate::eval::Evaluator;

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const DEN_THREAT: i32 = 1 << 27;
/// A quiet move to a square next to two of the enemy den's neighbours: next move it may threaten the den from
/// two sides at once, which no static evaluation sees, so it is searched early and never pruned or reduced as
/// a quiet move.
const DEN_FORK: i32 = (1 << 26) + (1 << 25);
const KILLER: [i32; 2] = [1 << 26, (1 << 26) - 1];
/// History scores stay within ±HISTORY_MAX so they never outrank killers.
pub(crate) const HISTORY_MAX: i32 = 1 << 14;

/// Which moves a node wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wanted {
    All,
    /// Captures, and moves next to the enemy den (which force a capture reply) when `threats` is set.
    Tactical {
        threats: bool,
    },
    /// Only moves landing on these squares (captures of a piece threatening our den).
    Onto(Bitboard),
}

/// Butterfly history: how often a quiet move from a square to a square caused a cutoff, per side.
#[derive(Clone, Debug)]
pub(crate) struct History(Vec<i32>);

impl History {
    pub fn new() -> History {
        History(vec![0; 2 * 63 * 63])
    }

    #[inline]
    fn index(side: usize, m: Move) -> usize {
        (side * 63 + m.from.index()) * 63 + m.to.index()
    }

    #[inline]
    pub fn get(&self, side: usize, m: Move) -> i32 {
        self.0[Self::index(side, m)]
    }

    /// Gravity update: the bonus shrinks as the entry nears its bound.
    #[inline]
    pub fn update(&mut self, side: usize, m: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let e = &mut self.0[Self::index(side, m)];
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }

    pub fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// The moves of one node with their ordering scores.
pub(crate) struct MovePicker {
    moves: [Move; 32],
    scores: [i32; 32],
    len: usize,
    next: usize,
}

impl MovePicker {
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn new(
        pos: &Position,
        rules: &Rules,
        eval: &Evaluator,
        wanted: Wanted,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &History,
        approach: bool,
    ) -> MovePicker {
        let us = pos.side_to_move();
        let enemy = pos.side(!us);
        let den_neighbours = STEPS[DENS[!us].index()];
        let den_fork = if approach {
            eval.den_fork[!us]
        } else {
            Bitboard::EMPTY
        };
        let mask = match wanted {
            Wanted::All => Bitboard::FULL,
            Wanted::Tactical { threats: true } => enemy | den_neighbours,
            Wanted::Tactical { threats: false } => enemy,
            Wanted::Onto(squares) => squares,
        };
        let mut picker = MovePicker {
            moves: [Move::new(jungle_rules::Square::A1, jungle_rules::Square::A2); 32],
            scores: [0; 32],
            len: 0,
            next: 0,
        };
        let side = us.index();
        pos.for_each_move_set(rules, |animal, from, targets| {
            for to in targets & mask {
                let m = Move::new(from, to);
                let score = if Some(m) == hash_move {
                    HASH_MOVE
                } else if enemy.contains(to) {
                    let victim = pos.piece_at(to).map_or(0, |p| eval.value[p.animal.index()]);
                    CAPTURE + victim * 16 - eval.value[animal.index()] / 16
                } else if den_neighbours.contains(to) {
                    DEN_THREAT
                } else if den_fork.contains(to) {
                    DEN_FORK + history.get(side, m) / 4
                } else if Some(m) == killers[0] {
                    KILLER[0]
                } else if Some(m) == killers[1] {
                    KILLER[1]
                } else {
                    history.get(side, m)
                };
                picker.moves[picker.len] = m;
                picker.scores[picker.len] = score;
                picker.len += 1;
            }
        });
        picker
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let i = self.next;
        self.next += 1;
        Some((self.moves[i], self.scores[i]))
    }

    /// Whether an ordering score is that of a capture, den threat or den fork (a move never reduced or
    /// pruned).
    #[inline]
    pub fn is_tactical(score: i32) -> bool {
        (DEN_FORK - HISTORY_MAX..HASH_MOVE).contains(&score)
    }
}
