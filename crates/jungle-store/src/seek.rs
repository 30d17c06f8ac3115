//! A stored seek: an open challenge in the lobby (checked by the lobby before it is stored).

use serde::{Deserialize, Serialize};

/// A real-time seek expires once its creator's lobby page has not asked for the lobby for this long (the page
/// asks every few seconds); correspondence seeks stay until cancelled.
pub const SEEK_GRACE_MS: i64 = 60_000;

/// How long a game of a seek takes: a real-time clock, or days per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    Clock { initial_ms: u64, increment_ms: u64 },
    Correspondence { days_per_move: u32 },
}

/// The creator's colour in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Blue,
    Red,
    Random,
}

impl Colour {
    pub fn name(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::Red => "red",
            Colour::Random => "random",
        }
    }

    pub fn from_name(name: &str) -> Option<Colour> {
        match name {
            "blue" => Some(Colour::Blue),
            "red" => Some(Colour::Red),
            "random" => Some(Colour::Random),
            _ => None,
        }
    }
}

/// A stored seek.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seek {
    pub id: String,
    pub created_at: i64,
    pub creator_id: i64,
    pub creator_name: String,
    pub rules: String,
    pub time: TimeControl,
    pub rated: bool,
    pub colour: Colour,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    /// A direct challenge's target.
    pub target_id: Option<i64>,
    pub target_name: Option<String>,
    /// The target declined it.
    pub declined: bool,
}

impl Seek {
    /// Whether a rating lies in the seek's range.
    pub fn admits(&self, rating: i32) -> bool {
        self.rating_min.is_none_or(|min| rating >= min)
            && self.rating_max.is_none_or(|max| rating <= max)
    }
}
