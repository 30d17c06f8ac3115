//! A side's secret setup: which of its animals stands on which of its start squares.

use std::fmt;

use jungle_rules::{Animal, BySide, Piece, Position, PositionError, Rules, Setup, Side, Square};
use rand::Rng;
use rand::seq::SliceRandom;

/// A permutation of a side's animals on its start squares (the squares the start position of the rules' board
/// gives that side). Only valid arrangements exist: build one with [`Arrangement::new`], [`Arrangement::parse`],
/// [`Arrangement::standard`] or [`Arrangement::random`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrangement {
    side: Side,
    /// The start squares in increasing index order, each with its animal.
    placement: Vec<(Square, Animal)>,
}

/// Why a setup is not an arrangement of the side's animals on its start squares.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrangementError {
    #[error("a setup lists {expected} animals (one per start square), found {found}")]
    Length { expected: usize, found: usize },
    #[error("'{0}' is not an animal letter (R C W D P T L E)")]
    BadLetter(char),
    #[error("the {0} is listed twice (each animal stands on exactly one start square)")]
    Duplicate(Animal),
    #[error("the {0} does not take part in the game on this board")]
    NotInPlay(Animal),
    #[error("the setup breaks a placement rule: {0}")]
    Placement(#[from] PositionError),
}

impl Arrangement {
    /// The side's start squares, in increasing index order (the order of [`Arrangement::parse`]'s letters).
    pub fn start_squares(rules: &Rules, side: Side) -> Vec<Square> {
        Position::start(rules).side(side).collect()
    }

    /// The arrangement of the ordinary start position.
    pub fn standard(rules: &Rules, side: Side) -> Arrangement {
        let start = Position::start(rules);
        Arrangement {
            side,
            placement: start
                .side(side)
                .map(|sq| (sq, start.piece_at(sq).expect("a start square").animal))
                .collect(),
        }
    }

    /// A uniformly random arrangement.
    pub fn random(rules: &Rules, side: Side, rng: &mut impl Rng) -> Arrangement {
        let mut animals = Arrangement::standard(rules, side).animals();
        animals.shuffle(rng);
        Arrangement::new(rules, side, &animals).expect("a permutation of the start animals")
    }

    /// The arrangement putting `animals[i]` on the i-th start square.
    ///
    /// # Errors
    /// [`ArrangementError`] when the list is not a permutation of the side's animals in play, or puts one where
    /// the rules forbid it to stand (a trap under `trap-max-rank`).
    pub fn new(
        rules: &Rules,
        side: Side,
        animals: &[Animal],
    ) -> Result<Arrangement, ArrangementError> {
        let squares = Arrangement::start_squares(rules, side);
        if animals.len() != squares.len() {
            return Err(ArrangementError::Length {
                expected: squares.len(),
                found: animals.len(),
            });
        }
        let mut seen = [false; 8];
        for &animal in animals {
            if !rules.in_play(animal) {
                return Err(ArrangementError::NotInPlay(animal));
            }
            if std::mem::replace(&mut seen[animal.index()], true) {
                return Err(ArrangementError::Duplicate(animal));
            }
        }
        let arrangement = Arrangement {
            side,
            placement: squares.into_iter().zip(animals.iter().copied()).collect(),
        };
        let mut setup = Setup::default();
        arrangement.place(&mut setup);
        Position::from_setup(&setup, rules)?;
        Ok(arrangement)
    }

    /// Reads an arrangement from animal letters (case ignored), one per start square in increasing square order
    /// (Blue: a1 g1 b2 f2 a3 c3 e3 g3, so the standard one is `TLCDEWPR`; Red: a7 c7 e7 g7 b8 f8 a9 g9,
    /// `RPWEDCLT`).
    ///
    /// # Errors
    /// [`ArrangementError::BadLetter`] for a letter that is not an animal, else as [`Arrangement::new`].
    pub fn parse(rules: &Rules, side: Side, text: &str) -> Result<Arrangement, ArrangementError> {
        let animals = text
            .trim()
            .chars()
            .map(|c| {
                Animal::from_letter(c.to_ascii_uppercase()).ok_or(ArrangementError::BadLetter(c))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Arrangement::new(rules, side, &animals)
    }

    pub fn side(&self) -> Side {
        self.side
    }

    /// Each start square with its animal, in increasing square order.
    pub fn placement(&self) -> &[(Square, Animal)] {
        &self.placement
    }

    /// The animals in start-square order.
    pub fn animals(&self) -> Vec<Animal> {
        self.placement.iter().map(|&(_, a)| a).collect()
    }

    /// The animal that starts on `square`, if it is one of the side's start squares.
    pub fn animal_on(&self, square: Square) -> Option<Animal> {
        self.placement
            .iter()
            .find(|&&(sq, _)| sq == square)
            .map(|&(_, a)| a)
    }

    /// Puts the side's pieces on a setup's board.
    fn place(&self, setup: &mut Setup) {
        for &(sq, animal) in &self.placement {
            setup.board[sq.index()] = Some(Piece::new(self.side, animal));
        }
    }

    /// The true start position of two arrangements (Blue to move, as every Jungle game starts).
    ///
    /// # Errors
    /// [`ArrangementError::Placement`] if the two are for the same side or do not make a valid position.
    pub fn start_position(
        rules: &Rules,
        both: &BySide<Arrangement>,
    ) -> Result<Position, ArrangementError> {
        let mut setup = Setup::default();
        for side in Side::ALL {
            if both[side].side != side {
                return Err(ArrangementError::Placement(PositionError::Duplicate {
                    side: both[side].side,
                    animal: both[side].placement[0].1,
                }));
            }
            both[side].place(&mut setup);
        }
        Ok(Position::from_setup(&setup, rules)?)
    }
}

/// The animal letters in start-square order (what [`Arrangement::parse`] reads).
impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &(_, animal) in &self.placement {
            write!(f, "{}", animal.letter())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_standard_arrangements_read_back_and_make_the_start_position() {
        let rules = Rules::default();
        let blue = Arrangement::standard(&rules, Side::Blue);
        let red = Arrangement::standard(&rules, Side::Red);
        assert_eq!(blue.to_string(), "TLCDEWPR");
        assert_eq!(red.to_string(), "RPWEDCLT");
        assert_eq!(
            Arrangement::parse(&rules, Side::Blue, "tlcdewpr"),
            Ok(blue.clone())
        );
        let start = Arrangement::start_position(&rules, &BySide::new(blue, red)).unwrap();
        assert_eq!(start, Position::start(&rules));
    }

    #[test]
    fn bad_setups_get_their_reason() {
        let rules = Rules::default();
        let parse = |text| Arrangement::parse(&rules, Side::Blue, text);
        assert_eq!(
            parse("TLCDEWP"),
            Err(ArrangementError::Length {
                expected: 8,
                found: 7
            })
        );
        assert_eq!(
            parse("TLCDEWPRR"),
            Err(ArrangementError::Length {
                expected: 8,
                found: 9
            })
        );
        assert_eq!(parse("TLCDEWPX"), Err(ArrangementError::BadLetter('X')));
        assert_eq!(
            parse("TLCDEWPP"),
            Err(ArrangementError::Duplicate(Animal::Leopard))
        );
        let checkers: Rules = "animal-checkers".parse().unwrap();
        assert_eq!(
            Arrangement::parse(&checkers, Side::Red, "RDTL"),
            Err(ArrangementError::NotInPlay(Animal::Lion))
        );
        assert!(Arrangement::parse(&checkers, Side::Red, "EDTR").is_ok());
    }

    #[test]
    fn random_arrangements_are_permutations_valid_under_every_preset() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for preset in [
            "standard",
            "modern",
            "leiden",
            "mistboard",
            "animal-checkers",
        ] {
            let rules: Rules = preset.parse().unwrap();
            for _ in 0..20 {
                let both = BySide::new(
                    Arrangement::random(&rules, Side::Blue, &mut rng),
                    Arrangement::random(&rules, Side::Red, &mut rng),
                );
                let start = Arrangement::start_position(&rules, &both).unwrap();
                assert_eq!(
                    start.occupied(),
                    Position::start(&rules).occupied(),
                    "{preset}"
                );
            }
        }
    }
}
