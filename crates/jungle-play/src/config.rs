//! How a game is set up: who plays each side, the engine's strength, the clocks, how the board is drawn.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use jungle_rules::{BySide, Side};

/// Who plays which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the engine (the person's side is [`PlayConfig::human_side`]).
    VsEngine,
    /// Two people taking turns on one keyboard.
    TwoPlayers,
    /// The engine against itself, to watch.
    Watch,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::VsEngine, Mode::TwoPlayers, Mode::Watch];

    pub const fn name(self) -> &'static str {
        match self {
            Mode::VsEngine => "engine",
            Mode::TwoPlayers => "two-players",
            Mode::Watch => "watch",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no mode, side, level or time control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("unknown mode \"{0}\" (valid: engine, two-players, watch)")]
    Mode(String),
    #[error("unknown side \"{0}\" (valid: blue, red)")]
    Side(String),
    #[error("skill level {0} is out of range (valid: 1-8)")]
    Level(u8),
    #[error("time control \"{0}\" should be minutes+increment seconds, like 5+3 or 10")]
    TimeControl(String),
}

impl FromStr for Mode {
    type Err = ConfigError;
    fn from_str(text: &str) -> Result<Mode, ConfigError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "engine" | "vs-engine" | "computer" => Ok(Mode::VsEngine),
            "two-players" | "two" | "2p" | "friend" | "human" => Ok(Mode::TwoPlayers),
            "watch" | "engine-vs-engine" | "auto" => Ok(Mode::Watch),
            _ => Err(ConfigError::Mode(text.to_string())),
        }
    }
}

/// Reads `blue`/`red` (also the FEN letters `w`/`b`).
pub fn parse_side(text: &str) -> Result<Side, ConfigError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "blue" | "w" | "first" => Ok(Side::Blue),
        "red" | "b" | "second" => Ok(Side::Red),
        _ => Err(ConfigError::Side(text.to_string())),
    }
}

/// A time control: a base time for each side and an increment added after each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl FromStr for TimeControl {
    type Err = ConfigError;

    /// `5+3` is five minutes plus three seconds a move; `10` is ten minutes; `0.5+1` half a minute.
    fn from_str(text: &str) -> Result<TimeControl, ConfigError> {
        let bad = || ConfigError::TimeControl(text.to_string());
        let (base, increment) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let number = |s: &str| -> Result<f64, ConfigError> {
            let value: f64 = s.trim().parse().map_err(|_| bad())?;
            if (0.0..1e6).contains(&value) {
                Ok(value)
            } else {
                Err(bad())
            }
        };
        let base = Duration::from_secs_f64(number(base)? * 60.0);
        let increment = Duration::from_secs_f64(number(increment)?);
        if base.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl { base, increment })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.base.as_secs_f64() / 60.0;
        write!(f, "{minutes}+{}", self.increment.as_secs_f64())
    }
}

/// Everything about a game that is not the game itself.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub mode: Mode,
    /// The side the person plays in [`Mode::VsEngine`]; it is shown at the bottom of the board.
    pub human_side: Side,
    /// The engine's skill level, 1 (weakest) to 8 (full strength).
    pub level: u8,
    /// How long the engine thinks per move when no clock limits it more.
    pub movetime: Duration,
    pub time_control: Option<TimeControl>,
    /// Plain letters instead of Chinese characters (terminals without CJK fonts).
    pub ascii: bool,
    /// Where the `s` key and the quit prompt save the game.
    pub save_path: std::path::PathBuf,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            mode: Mode::VsEngine,
            human_side: Side::Blue,
            level: 4,
            movetime: Duration::from_millis(1000),
            time_control: None,
            ascii: false,
            save_path: "jungle-game.pgn".into(),
        }
    }
}

impl PlayConfig {
    /// Checks the skill level.
    ///
    /// # Errors
    /// [`ConfigError::Level`] outside 1–8.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if (1..=8).contains(&self.level) {
            Ok(())
        } else {
            Err(ConfigError::Level(self.level))
        }
    }

    /// Whether the engine plays each side.
    pub fn engine_sides(&self) -> BySide<bool> {
        match self.mode {
            Mode::VsEngine => {
                BySide::new(self.human_side != Side::Blue, self.human_side != Side::Red)
            }
            Mode::TwoPlayers => BySide::new(false, false),
            Mode::Watch => BySide::new(true, true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_minutes_and_increment_seconds() {
        let tc: TimeControl = "5+3".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(3));
        let tc: TimeControl = "0.5".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(30));
        assert!(tc.increment.is_zero());
        for bad in ["", "x+3", "5+", "-1+2", "0+3", "inf"] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert_eq!(err, ConfigError::TimeControl(bad.to_string()));
        }
    }

    #[test]
    fn modes_and_sides_parse_and_explain_errors() {
        assert_eq!("watch".parse::<Mode>().unwrap(), Mode::Watch);
        assert_eq!("Two-Players".parse::<Mode>().unwrap(), Mode::TwoPlayers);
        assert!(
            "chess"
                .parse::<Mode>()
                .unwrap_err()
                .to_string()
                .contains("\"chess\"")
        );
        assert_eq!(parse_side("red").unwrap(), Side::Red);
        assert!(parse_side("green").is_err());
    }

    #[test]
    fn engine_plays_the_sides_the_mode_gives_it() {
        let config = PlayConfig {
            human_side: Side::Red,
            ..PlayConfig::default()
        };
        assert_eq!(config.engine_sides(), BySide::new(true, false));
        let config = PlayConfig {
            mode: Mode::TwoPlayers,
            ..config
        };
        assert_eq!(config.engine_sides(), BySide::new(false, false));
        assert!(PlayConfig { level: 9, ..config }.validate().is_err());
    }
}
