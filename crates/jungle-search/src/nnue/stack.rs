//! The search's accumulators: one per ply, for the position on the current path at that ply.
//!
//! The search copies positions (`pos.after(m)`) instead of making and unmaking moves, so each ply's entry
//! records the move that led there and is brought up to date only when that node is evaluated: from the
//! nearest ancestor already computed, by applying the recorded changes on the way down. Many nodes are never
//! evaluated (cut by the table or a den threat before their static evaluation) and cost nothing.
//!
//! Why entries cannot be stale: an entry is marked computed only when evaluated, and every visit of a node at
//! ply `p` first records its move at `p` (marking it not computed), so the computed entries at plies ≤ `p` are
//! all on the current path.

use std::sync::Arc;

use jungle_rules::{Move, Position};

use super::accumulator::{Accumulator, Change};
use super::network::Network;

#[derive(Clone, Debug)]
struct Entry {
    acc: Accumulator,
    computed: bool,
    /// The move into this ply's position; `None` for a null move (no change on the board).
    change: Option<Change>,
}

#[derive(Debug)]
pub(crate) struct AccumulatorStack {
    net: Arc<Network>,
    entries: Vec<Entry>,
}

impl AccumulatorStack {
    /// A stack of `plies` entries for `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> AccumulatorStack {
        let start = Position::start(net.rules());
        let entry = Entry {
            acc: Accumulator::new(&net, &start),
            computed: false,
            change: None,
        };
        AccumulatorStack {
            entries: vec![entry; plies],
            net,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The root of a search: computed from scratch.
    pub fn set_root(&mut self, pos: &Position) {
        let root = &mut self.entries[0];
        root.acc = Accumulator::new(&self.net, pos);
        root.computed = true;
    }

    /// Records that the position at `ply` is `parent` (the position at `ply - 1`) after `m` (`None`: a null
    /// move).
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Position, m: Option<Move>) {
        let entry = &mut self.entries[ply];
        entry.computed = false;
        entry.change = m.and_then(|m| Change::of(parent, m));
    }

    /// The evaluation of `pos`, the position at `ply` on the current path, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let mut base = ply;
        while !self.entries[base].computed {
            base -= 1;
        }
        for p in base + 1..=ply {
            let (done, rest) = self.entries.split_at_mut(p);
            let (parent, entry) = (&done[p - 1].acc, &mut rest[0]);
            match &entry.change {
                Some(change) => entry.acc.set_after(parent, &self.net, change),
                None => entry.acc.clone_from(parent),
            }
            entry.computed = true;
        }
        self.entries[ply]
            .acc
            .evaluate(&self.net, pos.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Rules;

    /// A depth-first walk like the search's (children made by copying, some nodes evaluated, some not): every
    /// evaluation equals the one from scratch.
    #[test]
    fn lazy_updates_along_a_search_path_equal_a_full_refresh() {
        let rules = Rules::default();
        let net = std::sync::Arc::new(super::super::network::random_net(7));
        let mut stack = AccumulatorStack::new(Arc::clone(&net), 8);
        let root = Position::start(&rules);
        stack.set_root(&root);
        let mut checked = 0;
        fn walk(
            stack: &mut AccumulatorStack,
            net: &Network,
            rules: &Rules,
            pos: &Position,
            ply: usize,
            checked: &mut u32,
        ) {
            // Evaluate only some nodes, so updates skip plies.
            if pos.hash().is_multiple_of(3) || ply == 4 {
                assert_eq!(stack.evaluate(pos, ply), net.evaluate(pos));
                *checked += 1;
            }
            if ply == 4 {
                return;
            }
            for (i, &m) in pos
                .legal_moves(rules)
                .as_slice()
                .iter()
                .enumerate()
                .step_by(7)
            {
                if i % 5 == 0 {
                    // A null move, as null-move pruning makes.
                    stack.push(ply + 1, pos, None);
                    walk(stack, net, rules, &pos.after_null_move(), ply + 1, checked);
                }
                stack.push(ply + 1, pos, Some(m));
                walk(stack, net, rules, &pos.after(m), ply + 1, checked);
            }
        }
        walk(&mut stack, &net, &rules, &root, 0, &mut checked);
        assert!(checked > 100, "{checked}");
    }
}
