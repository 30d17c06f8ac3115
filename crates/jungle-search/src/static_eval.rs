//! Which static evaluation a search thread uses: the learned net ([`crate::nnue`]) when the engine has one
//! for the game's rules and the option asks for it, else the hand-written [`crate::eval`]. The search tells
//! the net's accumulators about every position it makes (`nnue_push`), so the net can update them move by move.

use jungle_rules::{Move, Position};

use crate::search::Worker;

impl Worker {
    /// The static evaluation of `pos`, the position at `ply` on the current path, for its side to move.
    #[inline]
    pub(crate) fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        match &mut self.nnue {
            Some(stack) => stack.evaluate(pos, ply),
            None => self.eval.evaluate(pos),
        }
    }

    /// The search enters `pos` (the root).
    #[inline]
    pub(crate) fn nnue_root(&mut self, pos: &Position) {
        if let Some(stack) = &mut self.nnue {
            stack.set_root(pos);
        }
    }

    /// The search makes the position at `ply` from `parent` by `m` (`None`: a null move).
    #[inline]
    pub(crate) fn nnue_push(&mut self, ply: usize, parent: &Position, m: Option<Move>) {
        if let Some(stack) = &mut self.nnue {
            stack.push(ply, parent, m);
        }
    }
}
