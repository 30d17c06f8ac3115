//! What nodes sharing one database need from it beyond a single server's store: the moves since a ply with
//! the moment each was played (to catch up with another node), a seat taken only while it is free, and the
//! engine's jobs, each claimed by one node at a time with a lease.

use super::db::params;
use super::{MoveRecord, Store, StoreError};

/// A stored move and when it was played (Unix ms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedMove {
    pub record: MoveRecord,
    pub played_at: i64,
}

/// The answer to a claim of a game's engine job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineJob {
    /// This node has the job until its lease ends.
    Ours,
    /// Another node has it until this time (Unix ms).
    HeldUntil(i64),
    /// The move is already stored (another node made it and released the job before this node's room
    /// heard of it): there is nothing to search.
    Done,
}

impl StoreError {
    /// Whether the database refused a write because another node got there first: a move for a ply that
    /// is already stored (a unique key), or for a game whose ending is stored.
    pub fn is_conflict(&self) -> bool {
        match self {
            StoreError::Finished => true,
            StoreError::Sql(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::ConstraintViolation
                    && matches!(
                        e.extended_code,
                        rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                            | rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    )
            }
            StoreError::Postgres(e) => {
                e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            _ => false,
        }
    }
}

impl Store {
    /// The moves of a game from `from_ply` on, in order, with when each was played.
    pub fn moves_since(&self, id: &str, from_ply: u32) -> Result<Vec<TimedMove>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT ply, mv, blue_ms, red_ms, played_at FROM moves WHERE game_id = ?1 AND ply >= ?2
                 ORDER BY ply",
                params![id, from_ply],
                |r| {
                    Ok(TimedMove {
                        record: MoveRecord {
                            ply: r.get(0)?,
                            mv: r.get(1)?,
                            blue_ms: r.get(2)?,
                            red_ms: r.get(3)?,
                        },
                        played_at: r.get(4)?,
                    })
                },
            )
        })
    }

    /// When a game's last move was played (Unix ms); `None` before the first.
    pub fn last_move_at(&self, id: &str) -> Result<Option<i64>, StoreError> {
        self.with(|conn| {
            let at = conn.query_opt(
                "SELECT last_move_at FROM games WHERE id = ?1",
                params![id],
                |r| r.get::<Option<i64>>(0),
            )?;
            Ok(at.flatten())
        })
    }

    /// Gives `token` the seat `side_name` of a game if nobody has it yet; whether it did (another node may
    /// have seated someone first).
    pub fn take_seat(&self, id: &str, side_name: &str, token: &str) -> Result<bool, StoreError> {
        let sql = if side_name == "blue" {
            "UPDATE games SET blue_token = ?2 WHERE id = ?1 AND blue_token IS NULL"
        } else {
            "UPDATE games SET red_token = ?2 WHERE id = ?1 AND red_token IS NULL"
        };
        self.with(|conn| Ok(conn.execute(sql, params![id, token])? == 1))
    }

    /// Claims the engine's job in a game — its move at `ply` — for `node` from `now` until `lease_until`
    /// (Unix ms). The job is this node's if its move is not stored yet and nobody holds it, this node
    /// already does, the holder's job was an earlier ply (done), or the holder's lease ran out (it died).
    ///
    /// The check for the stored move is part of the claim: a node whose room is a move behind (the event of
    /// the engine's reply, made and released on another node, not here yet) would otherwise find no job
    /// row and search the same move again.
    pub fn claim_engine_job(
        &self,
        id: &str,
        ply: u32,
        node: &str,
        now: i64,
        lease_until: i64,
    ) -> Result<EngineJob, StoreError> {
        self.with(|conn| {
            // The casts give PostgreSQL the columns' type for placeholders in a SELECT list.
            let claimed = conn.execute(
                "INSERT INTO engine_jobs (game_id, ply, node, lease_until)
                 SELECT ?1, CAST(?2 AS BIGINT), ?3, CAST(?5 AS BIGINT)
                 WHERE NOT EXISTS (SELECT 1 FROM moves WHERE game_id = ?1 AND ply >= ?2)
                 ON CONFLICT (game_id) DO UPDATE
                    SET ply = excluded.ply, node = excluded.node, lease_until = excluded.lease_until
                    WHERE engine_jobs.node = excluded.node OR engine_jobs.ply < excluded.ply
                        OR engine_jobs.lease_until <= ?4",
                params![id, ply, node, now, lease_until],
            )?;
            if claimed == 1 {
                return Ok(EngineJob::Ours);
            }
            let played: Option<i64> = conn.query_opt(
                "SELECT ply FROM moves WHERE game_id = ?1 AND ply >= ?2 LIMIT 1",
                params![id, ply],
                |r| r.get(0),
            )?;
            if played.is_some() {
                return Ok(EngineJob::Done);
            }
            let until: Option<i64> = conn.query_opt(
                "SELECT lease_until FROM engine_jobs WHERE game_id = ?1",
                params![id],
                |r| r.get(0),
            )?;
            // Gone between the two statements (its node finished it): try again at once.
            Ok(EngineJob::HeldUntil(until.unwrap_or(now)))
        })
    }

    /// `node` is done with a game's engine job (its move is stored, or it gave up).
    pub fn release_engine_job(&self, id: &str, node: &str) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.execute(
                "DELETE FROM engine_jobs WHERE game_id = ?1 AND node = ?2",
                params![id, node],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::on_both_backends;
    use crate::tests::{a_move, record};

    on_both_backends! {
        fn an_engine_job_goes_to_one_node_at_a_time_and_never_after_its_move_is_stored(store) {
            store.insert_game(&record("g1")).unwrap();
            store.insert_move("g1", &a_move(0, "a3a4")).unwrap();
            // The reply to ply 0 is ply 1: node A gets it, node B waits for A's lease.
            assert_eq!(store.claim_engine_job("g1", 1, "a", 1_000, 11_000).unwrap(), EngineJob::Ours);
            assert_eq!(
                store.claim_engine_job("g1", 1, "b", 2_000, 12_000).unwrap(),
                EngineJob::HeldUntil(11_000)
            );
            // A stores the reply and lets the job go before B's room has heard of the move: B does not
            // search it again.
            store.insert_move("g1", &a_move(1, "g7g6")).unwrap();
            store.release_engine_job("g1", "a").unwrap();
            assert_eq!(store.claim_engine_job("g1", 1, "b", 3_000, 13_000).unwrap(), EngineJob::Done);
            // The next reply is a new job; a lease that ran out (its node died) is taken over.
            store.insert_move("g1", &a_move(2, "a4a5")).unwrap();
            assert_eq!(store.claim_engine_job("g1", 3, "a", 4_000, 14_000).unwrap(), EngineJob::Ours);
            assert_eq!(store.claim_engine_job("g1", 3, "b", 14_000, 24_000).unwrap(), EngineJob::Ours);
            assert_eq!(
                store.claim_engine_job("g1", 3, "a", 15_000, 25_000).unwrap(),
                EngineJob::HeldUntil(24_000)
            );
        }
    }
}
