//! The rule options of docs/rules.md as plain values, their names, their text forms and the presets.

use std::fmt;

/// Whether the Elephant may capture the Rat (`elephant-captures-rat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElephantCapturesRat {
    /// `true`: always (the standard rule).
    Always,
    /// `false`: never.
    Never,
    /// `trapped`: only a Rat weakened by a trap.
    Trapped,
}

/// The relative rank of the Lion and the Tiger (`lion-tiger`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LionTiger {
    /// Lion 7, Tiger 6.
    Standard,
    /// Both rank 6: they capture each other.
    Equal,
    /// Tiger 7, Lion 6.
    TigerOverLion,
}

/// What a Rat (or a swimming Dog) leaving the water may capture on land (`rat-from-water`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatFromWater {
    None,
    AllButElephant,
    All,
}

/// Which board and set of animals is played (`board`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// The Jungle board with traps and rivers and all eight animals a side.
    Jungle,
    /// No traps, no rivers; only the Rat, Dog, Tiger and Elephant.
    AnimalCheckers,
}

/// Every option of docs/rules.md, unvalidated. Turn it into [`Rules`](super::Rules) with `Rules::new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    pub elephant_captures_rat: ElephantCapturesRat,
    pub lion_tiger: LionTiger,
    pub wolf_over_dog: bool,
    pub leopard_jumps: bool,
    pub lion_jumps_horizontally: bool,
    pub universal_traps: bool,
    pub trap_max_rank: u8,
    pub dog_swims: bool,
    pub rat_from_water: RatFromWater,
    pub land_rat_captures_water_rat: bool,
    pub capture_all_wins: bool,
    pub repetition_draw: u32,
    pub quiet_ply_limit: u32,
    pub board: BoardKind,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            elephant_captures_rat: ElephantCapturesRat::Always,
            lion_tiger: LionTiger::Standard,
            wolf_over_dog: false,
            leopard_jumps: false,
            lion_jumps_horizontally: true,
            universal_traps: false,
            trap_max_rank: 8,
            dog_swims: false,
            rat_from_water: RatFromWater::AllButElephant,
            land_rat_captures_water_rat: false,
            capture_all_wins: true,
            repetition_draw: 3,
            quiet_ply_limit: 200,
            board: BoardKind::Jungle,
        }
    }
}

/// The description of one option, for listings (`jungle rules`) and error messages.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    pub name: &'static str,
    pub default: &'static str,
    /// The accepted values; `N` stands for a number in the range given by `help`.
    pub values: &'static [&'static str],
    pub help: &'static str,
}

/// Every option, in the order of docs/rules.md (also the order of the canonical option string).
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "elephant-captures-rat",
        default: "true",
        values: &["true", "false", "trapped"],
        help: "false: the Elephant never captures the Rat; trapped: only a Rat weakened by a trap",
    },
    OptionInfo {
        name: "lion-tiger",
        default: "standard",
        values: &["standard", "equal", "tiger-over-lion"],
        help: "equal: Lion and Tiger both rank 6; tiger-over-lion: Tiger 7, Lion 6",
    },
    OptionInfo {
        name: "wolf-over-dog",
        default: "false",
        values: &["false", "true"],
        help: "true: Wolf ranks 4, Dog 3 (also the Fox variant)",
    },
    OptionInfo {
        name: "leopard-jumps",
        default: "false",
        values: &["false", "true"],
        help: "true: the Leopard jumps rivers horizontally",
    },
    OptionInfo {
        name: "lion-jumps-horizontally",
        default: "true",
        values: &["true", "false"],
        help: "false: the Lion jumps only vertically",
    },
    OptionInfo {
        name: "universal-traps",
        default: "false",
        values: &["false", "true"],
        help: "true: every trap weakens every piece, own traps included",
    },
    OptionInfo {
        name: "trap-max-rank",
        default: "8",
        values: &["N"],
        help: "N in 0-8: only pieces of rank <= N may step onto a trap",
    },
    OptionInfo {
        name: "dog-swims",
        default: "false",
        values: &["false", "true"],
        help: "true: the Dog may enter water like the Rat",
    },
    OptionInfo {
        name: "rat-from-water",
        default: "all-but-elephant",
        values: &["none", "all-but-elephant", "all"],
        help: "what a Rat (or swimming Dog) leaving the water may capture on land",
    },
    OptionInfo {
        name: "land-rat-captures-water-rat",
        default: "false",
        values: &["false", "true"],
        help: "true: a Rat on land may capture an enemy Rat in the water",
    },
    OptionInfo {
        name: "capture-all-wins",
        default: "true",
        values: &["true", "false"],
        help: "false: only the den wins (a side without pieces still loses: it has no move)",
    },
    OptionInfo {
        name: "repetition-draw",
        default: "3",
        values: &["N"],
        help: "N >= 2: the N-th occurrence of a position is a draw; 0 disables",
    },
    OptionInfo {
        name: "quiet-ply-limit",
        default: "200",
        values: &["N"],
        help: "N >= 1: N plies without a capture is a draw; 0 disables",
    },
    OptionInfo {
        name: "board",
        default: "jungle",
        values: &["jungle", "animal-checkers"],
        help: "animal-checkers: no traps or rivers; only Rat, Dog, Tiger and Elephant",
    },
];

/// The named presets; one may stand first in an option string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    Standard,
    Modern,
    Leiden,
    Mistboard,
    AnimalCheckers,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::Standard,
        Preset::Modern,
        Preset::Leiden,
        Preset::Mistboard,
        Preset::AnimalCheckers,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Modern => "modern",
            Preset::Leiden => "leiden",
            Preset::Mistboard => "mistboard",
            Preset::AnimalCheckers => "animal-checkers",
        }
    }

    /// The option string the preset stands for.
    pub const fn expansion(self) -> &'static str {
        match self {
            Preset::Standard => "",
            Preset::Modern => "lion-tiger=equal",
            Preset::Leiden => "land-rat-captures-water-rat=true",
            Preset::Mistboard => {
                "wolf-over-dog=true,elephant-captures-rat=trapped,rat-from-water=none"
            }
            Preset::AnimalCheckers => "board=animal-checkers",
        }
    }

    pub const fn description(self) -> &'static str {
        match self {
            Preset::Standard => "the standard game",
            Preset::Modern => "the more modern version: Lion and Tiger rank equal",
            Preset::Leiden => "the rules of van Rijn & Vis's published endgame tablebases",
            Preset::Mistboard => "the rules of the largest online Jungle site",
            Preset::AnimalCheckers => "the simplified game without traps and rivers",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a value an option does not take.
pub(super) struct BadValue;

impl RuleOptions {
    /// Sets the option `name` from its text `value`. `Ok(false)` means no option has that name.
    pub(super) fn set(&mut self, name: &str, value: &str) -> Result<bool, BadValue> {
        fn flag(value: &str) -> Result<bool, BadValue> {
            match value {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(BadValue),
            }
        }
        fn number(value: &str, valid: impl Fn(u32) -> bool) -> Result<u32, BadValue> {
            match value.parse::<u32>() {
                Ok(n) if valid(n) && !value.starts_with('+') => Ok(n),
                _ => Err(BadValue),
            }
        }
        match name {
            "elephant-captures-rat" => {
                self.elephant_captures_rat = match value {
                    "true" => ElephantCapturesRat::Always,
                    "false" => ElephantCapturesRat::Never,
                    "trapped" => ElephantCapturesRat::Trapped,
                    _ => return Err(BadValue),
                }
            }
            "lion-tiger" => {
                self.lion_tiger = match value {
                    "standard" => LionTiger::Standard,
                    "equal" => LionTiger::Equal,
                    "tiger-over-lion" => LionTiger::TigerOverLion,
                    _ => return Err(BadValue),
                }
            }
            "wolf-over-dog" => self.wolf_over_dog = flag(value)?,
            "leopard-jumps" => self.leopard_jumps = flag(value)?,
            "lion-jumps-horizontally" => self.lion_jumps_horizontally = flag(value)?,
            "universal-traps" => self.universal_traps = flag(value)?,
            "trap-max-rank" => self.trap_max_rank = number(value, |n| n <= 8)? as u8,
            "dog-swims" => self.dog_swims = flag(value)?,
            "rat-from-water" => {
                self.rat_from_water = match value {
                    "none" => RatFromWater::None,
                    "all-but-elephant" => RatFromWater::AllButElephant,
                    "all" => RatFromWater::All,
                    _ => return Err(BadValue),
                }
            }
            "land-rat-captures-water-rat" => self.land_rat_captures_water_rat = flag(value)?,
            "capture-all-wins" => self.capture_all_wins = flag(value)?,
            "repetition-draw" => self.repetition_draw = number(value, |n| n != 1)?,
            "quiet-ply-limit" => self.quiet_ply_limit = number(value, |_| true)?,
            "board" => {
                self.board = match value {
                    "jungle" => BoardKind::Jungle,
                    "animal-checkers" => BoardKind::AnimalCheckers,
                    _ => return Err(BadValue),
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The text value of the option `name` (one of [`OPTIONS`]).
    pub(super) fn get(&self, name: &str) -> String {
        match name {
            "elephant-captures-rat" => match self.elephant_captures_rat {
                ElephantCapturesRat::Always => "true",
                ElephantCapturesRat::Never => "false",
                ElephantCapturesRat::Trapped => "trapped",
            }
            .to_string(),
            "lion-tiger" => match self.lion_tiger {
                LionTiger::Standard => "standard",
                LionTiger::Equal => "equal",
                LionTiger::TigerOverLion => "tiger-over-lion",
            }
            .to_string(),
            "wolf-over-dog" => self.wolf_over_dog.to_string(),
            "leopard-jumps" => self.leopard_jumps.to_string(),
            "lion-jumps-horizontally" => self.lion_jumps_horizontally.to_string(),
            "universal-traps" => self.universal_traps.to_string(),
            "trap-max-rank" => self.trap_max_rank.to_string(),
            "dog-swims" => self.dog_swims.to_string(),
            "rat-from-water" => match self.rat_from_water {
                RatFromWater::None => "none",
                RatFromWater::AllButElephant => "all-but-elephant",
                RatFromWater::All => "all",
            }
            .to_string(),
            "land-rat-captures-water-rat" => self.land_rat_captures_water_rat.to_string(),
            "capture-all-wins" => self.capture_all_wins.to_string(),
            "repetition-draw" => self.repetition_draw.to_string(),
            "quiet-ply-limit" => self.quiet_ply_limit.to_string(),
            "board" => match self.board {
                BoardKind::Jungle => "jungle",
                BoardKind::AnimalCheckers => "animal-checkers",
            }
            .to_string(),
            _ => String::new(),
        }
    }
}
