//! Material: which animals each side has. A table holds every position of one material.
//!
//! The key names Blue's animals in capitals, then `-`, then Red's in lower case, each side from the highest
//! animal down: `LR-e` is Blue Lion and Rat against the Red Elephant. Colour swap (rotate the board by 180°
//! and swap the sides) turns a position of `LR-e` into one of `E-lr`, so only one of the two is stored: the
//! *canonical* one, where Blue has more pieces, or as many and the higher set of animals (compared from the
//! Elephant down). A material with the same animals on both sides (`ER-er`) is *symmetric*: its table holds
//! only positions with Blue to move.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use jungle_rules::{Animal, Piece, Position, Rules, Side};

/// The animals of each side, as bit sets indexed by [`Animal::index`] (bit 0 the Rat, bit 7 the Elephant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub blue: u8,
    pub red: u8,
}

/// A material key that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMaterialError {
    #[error("material key \"{0}\" needs one '-' between Blue's and Red's animals, e.g. LR-e")]
    NoSeparator(String),
    #[error("material key \"{key}\": unknown animal letter '{letter}' (valid: E L T P D W C R)")]
    UnknownLetter { key: String, letter: char },
    #[error("material key \"{key}\": the {animal} appears twice on one side")]
    Duplicate { key: String, animal: Animal },
    #[error("material key \"{0}\": each side needs at least one animal")]
    EmptySide(String),
}

impl Material {
    pub const fn new(blue: u8, red: u8) -> Material {
        Material { blue, red }
    }

    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut m = Material::new(0, 0);
        for animal in Animal::ALL {
            let bit = 1u8 << animal.index();
            if pos.pieces(Piece::new(Side::Blue, animal)).any() {
                m.blue |= bit;
            }
            if pos.pieces(Piece::new(Side::Red, animal)).any() {
                m.red |= bit;
            }
        }
        m
    }

    pub fn piece_count(self) -> usize {
        (self.blue.count_ones() + self.red.count_ones()) as usize
    }

    /// The same material with the colours swapped.
    #[must_use]
    pub const fn swapped(self) -> Material {
        Material::new(self.red, self.blue)
    }

    pub const fn is_symmetric(self) -> bool {
        self.blue == self.red
    }

    /// Whether this is the orientation that is stored (see the module docs).
    pub fn is_canonical(self) -> bool {
        compare_sides(self.blue, self.red) != Ordering::Less
    }

    /// The stored orientation of this material.
    #[must_use]
    pub fn canonical(self) -> Material {
        if self.is_canonical() {
            self
        } else {
            self.swapped()
        }
    }

    /// The pieces in table order: Blue's from the Elephant down, then Red's.
    pub fn pieces(self) -> Vec<Piece> {
        let mut pieces = Vec::with_capacity(self.piece_count());
        for (side, set) in [(Side::Blue, self.blue), (Side::Red, self.red)] {
            for animal in Animal::ALL.into_iter().rev() {
                if set & (1 << animal.index()) != 0 {
                    pieces.push(Piece::new(side, animal));
                }
            }
        }
        pieces
    }

    /// Whether every animal of the material takes part in the game under the rules.
    pub fn in_play(self, rules: &Rules) -> bool {
        Animal::ALL
            .into_iter()
            .filter(|a| (self.blue | self.red) & (1 << a.index()) != 0)
            .all(|a| rules.in_play(a))
    }

    /// The canonical materials a capture can lead to: one piece fewer, both sides still with a piece.
    /// (A capture of a side's last piece ends the game and needs no table.)
    pub fn captures_lead_to(self) -> Vec<Material> {
        let mut out = Vec::new();
        for animal in Animal::ALL {
            let bit = 1u8 << animal.index();
            if self.blue & bit != 0 && self.blue.count_ones() > 1 {
                out.push(Material::new(self.blue & !bit, self.red).canonical());
            }
            if self.red & bit != 0 && self.red.count_ones() > 1 {
                out.push(Material::new(self.blue, self.red & !bit).canonical());
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Every canonical material with exactly `pieces` pieces (both sides with at least one) whose animals are
    /// all in play under the rules, in key order.
    pub fn all_with(pieces: usize, rules: &Rules) -> Vec<Material> {
        let mut out = Vec::new();
        for blue in 1..=255u8 {
            for red in 1..=255u8 {
                let m = Material::new(blue, red);
                if m.piece_count() == pieces && m.is_canonical() && m.in_play(rules) {
                    out.push(m);
                }
            }
        }
        out.sort_by_key(|m| m.to_string());
        out
    }
}

/// Orders two sides' animal sets: more pieces first, then the higher animals (from the Elephant down).
fn compare_sides(a: u8, b: u8) -> Ordering {
    a.count_ones().cmp(&b.count_ones()).then(a.cmp(&b))
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in Side::ALL {
            if side == Side::Red {
                f.write_str("-")?;
            }
            for piece in self.pieces().into_iter().filter(|p| p.side == side) {
                write!(f, "{}", piece.fen_char())?;
            }
        }
        Ok(())
    }
}

impl FromStr for Material {
    type Err = ParseMaterialError;

    /// Reads a key such as `LR-e` (letters of either case; the `-` decides the side).
    fn from_str(text: &str) -> Result<Material, ParseMaterialError> {
        let key = text.trim();
        let (blue, red) = key
            .split_once('-')
            .ok_or_else(|| ParseMaterialError::NoSeparator(key.to_string()))?;
        let read = |letters: &str| -> Result<u8, ParseMaterialError> {
            let mut set = 0u8;
            for letter in letters.chars() {
                let animal = Animal::from_letter(letter.to_ascii_uppercase()).ok_or(
                    ParseMaterialError::UnknownLetter {
                        key: key.to_string(),
                        letter,
                    },
                )?;
                let bit = 1 << animal.index();
                if set & bit != 0 {
                    return Err(ParseMaterialError::Duplicate {
                        key: key.to_string(),
                        animal,
                    });
                }
                set |= bit;
            }
            if set == 0 {
                return Err(ParseMaterialError::EmptySide(key.to_string()));
            }
            Ok(set)
        };
        Ok(Material::new(read(blue)?, read(red)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_name_sides() {
        let m: Material = "LR-e".parse().unwrap();
        assert_eq!(m.to_string(), "LR-e");
        assert_eq!(m.swapped().to_string(), "E-lr");
        assert!(m.is_canonical());
        assert_eq!("e-lr".parse::<Material>().unwrap().canonical(), m);
        assert_eq!("r-r".parse::<Material>().unwrap().to_string(), "R-r");
        assert!("R-r".parse::<Material>().unwrap().is_symmetric());
    }

    #[test]
    fn bad_keys_are_named() {
        assert!(matches!(
            "LR".parse::<Material>(),
            Err(ParseMaterialError::NoSeparator(_))
        ));
        assert!(matches!(
            "LX-r".parse::<Material>(),
            Err(ParseMaterialError::UnknownLetter { letter: 'X', .. })
        ));
        assert!(matches!(
            "LL-r".parse::<Material>(),
            Err(ParseMaterialError::Duplicate { .. })
        ));
        assert!(matches!(
            "L-".parse::<Material>(),
            Err(ParseMaterialError::EmptySide(_))
        ));
    }

    #[test]
    fn material_counts_match_combinatorics() {
        let rules = Rules::default();
        // 2 pieces: 8 x 8 ordered pairs, 8 symmetric; canonical = (64 + 8) / 2.
        assert_eq!(Material::all_with(2, &rules).len(), 36);
        // 3 pieces: 2 * 8 * 28 ordered, none symmetric.
        assert_eq!(Material::all_with(3, &rules).len(), 224);
        // 4 pieces: (1,3)+(3,1) = 2 * 8 * 56, (2,2) = 28 * 28 with 28 symmetric.
        assert_eq!(Material::all_with(4, &rules).len(), 448 + (784 + 28) / 2);
        let checkers: Rules = "animal-checkers".parse().unwrap();
        assert_eq!(Material::all_with(2, &checkers).len(), 10);
    }

    #[test]
    fn captures_lead_to_smaller_canonical_materials() {
        let m: Material = "LR-e".parse().unwrap();
        let subs: Vec<String> = m.captures_lead_to().iter().map(|m| m.to_string()).collect();
        assert_eq!(subs, vec!["E-r".to_string(), "E-l".to_string()]);
    }
}
