//! The lobby's tables: seeks, the games the lobby paired, and a correspondence game's days per move and
//! deadline (columns of `games`). Pairing is decided by one `DELETE … RETURNING` inside the transaction
//! that creates the game: of two people accepting one seek, exactly one deletes it and gets a game.

use super::db::{Row, params};
use super::{
    GameRecord, MarkRatedError, MoveRecord, Store, StoreError, insert_game_on, mark_rated_on,
};
use crate::{Category, Colour, Correspondence, PerSide, SEEK_GRACE_MS, Seek, TimeControl};
use jungle_rules::BySide;

/// The columns [`seek_of_row`] reads, in its order.
const SEEK_COLUMNS: &str = "id, created_at, creator_id, creator_name, rules, clock_initial_ms, \
    clock_increment_ms, days_per_move, rated, colour, rating_min, rating_max, target_id, target_name, declined";

/// The condition that a seek is live: it is a correspondence seek, or its creator's lobby page asked for the
/// lobby lately — since `cutoff`, the placeholder of now minus the grace.
fn live(cutoff: &str) -> String {
    format!("(days_per_move IS NOT NULL OR seen_at >= {cutoff})")
}

fn seek_of_row(r: &Row) -> Result<Seek, StoreError> {
    let initial: Option<u64> = r.get(5)?;
    let increment: Option<u64> = r.get(6)?;
    let days: Option<u32> = r.get(7)?;
    let time = match (initial, days) {
        (Some(initial_ms), _) => TimeControl::Clock {
            initial_ms,
            increment_ms: increment.unwrap_or(0),
        },
        (None, days) => TimeControl::Correspondence {
            days_per_move: days.unwrap_or(1),
        },
    };
    let colour: String = r.get(9)?;
    Ok(Seek {
        id: r.get(0)?,
        created_at: r.get(1)?,
        creator_id: r.get(2)?,
        creator_name: r.get(3)?,
        rules: r.get(4)?,
        time,
        rated: r.get(8)?,
        colour: Colour::from_name(&colour).unwrap_or(Colour::Random),
        rating_min: r.get(10)?,
        rating_max: r.get(11)?,
        target_id: r.get(12)?,
        target_name: r.get(13)?,
        declined: r.get(14)?,
    })
}

/// What pairing a seek writes beside its game: the accounts on each side, and a correspondence game's time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub game_id: String,
    pub seek_id: String,
    pub created_at: i64,
    pub players: BySide<i64>,
    pub correspondence: Option<Correspondence>,
}

/// A game in progress between accounts, for the lobby's live list and a player's list of their games.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LiveGame {
    pub id: String,
    pub rules: String,
    pub names: PerSide<Option<String>>,
    /// The accounts on each side (none: a guest or the engine).
    #[serde(skip)]
    pub players: BySide<Option<i64>>,
    pub clock_initial_ms: Option<u64>,
    pub clock_increment_ms: Option<u64>,
    pub days_per_move: Option<u32>,
    pub deadline_at: Option<i64>,
    pub plies: u32,
    pub created_at: i64,
}

/// The columns [`live_game_of_row`] reads, from `games g`.
const LIVE_GAME_COLUMNS: &str = "g.id, g.rules, g.blue_name, g.red_name, g.blue_user_id, g.red_user_id, \
    g.clock_initial_ms, g.clock_increment_ms, g.days_per_move, g.deadline_at, \
    g.plies, g.created_at";

fn live_game_of_row(r: &Row) -> Result<LiveGame, StoreError> {
    Ok(LiveGame {
        id: r.get(0)?,
        rules: r.get(1)?,
        names: PerSide {
            blue: r.get(2)?,
            red: r.get(3)?,
        },
        players: BySide::new(r.get(4)?, r.get(5)?),
        clock_initial_ms: r.get(6)?,
        clock_increment_ms: r.get(7)?,
        days_per_move: r.get(8)?,
        deadline_at: r.get(9)?,
        plies: r.get(10)?,
        created_at: r.get(11)?,
    })
}

/// Why a seek could not be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// The game was made.
    Paired,
    /// Someone else took it first, its creator cancelled it, or it expired.
    Gone,
}

impl Store {
    pub fn insert_seek(&self, seek: &Seek) -> Result<(), StoreError> {
        let (initial, increment, days) = match seek.time {
            TimeControl::Clock {
                initial_ms,
                increment_ms,
            } => (Some(initial_ms), Some(increment_ms), None),
            TimeControl::Correspondence { days_per_move } => (None, None, Some(days_per_move)),
        };
        self.with(|conn| {
            conn.execute(
            "INSERT INTO seeks (id, created_at, creator_id, creator_name, rules, clock_initial_ms,
                clock_increment_ms, days_per_move, rated, colour, rating_min, rating_max, target_id,
                target_name, declined, seen_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 0, ?2)",
            params![
                seek.id,
                seek.created_at,
                seek.creator_id,
                seek.creator_name,
                seek.rules,
                initial,
                increment,
                days,
                seek.rated,
                seek.colour.name(),
                seek.rating_min,
                seek.rating_max,
                seek.target_id,
                seek.target_name,
            ],
        )
        })?;
        Ok(())
    }

    /// The live seeks an account has open (declined challenges do not count).
    pub fn open_seeks_of(&self, creator_id: i64, now: i64) -> Result<usize, StoreError> {
        let sql = format!(
            "SELECT COUNT(*) FROM seeks WHERE creator_id = ?1 AND declined = 0 AND {}",
            live("?2")
        );
        let count: u64 = self.with(|conn| {
            conn.query_one(&sql, params![creator_id, now - SEEK_GRACE_MS], |r| r.get(0))
        })?;
        Ok(usize::try_from(count).unwrap_or(usize::MAX))
    }

    /// The seeks `viewer` may see, oldest first: every live public seek, the live challenges meant for the
    /// viewer, and all of the viewer's own (declined ones too, so the creator learns of it).
    pub fn seeks_for(
        &self,
        viewer: Option<i64>,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Seek>, StoreError> {
        let sql = format!(
            "SELECT {SEEK_COLUMNS} FROM seeks
             WHERE creator_id IS NOT DISTINCT FROM ?1
                OR (declined = 0 AND {} AND (target_id IS NULL OR target_id IS NOT DISTINCT FROM ?1))
             ORDER BY created_at, id LIMIT ?2",
            live("?3")
        );
        self.with(|conn| {
            conn.query_readable(
                &sql,
                params![viewer, limit, now - SEEK_GRACE_MS],
                seek_of_row,
            )
        })
    }

    /// A live seek by id (a declined one too).
    pub fn seek(&self, id: &str, now: i64) -> Result<Option<Seek>, StoreError> {
        let sql = format!(
            "SELECT {SEEK_COLUMNS} FROM seeks WHERE id = ?1 AND {}",
            live("?2")
        );
        self.with(|conn| conn.query_opt(&sql, params![id, now - SEEK_GRACE_MS], seek_of_row))
    }

    /// Removes a seek of `creator_id` (cancelled, or a declined challenge dismissed); whether there was one.
    pub fn delete_seek(&self, id: &str, creator_id: i64) -> Result<bool, StoreError> {
        let n = self.with(|conn| {
            conn.execute(
                "DELETE FROM seeks WHERE id = ?1 AND creator_id = ?2",
                params![id, creator_id],
            )
        })?;
        Ok(n == 1)
    }

    /// The target of a direct challenge declines it; whether there was such a challenge to decline.
    pub fn decline_seek(&self, id: &str, target_id: i64) -> Result<bool, StoreError> {
        let n = self.with(|conn| {
            conn.execute(
                "UPDATE seeks SET declined = 1 WHERE id = ?1 AND target_id = ?2 AND declined = 0",
                params![id, target_id],
            )
        })?;
        Ok(n == 1)
    }

    /// The creator's lobby page is there: their real-time seeks stay open.
    pub fn touch_seeks(&self, creator_id: i64, now: i64) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.execute(
                "UPDATE seeks SET seen_at = ?2 WHERE creator_id = ?1",
                params![creator_id, now],
            )
        })?;
        Ok(())
    }

    /// Deletes the real-time seeks whose creator has been gone longer than the grace; how many.
    pub fn expire_seeks(&self, now: i64) -> Result<usize, StoreError> {
        let n = self.with(|conn| {
            conn.execute(
                "DELETE FROM seeks WHERE days_per_move IS NULL AND seen_at < ?1",
                params![now - SEEK_GRACE_MS],
            )
        })?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// Takes seek `seek_id` for `acceptor` and creates its game and pairing, all in one transaction: the
    /// seek is deleted only if it is still live, not declined, not the acceptor's own and open to them. If it
    /// is not (someone was first), nothing is written and the answer is [`Taken::Gone`].
    pub fn pair(
        &self,
        seek_id: &str,
        acceptor: i64,
        now: i64,
        game: &GameRecord,
        pairing: &Pairing,
        rated: Option<Category>,
    ) -> Result<Taken, MarkRatedError> {
        let sql = format!(
            "DELETE FROM seeks WHERE id = ?1 AND declined = 0 AND creator_id != ?2
                AND (target_id IS NULL OR target_id = ?2) AND {} RETURNING id",
            live("?3")
        );
        self.transaction(|tx| {
            let taken = tx.query_opt(
                &sql,
                params![seek_id, acceptor, now - SEEK_GRACE_MS],
                |r| r.get::<String>(0),
            )?;
            if taken.is_none() {
                return Ok(Taken::Gone);
            }
            insert_game_on(tx, game)?;
            let (days, deadline) = match pairing.correspondence {
                Some(c) => (Some(c.days_per_move), Some(c.deadline_ms)),
                None => (None, None),
            };
            tx.execute(
                "UPDATE games SET blue_user_id = ?2, red_user_id = ?3, days_per_move = ?4, deadline_at = ?5
                 WHERE id = ?1",
                params![
                    pairing.game_id,
                    pairing.players.blue,
                    pairing.players.red,
                    days,
                    deadline
                ],
            )?;
            tx.execute(
                "INSERT INTO pairings (game_id, seek_id, created_at) VALUES (?1, ?2, ?3)",
                params![pairing.game_id, pairing.seek_id, pairing.created_at],
            )?;
            if let Some(category) = rated {
                mark_rated_on(tx, &pairing.game_id, pairing.players, category)?;
            }
            Ok(Taken::Paired)
        })
    }

    /// Whether a seek was taken (a game was paired from it).
    pub fn seek_was_paired(&self, seek_id: &str) -> Result<bool, StoreError> {
        let found = self.with(|conn| {
            conn.query_opt(
                "SELECT 1 FROM pairings WHERE seek_id = ?1",
                params![seek_id],
                |_| Ok(()),
            )
        })?;
        Ok(found.is_some())
    }

    /// The accounts on each side of a game (none: a guest, the engine, a free seat); `None` for no game.
    pub fn players_of(&self, game_id: &str) -> Result<Option<BySide<Option<i64>>>, StoreError> {
        self.with(|conn| {
            conn.query_opt(
                "SELECT blue_user_id, red_user_id FROM games WHERE id = ?1",
                params![game_id],
                |r| Ok(BySide::new(r.get(0)?, r.get(1)?)),
            )
        })
    }

    /// The games paired since `since` in which `user_id` plays: `(seek id, game id)`, so the seek's creator is
    /// sent to the game.
    pub fn paired_since(
        &self,
        user_id: i64,
        since: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT p.seek_id, p.game_id FROM pairings p JOIN games g ON g.id = p.game_id
                 WHERE p.created_at >= ?2 AND (g.blue_user_id = ?1 OR g.red_user_id = ?1)
                 ORDER BY p.created_at",
                params![user_id, since],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
    }

    /// The lobby's games in progress, newest first.
    pub fn lobby_games(&self, limit: u32) -> Result<Vec<LiveGame>, StoreError> {
        let sql = format!(
            "SELECT {LIVE_GAME_COLUMNS} FROM games g JOIN pairings p ON p.game_id = g.id
             WHERE g.finished_at IS NULL AND g.damaged IS NULL AND g.mode != 'import'
             ORDER BY g.created_at DESC LIMIT ?1"
        );
        self.with(|conn| conn.query_readable(&sql, params![limit], live_game_of_row))
    }

    /// The games in progress an account plays in (from the lobby or not), the soonest deadline first.
    pub fn games_of_player(&self, user_id: i64, limit: u32) -> Result<Vec<LiveGame>, StoreError> {
        let sql = format!(
            "SELECT {LIVE_GAME_COLUMNS} FROM games g
             WHERE (g.blue_user_id = ?1 OR g.red_user_id = ?1) AND g.finished_at IS NULL
                AND g.damaged IS NULL AND g.mode != 'import'
             ORDER BY g.deadline_at IS NULL, g.deadline_at, g.created_at DESC LIMIT ?2"
        );
        self.with(|conn| conn.query_readable(&sql, params![user_id, limit], live_game_of_row))
    }

    /// A correspondence game's days per move and deadline; `None` for any other game.
    pub fn correspondence(&self, game_id: &str) -> Result<Option<Correspondence>, StoreError> {
        let found: Option<(Option<u32>, Option<i64>)> = self.with(|conn| {
            conn.query_opt(
                "SELECT days_per_move, deadline_at FROM games WHERE id = ?1",
                params![game_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })?;
        Ok(match found {
            Some((Some(days_per_move), Some(deadline_ms))) => Some(Correspondence {
                days_per_move,
                deadline_ms,
            }),
            _ => None,
        })
    }

    /// Makes a game just stored a correspondence game (a correspondence game's rematch): its days per move
    /// and the first mover's deadline.
    pub fn set_correspondence(
        &self,
        game_id: &str,
        time: Correspondence,
    ) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.execute(
                "UPDATE games SET days_per_move = ?2, deadline_at = ?3 WHERE id = ?1",
                params![game_id, time.days_per_move, time.deadline_ms],
            )
        })?;
        Ok(())
    }

    /// Correspondence games in progress whose side to move ran out before `now` (an id that does not read is
    /// logged and left out).
    pub fn overdue_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.with(|conn| {
            conn.query_readable(
                "SELECT id FROM games
                 WHERE deadline_at <= ?1 AND finished_at IS NULL AND damaged IS NULL ORDER BY deadline_at",
                params![now],
                |r| r.get(0),
            )
        })
    }

    /// Stores a correspondence move and the opponent's new deadline together; a player's move received at
    /// `received_at_ms` is refused as [`Store::insert_players_move`] refuses it.
    pub fn insert_move_with_deadline(
        &self,
        id: &str,
        m: &MoveRecord,
        deadline_at: i64,
        received_at_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        self.store_move(id, m, Some(deadline_at), received_at_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SEEK_GRACE_MS;
    use crate::testing::on_both_backends;

    fn seek(id: &str, creator: i64, now: i64) -> Seek {
        Seek {
            id: id.into(),
            created_at: now,
            creator_id: creator,
            creator_name: format!("user{creator}"),
            rules: "standard".into(),
            time: TimeControl::Clock {
                initial_ms: 180_000,
                increment_ms: 2000,
            },
            rated: false,
            colour: Colour::Random,
            rating_min: None,
            rating_max: None,
            target_id: None,
            target_name: None,
            declined: false,
        }
    }

    on_both_backends! {
    fn real_time_seeks_expire_when_their_creator_is_gone_and_correspondence_seeks_stay(store) {
        for name in ["user1", "user2", "user3"] {
            store.insert_account(name, "hash").unwrap();
        }
        let t0 = 1_000_000;
        store.insert_seek(&seek("live", 1, t0)).unwrap();
        let mut days = seek("days", 1, t0);
        days.time = TimeControl::Correspondence { days_per_move: 3 };
        store.insert_seek(&days).unwrap();
        assert_eq!(store.seeks_for(Some(2), t0, 10).unwrap().len(), 2);
        // The creator's page keeps asking: the seek stays.
        store.touch_seeks(1, t0 + SEEK_GRACE_MS).unwrap();
        let later = t0 + SEEK_GRACE_MS + 1000;
        assert_eq!(store.seeks_for(Some(2), later, 10).unwrap().len(), 2);
        // Then the creator is gone for longer than the grace.
        let gone = t0 + 3 * SEEK_GRACE_MS;
        let visible: Vec<String> = store
            .seeks_for(Some(2), gone, 10)
            .unwrap()
            .into_iter()
            .map(|s| s.id)
            .collect();
        assert_eq!(visible, ["days"]);
        assert_eq!(store.expire_seeks(gone).unwrap(), 1);
        assert_eq!(store.open_seeks_of(1, gone).unwrap(), 1);
    }

    fn a_direct_challenge_is_seen_only_by_its_target_and_its_creator(store) {
        for name in ["user1", "user2", "user3"] {
            store.insert_account(name, "hash").unwrap();
        }
        let now = 1_000_000;
        let mut challenge = seek("c", 1, now);
        challenge.target_id = Some(2);
        challenge.target_name = Some("user2".into());
        store.insert_seek(&challenge).unwrap();
        assert_eq!(store.seeks_for(Some(1), now, 10).unwrap().len(), 1);
        assert_eq!(store.seeks_for(Some(2), now, 10).unwrap().len(), 1);
        assert!(store.seeks_for(Some(3), now, 10).unwrap().is_empty());
        assert!(store.seeks_for(None, now, 10).unwrap().is_empty());
        assert!(
            !store.decline_seek("c", 3).unwrap(),
            "only the target declines"
        );
        assert!(store.decline_seek("c", 2).unwrap());
        assert!(store.seeks_for(Some(2), now, 10).unwrap().is_empty());
        let mine = store.seeks_for(Some(1), now, 10).unwrap();
        assert!(mine[0].declined, "the creator sees the refusal");
        assert!(store.delete_seek("c", 1).unwrap());
    }
    }
}
