//! The rule rated games are settled by (docs/ratings.md): Glicko-2 (`jungle-glicko`) with the settings of games
//! between players, deviations that grow while a player is idle, and which games may be rated at all. It lives
//! with the storage because a game's ending and its ratings are written in one transaction.

pub use jungle_glicko::{Outcome, Rating, Settings};

/// The Glicko-2 settings of games between players (jungle-glicko's: τ 0.75, deviation 45–350, newcomers
/// 1500 ± 350). Every rated game is a rating period of its own, so ratings move after each game.
pub const SETTINGS: Settings = Settings::GAMES;

/// An idle player's deviation grows by one rating period's worth per day without rated games in a category:
/// from a settled 60 back to provisional (above 110) in about 80 days, to a newcomer's 350 in about three years.
pub const PERIOD_MS: i64 = 24 * 60 * 60 * 1000;

/// The rating periods between two moments (none if `to` is not later).
pub fn idle_periods(from_ms: i64, to_ms: i64) -> f64 {
    (to_ms.saturating_sub(from_ms)).max(0) as f64 / PERIOD_MS as f64
}

/// A rating as players see it: rounded, with "?" while it is provisional (deviation above 110).
pub fn shown(rating: &Rating) -> String {
    let mark = if rating.is_provisional() { "?" } else { "" };
    format!("{:.0}{mark}", rating.rating())
}

/// Whether a game may be rated: the standard rules from their start position (other rules, set-up positions
/// and Hidden Jungle are casual only — one pool of ratings would mix games of different skills).
pub fn rateable_rules(rules: &str, start_fen: &str) -> bool {
    let Ok(rules) = rules.parse::<jungle_rules::Rules>() else {
        return false;
    };
    rules == jungle_rules::Rules::default()
        && start_fen == jungle_rules::fen::to_fen(&jungle_rules::Position::start(&rules))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provisional_ratings_carry_a_question_mark() {
        assert_eq!(shown(&SETTINGS.initial), "1500?");
        assert_eq!(shown(&Rating::new(1712.4, 80.0, 0.06).unwrap()), "1712");
    }

    #[test]
    fn only_the_standard_rules_from_the_start_are_rated() {
        let start = jungle_rules::START_FEN;
        assert!(rateable_rules("standard", start));
        assert!(!rateable_rules("modern", start));
        assert!(!rateable_rules("standard,dog-swims=true", start));
        assert!(!rateable_rules("nonsense", start));
        assert!(!rateable_rules("standard", "7/7/7/7/7/7/7/7/7 b"));
    }

    #[test]
    fn idle_time_counts_in_days() {
        assert_eq!(idle_periods(0, 3 * PERIOD_MS), 3.0);
        assert_eq!(idle_periods(5, 0), 0.0);
    }
}
