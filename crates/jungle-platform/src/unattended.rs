//! Games nobody holds: a node holding a game decides its flag or abort the moment it falls due, but a game
//! whose node died, and that no player or watcher has opened since, has no room anywhere to do it. Every node
//! of a cluster sweeps for such games now and then ([`sweep`]) and decides them in the database
//! ([`crate::store::Store::decide_overdue`]: claimed, decided once), then tells the nodes that may hold them.

use std::sync::Arc;
use std::time::Duration;

use jungle_rules::{Outcome, Side, Termination};

use crate::cluster::event::Change;
use crate::hub::{Hub, HubError};
use crate::room::LoadError;
use crate::room::open::room_state;
use crate::room::{ABORTED, OPENING_PLIES};
use crate::side_name;
use crate::store::{Ending, Sweep, Swept, Unattended, Verdict, now_ms};

/// How long past its moment a game waits for a node that holds it to decide it (such a node does at once),
/// before a sweep decides it.
pub const GRACE: Duration = Duration::from_secs(5);

/// The most games one sweep decides (the rest wait for the next).
const PER_SWEEP: u32 = 200;

/// Decides the games whose clock ran out, or that never began, while no node held them; their ids.
///
/// # Errors
/// When the database cannot be read or written.
pub fn sweep(hub: &Arc<Hub>) -> Result<Vec<String>, HubError> {
    sweep_at(hub, now_ms())
}

/// [`sweep`] as at `now` (Unix ms; tests look ahead instead of waiting).
///
/// # Errors
/// When the database cannot be read or written.
pub fn sweep_at(hub: &Arc<Hub>, now: i64) -> Result<Vec<String>, HubError> {
    let not_begun = hub.limits.join_wait + hub.limits.first_move_wait;
    let sweep = Sweep {
        now,
        opening_plies: OPENING_PLIES as u32,
        not_begun_ms: millis(not_begun),
        grace_ms: millis(GRACE),
        limit: PER_SWEEP,
    };
    let Swept { decided, damaged } = hub
        .store
        .decide_overdue(sweep, &mut |game| overdue_ending(game, &sweep))?;
    for (id, reason) in &damaged {
        hub.quarantine(id, reason);
    }
    for id in &decided {
        tracing::info!(game = %id, "decided a game nobody held");
        // This node's room, if it has one, and every other node's catch up from the database.
        match hub.held_room(id) {
            Some(room) => {
                if let Err(e) = room.refresh(&hub.store) {
                    tracing::error!(game = %id, error = %e, "could not read a swept game again");
                }
                room.publish_now(Change::Stored);
            }
            None => {
                if let Some(outbox) = hub.outbox() {
                    outbox.send(outbox.event(id, Change::Stored, Default::default()));
                }
            }
        }
    }
    Ok(decided)
}

/// The ending of a game a sweep found, if it is overdue: a time forfeit of the side to move once its clock
/// (the time it had after the last move, running since) ran out more than the grace ago; an abort of a game
/// not begun after `not_begun_ms` untouched; the ending its last move made, if that was never written. None
/// while the engine is thinking (its clock is settled when its move comes). A game that is damaged (values
/// no game could have, a record that does not replay) is `Err` with why, to be quarantined.
pub fn overdue_ending(game: &Unattended, sweep: &Sweep) -> Verdict {
    if game.engine_working {
        return Ok(None);
    }
    let state = match room_state(&game.record, &game.moves, Duration::ZERO) {
        Ok(state) => state,
        Err(LoadError::Damaged { reason, .. }) => return Err(reason),
        // Replaying reads nothing from the store: no other failure can happen here.
        Err(e) => return Err(e.to_string()),
    };
    if let Some(outcome) = state.game.outcome() {
        return Ok(Some(ending(outcome)));
    }
    Ok(overdue_on_time(game, sweep, &state.game))
}

/// The abort of a game not begun, or the flag of the side to move, once due.
fn overdue_on_time(
    game: &Unattended,
    sweep: &Sweep,
    played: &jungle_rules::Game,
) -> Option<Ending> {
    let last = game.last_move_at.unwrap_or(game.record.created_at);
    if game.moves.len() < OPENING_PLIES {
        let due = last.saturating_add(sweep.not_begun_ms);
        return (due.saturating_add(sweep.grace_ms) < sweep.now).then_some(Ending {
            result: "*",
            winner: None,
            termination: ABORTED,
        });
    }
    let after_last = game.moves.last()?;
    let to_move = played.side_to_move();
    let left = match to_move {
        Side::Blue => after_last.blue_ms?,
        Side::Red => after_last.red_ms?,
    };
    let flag_falls = last.saturating_add(i64::try_from(left).unwrap_or(i64::MAX));
    (flag_falls.saturating_add(sweep.grace_ms) < sweep.now)
        .then(|| ending(Outcome::win(to_move.opponent(), Termination::TimeForfeit)))
}

fn ending(outcome: Outcome) -> Ending {
    Ending {
        result: outcome.result_str(),
        winner: outcome.winner.map(side_name),
        termination: outcome.termination.as_str(),
    }
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::record;
    use crate::store::{GameRecord, MoveRecord};

    const MINUTE: i64 = 60_000;

    /// A game of 1 minute a side, created at 0, whose moves (`mine`) were played with `left` ms after each,
    /// the last at `last_at`.
    fn game(moves: &[(&str, u64, u64)], last_at: Option<i64>) -> Unattended {
        let record = GameRecord {
            created_at: 0,
            clock_initial_ms: Some(MINUTE as u64),
            clock_increment_ms: Some(0),
            ..record("g1")
        };
        let moves = moves
            .iter()
            .enumerate()
            .map(|(ply, &(mv, blue, red))| MoveRecord {
                ply: ply as u32,
                mv: mv.into(),
                blue_ms: Some(blue),
                red_ms: Some(red),
            })
            .collect();
        Unattended {
            record,
            moves,
            last_move_at: last_at,
            engine_working: false,
        }
    }

    fn at(now: i64) -> Sweep {
        Sweep {
            now,
            opening_plies: OPENING_PLIES as u32,
            not_begun_ms: 30 * MINUTE,
            grace_ms: 5_000,
            limit: 10,
        }
    }

    #[test]
    fn the_side_to_move_loses_on_time_once_its_clock_ran_out_and_the_grace_passed() {
        // Blue is to move after two moves, with 20 s left at 1 000 (Red has 50 s: not Red's turn).
        let begun = game(
            &[("a3a4", 20_000, 60_000), ("g7g6", 20_000, 50_000)],
            Some(1_000),
        );
        assert_eq!(
            overdue_ending(&begun, &at(1_000 + 20_000 + 5_000)),
            Ok(None),
            "within the grace"
        );
        let flag = overdue_ending(&begun, &at(1_000 + 20_000 + 5_001))
            .unwrap()
            .expect("Blue flagged");
        assert_eq!(
            (flag.result, flag.winner, flag.termination),
            ("0-1", Some("red"), "time forfeit")
        );
        // The engine is thinking on some node: its move settles the clock.
        let thinking = Unattended {
            engine_working: true,
            ..begun
        };
        assert_eq!(overdue_ending(&thinking, &at(10 * MINUTE)), Ok(None));
    }

    #[test]
    fn a_game_not_begun_is_aborted_once_the_waits_passed_since_it_was_touched() {
        let created = game(&[], None);
        assert_eq!(overdue_ending(&created, &at(30 * MINUTE + 5_000)), Ok(None));
        let abort = overdue_ending(&created, &at(30 * MINUTE + 5_001))
            .unwrap()
            .expect("aborted");
        assert_eq!(
            (abort.result, abort.winner, abort.termination),
            ("*", None, ABORTED)
        );
        // One move: the wait runs from it.
        let one = game(&[("a3a4", 60_000, 60_000)], Some(MINUTE));
        assert_eq!(overdue_ending(&one, &at(31 * MINUTE + 5_000)), Ok(None));
        assert!(
            overdue_ending(&one, &at(31 * MINUTE + 5_001))
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn a_game_no_one_could_have_played_is_damaged_not_decided() {
        let mut level_nine = game(
            &[("a3a4", 60_000, 60_000), ("g7g6", 60_000, 60_000)],
            Some(0),
        );
        level_nine.record.mode = "engine".into();
        level_nine.record.engine_level = Some(9);
        level_nine.record.engine_side = Some("red".into());
        let refused = overdue_ending(&level_nine, &at(10 * MINUTE)).unwrap_err();
        assert!(refused.contains("engine level 9"), "{refused}");
        let illegal = game(&[("a3a9", 60_000, 60_000)], Some(0));
        assert!(overdue_ending(&illegal, &at(10 * MINUTE)).is_err());
    }

    #[test]
    fn an_untimed_game_under_way_is_never_overdue() {
        let mut untimed = game(&[("a3a4", 0, 0), ("g7g6", 0, 0)], Some(0));
        (
            untimed.record.clock_initial_ms,
            untimed.record.clock_increment_ms,
        ) = (None, None);
        for m in &mut untimed.moves {
            (m.blue_ms, m.red_ms) = (None, None);
        }
        assert_eq!(overdue_ending(&untimed, &at(1_000 * MINUTE)), Ok(None));
    }
}
