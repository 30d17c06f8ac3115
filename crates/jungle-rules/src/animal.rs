//! The eight animals and pieces (an animal of a side).

use std::fmt;

use crate::Side;

/// The eight animals, ordered by their standard rank (Rat 1 … Elephant 8).
///
/// The rank an animal captures with can differ under rule options (`lion-tiger`, `wolf-over-dog`); ask
/// [`Rules::rank`](crate::Rules::rank) for it, never this enum's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Animal {
    Rat = 0,
    Cat = 1,
    Wolf = 2,
    Dog = 3,
    Leopard = 4,
    Tiger = 5,
    Lion = 6,
    Elephant = 7,
}

impl Animal {
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Wolf,
        Animal::Dog,
        Animal::Leopard,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Option<Animal> {
        if i < 8 { Some(Animal::ALL[i]) } else { None }
    }

    /// The standard rank, 1 (Rat) to 8 (Elephant).
    pub const fn standard_rank(self) -> u8 {
        self as u8 + 1
    }

    /// The uppercase letter (Blue's letter): `R C W D P T L E`.
    pub const fn letter(self) -> char {
        match self {
            Animal::Rat => 'R',
            Animal::Cat => 'C',
            Animal::Wolf => 'W',
            Animal::Dog => 'D',
            Animal::Leopard => 'P',
            Animal::Tiger => 'T',
            Animal::Lion => 'L',
            Animal::Elephant => 'E',
        }
    }

    /// The animal for a letter of either case.
    pub const fn from_letter(c: char) -> Option<Animal> {
        match c.to_ascii_uppercase() {
            'R' => Some(Animal::Rat),
            'C' => Some(Animal::Cat),
            'W' => Some(Animal::Wolf),
            'D' => Some(Animal::Dog),
            'P' => Some(Animal::Leopard),
            'T' => Some(Animal::Tiger),
            'L' => Some(Animal::Lion),
            'E' => Some(Animal::Elephant),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rat => "Rat",
            Animal::Cat => "Cat",
            Animal::Wolf => "Wolf",
            Animal::Dog => "Dog",
            Animal::Leopard => "Leopard",
            Animal::Tiger => "Tiger",
            Animal::Lion => "Lion",
            Animal::Elephant => "Elephant",
        }
    }

    /// The traditional Chinese character.
    pub const fn chinese(self) -> char {
        match self {
            Animal::Rat => '鼠',
            Animal::Cat => '貓',
            Animal::Wolf => '狼',
            Animal::Dog => '狗',
            Animal::Leopard => '豹',
            Animal::Tiger => '虎',
            Animal::Lion => '獅',
            Animal::Elephant => '象',
        }
    }
}

impl fmt::Display for Animal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An animal of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub animal: Animal,
}

impl Piece {
    pub const fn new(side: Side, animal: Animal) -> Piece {
        Piece { side, animal }
    }

    /// The FEN letter: uppercase for Blue, lowercase for Red.
    pub const fn fen_char(self) -> char {
        let c = self.animal.letter();
        match self.side {
            Side::Blue => c,
            Side::Red => c.to_ascii_lowercase(),
        }
    }

    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let side = if c.is_ascii_uppercase() {
            Side::Blue
        } else {
            Side::Red
        };
        match Animal::from_letter(c) {
            Some(animal) => Some(Piece { side, animal }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.side, self.animal)
    }
}
