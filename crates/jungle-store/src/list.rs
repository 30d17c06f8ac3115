//! The home page's game lists: games in progress, finished games and imports, newest first. Each is read
//! from its own index and from the games' rows alone (never their moves), so a list request costs the same
//! whatever the number of games and moves stored (docs/server.md, "What a list request costs").

use super::db::params;
use super::{Store, StoreError};

/// A line of the home page's game lists.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GameSummary {
    pub id: String,
    pub mode: String,
    pub rules: String,
    pub engine_level: Option<u8>,
    pub engine_side: Option<String>,
    pub blue_name: Option<String>,
    pub red_name: Option<String>,
    pub plies: u32,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub created_at: i64,
    /// A friend game with a seat nobody has taken yet.
    pub open_seat: bool,
    pub finished_at: Option<i64>,
    /// The clock each side started with, and the increment per move (none: untimed).
    pub clock_initial_ms: Option<u64>,
    pub clock_increment_ms: Option<u64>,
    /// The clocks after the last move (none while no move is made, and in untimed games).
    pub blue_ms: Option<u64>,
    pub red_ms: Option<u64>,
    /// A rated game's category (`blitz`, …); none for a casual one.
    pub rating_category: Option<String>,
}

/// The lists of the home page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameList {
    /// Games in progress, newest first.
    Live,
    /// Games played here that have a result, most recently finished first (aborted ones are in no list).
    Finished,
    /// Games imported as PGN, for study: never played here, so never live or finished here.
    Imported,
}

/// The query of a home-page list: the columns [`Store::list`] reads into a [`GameSummary`] (with the list's own
/// "open seat" expression), then the list's filter and order. A macro so each list stays one static string.
/// Each list's filter repeats the condition of its partial index (migration 0012), so the list is read from
/// the index, newest first, and stops after `limit` rows; the moves are never read (their count and the
/// last clocks are on the game's row).
macro_rules! summary_query {
    ($open_seat:literal, $filter_and_order:literal) => {
        concat!(
            "SELECT g.id, g.mode, g.rules, g.engine_level, g.engine_side, g.blue_name, g.red_name,
                g.plies, g.result, g.termination, g.created_at, ",
            $open_seat,
            ", g.finished_at, g.clock_initial_ms, g.clock_increment_ms, g.last_blue_ms, g.last_red_ms,
                g.rating_category
             FROM games g ",
            $filter_and_order,
            " LIMIT ?1"
        )
    };
}

/// The query of a list: its filter is word for word its partial index's condition (migration 0012).
fn list_query(which: GameList) -> &'static str {
    match which {
        GameList::Live => summary_query!(
            "g.mode = 'friend' AND (g.blue_token IS NULL OR g.red_token IS NULL)",
            "WHERE g.finished_at IS NULL AND g.damaged IS NULL AND g.mode != 'import'
             ORDER BY g.created_at DESC"
        ),
        GameList::Finished => summary_query!(
            "g.mode = 'friend' AND (g.blue_token IS NULL OR g.red_token IS NULL)",
            "WHERE g.finished_at IS NOT NULL AND g.termination IS DISTINCT FROM 'aborted'
                AND g.mode != 'import'
             ORDER BY g.finished_at DESC"
        ),
        GameList::Imported => {
            summary_query!("0", "WHERE g.mode = 'import' ORDER BY g.created_at DESC")
        }
    }
}

impl Store {
    /// The newest games of a list of the home page.
    pub fn list(&self, which: GameList, limit: u32) -> Result<Vec<GameSummary>, StoreError> {
        let sql = list_query(which);
        self.with(|conn| {
            conn.query_readable(sql, params![limit], |r| {
                Ok(GameSummary {
                    id: r.get(0)?,
                    mode: r.get(1)?,
                    rules: r.get(2)?,
                    engine_level: r.get(3)?,
                    engine_side: r.get(4)?,
                    blue_name: r.get(5)?,
                    red_name: r.get(6)?,
                    plies: r.get(7)?,
                    result: r.get(8)?,
                    termination: r.get(9)?,
                    created_at: r.get(10)?,
                    open_seat: r.get(11)?,
                    finished_at: r.get(12)?,
                    clock_initial_ms: r.get(13)?,
                    clock_increment_ms: r.get(14)?,
                    blue_ms: r.get(15)?,
                    red_ms: r.get(16)?,
                    rating_category: r.get(17)?,
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{on_both_backends, query_plan};
    use crate::tests::{a_move, record};
    use crate::{GameRecord, MoveRecord};

    /// What the list shows of `id`'s moves — count and last clocks — and the time of its last move, next to
    /// the same worked out from the moves themselves.
    fn row_and_moves(
        store: &Store,
        which: GameList,
        id: &str,
    ) -> [(u32, Option<u64>, Option<u64>); 2] {
        let listed = store
            .list(which, 50)
            .unwrap()
            .into_iter()
            .find(|g| g.id == id)
            .unwrap();
        let moves = store.moves(id).unwrap();
        let last = moves.last();
        [
            (listed.plies, listed.blue_ms, listed.red_ms),
            (
                moves.len() as u32,
                last.and_then(|m| m.blue_ms),
                last.and_then(|m| m.red_ms),
            ),
        ]
    }

    fn clocked(ply: u32, mv: &str) -> MoveRecord {
        MoveRecord {
            red_ms: Some(50_000 + u64::from(ply)),
            ..a_move(ply, mv)
        }
    }

    on_both_backends! {
        fn the_rows_move_count_and_last_move_follow_moves_takebacks_and_imports(store) {
            store.insert_game(&record("g1")).unwrap();
            assert_eq!(row_and_moves(store, GameList::Live, "g1")[0], (0, None, None));
            assert_eq!(store.last_move_at("g1").unwrap(), None);
            let before = crate::now_ms();
            for (ply, mv) in ["a3a4", "g7g6", "a4a5"].iter().enumerate() {
                store.insert_move("g1", &clocked(ply as u32, mv)).unwrap();
            }
            let [row, moves] = row_and_moves(store, GameList::Live, "g1");
            assert_eq!(row, moves);
            assert_eq!(row, (3, Some(59_998), Some(50_002)));
            assert!(store.last_move_at("g1").unwrap().is_some_and(|at| at >= before));
            // A refused move (its ply is taken) changes nothing.
            assert!(store.insert_move("g1", &clocked(2, "a4a5")).is_err());
            assert_eq!(row_and_moves(store, GameList::Live, "g1")[0], (3, Some(59_998), Some(50_002)));

            store.truncate_moves("g1", 1).unwrap();
            let [row, moves] = row_and_moves(store, GameList::Live, "g1");
            assert_eq!(row, moves);
            assert_eq!(row, (1, Some(60_000), Some(50_000)));
            store.truncate_moves("g1", 0).unwrap();
            assert_eq!(row_and_moves(store, GameList::Live, "g1")[0], (0, None, None));
            assert_eq!(store.last_move_at("g1").unwrap(), None);

            let import = GameRecord { mode: "import".into(), ..record("i1") };
            store.insert_game(&import).unwrap();
            let plies: Vec<MoveRecord> =
                (0..40).map(|ply| clocked(ply, if ply % 2 == 0 { "a3a4" } else { "a4a3" })).collect();
            store.insert_moves("i1", &plies).unwrap();
            let [row, moves] = row_and_moves(store, GameList::Imported, "i1");
            assert_eq!(row, moves);
            assert_eq!(row, (40, Some(59_961), Some(50_039)));
            // An import refused part way (a ply twice) keeps none of its moves, nor their count.
            store.insert_game(&GameRecord { mode: "import".into(), ..record("i2") }).unwrap();
            assert!(store.insert_moves("i2", &[clocked(0, "a3a4"), clocked(0, "a3a4")]).is_err());
            assert_eq!(row_and_moves(store, GameList::Imported, "i2")[0], (0, None, None));
        }
    }

    #[test]
    fn each_list_is_read_from_its_index_without_reading_moves_or_sorting() {
        let store = crate::testing::TestStore::sqlite();
        for (which, index) in [
            (GameList::Live, "games_live_list"),
            (GameList::Finished, "games_finished_list"),
            (GameList::Imported, "games_imported_list"),
        ] {
            let plan = query_plan(&store, list_query(which), crate::db::params![20]);
            assert!(
                plan.contains(&format!("USING INDEX {index}")),
                "{which:?}: {plan}"
            );
            assert!(!plan.contains("moves"), "{which:?} reads moves: {plan}");
            assert!(!plan.contains("TEMP B-TREE"), "{which:?} sorts: {plan}");
        }
    }
}
