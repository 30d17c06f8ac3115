//! The board's terrain (dens, traps, rivers) and the geometry tables built from it at compile time.
//!
//! ```text
//!   9  . . t D t . .      D den, t trap, ~ water
//!   8  . . . t . . .
//!   7  . . . . . . .
//!   6  . ~ ~ . ~ ~ .
//!   5  . ~ ~ . ~ ~ .
//!   4  . ~ ~ . ~ ~ .
//!   3  . . . . . . .
//!   2  . . . t . . .
//!   1  . . t D t . .
//!      a b c d e f g
//! ```
//! Animal Checkers uses the same board without traps and rivers; [`Rules`](crate::Rules) carries the terrain
//! that is in force, so move generation never asks which board is played.

use crate::{Bitboard, BySide, Square};

/// The two rivers of the Jungle board.
pub const WATER: Bitboard = Bitboard::from_squares(&[
    Square::B4,
    Square::C4,
    Square::B5,
    Square::C5,
    Square::B6,
    Square::C6,
    Square::E4,
    Square::F4,
    Square::E5,
    Square::F5,
    Square::E6,
    Square::F6,
]);

/// Each side's own traps (around its own den): a piece of the *other* side standing on one is weakened.
pub const TRAPS: BySide<Bitboard> = BySide::new(
    Bitboard::from_squares(&[Square::C1, Square::E1, Square::D2]),
    Bitboard::from_squares(&[Square::C9, Square::E9, Square::D8]),
);

/// Each side's own den.
pub const DENS: BySide<Square> = BySide::new(Square::D1, Square::D9);

/// A straight line of movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    North = 0,
    South = 1,
    East = 2,
    West = 3,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::South => (0, -1),
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
        }
    }

    pub const fn is_horizontal(self) -> bool {
        matches!(self, Direction::East | Direction::West)
    }
}

/// The one-square steps from each square.
pub static STEPS: [Bitboard; 63] = build_steps();

/// A river jump: its landing square and the water squares it crosses (a piece on any of them blocks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    pub to: Square,
    pub over: Bitboard,
}

/// The jump from each square in each [`Direction`] across the Jungle rivers, if there is one.
pub static JUMPS: [[Option<Jump>; 4]; 63] = build_jumps();

const fn build_steps() -> [Bitboard; 63] {
    let mut table = [Bitboard::EMPTY; 63];
    let mut i = 0;
    while i < 63 {
        let sq = Square::from_index_unchecked(i as u8);
        let mut bits = 0u64;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = Direction::ALL[d].delta();
            if let Some(to) = sq.offset(df, dr) {
                bits |= 1u64 << to.index();
            }
            d += 1;
        }
        table[i] = Bitboard(bits);
        i += 1;
    }
    table
}

const fn build_jumps() -> [[Option<Jump>; 4]; 63] {
    let mut table = [[None; 4]; 63];
    let mut i = 0;
    while i < 63 {
        let from = Square::from_index_unchecked(i as u8);
        let mut d = 0;
        while d < 4 {
            table[i][d] = jump_from(from, Direction::ALL[d]);
            d += 1;
        }
        i += 1;
    }
    table
}

/// Walks from a land square across water in one direction to the first land square beyond it.
const fn jump_from(from: Square, dir: Direction) -> Option<Jump> {
    if WATER.contains(from) {
        return None;
    }
    let (df, dr) = dir.delta();
    let mut over = 0u64;
    let mut at = from;
    loop {
        match at.offset(df, dr) {
            None => return None,
            Some(next) => {
                if WATER.contains(next) {
                    over |= 1u64 << next.index();
                    at = next;
                } else if over == 0 {
                    return None;
                } else {
                    return Some(Jump {
                        to: next,
                        over: Bitboard(over),
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_match_a_slow_loop() {
        for from in Square::all() {
            let slow: Bitboard = Square::all()
                .filter(|to| from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank()) == 1)
                .collect();
            assert_eq!(STEPS[from.index()], slow, "{from}");
        }
    }

    #[test]
    fn jumps_are_exactly_those_of_rules_md() {
        // Vertically rank 3 <-> rank 7 on files b, c, e, f; horizontally a <-> d and d <-> g on ranks 4-6.
        let mut expected = Vec::new();
        for file in ["b", "c", "e", "f"] {
            expected.push((format!("{file}3"), format!("{file}7")));
            expected.push((format!("{file}7"), format!("{file}3")));
        }
        for rank in 4..=6 {
            for (x, y) in [("a", "d"), ("d", "a"), ("d", "g"), ("g", "d")] {
                expected.push((format!("{x}{rank}"), format!("{y}{rank}")));
            }
        }
        let mut actual = Vec::new();
        for from in Square::all() {
            for jump in JUMPS[from.index()].iter().flatten() {
                actual.push((from.to_string(), jump.to.to_string()));
                let crossed = if from.file() == jump.to.file() { 3 } else { 2 };
                assert_eq!(jump.over.count(), crossed);
                assert_eq!(jump.over & !WATER, Bitboard::EMPTY);
            }
        }
        expected.sort();
        actual.sort();
        assert_eq!(actual, expected);
    }

    #[test]
    fn terrain_is_mirror_symmetric() {
        assert_eq!(WATER.mirror(), WATER);
        assert_eq!(TRAPS.blue.mirror(), TRAPS.blue);
        assert_eq!(DENS.red.mirror(), DENS.red);
        assert_eq!(WATER.count(), 12);
    }
}
