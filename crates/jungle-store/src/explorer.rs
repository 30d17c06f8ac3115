//! The opening explorer's index (migration 0016, docs/server.md "Opening explorer"): for each rules, position
//! and move, how many finished games between people played it and how they ended. A game is counted in the
//! transaction that stores its ending ([`Store::finish`]), so the index never holds a game whose ending was
//! rolled back nor misses one whose ending committed; games that ended before the index existed are counted
//! once when the store opens ([`Store::backfill_openings`]).

use std::collections::BTreeSet;

use jungle_rules::{Game, Position, Rules, Side, fen};
use serde::Serialize;

use super::db::{Conn, Param, params};
use super::{Store, StoreError, side_from_name};

/// The plies of a game the index counts: openings, not whole games, so a game adds at most this many rows
/// and the table stays proportional to the number of games, not to their length.
pub const EXPLORER_PLIES: usize = 40;

/// How many games of the backfill one transaction counts (a short write lock on SQLite, and progress kept
/// if the server stops halfway through a large backfill).
const BACKFILL_BATCH: u32 = 200;

/// One move played from a position, with the games that played it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningMove {
    /// The move as two squares (`a3a4`).
    pub mv: String,
    pub games: u64,
    pub blue_wins: u64,
    pub draws: u64,
    pub red_wins: u64,
    /// The sum, over the rated games among them, of the mean of both players' ratings before the game.
    pub rating_sum: i64,
    pub rated_games: u64,
}

/// A finished game as the index counts it.
#[derive(Clone, Debug)]
pub struct OpeningGame {
    pub rules: Rules,
    /// The moves from the rules' start position, as text (`a3a4`); only the first [`EXPLORER_PLIES`] count,
    /// and none after one that does not play.
    pub moves: Vec<String>,
    /// `None` for a draw.
    pub winner: Option<Side>,
    /// The mean of both players' ratings before the game, when it was rated.
    pub rating: Option<i64>,
}

/// A position's key in an explorer index: its hash's 64 bits, signed, as the database stores them (both
/// backends' integers are signed).
pub fn position_key(hash: u64) -> i64 {
    i64::from_ne_bytes(hash.to_ne_bytes())
}

/// The (position hash, move) pairs of a game's first [`EXPLORER_PLIES`] plies, each once (a position
/// repeated with the same move counts the game once), in key order: every transaction upserts its rows in the
/// same order, so two games that end at the same moment on PostgreSQL cannot deadlock on each other's rows.
pub fn opening_plies(rules: &Rules, moves: &[String]) -> BTreeSet<(i64, String)> {
    let mut game = Game::new(rules.clone());
    let mut plies = BTreeSet::new();
    for text in moves.iter().take(EXPLORER_PLIES) {
        let hash = game.position().hash();
        match game.play_text(text) {
            Ok(m) => {
                plies.insert((position_key(hash), m.to_string()));
            }
            Err(e) => {
                // A stored game replays (the room checked every move); one that does not is damaged from
                // here on, and only its plies before count.
                tracing::warn!(mv = %text, error = %e, "an explorer game stops at a move that does not play");
                break;
            }
        }
    }
    plies
}

/// Counts one game's plies in the index, inside the caller's transaction: one statement for all of them (one
/// round trip on PostgreSQL, not one a ply), its rows in key order (see [`opening_plies`]).
fn count_on(conn: &dyn Conn, game: &OpeningGame) -> Result<(), StoreError> {
    let plies: Vec<(i64, String)> = opening_plies(&game.rules, &game.moves)
        .into_iter()
        .collect();
    if plies.is_empty() {
        return Ok(());
    }
    let rules = game.rules.to_string();
    let (blue, draw, red): (i64, i64, i64) = match game.winner {
        Some(Side::Blue) => (1, 0, 0),
        None => (0, 1, 0),
        Some(Side::Red) => (0, 0, 1),
    };
    let (rating, rated): (i64, i64) = game.rating.map_or((0, 0), |r| (r, 1));
    // ?1–?6 are the game's, the same in every row; each ply adds its hash and move.
    let rows: Vec<String> = (0..plies.len())
        .map(|i| {
            format!(
                "(?1, ?{}, ?{}, 1, ?2, ?3, ?4, ?5, ?6)",
                7 + 2 * i,
                8 + 2 * i
            )
        })
        .collect();
    let sql = format!(
        "INSERT INTO opening_moves (rules, hash, mv, games, blue_wins, draws, red_wins, rating_sum,
            rated_games)
         VALUES {}
         ON CONFLICT (rules, hash, mv) DO UPDATE SET games = opening_moves.games + 1,
            blue_wins = opening_moves.blue_wins + excluded.blue_wins,
            draws = opening_moves.draws + excluded.draws,
            red_wins = opening_moves.red_wins + excluded.red_wins,
            rating_sum = opening_moves.rating_sum + excluded.rating_sum,
            rated_games = opening_moves.rated_games + excluded.rated_games",
        rows.join(", ")
    );
    let mut values: Vec<&dyn Param> = vec![&rules, &blue, &draw, &red, &rating, &rated];
    for (hash, mv) in &plies {
        values.push(hash);
        values.push(mv);
    }
    conn.execute(&sql, &values)?;
    Ok(())
}

/// Takes a finished game into the index inside the transaction `tx` (its ending's, or the backfill's): once
/// per game, whatever the number of calls (the `opening_games` row decides). Counted are games between
/// people, from their rules' start position, with a result; an aborted or unterminated game (`*`), a game
/// against the engine and an import never are. A game whose record does not read is left out (logged), so a
/// damaged row never stops its ending from being stored. Whether this call took the game in (counted it, or
/// found it not from the start position).
pub(super) fn index_on(tx: &dyn Conn, game_id: &str) -> Result<bool, StoreError> {
    let record = tx.query_opt(
        "SELECT mode, rules, start_fen, result, winner FROM games WHERE id = ?1 AND damaged IS NULL",
        params![game_id],
        |r| {
            Ok((
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<String>(2)?,
                r.get::<Option<String>>(3)?,
                r.get::<Option<String>>(4)?,
            ))
        },
    );
    let (mode, rules, start_fen, result, winner) = match record {
        Ok(Some(record)) => record,
        Ok(None) => return Ok(false),
        Err(e) if e.is_unreadable() => {
            tracing::warn!(game = %game_id, error = %e, "a game left out of the opening explorer");
            return Ok(false);
        }
        Err(e) => return Err(e),
    };
    let Some(result) = result else {
        return Ok(false);
    };
    if mode != "friend" || result == "*" {
        return Ok(false);
    }
    let taken = tx.execute(
        "INSERT INTO opening_games (game_id) VALUES (?1) ON CONFLICT (game_id) DO NOTHING",
        params![game_id],
    )?;
    if taken == 0 {
        return Ok(false);
    }
    let Ok(rules) = rules.parse::<Rules>() else {
        return Ok(true);
    };
    if start_fen != fen::to_fen(&Position::start(&rules)) {
        return Ok(true);
    }
    let moves = tx.query_map(
        "SELECT mv FROM moves WHERE game_id = ?1 AND ply < ?2 ORDER BY ply",
        params![game_id, EXPLORER_PLIES as u32],
        |r| r.get::<String>(0),
    )?;
    // A rated game has both players' ratings before it in its history (written just before, in the same
    // transaction, by the ratings' settlement).
    let (players, sum) = tx.query_one(
        "SELECT COUNT(*), SUM(rating_before) FROM rating_history WHERE game_id = ?1",
        params![game_id],
        |r| Ok((r.get::<i64>(0)?, r.get::<Option<f64>>(1)?)),
    )?;
    let rating = match (players, sum) {
        (2, Some(sum)) => Some((sum / 2.0).round() as i64),
        _ => None,
    };
    count_on(
        tx,
        &OpeningGame {
            rules,
            moves,
            winner: winner.as_deref().and_then(side_from_name),
            rating,
        },
    )?;
    Ok(true)
}

impl Store {
    /// The moves played from a position (its [`Position::hash`]) under `rules` in the games the index has
    /// counted, the most played first.
    ///
    /// # Errors
    /// When the database fails or a row does not read.
    pub fn opening_moves(&self, rules: &Rules, hash: u64) -> Result<Vec<OpeningMove>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT mv, games, blue_wins, draws, red_wins, rating_sum, rated_games FROM opening_moves
                 WHERE rules = ?1 AND hash = ?2 ORDER BY games DESC, mv",
                params![rules.to_string(), position_key(hash)],
                |r| {
                    Ok(OpeningMove {
                        mv: r.get(0)?,
                        games: r.get(1)?,
                        blue_wins: r.get(2)?,
                        draws: r.get(3)?,
                        red_wins: r.get(4)?,
                        rating_sum: r.get(5)?,
                        rated_games: r.get(6)?,
                    })
                },
            )
        })
    }

    /// Counts games in the index directly, in one transaction, without storing them as games (for
    /// benchmarks that fill the index with generated games; the server's games are counted as they end).
    ///
    /// # Errors
    /// When the database fails.
    pub fn count_openings(&self, games: &[OpeningGame]) -> Result<(), StoreError> {
        self.transaction(|tx| games.iter().try_for_each(|g| count_on(tx, g)))
    }

    /// Counts in the index the finished games it has not taken in yet (those that ended before it existed),
    /// a batch a transaction; how many games it took in. Run when the store opens; a second run finds none.
    /// It stops at a batch of which it took none in (games whose rows do not read, or that another node's
    /// backfill took first), so damaged games can never keep it going round.
    ///
    /// # Errors
    /// When the database fails.
    pub fn backfill_openings(&self) -> Result<usize, StoreError> {
        let mut taken = 0;
        loop {
            let (selected, took) = self.transaction(|tx| {
                let ids = tx.query_map(
                    "SELECT g.id FROM games g
                     WHERE g.finished_at IS NOT NULL AND g.mode = 'friend' AND g.result != '*'
                        AND g.damaged IS NULL
                        AND NOT EXISTS (SELECT 1 FROM opening_games o WHERE o.game_id = g.id)
                     ORDER BY g.finished_at LIMIT ?1",
                    params![BACKFILL_BATCH],
                    |r| r.get::<String>(0),
                )?;
                let mut took = 0;
                for id in &ids {
                    took += usize::from(index_on(tx, id)?);
                }
                Ok::<_, StoreError>((ids.len(), took))
            })?;
            taken += took;
            if selected < BACKFILL_BATCH as usize || took == 0 {
                return Ok(taken);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{on_both_backends, record};
    use crate::tests::a_move;

    /// Stores a friend game under the standard rules from the start with `moves`, and its ending.
    fn finished(store: &Store, id: &str, moves: &[&str], result: &str, winner: Option<&str>) {
        store.insert_game(&record(id)).unwrap();
        for (ply, mv) in moves.iter().enumerate() {
            store.insert_move(id, &a_move(ply as u32, mv)).unwrap();
        }
        let termination = if result == "*" {
            "aborted"
        } else {
            "resignation"
        };
        assert!(
            store
                .finish(id, moves.len() as u32, result, winner, termination)
                .unwrap()
        );
    }

    /// The explorer's moves after `moves` from the standard start.
    fn explored(store: &Store, moves: &[&str]) -> Vec<(String, u64, u64, u64, u64)> {
        let rules = Rules::default();
        let mut game = Game::new(rules.clone());
        for mv in moves {
            game.play_text(mv).unwrap();
        }
        store
            .opening_moves(&rules, game.position().hash())
            .unwrap()
            .into_iter()
            .map(|m| (m.mv, m.games, m.blue_wins, m.draws, m.red_wins))
            .collect()
    }

    fn row(mv: &str, games: u64, blue: u64, draws: u64, red: u64) -> (String, u64, u64, u64, u64) {
        (mv.to_string(), games, blue, draws, red)
    }

    #[test]
    fn a_game_whose_record_does_not_read_is_left_out_and_its_ending_still_stored() {
        // SQLite lets a hand edit put a blob where the rules' text belongs.
        let store = crate::testing::TestStore::sqlite();
        store.insert_game(&record("g1")).unwrap();
        store.insert_move("g1", &a_move(0, "a3a4")).unwrap();
        store
            .execute_raw("UPDATE games SET rules = X'00' WHERE id = 'g1'")
            .unwrap();
        assert!(
            store
                .finish("g1", 1, "1-0", Some("blue"), "resignation")
                .unwrap()
        );
        assert_eq!(store.backfill_openings().unwrap(), 0);
        assert!(explored(&store, &[]).is_empty());
    }

    on_both_backends! {
        fn finished_games_add_their_plies_with_their_scores(store) {
            finished(store, "g1", &["a3a4", "g7g6", "a4a5"], "1-0", Some("blue"));
            finished(store, "g2", &["a3a4", "g7g6"], "1/2-1/2", None);
            finished(store, "g3", &["a3a4", "a7a6"], "0-1", Some("red"));
            finished(store, "g4", &["g3g4"], "0-1", Some("red"));
            assert_eq!(explored(store, &[]), [row("a3a4", 3, 1, 1, 1), row("g3g4", 1, 0, 0, 1)]);
            assert_eq!(explored(store, &["a3a4"]), [row("g7g6", 2, 1, 1, 0), row("a7a6", 1, 0, 0, 1)]);
            assert_eq!(explored(store, &["a3a4", "g7g6"]), [row("a4a5", 1, 1, 0, 0)]);
            assert!(explored(store, &["a3a4", "g7g6", "a4a5"]).is_empty());
            // Other rules have an index of their own.
            let modern: Rules = "modern".parse().unwrap();
            assert!(store.opening_moves(&modern, Position::start(&modern).hash()).unwrap().is_empty());
        }

        fn aborted_engine_and_unfinished_games_add_nothing(store) {
            finished(store, "aborted", &["a3a4"], "*", None);
            let mut engine = record("engine");
            engine.mode = "engine".into();
            store.insert_game(&engine).unwrap();
            store.insert_move("engine", &a_move(0, "a3a4")).unwrap();
            assert!(store.finish("engine", 1, "1-0", Some("blue"), "resignation").unwrap());
            store.insert_game(&record("open")).unwrap();
            store.insert_move("open", &a_move(0, "a3a4")).unwrap();
            assert!(explored(store, &[]).is_empty());
            assert_eq!(store.backfill_openings().unwrap(), 0);
            assert!(explored(store, &[]).is_empty());
        }

        fn rated_games_add_their_players_mean_rating_and_casual_ones_none(store) {
            let ann = store.insert_account("ann", "h").unwrap().unwrap();
            let bo = store.insert_account("bo", "h").unwrap().unwrap();
            for (id, rated) in [("g1", true), ("g2", true), ("g3", false)] {
                store.insert_game(&record(id)).unwrap();
                if rated {
                    let players = jungle_rules::BySide::new(ann.id, bo.id);
                    store.mark_rated(id, players, crate::Category::Blitz).unwrap();
                }
                store.insert_move(id, &a_move(0, "a3a4")).unwrap();
                assert!(store.finish(id, 1, "1-0", Some("blue"), "resignation").unwrap());
            }
            let start = Position::start(&Rules::default()).hash();
            let counted = &store.opening_moves(&Rules::default(), start).unwrap()[0];
            assert_eq!((counted.games, counted.rated_games), (3, 2));
            // Two newcomers, then the same two after one game: one's gain is the other's loss, so both
            // games' means are a newcomer's rating.
            let newcomer = crate::rating_rule::SETTINGS.initial.rating().round() as i64;
            assert_eq!(counted.rating_sum, 2 * newcomer);
        }

        fn a_repeated_position_counts_its_game_once(store) {
            // Both sides step a piece out and back three times: the start comes back with the same move.
            let moves: Vec<&str> = ["g1g2", "a9a8", "g2g1", "a8a9"].repeat(3);
            finished(store, "g1", &moves, "1/2-1/2", None);
            assert_eq!(explored(store, &[]), [row("g1g2", 1, 0, 1, 0)]);
            assert_eq!(explored(store, &["g1g2"]), [row("a9a8", 1, 0, 1, 0)]);
        }

        fn only_the_first_plies_of_a_game_count(store) {
            // A long game of legal moves picked by a fixed rule, none of its positions repeated.
            let rules = Rules::default();
            let mut game = Game::new(rules.clone());
            let mut moves = Vec::new();
            let mut seen = std::collections::HashSet::new();
            while moves.len() <= EXPLORER_PLIES {
                seen.insert(game.position().hash());
                let legal = game.legal_moves();
                let m = (0..legal.len())
                    .map(|i| legal[(i + moves.len() * 7) % legal.len()])
                    .find(|m| !seen.contains(&game.position().after(*m).hash()))
                    .expect("a move to a new position");
                game.play(m).unwrap();
                moves.push(m.to_string());
            }
            let counted = OpeningGame { rules: rules.clone(), moves, winner: None, rating: None };
            store.count_openings(std::slice::from_ref(&counted)).unwrap();
            let after = |plies: usize| {
                let mut game = Game::new(rules.clone());
                for m in &counted.moves[..plies] {
                    game.play_text(m).unwrap();
                }
                store.opening_moves(&rules, game.position().hash()).unwrap()
            };
            let last = EXPLORER_PLIES - 1;
            assert_eq!(after(last)[0].mv, counted.moves[last], "the last ply counted");
            assert!(after(EXPLORER_PLIES).is_empty(), "the next is not");
        }

        fn the_backfill_counts_games_that_ended_before_the_index_once(store) {
            finished(store, "g1", &["a3a4", "g7g6"], "1-0", Some("blue"));
            finished(store, "g2", &["a3a4"], "0-1", Some("red"));
            // As before the migration: the index empty, nothing taken in.
            store.execute_raw("DELETE FROM opening_moves; DELETE FROM opening_games").unwrap();
            assert!(explored(store, &[]).is_empty());
            assert_eq!(store.backfill_openings().unwrap(), 2);
            assert_eq!(store.backfill_openings().unwrap(), 0, "a second run finds nothing");
            assert_eq!(explored(store, &[]), [row("a3a4", 2, 1, 0, 1)]);
            // A game ending after the backfill is counted by its ending, and by nothing else.
            finished(store, "g3", &["a3a4"], "1/2-1/2", None);
            assert_eq!(store.backfill_openings().unwrap(), 0);
            assert_eq!(explored(store, &[]), [row("a3a4", 3, 1, 1, 1)]);
        }

        fn counted_games_fill_the_index_directly(store) {
            let game = |moves: &[&str], winner, rating| OpeningGame {
                rules: Rules::default(),
                moves: moves.iter().map(|m| m.to_string()).collect(),
                winner,
                rating,
            };
            store
                .count_openings(&[
                    game(&["a3a4"], Some(Side::Blue), Some(1600)),
                    game(&["a3a4", "g7g6"], Some(Side::Red), Some(1400)),
                    game(&["a3a4", "nonsense", "a4a5"], None, None),
                ])
                .unwrap();
            let start = Position::start(&Rules::default()).hash();
            let moves = store.opening_moves(&Rules::default(), start).unwrap();
            assert_eq!(
                moves,
                [OpeningMove {
                    mv: "a3a4".into(),
                    games: 3,
                    blue_wins: 1,
                    draws: 1,
                    red_wins: 1,
                    rating_sum: 3000,
                    rated_games: 2,
                }]
            );
        }
    }
}
