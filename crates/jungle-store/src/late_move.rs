//! A player's move that reaches the database too long after its server received it is refused, never stored:
//! the server that received it may have been stopped, or its database slow, while its player gave up on the
//! move, reconnected elsewhere and was shown the game without it. Stored late, the move would appear out of
//! nowhere; refused, the game is as the player last saw it.

use std::time::Duration;

use crate::StoreError;
use crate::db::{Conn, params};

/// How old a player's move may be when it reaches the database: a move either shows within this time of its
/// server receiving it, or never. Far longer than the healthy path from socket to commit (milliseconds, under
/// load a few hundred); about the time a game page needs to notice a silent server (4 s) and reconnect, so a
/// player back through another server sees a move they sent in the game, or soon never; and half the time a
/// server waits for the database's answer (10 s), so a write the server gave up on (and reported as not
/// saved) can never commit after.
pub const MOVE_MAX_AGE: Duration = Duration::from_secs(5);

/// Refuses, inside the transaction `tx` that stores a move, a move its server received at `received_at_ms`
/// (milliseconds since the epoch) if the database's own clock says it is older than [`MOVE_MAX_AGE`] now:
/// the transaction is then rolled back.
pub(crate) fn refuse_if_late(tx: &dyn Conn, received_at_ms: i64) -> Result<(), StoreError> {
    let sql = format!("SELECT {} - ?1", tx.clock_ms());
    let age_ms: i64 = tx.query_one(&sql, params![received_at_ms], |r| r.get(0))?;
    if age_ms > MOVE_MAX_AGE.as_millis() as i64 {
        return Err(StoreError::Late { age_ms });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::now_ms;
    use crate::testing::on_both_backends;
    use crate::tests::{a_move, record};

    const AGE_MS: i64 = MOVE_MAX_AGE.as_millis() as i64;

    on_both_backends! {
        fn a_players_move_received_just_now_is_stored(store) {
            store.insert_game(&record("g1")).unwrap();
            store.insert_players_move("g1", &a_move(0, "a3a4"), now_ms()).unwrap();
            assert_eq!(store.moves("g1").unwrap(), [a_move(0, "a3a4")]);
        }

        fn a_players_move_older_than_the_limit_is_refused_and_nothing_is_stored(store) {
            store.insert_game(&record("g1")).unwrap();
            // Received before a stop of a few seconds more than the limit.
            let received = now_ms() - AGE_MS - 3_000;
            match store.insert_players_move("g1", &a_move(0, "a3a4"), received) {
                Err(StoreError::Late { age_ms }) => assert!(age_ms > AGE_MS, "{age_ms}"),
                other => panic!("a late move got {other:?}"),
            }
            assert!(store.moves("g1").unwrap().is_empty());
            // A correspondence move too: neither the move nor its deadline.
            let late = store.insert_move_with_deadline("g1", &a_move(0, "a3a4"), 5, Some(received));
            assert!(matches!(late, Err(StoreError::Late { .. })), "{late:?}");
            assert!(store.moves("g1").unwrap().is_empty());
            assert_eq!(store.correspondence("g1").unwrap(), None);
            // The same move, received now, is stored: the ply was left free.
            store.insert_players_move("g1", &a_move(0, "a3a4"), now_ms()).unwrap();
            assert_eq!(store.moves("g1").unwrap().len(), 1);
        }

        fn a_move_not_from_a_player_has_no_age_limit(store) {
            // The engine's moves and imports are stored whenever they come.
            store.insert_game(&record("g1")).unwrap();
            store.insert_move("g1", &a_move(0, "a3a4")).unwrap();
            store.insert_move_with_deadline("g1", &a_move(1, "g7g6"), 5, None).unwrap();
            assert_eq!(store.moves("g1").unwrap().len(), 2);
        }
    }
}
