//! Hidden Jungle games' tables (`hidden_games`, `hidden_moves`): the game's fixed facts, the seats' tokens, each
//! side's secret setup, the plain moves and the ending. Everything that must happen once is decided here: a
//! seat or a setup is written only while it is empty, a ply only once (its primary key), an ending only while
//! the game has none — so two requests (or two nodes) racing get one answer and the other is told.

use jungle_rules::Side;

use super::db::{RowLock, params};
use super::{HIDDEN, Store, StoreError, end_on, late_move, now_ms};

/// A hidden game as stored. The setups are secrets: only the room that referees the game reads them.
#[derive(Clone, Debug)]
pub struct HiddenRecord {
    pub id: String,
    pub created_at: i64,
    /// `engine` or `friend`.
    pub mode: String,
    pub rules: String,
    pub engine_level: Option<u8>,
    pub engine_side: Option<String>,
    pub blue_token: Option<String>,
    pub red_token: Option<String>,
    pub blue_setup: Option<String>,
    pub red_setup: Option<String>,
    /// The account names of the players signed in when they took their seats (none: a guest or the engine).
    pub blue_name: Option<String>,
    pub red_name: Option<String>,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub termination: Option<String>,
    /// When its ending was stored (Unix ms), with its result; written by [`Store::finish_hidden`] only.
    pub finished_at: Option<i64>,
}

impl Store {
    pub fn insert_hidden_game(&self, g: &HiddenRecord) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.execute(
                "INSERT INTO hidden_games (id, created_at, mode, rules, engine_level, engine_side, blue_token,
                    red_token, blue_setup, red_setup, result, winner, termination, blue_name, red_name)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    g.id,
                    g.created_at,
                    g.mode,
                    g.rules,
                    g.engine_level,
                    g.engine_side,
                    g.blue_token,
                    g.red_token,
                    g.blue_setup,
                    g.red_setup,
                    g.result,
                    g.winner,
                    g.termination,
                    g.blue_name,
                    g.red_name
                ],
            )
        })?;
        Ok(())
    }

    pub fn hidden_game(&self, id: &str) -> Result<Option<HiddenRecord>, StoreError> {
        self.with(|conn| {
            conn.query_opt(
                "SELECT id, created_at, mode, rules, engine_level, engine_side, blue_token, red_token,
                    blue_setup, red_setup, result, winner, termination, finished_at, blue_name, red_name
                 FROM hidden_games WHERE id = ?1",
                params![id],
                |r| {
                    Ok(HiddenRecord {
                        id: r.get(0)?,
                        created_at: r.get(1)?,
                        mode: r.get(2)?,
                        rules: r.get(3)?,
                        engine_level: r.get(4)?,
                        engine_side: r.get(5)?,
                        blue_token: r.get(6)?,
                        red_token: r.get(7)?,
                        blue_setup: r.get(8)?,
                        red_setup: r.get(9)?,
                        result: r.get(10)?,
                        winner: r.get(11)?,
                        termination: r.get(12)?,
                        finished_at: r.get(13)?,
                        blue_name: r.get(14)?,
                        red_name: r.get(15)?,
                    })
                },
            )
        })
    }

    /// The moves of a hidden game in order, each with its ply (`(0, "a3a4")`): [`StoreError::Unreadable`]
    /// when any of their columns holds what the schema cannot mean.
    pub fn hidden_moves(&self, id: &str) -> Result<Vec<(u32, String)>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT ply, mv, played_at FROM hidden_moves WHERE game_id = ?1 ORDER BY ply",
                params![id],
                |r| {
                    let _: i64 = r.get(2)?;
                    Ok((r.get(0)?, r.get(1)?))
                },
            )
        })
    }

    /// Gives the free seat `side` the token, and the name of the account that takes it (none: a guest);
    /// `false` when someone took it first.
    pub fn take_hidden_seat(
        &self,
        id: &str,
        side: Side,
        token: &str,
        name: Option<&str>,
    ) -> Result<bool, StoreError> {
        let sql = match side {
            Side::Blue => {
                "UPDATE hidden_games SET blue_token = ?2, blue_name = ?3 WHERE id = ?1 AND blue_token IS NULL"
            }
            Side::Red => {
                "UPDATE hidden_games SET red_token = ?2, red_name = ?3 WHERE id = ?1 AND red_token IS NULL"
            }
        };
        Ok(self.with(|conn| conn.execute(sql, params![id, token, name]))? == 1)
    }

    /// Writes a side's setup; `false` when it already has one (a setup is final).
    pub fn set_hidden_setup(&self, id: &str, side: Side, setup: &str) -> Result<bool, StoreError> {
        let sql = match side {
            Side::Blue => {
                "UPDATE hidden_games SET blue_setup = ?2 WHERE id = ?1 AND blue_setup IS NULL"
            }
            Side::Red => {
                "UPDATE hidden_games SET red_setup = ?2 WHERE id = ?1 AND red_setup IS NULL"
            }
        };
        Ok(self.with(|conn| conn.execute(sql, params![id, setup]))? == 1)
    }

    /// Stores the move of `ply` of an unfinished game (the AI's): [`StoreError::Finished`] when the game's
    /// ending is stored, a conflict ([`StoreError::is_conflict`]) when that ply is.
    pub fn insert_hidden_move(&self, id: &str, ply: u32, mv: &str) -> Result<(), StoreError> {
        self.store_hidden_move(id, ply, mv, None)
    }

    /// Stores a player's move as [`Store::insert_hidden_move`] does, unless it reaches the database more
    /// than [`crate::MOVE_MAX_AGE`] after `received_at_ms`, when its server received it: then
    /// [`StoreError::Late`] and nothing is stored (as an open game's: [`Store::insert_players_move`]).
    pub fn insert_players_hidden_move(
        &self,
        id: &str,
        ply: u32,
        mv: &str,
        received_at_ms: i64,
    ) -> Result<(), StoreError> {
        self.store_hidden_move(id, ply, mv, Some(received_at_ms))
    }

    /// One statement (one round trip): the move is inserted from the game's row, locked, only while the game
    /// has no ending and the move is young enough; the key (game, ply) refuses a second move at a ply.
    fn store_hidden_move(
        &self,
        id: &str,
        ply: u32,
        mv: &str,
        received_at_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let max_age_ms = crate::MOVE_MAX_AGE.as_millis() as i64;
        let stored = self.with(|conn| {
            let sql = format!(
                "INSERT INTO hidden_moves (game_id, ply, mv, played_at)
                 SELECT id, ?2, ?3, ?4 FROM hidden_games
                 WHERE id = ?1 AND result IS NULL AND {}{}",
                late_move::young_enough(conn, 5, 6),
                conn.row_lock(RowLock::Wait)
            );
            conn.execute(
                &sql,
                params![id, ply, mv, now_ms(), received_at_ms, max_age_ms],
            )
        })?;
        if stored == 1 {
            return Ok(());
        }
        Err(self.why_not_stored(HIDDEN, id, received_at_ms))
    }

    /// Stores a hidden game's ending as decided after its first `plies` moves, unless it already has one or
    /// a move after them is stored — the same locked check as an open game's ([`Store::finish`]), so a
    /// resignation on one node and a move on another never both stand; whether this call decided it.
    pub fn finish_hidden(
        &self,
        id: &str,
        plies: u32,
        result: &str,
        winner: Option<&str>,
        termination: &str,
    ) -> Result<bool, StoreError> {
        let ending = (result, winner, termination);
        Ok(self
            .transaction(|tx| end_on(tx, HIDDEN, id, plies, ending))?
            .is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::on_both_backends;

    fn record(id: &str) -> HiddenRecord {
        HiddenRecord {
            id: id.into(),
            created_at: now_ms(),
            mode: "friend".into(),
            rules: "standard".into(),
            engine_level: None,
            engine_side: None,
            blue_token: Some("t".into()),
            red_token: None,
            blue_setup: None,
            red_setup: None,
            blue_name: Some("ann".into()),
            red_name: None,
            result: None,
            winner: None,
            termination: None,
            finished_at: None,
        }
    }

    on_both_backends! {
        fn seats_setups_plies_and_endings_are_written_once(store) {
            store.insert_hidden_game(&record("h1")).unwrap();
            assert!(!store.take_hidden_seat("h1", Side::Blue, "x", None).unwrap(), "taken at creation");
            assert!(store.take_hidden_seat("h1", Side::Red, "r", Some("bo")).unwrap());
            assert!(!store.take_hidden_seat("h1", Side::Red, "r2", Some("cy")).unwrap());
            assert!(store.set_hidden_setup("h1", Side::Red, "RPWEDCLT").unwrap());
            assert!(!store.set_hidden_setup("h1", Side::Red, "TLCDEWPR").unwrap(), "a setup is final");
            store.insert_hidden_move("h1", 0, "a3a4").unwrap();
            let again = store.insert_hidden_move("h1", 0, "g3g4").unwrap_err();
            assert!(again.is_conflict(), "{again}");
            store.insert_hidden_move("h1", 1, "g7g6").unwrap();
            assert_eq!(store.hidden_moves("h1").unwrap(), [(0, "a3a4".to_string()), (1, "g7g6".to_string())]);
            assert!(store.finish_hidden("h1", 2, "0-1", Some("red"), "resignation").unwrap());
            assert!(!store.finish_hidden("h1", 2, "1-0", Some("blue"), "resignation").unwrap());
            let stored = store.hidden_game("h1").unwrap().unwrap();
            assert_eq!(stored.red_token.as_deref(), Some("r"));
            assert_eq!((stored.blue_name.as_deref(), stored.red_name.as_deref()), (Some("ann"), Some("bo")));
            assert_eq!(stored.red_setup.as_deref(), Some("RPWEDCLT"));
            assert_eq!(stored.blue_setup, None);
            assert_eq!(stored.result.as_deref(), Some("0-1"));
            assert!(store.hidden_game("nope").unwrap().is_none());
        }

        fn a_resignation_is_refused_after_a_move_at_its_ply_and_a_move_after_an_ending(store) {
            store.insert_hidden_game(&record("h1")).unwrap();
            store.insert_hidden_move("h1", 0, "a3a4").unwrap();
            // Node A stores Red's move (ply 1) as node B, which had not heard of it, takes Red's resignation
            // after ply 0.
            store.insert_hidden_move("h1", 1, "g7g6").unwrap();
            assert!(!store.finish_hidden("h1", 1, "1-0", Some("blue"), "resignation").unwrap());
            assert_eq!(store.hidden_game("h1").unwrap().unwrap().result, None);
            // The other order: B's resignation of Blue after ply 1 first, then A's move for ply 2.
            assert!(store.finish_hidden("h1", 2, "0-1", Some("red"), "resignation").unwrap());
            let refused = store.insert_hidden_move("h1", 2, "a4a5").unwrap_err();
            assert!(matches!(refused, StoreError::Finished) && refused.is_conflict(), "{refused}");
            assert_eq!(store.hidden_moves("h1").unwrap().len(), 2);
        }

        fn a_players_move_older_than_the_limit_is_refused_and_nothing_is_stored(store) {
            store.insert_hidden_game(&record("h1")).unwrap();
            let limit = crate::MOVE_MAX_AGE.as_millis() as i64;
            // Received before a stop of a few seconds more than the limit (issue 29: a hung node).
            let received = now_ms() - limit - 3_000;
            match store.insert_players_hidden_move("h1", 0, "a3a4", received) {
                Err(StoreError::Late { age_ms }) => assert!(age_ms > limit, "{age_ms}"),
                other => panic!("a late move got {other:?}"),
            }
            assert!(store.hidden_moves("h1").unwrap().is_empty());
            // The same move received now is stored: the ply was left free.
            store.insert_players_hidden_move("h1", 0, "a3a4", now_ms()).unwrap();
            assert_eq!(store.hidden_moves("h1").unwrap(), [(0, "a3a4".to_string())]);
        }

        fn of_a_move_and_a_resignation_at_the_same_moment_exactly_one_is_stored(store) {
            crate::tests::race_a_move_and_an_ending(
                |id| {
                    store.insert_hidden_game(&record(id)).unwrap();
                    store.insert_hidden_move(id, 0, "a3a4").unwrap();
                },
                |id| store.insert_hidden_move(id, 1, "g7g6"),
                |id| store.finish_hidden(id, 1, "1-0", Some("blue"), "resignation"),
                |id| (store.hidden_moves(id).unwrap().len(), store.hidden_game(id).unwrap().unwrap().result.is_some()),
            );
        }
    }
}
