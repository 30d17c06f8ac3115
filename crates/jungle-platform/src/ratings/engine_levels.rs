//! The engine levels' published ratings, from the measured ladder of docs/engine.md ("Skill levels"): each
//! level played the next one up (200 games a pair; `go nodes 100000`; with the learned evaluation, the
//! engine's default under the standard rules), giving one Elo step per pair. Level 8 is anchored at
//! [`LEVEL_8_RATING`]; each level below is the anchor plus the steps above it, and its error the steps' errors
//! (95 %) added in quadrature, as docs/engine.md adds them.

/// Level 8's published rating. The ladder only measures differences; 2200 puts a newcomer's 1500 in the
/// middle of the ladder (between levels 4 and 5), so the first games against the engine tell a player something.
pub const LEVEL_8_RATING: f64 = 2200.0;

/// Each level's measured step to the level above it, from level 7 down to level 1: (Elo, ± error at 95 %).
/// Source: docs/engine.md, "Skill levels", the ladder table (`-srand 61`, the fourth-round standard net).
const STEPS: [(f64, f64); 7] = [
    (-162.0, 35.0), // 7 vs 8
    (-175.0, 44.0), // 6 vs 7
    (-252.0, 52.0), // 5 vs 6
    (-222.0, 55.0), // 4 vs 5
    (-342.0, 70.0), // 3 vs 4
    (-377.0, 79.0), // 2 vs 3
    (-346.0, 76.0), // 1 vs 2
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

    /// An Elo difference and its error (95 %).
    type Elo = (f64, f64);

    /// `−241 ± 62` → (−241, 62).
    fn elo_and_error(cell: &str) -> Elo {
        let ascii = cell.trim().replace('−', "-");
        let (elo, error) = ascii
            .split_once('±')
            .unwrap_or_else(|| panic!("not an Elo ± error: {cell}"));
        (elo.trim().parse().unwrap(), error.trim().parse().unwrap())
    }

    /// The ladder table of docs/engine.md: (level, step, Elo relative to level 8) for levels 7 down to 1.
    fn documented_ladder() -> Vec<(u8, Elo, Elo)> {
        let doc = include_str!("../../../../docs/engine.md");
        let table = doc
            .split("| level | step: vs the level above")
            .nth(1)
            .expect("docs/engine.md has the ladder table");
        table
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .filter_map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let level: u8 = cells.get(1)?.parse().ok()?;
                (level < 8).then(|| (level, elo_and_error(cells[3]), elo_and_error(cells[4])))
            })
            .collect()
    }

    #[test]
    fn the_steps_are_docs_engine_md_s_ladder() {
        let ladder = documented_ladder();
        assert_eq!(ladder.len(), 7, "levels 7 to 1");
        for (i, (level, step, relative)) in ladder.into_iter().enumerate() {
            assert_eq!(usize::from(8 - level), i + 1);
            assert_eq!(STEPS[i], step, "level {level}'s step");
            let published = level_rating(level).unwrap();
            assert!(
                (f64::from(published.rating) - (LEVEL_8_RATING + relative.0)).abs() <= 5.0,
                "{published:?} vs {relative:?}"
            );
            assert!(
                (f64::from(published.error) - relative.1).abs() <= 5.0,
                "{published:?} vs {relative:?}"
            );
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
