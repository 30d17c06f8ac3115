//! A player's games for their profile page: the search by opponent, rules and result, the win/draw/loss
//! totals, and the games in order for the PGN export. A player's games are those with their account on a seat
//! (`games.blue_user_id`, `games.red_user_id`) that ended (aborted games are in no list).

use super::db::params;
use super::{Store, StoreError};
use crate::Category;

/// How a game ended for the player whose profile it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerResult {
    Win,
    Draw,
    Loss,
}

impl PlayerResult {
    pub fn name(self) -> &'static str {
        match self {
            PlayerResult::Win => "win",
            PlayerResult::Draw => "draw",
            PlayerResult::Loss => "loss",
        }
    }
}

/// A search of a player's games; every part is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games against this account.
    pub opponent: Option<i64>,
    /// Only games under these rules (their canonical option string, as games store them).
    pub rules: Option<String>,
    pub result: Option<PlayerResult>,
}

/// One of a player's games, as the profile lists it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlayerGame {
    pub id: String,
    pub rules: String,
    /// The player's side: `blue` or `red`.
    pub side: String,
    /// The opponent's account name, when an account sat there.
    pub opponent: Option<String>,
    /// The engine's level, when the engine was the opponent.
    pub engine_level: Option<u8>,
    pub result: PlayerResult,
    pub termination: Option<String>,
    pub plies: u32,
    pub finished_at: i64,
    pub clock_initial_ms: Option<u64>,
    pub clock_increment_ms: Option<u64>,
    /// The category a rated game was rated in (none: casual).
    pub rating_category: Option<Category>,
    /// The player's rating before and after a rated game.
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
}

/// A player's finished games counted by result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The player's side in a game `g` of the player `?1`, as SQL.
const SIDE: &str = "CASE WHEN g.blue_user_id = ?1 THEN 'blue' ELSE 'red' END";

/// The games of player `?1` that count on a profile, as an SQL condition over `g`. (An optional parameter is
/// tested as `CAST(?N AS type) IS NULL`: PostgreSQL cannot tell a bare parameter's type from `IS NULL`.)
const PLAYED: &str = "(g.blue_user_id = ?1 OR g.red_user_id = ?1) AND g.finished_at IS NOT NULL
    AND g.termination IS DISTINCT FROM 'aborted' AND g.mode != 'import'";

impl Store {
    /// A player's games matching `filter`, most recently finished first: at most `limit` of them, after
    /// skipping `offset`.
    ///
    /// # Errors
    /// When the database fails.
    pub fn player_games(
        &self,
        user_id: i64,
        filter: &GameFilter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<PlayerGame>, StoreError> {
        let sql = format!(
            "SELECT g.id, g.rules, {SIDE}, o.name, g.engine_level, g.winner, g.termination,
                (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.finished_at, g.clock_initial_ms,
                g.clock_increment_ms, g.rating_category, h.rating_before, h.rating_after
             FROM games g
             LEFT JOIN users o ON o.id = CASE WHEN g.blue_user_id = ?1 THEN g.red_user_id ELSE g.blue_user_id END
             LEFT JOIN rating_history h ON h.game_id = g.id AND h.user_id = ?1
             WHERE {PLAYED}
                AND (CAST(?2 AS BIGINT) IS NULL OR o.id = ?2)
                AND (CAST(?3 AS TEXT) IS NULL OR g.rules = ?3)
                AND (CAST(?4 AS TEXT) IS NULL
                     OR (?4 = 'draw' AND g.winner IS NULL)
                     OR (?4 = 'win' AND g.winner = {SIDE})
                     OR (?4 = 'loss' AND g.winner IS NOT NULL AND g.winner != {SIDE}))
             ORDER BY g.finished_at DESC, g.rowid DESC
             LIMIT ?5 OFFSET ?6"
        );
        self.with(|conn| {
            conn.query_readable(
                &sql,
                params![
                    user_id,
                    filter.opponent,
                    filter.rules,
                    filter.result.map(PlayerResult::name),
                    limit,
                    offset
                ],
                |r| {
                    let side: String = r.get(2)?;
                    let winner: Option<String> = r.get(5)?;
                    let category: Option<String> = r.get(11)?;
                    Ok(PlayerGame {
                        id: r.get(0)?,
                        rules: r.get(1)?,
                        opponent: r.get(3)?,
                        engine_level: r.get(4)?,
                        result: match winner {
                            None => PlayerResult::Draw,
                            Some(w) if w == side => PlayerResult::Win,
                            Some(_) => PlayerResult::Loss,
                        },
                        side,
                        termination: r.get(6)?,
                        plies: r.get(7)?,
                        finished_at: r.get(8)?,
                        clock_initial_ms: r.get(9)?,
                        clock_increment_ms: r.get(10)?,
                        rating_category: category.as_deref().and_then(Category::from_name),
                        rating_before: r.get(12)?,
                        rating_after: r.get(13)?,
                    })
                },
            )
        })
    }

    /// A player's finished games counted by result (every rules and category, rated and casual).
    ///
    /// # Errors
    /// When the database fails.
    pub fn player_totals(&self, user_id: i64) -> Result<Totals, StoreError> {
        let sql = format!(
            "SELECT COUNT(*), coalesce(SUM(CASE WHEN g.winner = {SIDE} THEN 1 ELSE 0 END), 0),
                coalesce(SUM(CASE WHEN g.winner IS NULL THEN 1 ELSE 0 END), 0),
                coalesce(SUM(CASE WHEN g.winner IS NOT NULL AND g.winner != {SIDE} THEN 1 ELSE 0 END), 0)
             FROM games g WHERE {PLAYED}"
        );
        self.with(|conn| {
            conn.query_one(&sql, params![user_id], |r| {
                Ok(Totals {
                    games: r.get(0)?,
                    wins: r.get(1)?,
                    draws: r.get(2)?,
                    losses: r.get(3)?,
                })
            })
        })
    }

    /// The next `limit` of a player's finished games in the order they finished, after the game `after`
    /// (its finish time and id) — the PGN export walks them a page at a time.
    ///
    /// # Errors
    /// When the database fails.
    pub fn player_game_ids_after(
        &self,
        user_id: i64,
        after: Option<&(i64, String)>,
        limit: u32,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        let sql = format!(
            "SELECT g.finished_at, g.id FROM games g
             WHERE {PLAYED} AND (CAST(?2 AS BIGINT) IS NULL OR (g.finished_at, g.id) > (?2, ?3))
             ORDER BY g.finished_at, g.id LIMIT ?4"
        );
        let (at, id) = after.map_or((None, None), |(at, id)| (Some(*at), Some(id.as_str())));
        self.with(|conn| {
            conn.query_map(&sql, params![user_id, at, id, limit], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::on_both_backends;
    use crate::tests::record;
    use jungle_rules::BySide;

    on_both_backends! {
        fn a_players_games_totals_and_export_pages_read_the_same_on_both_backends(store) {
            let ann = store.insert_account("ann", "h").unwrap().unwrap();
            let bo = store.insert_account("bo", "h").unwrap().unwrap();
            for (id, winner) in [("g1", Some("blue")), ("g2", None), ("g3", Some("red"))] {
                store.insert_game(&record(id)).unwrap();
                store.mark_rated(id, BySide::new(ann.id, bo.id), Category::Blitz).unwrap();
                let result = match winner {
                    Some("blue") => "1-0",
                    Some(_) => "0-1",
                    None => "1/2-1/2",
                };
                assert!(store.finish(id, 0, result, winner, "resignation").unwrap());
            }
            let all = store.player_games(ann.id, &GameFilter::default(), 0, 10).unwrap();
            let ids: Vec<&str> = all.iter().map(|g| g.id.as_str()).collect();
            assert_eq!(ids.len(), 3);
            assert_eq!(all[0].opponent.as_deref(), Some("bo"));
            assert!(all.iter().all(|g| g.rating_before.is_some() && g.rating_category == Some(Category::Blitz)));
            let wins = GameFilter { result: Some(PlayerResult::Win), opponent: Some(bo.id), rules: Some("standard".into()) };
            let won: Vec<String> = store.player_games(ann.id, &wins, 0, 10).unwrap().into_iter().map(|g| g.id).collect();
            assert_eq!(won, ["g1"]);
            assert_eq!(
                store.player_totals(bo.id).unwrap(),
                Totals { games: 3, wins: 1, draws: 1, losses: 1 }
            );
            let first = store.player_game_ids_after(ann.id, None, 2).unwrap();
            let rest = store.player_game_ids_after(ann.id, first.last(), 2).unwrap();
            assert_eq!(first.len() + rest.len(), 3);
            assert_eq!(store.rating_history(ann.id).unwrap().len(), 3);
            assert_eq!(store.ratings_of(bo.id).unwrap()[0].games, 3);
        }
    }
}
