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

/// The games that ended here (not aborted, not imported), over `g`: word for word the condition of the
/// partial indexes of finished games (migration 0012), which a query must repeat to be read from them. A
/// macro so [`PLAYED`] can be built from it at compile time.
macro_rules! finished_here {
    () => {
        "g.finished_at IS NOT NULL AND g.termination IS DISTINCT FROM 'aborted' AND g.mode != 'import'"
    };
}
const FINISHED_HERE: &str = finished_here!();

/// The games of player `?1` that count on a profile, as an SQL condition over `g`. (An optional parameter is
/// tested as `CAST(?N AS type) IS NULL`: PostgreSQL cannot tell a bare parameter's type from `IS NULL`.)
const PLAYED: &str = concat!(
    "(g.blue_user_id = ?1 OR g.red_user_id = ?1) AND ",
    finished_here!()
);

/// The query of [`Store::player_games`]: the player's games of each seat, each read newest first from its seat's
/// index (migration 0012) and cut at `offset + limit` (`?7`), then merged and paged. (One query over both
/// seats, `blue_user_id = ?1 OR red_user_id = ?1`, would read all the player's games and sort them.) A game
/// the player played against themselves is listed once, as blue.
fn player_games_query() -> String {
    let seat = |side: &str, other: &str, once: &str| {
        format!(
            "SELECT * FROM (
                SELECT g.rowid AS n, g.id, g.rules, '{side}' AS side, g.{other}_user_id AS opponent_id,
                    g.engine_level, g.winner, g.termination, g.plies, g.finished_at, g.clock_initial_ms,
                    g.clock_increment_ms, g.rating_category
                FROM games g
                WHERE g.{side}_user_id = ?1 {once} AND {FINISHED_HERE}
                    AND (CAST(?2 AS BIGINT) IS NULL OR g.{other}_user_id = ?2)
                    AND (CAST(?3 AS TEXT) IS NULL OR g.rules = ?3)
                    AND (CAST(?4 AS TEXT) IS NULL
                         OR (?4 = 'draw' AND g.winner IS NULL)
                         OR (?4 = 'win' AND g.winner = '{side}')
                         OR (?4 = 'loss' AND g.winner IS NOT NULL AND g.winner != '{side}'))
                ORDER BY g.finished_at DESC, g.rowid DESC LIMIT ?7) AS {side}_games"
        )
    };
    format!(
        "SELECT s.id, s.rules, s.side, o.name, s.engine_level, s.winner, s.termination, s.plies,
            s.finished_at, s.clock_initial_ms, s.clock_increment_ms, s.rating_category, h.rating_before,
            h.rating_after
         FROM ({}) AS s
         LEFT JOIN users o ON o.id = s.opponent_id
         LEFT JOIN rating_history h ON h.game_id = s.id AND h.user_id = ?1
         ORDER BY s.finished_at DESC, s.n DESC
         LIMIT ?5 OFFSET ?6",
        both_seats(seat)
    )
}

/// The games of player `?1` of each seat, as `seat(side, other side, once)` reads them from the seat's index,
/// joined by `UNION ALL`; `once` leaves out of the red seat's a game whose blue seat is the player's too (a
/// game against oneself is listed once, as blue).
fn both_seats(seat: impl Fn(&str, &str, &str) -> String) -> String {
    format!(
        "{} UNION ALL {}",
        seat("blue", "red", ""),
        seat("red", "blue", "AND g.blue_user_id IS DISTINCT FROM ?1")
    )
}

/// The query of [`Store::player_game_ids_after`]: the next `?4` of each seat's games after `(?2, ?3)` (finish
/// time, id), each read from its seat's index from `?2` on, then merged. (The range on `finished_at` is
/// what lets the index start at the page; the row comparison then orders ties by id.)
fn export_page_query() -> String {
    let seat = |side: &str, _: &str, once: &str| {
        format!(
            "SELECT * FROM (
                SELECT g.finished_at, g.id FROM games g
                WHERE g.{side}_user_id = ?1 {once} AND {FINISHED_HERE}
                    AND g.finished_at >= COALESCE(CAST(?2 AS BIGINT), -9223372036854775807)
                    AND (CAST(?2 AS BIGINT) IS NULL OR (g.finished_at, g.id) > (?2, ?3))
                ORDER BY g.finished_at, g.id LIMIT ?4) AS {side}_games"
        )
    };
    format!(
        "SELECT finished_at, id FROM ({}) AS s ORDER BY finished_at, id LIMIT ?4",
        both_seats(seat)
    )
}

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
        let sql = player_games_query();
        self.with(|conn| {
            conn.query_readable(
                &sql,
                params![
                    user_id,
                    filter.opponent,
                    filter.rules,
                    filter.result.map(PlayerResult::name),
                    limit,
                    offset,
                    u64::from(offset) + u64::from(limit)
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
        let sql = export_page_query();
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

    #[test]
    fn a_players_games_are_read_from_each_seats_index_without_reading_moves() {
        let store = crate::testing::TestStore::sqlite();
        let (no_opponent, no_text) = (None::<i64>, None::<String>);
        let plan = crate::testing::query_plan(
            &store,
            &player_games_query(),
            params![1, no_opponent, no_text, no_text, 20, 0, 20],
        );
        for index in ["games_finished_by_blue_user", "games_finished_by_red_user"] {
            assert!(plan.contains(&format!("USING INDEX {index}")), "{plan}");
        }
        assert!(!plan.contains("moves"), "{plan}");
        // Each seat's games come in order from its index: the one sort is the merge of two short lists.
        assert_eq!(plan.matches("TEMP B-TREE").count(), 1, "{plan}");
        let page = crate::testing::query_plan(
            &store,
            &export_page_query(),
            params![1, Some(5), Some("g1"), 20],
        );
        for index in ["games_finished_by_blue_user", "games_finished_by_red_user"] {
            assert!(page.contains(&format!("USING INDEX {index} (")), "{page}");
        }
        assert!(
            page.contains("finished_at>?"),
            "the page starts in the index: {page}"
        );
    }

    on_both_backends! {
        fn a_game_against_oneself_is_listed_once_and_pages_merge_both_seats(store) {
            let ann = store.insert_account("ann", "h").unwrap().unwrap();
            let bo = store.insert_account("bo", "h").unwrap().unwrap();
            // Alternating seats, so each page takes games from both seats' indexes; g3 is ann against ann.
            for (n, seats) in [(ann.id, bo.id), (bo.id, ann.id), (ann.id, bo.id), (ann.id, ann.id), (bo.id, ann.id)]
                .into_iter()
                .enumerate()
            {
                let id = format!("g{n}");
                store.insert_game(&record(&id)).unwrap();
                // Casual (a rated game is never between one account and itself): the seats as a casual
                // game's seated accounts are stored.
                store
                    .with(|conn| {
                        conn.execute(
                            "UPDATE games SET blue_user_id = ?2, red_user_id = ?3 WHERE id = ?1",
                            crate::db::params![id, seats.0, seats.1],
                        )
                    })
                    .unwrap();
                assert!(store.finish(&id, 0, "1-0", Some("blue"), "resignation").unwrap());
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            let page = |offset| -> Vec<String> {
                store.player_games(ann.id, &GameFilter::default(), offset, 2).unwrap().into_iter().map(|g| g.id).collect()
            };
            assert_eq!([page(0), page(2), page(4)], [vec!["g4", "g3"], vec!["g2", "g1"], vec!["g0"]]);
            let wins = GameFilter { result: Some(PlayerResult::Win), ..GameFilter::default() };
            let won: Vec<String> = store.player_games(ann.id, &wins, 0, 10).unwrap().into_iter().map(|g| g.id).collect();
            assert_eq!(won, ["g3", "g2", "g0"]);
            // The export's pages, oldest first, across both seats.
            let mut exported = Vec::new();
            let mut after = None;
            loop {
                let next = store.player_game_ids_after(ann.id, after.as_ref(), 2).unwrap();
                let Some(last) = next.last().cloned() else { break };
                exported.extend(next.into_iter().map(|(_, id)| id));
                after = Some(last);
            }
            assert_eq!(exported, ["g0", "g1", "g2", "g3", "g4"]);
        }

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
