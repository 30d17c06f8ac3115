//! The first layer's output for both sides' views of one position, kept up to date move by move: a move
//! changes at most three inputs per view (the mover leaves one square and enters another, a captured piece
//! leaves), so updating costs a few row additions instead of one per piece.

use jungle_rules::{Move, Piece, Position, Side, Square};

use super::features;
use super::kernels::{self, Row};
use super::network::Network;

/// Both views' first-layer outputs (Blue's view, then Red's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    views: [Row; 2],
}

/// What a move changes on the board: the piece that moved (from, to) and the piece it captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub moved: Piece,
    pub from: Square,
    pub to: Square,
    pub captured: Option<Piece>,
}

impl Change {
    /// The change `m` makes in `pos` (before it is played); `None` if no piece stands on its origin.
    pub fn of(pos: &Position, m: Move) -> Option<Change> {
        Some(Change {
            moved: pos.piece_at(m.from)?,
            from: m.from,
            to: m.to,
            captured: pos.piece_at(m.to),
        })
    }
}

impl Network {
    /// The evaluation of `pos` for the side to move, computed from scratch (here, beside the accumulator it
    /// builds, so the net's file needs nothing of this one).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        Accumulator::new(self, pos).evaluate(self, pos.side_to_move())
    }
}

impl Accumulator {
    /// The accumulator of `pos`, from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        Accumulator {
            views: Side::ALL.map(|view| net.first_layer(features::active(pos, view))),
        }
    }

    /// Sets this accumulator to `parent`'s after a move's change: one pass over each view's row, reading the
    /// parent's and writing this one (no copy of the parent first).
    #[inline]
    pub fn set_after(&mut self, parent: &Accumulator, net: &Network, change: &Change) {
        for view in Side::ALL {
            let out = &mut self.views[view.index()];
            let base = &parent.views[view.index()];
            let entered = net.row(features::index(view, change.moved, change.to));
            let left = net.row(features::index(view, change.moved, change.from));
            match change.captured {
                Some(captured) => {
                    let captured = net.row(features::index(view, captured, change.to));
                    kernels::add_sub_sub(out, base, entered, left, captured);
                }
                None => kernels::add_sub(out, base, entered, left),
            }
        }
    }

    /// The accumulator after a move's change.
    pub fn after(&self, net: &Network, change: &Change) -> Accumulator {
        let mut next = self.clone();
        next.set_after(self, net, change);
        next
    }

    /// The evaluation for `side_to_move`, in centipawns.
    #[inline]
    pub fn evaluate(&self, net: &Network, side_to_move: Side) -> i32 {
        net.output(
            &self.views[side_to_move.index()],
            &self.views[(!side_to_move).index()],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Rules;

    /// Random games under several rule sets: the accumulator updated move by move always equals the one
    /// computed from scratch.
    #[test]
    fn incremental_updates_equal_a_full_refresh_over_random_games() {
        let net = std::sync::Arc::new(super::super::network::random_net(7));
        let mut seed = 0x1234_5678_u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((seed >> 33) % n as u64) as usize
        };
        for rules in ["standard", "modern", "leiden", "animal-checkers"] {
            let rules: Rules = rules.parse().unwrap();
            for _ in 0..20 {
                let mut pos = Position::start(&rules);
                let mut acc = Accumulator::new(&net, &pos);
                for _ in 0..200 {
                    let moves = pos.legal_moves(&rules);
                    if moves.is_empty() || pos.is_decided(&rules) {
                        break;
                    }
                    let m = moves.as_slice()[next(moves.len())];
                    acc = acc.after(&net, &Change::of(&pos, m).unwrap());
                    pos.play_unchecked(m);
                    assert_eq!(acc, Accumulator::new(&net, &pos), "after {m} in {pos}");
                    assert_eq!(acc.evaluate(&net, pos.side_to_move()), net.evaluate(&pos));
                }
            }
        }
    }
}
