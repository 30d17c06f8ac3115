//! The net's inputs: one per (relation, animal, square) with the relation own or enemy, seen from one side.
//!
//! Each side sees the board from its own end: Red's view is rotated by 180°, so under rules symmetric in that
//! rotation (every preset) the same weights serve both sides and a position and its colour-swapped twin give the
//! same evaluation.

use jungle_rules::{Piece, Position, Side, Square};

/// Squares on the board (every rule set plays on 7 × 9).
const SQUARE_COUNT: usize = 63;

/// Number of inputs: 2 relations × 8 animals × 63 squares.
pub const INPUTS: usize = 2 * 8 * SQUARE_COUNT;

/// The input index of `piece` on `sq` as seen by `view`.
#[inline]
pub fn index(view: Side, piece: Piece, sq: Square) -> usize {
    let relation = usize::from(piece.side != view);
    let seen = match view {
        Side::Blue => sq,
        Side::Red => sq.rotate(),
    };
    (relation * 8 + piece.animal.index()) * SQUARE_COUNT + seen.index()
}

/// The active inputs of `pos` as seen by `view` (at most 16: one per piece).
pub fn active(pos: &Position, view: Side) -> impl Iterator<Item = usize> + '_ {
    pos.occupied()
        .filter_map(move |sq| pos.piece_at(sq).map(|piece| index(view, piece, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::{Animal, Rules};

    #[test]
    fn every_input_has_one_index_in_range() {
        let mut seen = vec![false; INPUTS];
        for side in Side::ALL {
            for animal in Animal::ALL {
                for sq in Square::all() {
                    let i = index(Side::Blue, Piece::new(side, animal), sq);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        let pos = Position::start(&Rules::default());
        let mut blue: Vec<usize> = active(&pos, Side::Blue).collect();
        let mut red: Vec<usize> = active(&pos, Side::Red).collect();
        blue.sort_unstable();
        red.sort_unstable();
        assert_eq!(blue.len(), 16);
        assert_eq!(blue, red);
    }
}
