//! Squares of the 7×9 board: files `a`–`g`, ranks `1`–`9`, index = (rank − 1) · 7 + file.

use std::fmt;
use std::str::FromStr;

/// One of the 63 squares. `Square::A1` has index 0, `Square::G9` index 62.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

pub const FILES: u8 = 7;
pub const RANKS: u8 = 9;
pub const SQUARE_COUNT: usize = 63;

macro_rules! named_squares {
    ($($name:ident = $index:expr),* $(,)?) => {
        impl Square {
            $(pub const $name: Square = Square($index);)*
        }
    };
}

named_squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6,
    A2 = 7, B2 = 8, C2 = 9, D2 = 10, E2 = 11, F2 = 12, G2 = 13,
    A3 = 14, B3 = 15, C3 = 16, D3 = 17, E3 = 18, F3 = 19, G3 = 20,
    A4 = 21, B4 = 22, C4 = 23, D4 = 24, E4 = 25, F4 = 26, G4 = 27,
    A5 = 28, B5 = 29, C5 = 30, D5 = 31, E5 = 32, F5 = 33, G5 = 34,
    A6 = 35, B6 = 36, C6 = 37, D6 = 38, E6 = 39, F6 = 40, G6 = 41,
    A7 = 42, B7 = 43, C7 = 44, D7 = 45, E7 = 46, F7 = 47, G7 = 48,
    A8 = 49, B8 = 50, C8 = 51, D8 = 52, E8 = 53, F8 = 54, G8 = 55,
    A9 = 56, B9 = 57, C9 = 58, D9 = 59, E9 = 60, F9 = 61, G9 = 62,
}

impl Square {
    /// The square with this index, if it is on the board (0..63).
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARE_COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    /// # Safety-free contract
    /// `index` must be below 63; used by tables built at compile time and bitboard iteration.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARE_COUNT);
        Square(index)
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0 (a) to 6 (g).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0 (rank 1) to 8 (rank 9).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square mirrored left–right (a ↔ g), the board's symmetry axis being the d-file.
    #[inline]
    pub const fn mirror(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }

    /// The square rotated by 180° (a1 ↔ g9): the start position is symmetric under this with colours swapped.
    #[inline]
    pub const fn rotate(self) -> Square {
        Square(SQUARE_COUNT as u8 - 1 - self.0)
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 {
            return None;
        }
        Square::from_coords(f as u8, r as u8)
    }

    /// All 63 squares from a1 to g9.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_COUNT as u8).map(Square)
    }

    pub const fn file_char(self) -> char {
        self.name()[0] as char
    }

    pub const fn rank_char(self) -> char {
        self.name()[1] as char
    }

    /// The square's name (`a1`) as ASCII bytes, for the moves' text: a game's state lists every move it had,
    /// and writing them through `write!` a character at a time was a noticeable part of making one.
    pub(crate) const fn name(self) -> [u8; 2] {
        [b'a' + self.file(), b'1' + self.rank()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ascii(f, &self.name())
    }
}

/// Writes text made of ASCII bytes (a square's, a move's name) in one piece.
pub(crate) fn write_ascii(f: &mut fmt::Formatter<'_>, text: &[u8]) -> fmt::Result {
    f.write_str(std::str::from_utf8(text).map_err(|_| fmt::Error)?)
}

/// A square name that is not `a1`…`g9`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square \"{0}\" (files a-g, ranks 1-9)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bytes = s.as_bytes();
        if bytes.len() == 2 {
            let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
            let rank = bytes[1].wrapping_sub(b'1');
            if let Some(sq) = Square::from_coords(file, rank) {
                return Ok(sq);
            }
        }
        Err(ParseSquareError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_formula_matches_rules_md() {
        assert_eq!(Square::A1.index(), 0);
        assert_eq!(Square::G1.index(), 6);
        assert_eq!(Square::A2.index(), 7);
        assert_eq!(Square::G9.index(), 62);
        for sq in Square::all() {
            assert_eq!(sq.index(), sq.rank() as usize * 7 + sq.file() as usize);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.mirror().mirror(), sq);
            assert_eq!(sq.rotate().rotate(), sq);
        }
        assert_eq!(Square::A3.mirror(), Square::G3);
        assert_eq!(Square::A1.rotate(), Square::G9);
    }

    #[test]
    fn bad_square_names_are_errors() {
        for bad in ["", "a", "h1", "a0", "a10", "zz", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
