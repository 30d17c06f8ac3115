//! Speed categories: a rating is kept per category, since a player's bullet and classical strengths differ.

use std::fmt;

/// How fast a game is, from its clock (as lichess sorts them) or its days per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

/// A game's expected length is its initial time plus this many increments (a game lasts about 40 moves a side).
const EXPECTED_MOVES: u64 = 40;

/// Real-time categories by the upper bound (exclusive) of their estimated duration, in seconds.
const BOUNDS: [(u64, Category); 3] = [
    (3 * 60, Category::Bullet),
    (8 * 60, Category::Blitz),
    (25 * 60, Category::Rapid),
];

impl Category {
    pub const ALL: [Category; 5] = [
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
        Category::Correspondence,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
            Category::Correspondence => "correspondence",
        }
    }

    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The category of a real-time clock: the estimated duration `initial + 40 × increment` under 3 minutes
    /// is bullet, under 8 blitz, under 25 rapid, and classical beyond.
    pub fn of_clock(initial_ms: u64, increment_ms: u64) -> Category {
        let seconds = initial_ms.saturating_add(increment_ms.saturating_mul(EXPECTED_MOVES)) / 1000;
        BOUNDS
            .into_iter()
            .find(|&(bound, _)| seconds < bound)
            .map_or(Category::Classical, |(_, category)| category)
    }

    /// The category of a game: correspondence when it has days per move, else by its clock; `None` for an
    /// untimed game, which has no category and is never rated.
    pub fn of_game(clock: Option<(u64, u64)>, days_per_move: Option<u32>) -> Option<Category> {
        if days_per_move.is_some() {
            return Some(Category::Correspondence);
        }
        clock.map(|(initial, increment)| Category::of_clock(initial, increment))
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: u64 = 60_000;
    const SECOND: u64 = 1000;

    #[test]
    fn clocks_fall_into_lichess_s_categories() {
        // (initial, increment, category): the estimated durations are in the comments.
        let cases = [
            (MINUTE, 0, Category::Bullet),                   // 1:00
            (2 * MINUTE, SECOND, Category::Bullet),          // 2:40
            (MINUTE, 3 * SECOND, Category::Blitz),           // 3:00, the bound
            (5 * MINUTE, 3 * SECOND, Category::Blitz),       // 7:00
            (8 * MINUTE, 0, Category::Rapid),                // 8:00, the bound
            (15 * MINUTE, 10 * SECOND, Category::Rapid),     // 21:40
            (25 * MINUTE, 0, Category::Classical),           // 25:00, the bound
            (30 * MINUTE, 20 * SECOND, Category::Classical), // 43:20
        ];
        for (initial, increment, expected) in cases {
            assert_eq!(
                Category::of_clock(initial, increment),
                expected,
                "{initial} + {increment}"
            );
        }
    }

    #[test]
    fn days_per_move_are_correspondence_and_untimed_games_have_no_category() {
        assert_eq!(
            Category::of_game(None, Some(3)),
            Some(Category::Correspondence)
        );
        assert_eq!(Category::of_game(None, None), None);
        assert_eq!(
            Category::of_game(Some((3 * MINUTE, 0)), None),
            Some(Category::Blitz)
        );
    }

    #[test]
    fn names_round_trip() {
        for category in Category::ALL {
            assert_eq!(Category::from_name(category.name()), Some(category));
        }
        assert_eq!(Category::from_name("Blitz"), None);
        assert_eq!(Category::from_name(""), None);
    }
}
