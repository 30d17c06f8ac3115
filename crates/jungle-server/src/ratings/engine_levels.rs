//! The engine levels' published ratings, from the measured ladder of docs/engine.md ("Skill levels"): each
//! level played the next one up (60 games a pair, `go nodes 100000`), giving one Elo step per pair. Level 8 is
//! anchored at [`LEVEL_8_RATING`]; each level below is the anchor plus the steps above it, and its error the
//! steps' errors (95 %) added in quadrature, as docs/engine.md adds them.

/// Level 8's published rating. The ladder only measures differences; 2200 puts a newcomer's 1500 between
/// levels 3 and 4, the middle of the ladder, so the first games against the engine tell a player something.
pub const LEVEL_8_RATING: f64 = 2200.0;

/// Each level's measured step to the level above it, from level 7 down to level 1: (Elo, ± error at 95 %).
/// Source: docs/engine.md, "Skill levels", the ladder table (issue 17 item 4).
const STEPS: [(f64, f64); 7] = [
    (-114.0, 67.0),  // 7 vs 8
    (-199.0, 83.0),  // 6 vs 7
    (-127.0, 86.0),  // 5 vs 6
    (-101.0, 86.0),  // 4 vs 5
    (-269.0, 125.0), // 3 vs 4
    (-108.0, 93.0),  // 2 vs 3
    (-366.0, 169.0), // 1 vs 2
];

/// An engine level's published rating, rounded to 10, and the uncertainty of its distance from level 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LevelRating {
    pub level: u8,
    pub rating: i32,
    /// ± this much (95 %), rounded to 10: the measured steps' errors between this level and level 8.
    pub error: i32,
}

/// The published rating of engine `level` (1–8), `None` for any other level.
pub fn level_rating(level: u8) -> Option<LevelRating> {
    if !(1..=8).contains(&level) {
        return None;
    }
    let below_8 = usize::from(8 - level);
    let (steps, variance) = STEPS[..below_8]
        .iter()
        .fold((0.0, 0.0), |(sum, var), (step, error)| {
            (sum + step, var + error * error)
        });
    let round10 = |x: f64| (x / 10.0).round() as i32 * 10;
    Some(LevelRating {
        level,
        rating: round10(LEVEL_8_RATING + steps),
        error: round10(variance.sqrt()),
    })
}

/// Every level's rating, level 1 first.
pub fn all() -> Vec<LevelRating> {
    (1..=8).filter_map(level_rating).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_sums_as_docs_engine_md_does() {
        // docs/engine.md's "Elo relative to level 8" column: −114 ± 67, −313 ± 107, …, −1284 ± 281.
        let relative = [
            (7, -114, 67),
            (6, -313, 107),
            (5, -440, 137),
            (4, -541, 162),
            (3, -810, 204),
            (2, -918, 225),
            (1, -1284, 281),
        ];
        for (level, elo, error) in relative {
            let published = level_rating(level).unwrap();
            assert!(
                (published.rating - (LEVEL_8_RATING as i32 + elo)).abs() <= 5,
                "{published:?}"
            );
            assert!((published.error - error).abs() <= 5, "{published:?}");
        }
        assert_eq!(
            level_rating(8),
            Some(LevelRating {
                level: 8,
                rating: 2200,
                error: 0
            })
        );
    }

    #[test]
    fn levels_rise_and_only_1_to_8_exist() {
        let all = all();
        assert_eq!(all.len(), 8);
        assert!(all.windows(2).all(|w| w[0].rating < w[1].rating));
        assert_eq!(level_rating(0), None);
        assert_eq!(level_rating(9), None);
    }
}
