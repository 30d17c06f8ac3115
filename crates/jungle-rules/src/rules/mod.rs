//! `Rules`: a validated set of rule options with the fast-path data derived from it once.
//!
//! ```
//! use jungle_rules::{Animal, Rules};
//! let rules: Rules = "modern,dog-swims=true".parse().unwrap();
//! assert_eq!(rules.rank(Animal::Lion), rules.rank(Animal::Tiger));
//! assert_eq!(rules.to_string(), "lion-tiger=equal,dog-swims=true");
//! assert!("tiger-swims=true".parse::<Rules>().unwrap_err().to_string().contains("valid: elephant-captures-rat"));
//! ```

mod options;

use std::fmt;
use std::str::FromStr;

pub use options::{
    BoardKind, ElephantCapturesRat, LionTiger, OPTIONS, OptionInfo, Preset, RatFromWater,
    RuleOptions,
};

use crate::terrain::{Direction, TRAPS, WATER};
use crate::{Animal, Bitboard, BySide, Side, Square};

/// A validated rule set. Build it with [`Rules::new`] or by parsing an option string; read options with
/// [`Rules::options`]; hot code uses the derived accessors (`rank`, `water`, `can_swim`, …).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    options: RuleOptions,
    ranks: [u8; 8],
    water: Bitboard,
    all_traps: Bitboard,
    /// For an attacking side, the squares on which its enemies are weakened.
    weakening: BySide<Bitboard>,
    /// Squares a piece of a side and animal may move to, terrain-wise (own den, water, trap rank).
    destinations: BySide<[Bitboard; 8]>,
    /// Bit `d` set: the animal jumps in `Direction` number `d`.
    jump_directions: [u8; 8],
    swimmers: [bool; 8],
    animals_in_play: [bool; 8],
}

impl Default for Rules {
    fn default() -> Self {
        Rules::new(RuleOptions::default()).expect("the default options are valid")
    }
}

/// An option string that is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(
        "unknown rule option \"{name}\" (valid: {}; presets: {})",
        option_names(),
        preset_names()
    )]
    UnknownOption { name: String },
    #[error("rule option \"{option}\" cannot be \"{value}\" (valid: {valid})")]
    BadValue {
        option: String,
        value: String,
        valid: String,
    },
    #[error("rule option \"{option}\" needs a value, e.g. {option}={example}")]
    MissingValue { option: String, example: String },
    #[error("preset \"{name}\" must stand first in the option string")]
    PresetNotFirst { name: String },
    #[error("empty item in rule option string \"{text}\"")]
    EmptyItem { text: String },
}

fn option_names() -> String {
    OPTIONS
        .iter()
        .map(|o| o.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn preset_names() -> String {
    Preset::ALL
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn valid_values(info: &OptionInfo) -> String {
    if info.values == ["N"] {
        info.help.split(':').next().unwrap_or(info.help).to_string()
    } else {
        info.values.join(", ")
    }
}

impl Rules {
    /// Validates `options` and derives the fast-path tables.
    ///
    /// # Errors
    /// A value out of its range (e.g. `trap_max_rank` 9).
    pub fn new(options: RuleOptions) -> Result<Rules, RulesError> {
        let bad = |name: &str, value: String| {
            let info = OPTIONS
                .iter()
                .find(|o| o.name == name)
                .expect("known option");
            Err(RulesError::BadValue {
                option: name.to_string(),
                value,
                valid: valid_values(info),
            })
        };
        if options.trap_max_rank > 8 {
            return bad("trap-max-rank", options.trap_max_rank.to_string());
        }
        if options.repetition_draw == 1 {
            return bad("repetition-draw", "1".to_string());
        }

        let mut ranks = [1, 2, 3, 4, 5, 6, 7, 8];
        match options.lion_tiger {
            LionTiger::Standard => {}
            LionTiger::Equal => ranks[Animal::Lion.index()] = 6,
            LionTiger::TigerOverLion => {
                ranks[Animal::Lion.index()] = 6;
                ranks[Animal::Tiger.index()] = 7;
            }
        }
        if options.wolf_over_dog {
            ranks[Animal::Wolf.index()] = 4;
            ranks[Animal::Dog.index()] = 3;
        }

        let jungle = options.board == BoardKind::Jungle;
        let water = if jungle { WATER } else { Bitboard::EMPTY };
        let traps = if jungle {
            TRAPS
        } else {
            BySide::new(Bitboard::EMPTY, Bitboard::EMPTY)
        };
        let all_traps = traps.blue | traps.red;
        let weakening = if options.universal_traps {
            BySide::new(all_traps, all_traps)
        } else {
            traps
        };

        let mut swimmers = [false; 8];
        swimmers[Animal::Rat.index()] = true;
        swimmers[Animal::Dog.index()] = options.dog_swims;

        let mut destinations = BySide::new([Bitboard::FULL; 8], [Bitboard::FULL; 8]);
        for side in Side::ALL {
            for animal in Animal::ALL {
                let mut allowed = !Bitboard::from_square(crate::terrain::DENS[side]);
                if !swimmers[animal.index()] {
                    allowed &= !water;
                }
                if ranks[animal.index()] > options.trap_max_rank {
                    allowed &= !all_traps;
                }
                destinations[side][animal.index()] = allowed;
            }
        }

        const VERTICAL: u8 = 1 << Direction::North as u8 | 1 << Direction::South as u8;
        const HORIZONTAL: u8 = 1 << Direction::East as u8 | 1 << Direction::West as u8;
        let mut jump_directions = [0u8; 8];
        if jungle {
            jump_directions[Animal::Tiger.index()] = VERTICAL | HORIZONTAL;
            jump_directions[Animal::Lion.index()] = if options.lion_jumps_horizontally {
                VERTICAL | HORIZONTAL
            } else {
                VERTICAL
            };
            if options.leopard_jumps {
                jump_directions[Animal::Leopard.index()] = HORIZONTAL;
            }
        }

        let animals_in_play = if jungle {
            [true; 8]
        } else {
            let mut set = [false; 8];
            for a in [Animal::Rat, Animal::Dog, Animal::Tiger, Animal::Elephant] {
                set[a.index()] = true;
            }
            set
        };

        Ok(Rules {
            options,
            ranks,
            water,
            all_traps,
            weakening,
            destinations,
            jump_directions,
            swimmers,
            animals_in_play,
        })
    }

    /// The rules of a preset.
    pub fn preset(preset: Preset) -> Rules {
        preset
            .expansion()
            .parse()
            .expect("presets are valid option strings")
    }

    /// The options these rules were built from.
    #[inline]
    pub const fn options(&self) -> &RuleOptions {
        &self.options
    }

    /// Whether these are the default (standard) rules.
    pub fn is_standard(&self) -> bool {
        self.options == RuleOptions::default()
    }

    /// The rank an animal captures with (after `lion-tiger` and `wolf-over-dog`).
    #[inline]
    pub const fn rank(&self, animal: Animal) -> u8 {
        self.ranks[animal.index()]
    }

    /// The water squares (none on the Animal Checkers board).
    #[inline]
    pub const fn water(&self) -> Bitboard {
        self.water
    }

    /// Every trap square of both sides (none on the Animal Checkers board).
    #[inline]
    pub const fn traps(&self) -> Bitboard {
        self.all_traps
    }

    /// The traps a side owns (around its den).
    #[inline]
    pub fn traps_of(&self, side: Side) -> Bitboard {
        self.all_traps & TRAPS[side]
    }

    /// The squares on which a piece of `attacker`'s opponent is weakened (effective rank 0).
    #[inline]
    pub const fn weakening_squares(&self, attacker: Side) -> Bitboard {
        *self.weakening.get(attacker)
    }

    /// Whether the animal may enter water.
    #[inline]
    pub const fn can_swim(&self, animal: Animal) -> bool {
        self.swimmers[animal.index()]
    }

    /// Whether the animal takes part in the game on this board.
    #[inline]
    pub const fn in_play(&self, animal: Animal) -> bool {
        self.animals_in_play[animal.index()]
    }

    /// The squares a piece may ever move to, terrain-wise: not its own den, water only for swimmers, traps only
    /// up to `trap-max-rank`.
    #[inline]
    pub const fn destinations(&self, side: Side, animal: Animal) -> Bitboard {
        self.destinations.get(side)[animal.index()]
    }

    /// Whether the animal jumps rivers in this direction.
    #[inline]
    pub const fn jumps(&self, animal: Animal, direction: Direction) -> bool {
        self.jump_directions[animal.index()] & (1 << direction as u8) != 0
    }

    /// Whether the animal jumps at all.
    #[inline]
    pub const fn is_jumper(&self, animal: Animal) -> bool {
        self.jump_directions[animal.index()] != 0
    }

    /// Whether a piece of `side` may step onto a trap square at all.
    #[inline]
    pub const fn may_enter_traps(&self, animal: Animal) -> bool {
        self.ranks[animal.index()] <= self.options.trap_max_rank
    }

    /// Whether `attacker` of `side`, moving from `from`, may capture the enemy `defender` standing on `to`.
    ///
    /// This is the single statement of the capture rules (docs/rules.md §4 and §6); the move
    /// generator asks it for every move that lands on an enemy piece.
    pub fn can_capture(
        &self,
        side: Side,
        attacker: Animal,
        from: Square,
        defender: Animal,
        to: Square,
    ) -> bool {
        let from_water = self.water.contains(from);
        if self.water.contains(to) {
            // A swimmer in the water is reached only from the water, or by a land Rat under the option.
            return if from_water {
                self.rank(attacker) >= self.rank(defender)
            } else {
                self.options.land_rat_captures_water_rat
                    && attacker == Animal::Rat
                    && defender == Animal::Rat
            };
        }
        if from_water {
            match self.options.rat_from_water {
                RatFromWater::None => return false,
                RatFromWater::AllButElephant if defender == Animal::Elephant => return false,
                _ => {}
            }
        }
        let weakened = self.weakening.get(side).contains(to);
        if attacker == Animal::Elephant && defender == Animal::Rat {
            return match self.options.elephant_captures_rat {
                ElephantCapturesRat::Always => true,
                ElephantCapturesRat::Never => false,
                ElephantCapturesRat::Trapped => weakened,
            };
        }
        weakened
            || (attacker == Animal::Rat && defender == Animal::Elephant)
            || self.rank(attacker) >= self.rank(defender)
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Parses an option string: an optional preset first, then `name=value` items, comma-separated.
    /// The empty string is the standard rules.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let mut options = RuleOptions::default();
        if text.trim().is_empty() {
            return Rules::new(options);
        }
        for (i, item) in text.split(',').map(str::trim).enumerate() {
            if item.is_empty() {
                return Err(RulesError::EmptyItem {
                    text: text.to_string(),
                });
            }
            match item.split_once('=') {
                None => match Preset::from_name(item) {
                    Some(preset) if i == 0 => {
                        options = Rules::preset(preset).options;
                    }
                    Some(_) => {
                        return Err(RulesError::PresetNotFirst {
                            name: item.to_string(),
                        });
                    }
                    None => {
                        return Err(match OPTIONS.iter().find(|o| o.name == item) {
                            Some(info) => RulesError::MissingValue {
                                option: item.to_string(),
                                example: info
                                    .values
                                    .iter()
                                    .find(|v| **v != info.default)
                                    .unwrap_or(&"N")
                                    .to_string(),
                            },
                            None => RulesError::UnknownOption {
                                name: item.to_string(),
                            },
                        });
                    }
                },
                Some((name, value)) => {
                    let (name, value) = (name.trim(), value.trim());
                    match options.set(name, value) {
                        Ok(true) => {}
                        Ok(false) => {
                            return Err(RulesError::UnknownOption {
                                name: name.to_string(),
                            });
                        }
                        Err(options::BadValue) => {
                            let info = OPTIONS
                                .iter()
                                .find(|o| o.name == name)
                                .expect("set knew the name");
                            return Err(RulesError::BadValue {
                                option: name.to_string(),
                                value: value.to_string(),
                                valid: valid_values(info),
                            });
                        }
                    }
                }
            }
        }
        Rules::new(options)
    }
}

impl fmt::Display for Rules {
    /// The canonical option string: the options that differ from the default, in the order of docs/rules.md;
    /// `standard` when none does. Parsing it gives back equal rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defaults = RuleOptions::default();
        let mut first = true;
        for info in OPTIONS {
            let value = self.options.get(info.name);
            if value != defaults.get(info.name) {
                if !first {
                    f.write_str(",")?;
                }
                write!(f, "{}={}", info.name, value)?;
                first = false;
            }
        }
        if first {
            f.write_str("standard")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_expand_as_rules_md_says() {
        let o = Rules::preset(Preset::Mistboard).options;
        assert!(o.wolf_over_dog);
        assert_eq!(o.elephant_captures_rat, ElephantCapturesRat::Trapped);
        assert_eq!(o.rat_from_water, RatFromWater::None);
        assert_eq!(
            Rules::preset(Preset::Modern).options.lion_tiger,
            LionTiger::Equal
        );
        assert!(
            Rules::preset(Preset::Leiden)
                .options
                .land_rat_captures_water_rat
        );
        assert_eq!(
            Rules::preset(Preset::AnimalCheckers).options.board,
            BoardKind::AnimalCheckers
        );
        assert!(Rules::preset(Preset::Standard).is_standard());
    }

    #[test]
    fn later_options_override_the_preset() {
        let rules: Rules = "mistboard,wolf-over-dog=false".parse().unwrap();
        assert!(!rules.options().wolf_over_dog);
        assert_eq!(
            rules.to_string(),
            "elephant-captures-rat=trapped,rat-from-water=none"
        );
    }

    #[test]
    fn canonical_string_round_trips_for_every_option_value() {
        for info in OPTIONS {
            let values: Vec<String> = if info.values == ["N"] {
                vec!["0".into(), "2".into(), "4".into(), "8".into()]
            } else {
                info.values.iter().map(|v| v.to_string()).collect()
            };
            for value in values {
                let text = format!("{}={}", info.name, value);
                let rules: Rules = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
                let canonical = rules.to_string();
                assert_eq!(canonical.parse::<Rules>().unwrap(), rules, "{text}");
                if value == info.default {
                    assert_eq!(canonical, "standard");
                } else {
                    assert_eq!(canonical, text);
                }
            }
        }
    }

    #[test]
    fn errors_name_the_offence_and_the_valid_choices() {
        let e = "tiger-swims=true".parse::<Rules>().unwrap_err().to_string();
        assert!(
            e.contains("\"tiger-swims\"") && e.contains("lion-tiger") && e.contains("mistboard"),
            "{e}"
        );
        let e = "lion-tiger=huge".parse::<Rules>().unwrap_err().to_string();
        assert_eq!(
            e,
            "rule option \"lion-tiger\" cannot be \"huge\" (valid: standard, equal, tiger-over-lion)"
        );
        let e = "trap-max-rank=9".parse::<Rules>().unwrap_err().to_string();
        assert!(e.contains("trap-max-rank") && e.contains("0-8"), "{e}");
        let e = "repetition-draw=1"
            .parse::<Rules>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("repetition-draw"), "{e}");
        assert!(matches!(
            "dog-swims".parse::<Rules>(),
            Err(RulesError::MissingValue { .. })
        ));
        assert!(matches!(
            "dog-swims=true,modern".parse::<Rules>(),
            Err(RulesError::PresetNotFirst { .. })
        ));
        assert!(matches!(
            "modern,,dog-swims=true".parse::<Rules>(),
            Err(RulesError::EmptyItem { .. })
        ));
        assert!("quiet-ply-limit=-1".parse::<Rules>().is_err());
        assert!("quiet-ply-limit=+5".parse::<Rules>().is_err());
    }

    #[test]
    fn ranks_follow_the_options() {
        let r: Rules = "lion-tiger=tiger-over-lion,wolf-over-dog=true"
            .parse()
            .unwrap();
        assert_eq!(r.rank(Animal::Tiger), 7);
        assert_eq!(r.rank(Animal::Lion), 6);
        assert_eq!(r.rank(Animal::Wolf), 4);
        assert_eq!(r.rank(Animal::Dog), 3);
        let d = Rules::default();
        for a in Animal::ALL {
            assert_eq!(d.rank(a), a.standard_rank());
        }
    }
}
