//! Moves and their text: origin square + destination square (`a3a4`, a jump `e3e7`).

use std::fmt;
use std::str::FromStr;

use crate::Square;
use crate::square::write_ascii;

/// A move: the position decides whether it steps, jumps or captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The move mirrored left–right.
    pub const fn mirror(self) -> Move {
        Move {
            from: self.from.mirror(),
            to: self.to.mirror(),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ([a, b], [c, d]) = (self.from.name(), self.to.name());
        write_ascii(f, &[a, b, c, d])
    }
}

/// Move text that is not two square names (the first, syntactic stage of reading a move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    #[error(
        "move \"{text}\" should be two squares like a3a4 (or the animal and the squares, like Ea3-a4)"
    )]
    Shape { text: String },
    #[error(
        "move \"{text}\": {which} square \"{square}\" is not on the board (files a-g, ranks 1-9)"
    )]
    Square {
        text: String,
        which: &'static str,
        square: String,
    },
    #[error("move \"{text}\" starts and ends on the same square")]
    Null { text: String },
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `a3a4` (either case); says which part is wrong otherwise.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let shape = || ParseMoveError::Shape {
            text: text.to_string(),
        };
        if !text.is_ascii() || text.len() != 4 {
            return Err(shape());
        }
        let (a, b) = text.split_at(2);
        let square = |part: &str, which| {
            part.parse::<Square>().map_err(|_| ParseMoveError::Square {
                text: text.to_string(),
                which,
                square: part.to_string(),
            })
        };
        let from = square(a, "origin")?;
        let to = square(b, "destination")?;
        if from == to {
            return Err(ParseMoveError::Null {
                text: text.to_string(),
            });
        }
        Ok(Move { from, to })
    }
}

/// Move text that is not a legal move in a position: the syntax stage failed, or the legality stage.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error(transparent)]
    Notation(#[from] crate::NotationError),
    #[error(transparent)]
    Illegal(#[from] crate::IllegalMoveError),
}

impl crate::Position {
    /// Reads move text in either notation (`a3a4`, `Ea3-a4`) in stages: syntax, the animal written, then
    /// legality in this position.
    ///
    /// # Errors
    /// [`MoveError::Parse`] for text that is not a move, [`MoveError::Notation`] for an animal or capture mark
    /// that does not match the board, [`MoveError::Illegal`] for a move not legal here.
    pub fn parse_move(&self, rules: &crate::Rules, text: &str) -> Result<Move, MoveError> {
        let written: crate::WrittenMove = text.trim().parse()?;
        let m = written.resolve(self)?;
        self.check_move(rules, m)?;
        Ok(m)
    }
}

/// A fixed-capacity list of moves (a Jungle side has at most 8 pieces × 4 directions).
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: u8,
}

impl MoveList {
    pub const CAPACITY: usize = 32;

    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move {
                from: Square::A1,
                to: Square::A1,
            }; MoveList::CAPACITY],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len as usize]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.as_slice().iter().map(|m| m.to_string()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_text_round_trips_and_is_lowercase() {
        let m: Move = "A3a4".parse().unwrap();
        assert_eq!(m, Move::new(Square::A3, Square::A4));
        assert_eq!(m.to_string(), "a3a4");
    }

    #[test]
    fn malformed_move_text_says_what_is_wrong() {
        assert!(matches!(
            "a3".parse::<Move>(),
            Err(ParseMoveError::Shape { .. })
        ));
        assert!(matches!(
            "a3a4a5".parse::<Move>(),
            Err(ParseMoveError::Shape { .. })
        ));
        assert!(matches!(
            "h3a4".parse::<Move>(),
            Err(ParseMoveError::Square {
                which: "origin",
                ..
            })
        ));
        assert!(matches!(
            "a3a0".parse::<Move>(),
            Err(ParseMoveError::Square {
                which: "destination",
                ..
            })
        ));
        assert!(matches!(
            "a3a3".parse::<Move>(),
            Err(ParseMoveError::Null { .. })
        ));
        assert!(matches!(
            "象3a4".parse::<Move>(),
            Err(ParseMoveError::Shape { .. })
        ));
    }
}
