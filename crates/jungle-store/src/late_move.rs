//! A player's move that reaches the database too long after its server received it is refused, never stored:
//! the server that received it may have been stopped, or its database slow, while its player gave up on the
//! move, reconnected elsewhere and was shown the game without it. Stored late, the move would appear out of
//! nowhere; refused, the game is as the player last saw it.

use std::time::Duration;

use crate::db::Conn;

/// How old a player's move may be when it reaches the database: a move either shows within this time of its
/// server receiving it, or never. Far longer than the healthy path from socket to commit (milliseconds, under
/// load a few hundred); about the time a game page needs to notice a silent server (4 s) and reconnect, so a
/// player back through another server sees a move they sent in the game, or soon never; and half the time a
/// server waits for the database's answer (10 s), so a write the server gave up on (and reported as not
/// saved) can never commit after.
///
/// Checked by the database's own clock in the statement that stores the move (`one_move.rs`), after any wait
/// for the game's row, so the age is the one the move has when it would be committed.
pub const MOVE_MAX_AGE: Duration = Duration::from_secs(5);

/// The condition, in a statement that stores a move, that the move is young enough: `?received` is when a
/// player's move reached its server (Unix ms; NULL for a move with no age limit, the engine's), `?max_age` is
/// [`MOVE_MAX_AGE`] in milliseconds.
pub(crate) fn young_enough(conn: &dyn Conn, received: u8, max_age: u8) -> String {
    format!(
        "(CAST(?{received} AS BIGINT) IS NULL OR {} - CAST(?{received} AS BIGINT) <= ?{max_age})",
        conn.clock_ms()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::on_both_backends;
    use crate::tests::{a_move, record};
    use crate::{StoreError, now_ms};

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
