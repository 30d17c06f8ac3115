//! The animal notation of moves: the moving animal's letter beside the two squares, `-` for a move to an empty
//! square and `x` for a capture (`Ea3-a4`, `Ld3xd7`). Writing it needs the position (which animal stands on the
//! origin, whether the destination is occupied); reading it checks the text against the position.

use std::fmt;
use std::str::FromStr;

use crate::square::write_ascii;
use crate::{Animal, Move, ParseMoveError, Position, Square};

/// How moves are written: as the two squares (`a3a4`, what engines and the protocol speak) or with the animal
/// (`Ea3-a4`, for people).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    #[default]
    Coordinates,
    Animal,
}

impl Notation {
    /// The text of move `m` played from `before`. A move from an empty square (never legal) is written in
    /// coordinates under either notation.
    pub fn write(self, before: &Position, m: Move) -> String {
        match (self, before.animal_move(m)) {
            (Notation::Animal, Some(written)) => written.to_string(),
            _ => m.to_string(),
        }
    }
}

/// A move written with its animal: `Ea3-a4`, `Ld3xd7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnimalMove {
    pub animal: Animal,
    pub from: Square,
    pub to: Square,
    pub capture: bool,
}

impl AnimalMove {
    pub const fn mv(self) -> Move {
        Move::new(self.from, self.to)
    }

    /// The move, after checking that the text tells the truth about `position`: the animal written stands
    /// on the origin square and the move captures exactly when an `x` is written. Legality is not checked
    /// here ([`Position::check_move`] does that).
    ///
    /// # Errors
    /// [`NotationError`] naming the difference.
    pub fn check(self, position: &Position) -> Result<Move, NotationError> {
        let text = self.to_string();
        let Some(piece) = position.piece_at(self.from) else {
            return Err(NotationError::NoPiece {
                text,
                square: self.from,
            });
        };
        if piece.animal != self.animal {
            return Err(NotationError::WrongAnimal {
                text,
                square: self.from,
                actual: piece.animal,
            });
        }
        let captures = position.piece_at(self.to).is_some();
        if captures != self.capture {
            return Err(NotationError::CaptureMark { text, captures });
        }
        Ok(self.mv())
    }
}

impl Position {
    /// Move `m` written with its animal; `None` when no piece stands on its origin square.
    pub fn animal_move(&self, m: Move) -> Option<AnimalMove> {
        let piece = self.piece_at(m.from)?;
        Some(AnimalMove {
            animal: piece.animal,
            from: m.from,
            to: m.to,
            capture: self.piece_at(m.to).is_some(),
        })
    }
}

impl crate::Game {
    /// The game's moves written in `notation`, each from the position before it.
    pub fn written_moves(&self, notation: Notation) -> Vec<String> {
        self.moves()
            .iter()
            .zip(self.positions())
            .map(|(&m, before)| notation.write(before, m))
            .collect()
    }
}

impl fmt::Display for AnimalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.capture { b'x' } else { b'-' };
        let ([a, b], [c, d]) = (self.from.name(), self.to.name());
        write_ascii(f, &[self.animal.letter() as u8, a, b, mark, c, d])
    }
}

impl FromStr for AnimalMove {
    type Err = ParseMoveError;

    /// Reads `Ea3-a4` / `Ld3xd7`: an uppercase animal letter, a square, `-` or `x`, a square.
    fn from_str(text: &str) -> Result<AnimalMove, ParseMoveError> {
        let shape = || ParseMoveError::Shape {
            text: text.to_string(),
        };
        if !text.is_ascii() || text.len() != 6 {
            return Err(shape());
        }
        let letter = char::from(text.as_bytes()[0]);
        let animal = Animal::from_letter(letter)
            .filter(|_| letter.is_ascii_uppercase())
            .ok_or_else(shape)?;
        let capture = match text.as_bytes()[3] {
            b'-' => false,
            b'x' => true,
            _ => return Err(shape()),
        };
        // The squares are read as the coordinate move they form, so their errors are the same.
        let squares = format!("{}{}", &text[1..3], &text[4..6]);
        let mv: Move = squares.parse().map_err(|e| match e {
            ParseMoveError::Square { which, square, .. } => ParseMoveError::Square {
                text: text.to_string(),
                which,
                square,
            },
            ParseMoveError::Null { .. } => ParseMoveError::Null {
                text: text.to_string(),
            },
            _ => shape(),
        })?;
        Ok(AnimalMove {
            animal,
            from: mv.from,
            to: mv.to,
            capture,
        })
    }
}

/// Move text in either notation, read but not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WrittenMove {
    Coordinates(Move),
    Animal(AnimalMove),
}

impl WrittenMove {
    /// The move, once the animal notation (if used) is checked against `position`.
    ///
    /// # Errors
    /// [`NotationError`] when animal-notation text does not match the position.
    pub fn resolve(self, position: &Position) -> Result<Move, NotationError> {
        match self {
            WrittenMove::Coordinates(m) => Ok(m),
            WrittenMove::Animal(written) => written.check(position),
        }
    }
}

impl FromStr for WrittenMove {
    type Err = ParseMoveError;

    /// Reads `a3a4` or `Ea3-a4`; the error is the one for the notation the text's length suggests.
    fn from_str(text: &str) -> Result<WrittenMove, ParseMoveError> {
        if text.len() == 6 {
            text.parse().map(WrittenMove::Animal)
        } else {
            text.parse().map(WrittenMove::Coordinates)
        }
    }
}

/// Animal-notation text that does not describe a move of the position it is read in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("move \"{text}\": there is no piece on {square}")]
    NoPiece { text: String, square: Square },
    #[error("move \"{text}\": the animal on {square} is the {actual}")]
    WrongAnimal {
        text: String,
        square: Square,
        actual: Animal,
    },
    #[error("move \"{text}\": {}", if *captures { "it captures, write x" } else { "it captures nothing, write -" })]
    CaptureMark { text: String, captures: bool },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    fn start() -> Position {
        Position::start(&Rules::default())
    }

    #[test]
    fn writes_the_animal_and_the_capture_mark() {
        let position = start();
        let step = Move::new(Square::A3, Square::A4);
        assert_eq!(Notation::Animal.write(&position, step), "Ea3-a4");
        assert_eq!(Notation::Coordinates.write(&position, step), "a3a4");
        // A capture: Blue's Rat takes a Red piece placed beside it.
        let capture = Position::from_fen("7/7/7/7/7/7/rR5/7/7 w 0 1", &Rules::default()).unwrap();
        let m = Move::new(Square::B3, Square::A3);
        assert_eq!(Notation::Animal.write(&capture, m), "Rb3xa3");
    }

    #[test]
    fn reads_what_it_writes_and_checks_it_against_the_position() {
        let position = start();
        let written: WrittenMove = "Ea3-a4".parse().unwrap();
        assert_eq!(
            written.resolve(&position),
            Ok(Move::new(Square::A3, Square::A4))
        );
        let coordinates: WrittenMove = "a3a4".parse().unwrap();
        assert_eq!(
            coordinates.resolve(&position),
            Ok(Move::new(Square::A3, Square::A4))
        );
        let wrong: WrittenMove = "La3-a4".parse().unwrap();
        assert!(matches!(
            wrong.resolve(&position),
            Err(NotationError::WrongAnimal {
                actual: Animal::Elephant,
                ..
            })
        ));
        let mark: WrittenMove = "Ea3xa4".parse().unwrap();
        assert!(matches!(
            mark.resolve(&position),
            Err(NotationError::CaptureMark {
                captures: false,
                ..
            })
        ));
        let empty: WrittenMove = "Ea4-a5".parse().unwrap();
        assert!(matches!(
            empty.resolve(&position),
            Err(NotationError::NoPiece { .. })
        ));
    }

    #[test]
    fn malformed_animal_text_says_what_is_wrong() {
        for bad in ["ea3-a4", "Qa3-a4", "Ea3+a4", "Ea3 a4", "E象3-a4"] {
            assert!(
                matches!(bad.parse::<AnimalMove>(), Err(ParseMoveError::Shape { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            "Eh3-a4".parse::<AnimalMove>(),
            Err(ParseMoveError::Square {
                which: "origin",
                ..
            })
        ));
        assert!(matches!(
            "Ea3-a3".parse::<AnimalMove>(),
            Err(ParseMoveError::Null { .. })
        ));
    }

    #[test]
    fn every_legal_move_round_trips_through_the_animal_notation() {
        let rules = Rules::default();
        let mut game = crate::Game::new(rules);
        // A fixed walk through the game: the first legal move each time, so captures come up.
        for _ in 0..60 {
            let position = *game.position();
            for &m in game.legal_moves().iter() {
                let text = Notation::Animal.write(&position, m);
                let read: WrittenMove = text.parse().unwrap();
                assert_eq!(read.resolve(&position), Ok(m), "{text}");
                assert_eq!(
                    text.ends_with(&m.to.to_string()) && text.contains('x'),
                    position.is_capture(m)
                );
            }
            let Some(&m) = game
                .legal_moves()
                .iter()
                .max_by_key(|m| position.is_capture(**m))
            else {
                break;
            };
            if game.play(m).is_err() {
                break;
            }
        }
    }
}
