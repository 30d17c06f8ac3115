//! The two players and per-side data.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// One of the two players. Blue moves first and starts on ranks 1–3.
///
/// In FEN and PGN Blue is the chess "white" (`w`, `White` tag) and Red the chess "black" (`b`, `Black` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Blue = 0,
    Red = 1,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::Blue, Side::Red];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Blue => Side::Red,
            Side::Red => Side::Blue,
        }
    }

    /// The FEN letter: `w` for Blue (the first player), `b` for Red.
    pub const fn fen_char(self) -> char {
        match self {
            Side::Blue => 'w',
            Side::Red => 'b',
        }
    }

    pub const fn from_fen_char(c: char) -> Option<Side> {
        match c {
            'w' => Some(Side::Blue),
            'b' => Some(Side::Red),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Blue => "Blue",
            Side::Red => "Red",
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each side, indexed by [`Side`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    pub blue: T,
    pub red: T,
}

impl<T> BySide<T> {
    pub const fn new(blue: T, red: T) -> Self {
        BySide { blue, red }
    }

    #[inline]
    pub const fn get(&self, side: Side) -> &T {
        match side {
            Side::Blue => &self.blue,
            Side::Red => &self.red,
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide {
            blue: f(self.blue),
            red: f(self.red),
        }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        self.get(side)
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Blue => &mut self.blue,
            Side::Red => &mut self.red,
        }
    }
}
