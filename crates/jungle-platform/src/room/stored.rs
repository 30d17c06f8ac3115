//! What a stored game's values may be. A row can hold what no play here could have written (a hand edit, a
//! damaged file, a bug): a level the engine does not have, an ending that contradicts itself, moves out of
//! order, a clock below zero. Such a game is quarantined (`Hub::quarantine`), never served as if it were
//! fine; these checks, shared by the open and the hidden room's restore, say why.
//!
//! A value the store cannot read at all ([`StoreError::is_unreadable`]) is damage of the same kind:
//! [`LoadError::unreadable_as_damage`] turns it into [`LoadError::Damaged`] for the game being read.

use jungle_rules::{Side, Termination};

use super::{ABORTED, LoadError};
use crate::store::{Correspondence, StoreError};

/// The termination an imported game without a result is stored with.
pub const UNTERMINATED: &str = "unterminated";

/// The longest clock a game can be made with (docs/security.md, "clock").
pub const MAX_CLOCK_MS: u64 = 180 * 60 * 1000;

/// The largest increment per move.
pub const MAX_INCREMENT_MS: u64 = 60 * 1000;

/// The most days per move a correspondence game may have (`lobby::seek::DAYS_PER_MOVE`).
pub const MAX_DAYS_PER_MOVE: u32 = 14;

impl LoadError {
    /// This error, with a stored value the store could not read counted as damage of game `id`.
    pub fn unreadable_as_damage(self, id: &str) -> LoadError {
        match self {
            LoadError::Store(e) if e.is_unreadable() => damaged(id, e),
            other => other,
        }
    }
}

impl From<(&str, StoreError)> for LoadError {
    /// A store error met while reading game `id` (unreadable: the game is damaged).
    fn from((id, e): (&str, StoreError)) -> LoadError {
        LoadError::Store(e).unreadable_as_damage(id)
    }
}

/// Game `id` is damaged, for `reason`.
pub fn damaged(id: &str, reason: impl std::fmt::Display) -> LoadError {
    LoadError::Damaged {
        id: id.to_string(),
        reason: reason.to_string(),
    }
}

/// The columns of a stored game's row that every kind of game has.
#[derive(Clone, Copy, Debug)]
pub struct GameRow<'a> {
    pub created_at: i64,
    pub mode: &'a str,
    pub engine_level: Option<u8>,
    pub engine_side: Option<&'a str>,
    pub result: Option<&'a str>,
    pub winner: Option<&'a str>,
    pub termination: Option<&'a str>,
    pub finished_at: Option<i64>,
}

/// The checks of a game's row that do not need its rules ([`created_at`], [`engine_seat`], [`ending`]); the
/// engine's seat, if the game has one.
pub fn game_row(row: GameRow) -> Result<Option<(u8, Side)>, String> {
    created_at(row.created_at)?;
    let engine = engine_seat(row.mode, row.engine_level, row.engine_side)?;
    ending(
        row.result,
        row.winner,
        row.termination,
        Some(row.finished_at),
    )?;
    Ok(engine)
}

/// When the game was made (Unix ms): before 1970 is no moment a game was made at.
pub fn created_at(ms: i64) -> Result<(), String> {
    if ms < 0 {
        return Err(format!("created at {ms}, before 1970"));
    }
    Ok(())
}

/// The engine's seat of a game of `mode`: a level from 1 to 8 and a side in a game against the engine
/// (`Some((level, side))`), neither in any other (`None`).
pub fn engine_seat(
    mode: &str,
    level: Option<u8>,
    side: Option<&str>,
) -> Result<Option<(u8, Side)>, String> {
    if mode != "engine" {
        return match (level, side) {
            (None, None) => Ok(None),
            _ => Err(format!("a {mode} game with an engine seat")),
        };
    }
    let level = level.ok_or("an engine game without the engine's level")?;
    if !(1..=8).contains(&level) {
        return Err(format!("engine level {level}, not 1 to 8"));
    }
    let side = side.ok_or("an engine game without the engine's side")?;
    let side = crate::side_from_name(side).ok_or_else(|| format!("engine side \"{side}\""))?;
    Ok(Some((level, side)))
}

/// A stored ending: none at all while the game goes on, else a result, the winner it names and a
/// termination the platform writes; `finished_at` (when the store keeps it, `None` for a kind that does not
/// read it) present exactly with the result.
pub fn ending(
    result: Option<&str>,
    winner: Option<&str>,
    termination: Option<&str>,
    finished_at: Option<Option<i64>>,
) -> Result<(), String> {
    let Some(result) = result else {
        if winner.is_some() || termination.is_some() || finished_at.flatten().is_some() {
            return Err("an unfinished game with part of an ending".into());
        }
        return Ok(());
    };
    if finished_at == Some(None) {
        return Err(format!("result {result} without the moment it was decided"));
    }
    let named = match result {
        "1-0" => Some("blue"),
        "0-1" => Some("red"),
        "1/2-1/2" | "*" => None,
        other => return Err(format!("result \"{other}\"")),
    };
    if winner != named {
        return Err(format!("result {result} with winner {winner:?}"));
    }
    let termination =
        termination.ok_or_else(|| format!("result {result} without a termination"))?;
    let known = termination.parse::<Termination>().is_ok()
        || (result == "*" && [ABORTED, UNTERMINATED].contains(&termination));
    if !known {
        return Err(format!("termination \"{termination}\""));
    }
    Ok(())
}

/// The plies of a game's stored moves, in the store's order: 0, 1, 2, … without a gap.
pub fn plies(plies: impl IntoIterator<Item = u32>) -> Result<(), String> {
    for (expected, ply) in (0..).zip(plies) {
        if ply != expected {
            return Err(format!("move {} stored as ply {ply}", expected + 1));
        }
    }
    Ok(())
}

/// A game's clock: none in an untimed game (and no clocks after its moves); else at most
/// [`MAX_CLOCK_MS`] a side and [`MAX_INCREMENT_MS`] a move, and after each move both sides' time, no more
/// than the start and every increment so far could give.
pub fn clocks(
    initial_ms: Option<u64>,
    increment_ms: Option<u64>,
    after_moves: impl IntoIterator<Item = (Option<u64>, Option<u64>)>,
) -> Result<(), String> {
    let Some(initial) = initial_ms else {
        if increment_ms.is_some() {
            return Err("an increment without a clock".into());
        }
        return match after_moves.into_iter().position(|m| m != (None, None)) {
            Some(i) => Err(format!("clocks after move {} of an untimed game", i + 1)),
            None => Ok(()),
        };
    };
    if !(1..=MAX_CLOCK_MS).contains(&initial) {
        return Err(format!("a clock of {initial} ms"));
    }
    let increment = increment_ms.unwrap_or(0);
    if increment > MAX_INCREMENT_MS {
        return Err(format!("an increment of {increment} ms"));
    }
    for (ply, after) in (0u64..).zip(after_moves) {
        let most = initial.saturating_add(increment.saturating_mul(ply + 1));
        match after {
            (Some(blue), Some(red)) if blue <= most && red <= most => {}
            (None, None) => {}
            (blue, red) => {
                return Err(format!(
                    "clocks {blue:?} and {red:?} after move {} (at most {most} ms)",
                    ply + 1
                ));
            }
        }
    }
    Ok(())
}

/// A correspondence game's time: days per move from 1 to [`MAX_DAYS_PER_MOVE`], a deadline after 1970, never
/// beside a clock.
pub fn correspondence(
    time: Option<Correspondence>,
    clock_initial_ms: Option<u64>,
) -> Result<(), String> {
    let Some(time) = time else {
        return Ok(());
    };
    if !(1..=MAX_DAYS_PER_MOVE).contains(&time.days_per_move) {
        return Err(format!("{} days per move", time.days_per_move));
    }
    if time.deadline_ms < 0 {
        return Err(format!("a deadline ({}) before 1970", time.deadline_ms));
    }
    if clock_initial_ms.is_some() {
        return Err("both a clock and days per move".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_seat_is_a_level_from_1_to_8_and_a_side_in_engine_games_only() {
        assert_eq!(
            engine_seat("engine", Some(8), Some("red")),
            Ok(Some((8, Side::Red)))
        );
        assert_eq!(engine_seat("friend", None, None), Ok(None));
        for (mode, level, side) in [
            ("engine", Some(0), Some("red")),
            ("engine", Some(9), Some("red")),
            ("engine", None, Some("red")),
            ("engine", Some(3), Some("green")),
            ("engine", Some(3), None),
            ("friend", Some(3), None),
            ("import", None, Some("blue")),
        ] {
            assert!(
                engine_seat(mode, level, side).is_err(),
                "{mode} {level:?} {side:?}"
            );
        }
    }

    #[test]
    fn an_ending_is_whole_and_agrees_with_itself() {
        assert_eq!(ending(None, None, None, Some(None)), Ok(()));
        let at = Some(Some(5));
        assert_eq!(
            ending(Some("1-0"), Some("blue"), Some("resignation"), at),
            Ok(())
        );
        assert_eq!(
            ending(Some("1/2-1/2"), None, Some("draw agreed"), at),
            Ok(())
        );
        assert_eq!(ending(Some("*"), None, Some(ABORTED), at), Ok(()));
        assert_eq!(ending(Some("*"), None, Some(UNTERMINATED), None), Ok(()));
        for (result, winner, termination, finished_at) in [
            (None, Some("blue"), None, None),
            (None, None, Some("resignation"), None),
            (None, None, None, Some(Some(5))),
            (Some("1-0"), Some("blue"), Some("resignation"), Some(None)),
            (Some("2-0"), Some("blue"), Some("resignation"), at),
            (Some("1-0"), Some("red"), Some("resignation"), at),
            (Some("1-0"), None, Some("resignation"), at),
            (Some("0-1"), Some("red"), None, at),
            (Some("0-1"), Some("red"), Some("boredom"), at),
            (Some("1-0"), Some("blue"), Some(ABORTED), at),
        ] {
            assert!(
                ending(result, winner, termination, finished_at).is_err(),
                "{result:?} {winner:?} {termination:?} {finished_at:?}"
            );
        }
    }

    #[test]
    fn plies_count_from_0_without_a_gap() {
        assert_eq!(plies([0, 1, 2]), Ok(()));
        assert_eq!(plies([]), Ok(()));
        assert!(plies([1, 2]).is_err());
        assert!(plies([0, 2]).is_err());
        assert!(plies([0, 1, 1]).is_err());
    }

    #[test]
    fn clocks_stay_within_what_a_game_can_be_given() {
        assert_eq!(clocks(None, None, [(None, None)]), Ok(()));
        assert_eq!(
            clocks(
                Some(60_000),
                Some(2_000),
                [(Some(60_000), Some(60_000)), (Some(59_000), Some(62_000))]
            ),
            Ok(())
        );
        assert!(clocks(None, Some(2_000), []).is_err());
        assert!(clocks(None, None, [(Some(5), Some(5))]).is_err());
        assert!(clocks(Some(0), None, []).is_err());
        assert!(clocks(Some(MAX_CLOCK_MS + 1), None, []).is_err());
        assert!(clocks(Some(60_000), Some(MAX_INCREMENT_MS + 1), []).is_err());
        assert!(clocks(Some(60_000), Some(0), [(Some(60_001), Some(60_000))]).is_err());
        assert!(clocks(Some(60_000), Some(0), [(Some(60_000), None)]).is_err());
    }

    #[test]
    fn correspondence_days_are_1_to_14_and_never_beside_a_clock() {
        let days = |days_per_move, deadline_ms| {
            Some(Correspondence {
                days_per_move,
                deadline_ms,
            })
        };
        assert_eq!(correspondence(days(3, 5), None), Ok(()));
        assert_eq!(correspondence(None, Some(60_000)), Ok(()));
        assert!(correspondence(days(0, 5), None).is_err());
        assert!(correspondence(days(15, 5), None).is_err());
        assert!(correspondence(days(3, -5), None).is_err());
        assert!(correspondence(days(3, 5), Some(60_000)).is_err());
    }

    #[test]
    fn an_unreadable_value_is_damage_of_the_game_read_and_other_failures_are_not() {
        let unreadable = LoadError::from(("g1", StoreError::Unreadable("column x holds y".into())));
        assert!(
            matches!(&unreadable, LoadError::Damaged { id, reason } if id == "g1" && reason.contains("column x")),
            "{unreadable}"
        );
        let down = LoadError::from(("g1", StoreError::Unavailable("down".into())));
        assert!(matches!(down, LoadError::Store(_)), "{down}");
    }
}
