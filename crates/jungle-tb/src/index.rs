//! Indexing: a dense number for every position of a material, and back.
//!
//! Each piece (in [`Material::pieces`] order) has the list of squares it may stand on under the rules (no
//! water unless it swims, not its own den, no trap above `trap-max-rank`). The first piece is further limited
//! to files a–d: the board is symmetric about the d-file, so a position and its mirror image share one index
//! (when the first piece stands on the d-file, the smaller of the two indices is used, and the other slot is
//! unused). An index is a mixed-radix number over the pieces' square slots, with the side to move outermost;
//! a symmetric material keeps only Blue to move (a Red-to-move position is looked up after a colour swap).
//! Slots holding no position (two pieces on one square, both dens entered, the unused mirror slot) are
//! marked invalid in the table.

use jungle_rules::terrain::DENS;
use jungle_rules::{Piece, Position, Rules, Side, Square};

use crate::Material;

const NO_WEIGHT: u64 = u64::MAX;

/// Maps positions of one (canonical) material under one rule set to indices and back.
#[derive(Clone, Debug)]
pub struct Indexer {
    material: Material,
    pieces: Vec<Piece>,
    /// The squares each piece may stand on.
    squares: Vec<Vec<Square>>,
    /// For each piece and square, the square's slot times the piece's stride in the mixed-radix index, or
    /// `NO_WEIGHT` where the piece cannot stand; and the same for the mirrored square.
    weight: Vec<[u64; 63]>,
    mirrored_weight: Vec<[u64; 63]>,
    per_side: u64,
    sides: u64,
    rules: Rules,
}

impl Indexer {
    /// The indexer of a canonical material.
    ///
    /// # Panics
    /// If the material is not canonical (a programming error: callers canonicalise keys first).
    pub fn new(material: Material, rules: &Rules) -> Indexer {
        assert!(
            material.is_canonical(),
            "indexer needs a canonical material"
        );
        let pieces = material.pieces();
        let mut squares = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            let allowed = rules.destinations(piece.side, piece.animal);
            let list: Vec<Square> = Square::all()
                .filter(|&sq| allowed.contains(sq) && sq != DENS[piece.side])
                .filter(|sq| i > 0 || sq.file() <= 3)
                .collect();
            squares.push(list);
        }
        // The last piece varies fastest: its stride is 1.
        let mut weight = vec![[NO_WEIGHT; 63]; pieces.len()];
        let mut stride = 1u64;
        for i in (0..pieces.len()).rev() {
            for (slot, sq) in squares[i].iter().enumerate() {
                weight[i][sq.index()] = slot as u64 * stride;
            }
            stride *= squares[i].len() as u64;
        }
        let per_side = stride;
        let mirrored_weight = weight
            .iter()
            .map(|w| {
                std::array::from_fn(|sq| {
                    w[Square::new(sq as u8).expect("on board").mirror().index()]
                })
            })
            .collect();
        let sides = if material.is_symmetric() { 1 } else { 2 };
        Indexer {
            material,
            pieces,
            squares,
            weight,
            mirrored_weight,
            per_side,
            sides,
            rules: rules.clone(),
        }
    }

    pub fn material(&self) -> Material {
        self.material
    }

    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The number of index slots (valid or not).
    pub fn size(&self) -> u64 {
        self.per_side * self.sides
    }

    /// Whether the position's material is this table's, directly or after a colour swap.
    pub fn covers(&self, pos: &Position) -> bool {
        let m = Material::of(pos);
        m == self.material || m.swapped() == self.material
    }

    /// The index of a position of this material (or of its colour-swapped material). `None` if the position
    /// has another material.
    pub fn index_of(&self, pos: &Position) -> Option<u64> {
        if pos.occupied().count() as usize != self.pieces.len() {
            return None;
        }
        let stm = pos.side_to_move();
        let direct = self.pieces.iter().all(|&p| pos.square_of(p).is_some());
        let swap = if direct {
            self.material.is_symmetric() && stm == Side::Red
        } else if self
            .pieces
            .iter()
            .all(|p| pos.square_of(Piece::new(!p.side, p.animal)).is_some())
        {
            true
        } else {
            return None;
        };
        let mut sqs = [Square::A1; 8];
        for (i, piece) in self.pieces.iter().enumerate() {
            sqs[i] = if swap {
                pos.square_of(Piece::new(!piece.side, piece.animal))?
                    .rotate()
            } else {
                pos.square_of(*piece)?
            };
        }
        let stm = if swap { !stm } else { stm };
        self.index_of_squares(&sqs[..self.pieces.len()], stm)
    }

    /// The index of pieces on `sqs` (in piece order) with `stm` to move, choosing the mirror image as needed.
    fn index_of_squares(&self, sqs: &[Square], stm: Side) -> Option<u64> {
        let file = sqs[0].file();
        let placement = if file < 3 {
            self.placement(sqs, false)?
        } else if file > 3 {
            self.placement(sqs, true)?
        } else {
            self.placement(sqs, false)?.min(self.placement(sqs, true)?)
        };
        Some(self.side_offset(stm) + placement)
    }

    /// The side to move of the positions stored at `index`.
    pub fn side_to_move_at(&self, index: u64) -> Side {
        if self.sides == 2 && index >= self.per_side {
            Side::Red
        } else {
            Side::Blue
        }
    }

    fn side_offset(&self, stm: Side) -> u64 {
        if self.sides == 2 && stm == Side::Red {
            self.per_side
        } else {
            0
        }
    }

    fn placement(&self, sqs: &[Square], mirror: bool) -> Option<u64> {
        let weights = if mirror {
            &self.mirrored_weight
        } else {
            &self.weight
        };
        let mut index = 0u64;
        for (w, sq) in weights.iter().zip(sqs) {
            let w = w[sq.index()];
            if w == NO_WEIGHT {
                return None;
            }
            index += w;
        }
        Some(index)
    }

    /// The position at an index, or `None` if the slot holds no position. The counters are 0 and 1.
    pub fn position_at(&self, index: u64) -> Option<Position> {
        if index >= self.size() {
            return None;
        }
        let stm = self.side_to_move_at(index);
        let mut placement = index - self.side_offset(stm);
        let mut sqs = [Square::A1; 8];
        for i in (0..self.pieces.len()).rev() {
            let radix = self.squares[i].len() as u64;
            sqs[i] = self.squares[i][(placement % radix) as usize];
            placement /= radix;
        }
        let sqs = &sqs[..self.pieces.len()];
        let mut occupied = 0u64;
        let mut list = [(self.pieces[0], Square::A1); 8];
        for (i, (piece, sq)) in self.pieces.iter().zip(sqs).enumerate() {
            let bit = 1u64 << sq.index();
            if occupied & bit != 0 {
                return None;
            }
            occupied |= bit;
            list[i] = (*piece, *sq);
        }
        if sqs[0].file() == 3 && self.index_of_squares(sqs, stm) != Some(index) {
            return None;
        }
        Position::from_pieces(&list[..self.pieces.len()], stm, &self.rules).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Setup;

    fn round_trip_all(key: &str, rules: &Rules) -> usize {
        let indexer = Indexer::new(key.parse().unwrap(), rules);
        let mut valid = 0;
        for i in 0..indexer.size() {
            if let Some(pos) = indexer.position_at(i) {
                valid += 1;
                assert_eq!(indexer.index_of(&pos), Some(i), "{pos}");
                assert_eq!(indexer.index_of(&pos.mirror()), Some(i), "{pos}");
                assert_eq!(indexer.index_of(&pos.swap_colours()), Some(i), "{pos}");
            }
        }
        valid
    }

    #[test]
    fn every_valid_slot_round_trips_with_its_mirror_and_colour_swap() {
        let rules = Rules::default();
        round_trip_all("LR-e", &rules);
        round_trip_all("R-r", &rules);
        round_trip_all("TD-d", &"dog-swims=true,trap-max-rank=4".parse().unwrap());
    }

    #[test]
    fn two_piece_counts_match_a_direct_count() {
        let rules = Rules::default();
        for key in ["L-r", "R-r", "E-l"] {
            let material: Material = key.parse().unwrap();
            let pieces = material.pieces();
            // Count placements directly: distinct valid squares, both sides to move, modulo mirror (and for a
            // symmetric material, modulo colour swap too).
            let mut seen = std::collections::HashSet::new();
            for a in Square::all() {
                for b in Square::all() {
                    for stm in Side::ALL {
                        let mut setup = Setup {
                            side_to_move: stm,
                            ..Setup::default()
                        };
                        if a == b {
                            continue;
                        }
                        setup.board[a.index()] = Some(pieces[0]);
                        setup.board[b.index()] = Some(pieces[1]);
                        if let Ok(pos) = Position::from_setup(&setup, &rules) {
                            let mut orbit = vec![pos.mirror(), pos];
                            if material.is_symmetric() {
                                orbit.push(pos.swap_colours());
                                orbit.push(pos.swap_colours().mirror());
                            }
                            let key = orbit.iter().map(|p| p.to_string()).min().unwrap();
                            seen.insert(key);
                        }
                    }
                }
            }
            assert_eq!(round_trip_all(key, &rules), seen.len(), "{key}");
        }
    }
}
