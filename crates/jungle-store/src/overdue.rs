//! Games whose clock ran out, or that never began, while no node held them (their node died and nobody has
//! opened them since): a sweep that every node of a cluster runs finds them and decides them. Each sweep
//! claims the games it looks at — PostgreSQL's `FOR UPDATE SKIP LOCKED`, so nodes sweeping at the same moment
//! share the games out instead of queueing on them; SQLite's write transaction, one sweep at a time — and
//! writes each ending in the same transaction, under the row lock a move's insert takes: a game is decided
//! once, and never beside a move made at that moment.

use super::db::{Conn, RowLock, params};
use super::{GameRecord, MoveRecord, Store, StoreError, finish_on, game_on, moves_on};

/// A game in progress as a sweep reads it, its row locked until the sweep's transaction ends.
#[derive(Clone, Debug)]
pub struct Unattended {
    pub record: GameRecord,
    pub moves: Vec<MoveRecord>,
    /// When its last move was played (Unix ms); none before the first.
    pub last_move_at: Option<i64>,
    /// A node holds the engine's job in the game and its lease has not run out: the engine is thinking.
    pub engine_working: bool,
}

/// The ending a sweep decided for a game, as [`Store::finish`] stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub result: &'static str,
    pub winner: Option<&'static str>,
    pub termination: &'static str,
}

/// Which games a sweep looks at, at `now` (Unix ms): those not begun (fewer than `opening_plies` moves)
/// untouched for longer than `not_begun_ms`, and those whose side with the least time left after the last
/// move ran out more than `grace_ms` ago — a superset of the overdue ones (the side to move is worked out from
/// the game itself, by the caller). At most `limit` of them per sweep.
#[derive(Clone, Copy, Debug)]
pub struct Sweep {
    pub now: i64,
    pub opening_plies: u32,
    pub not_begun_ms: i64,
    pub grace_ms: i64,
    pub limit: u32,
}

/// What a sweep did: the games it decided, and those it found damaged — a row that does not read, or a game
/// `decide` refused as such — with why, left undecided for the caller to quarantine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub decided: Vec<String>,
    pub damaged: Vec<(String, String)>,
}

/// What a sweep's `decide` says of a game: its ending (`Ok(None)`: not overdue), or why it is damaged.
pub type Verdict = Result<Option<Ending>, String>;

impl Store {
    /// Claims the games in progress that may be overdue ([`Sweep`]), hands each to `decide` and stores the
    /// ending it gives, all in one transaction. A game another node's sweep holds is passed over, and one
    /// that ended or moved meanwhile is not decided. A damaged game does not stop the sweep: it is reported
    /// in [`Swept::damaged`] and the others are decided.
    pub fn decide_overdue(
        &self,
        sweep: Sweep,
        decide: &mut dyn FnMut(&Unattended) -> Verdict,
    ) -> Result<Swept, StoreError> {
        self.transaction(|tx| {
            let sql = format!(
                "SELECT g.id FROM games g
                 WHERE g.result IS NULL AND g.damaged IS NULL AND g.mode != 'import' AND g.deadline_at IS NULL
                    AND CASE
                        WHEN NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.ply >= ?2)
                            THEN COALESCE((SELECT MAX(m.played_at) FROM moves m WHERE m.game_id = g.id),
                                g.created_at) + ?3
                        WHEN g.clock_initial_ms IS NULL THEN NULL
                        ELSE (SELECT m.played_at
                                + CASE WHEN m.blue_ms < m.red_ms THEN m.blue_ms ELSE m.red_ms END
                              FROM moves m WHERE m.game_id = g.id ORDER BY m.ply DESC LIMIT 1) + ?4
                    END < ?1
                 ORDER BY g.created_at LIMIT ?5{}",
                tx.row_lock(RowLock::SkipLocked)
            );
            let ids: Vec<String> = tx.query_readable(
                &sql,
                params![
                    sweep.now,
                    sweep.opening_plies.saturating_sub(1),
                    sweep.not_begun_ms,
                    sweep.grace_ms,
                    sweep.limit
                ],
                |r| r.get(0),
            )?;
            let mut swept = Swept::default();
            for id in ids {
                let game = match unattended_on(tx, &id, sweep.now) {
                    Ok(Some(game)) => game,
                    Ok(None) => continue,
                    Err(e) if e.is_unreadable() => {
                        swept.damaged.push((id, e.to_string()));
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                let ending = match decide(&game) {
                    Ok(Some(ending)) => ending,
                    Ok(None) => continue,
                    Err(reason) => {
                        swept.damaged.push((id, reason));
                        continue;
                    }
                };
                let plies = game.moves.len() as u32;
                if finish_on(tx, &id, plies, ending.result, ending.winner, ending.termination)? {
                    swept.decided.push(id);
                }
            }
            Ok(swept)
        })
    }
}

/// A game as a sweep reads it, inside the sweep's transaction `tx`; `None` when it is gone.
fn unattended_on(tx: &dyn Conn, id: &str, now: i64) -> Result<Option<Unattended>, StoreError> {
    let Some(record) = game_on(tx, id)? else {
        return Ok(None);
    };
    Ok(Some(Unattended {
        moves: moves_on(tx, id)?,
        last_move_at: tx.query_opt(
            "SELECT played_at FROM moves WHERE game_id = ?1 ORDER BY ply DESC LIMIT 1",
            params![id],
            |r| r.get(0),
        )?,
        engine_working: tx
            .query_opt(
                "SELECT 1 FROM engine_jobs WHERE game_id = ?1 AND lease_until > ?2",
                params![id, now],
                |r| r.get::<i64>(0).map(|_| ()),
            )?
            .is_some(),
        record,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::now_ms;
    use crate::testing::on_both_backends;
    use crate::tests::record;

    const MINUTE: i64 = 60_000;

    /// A game of `minutes` a side (none: untimed) with `plies` moves, each leaving both sides their time.
    fn stored(store: &Store, id: &str, minutes: Option<u64>, plies: u32) {
        let record = GameRecord {
            clock_initial_ms: minutes.map(|m| m * 60_000),
            clock_increment_ms: minutes.map(|_| 0),
            ..record(id)
        };
        store.insert_game(&record).unwrap();
        for (ply, mv) in ["a3a4", "g7g6", "a4a5"]
            .into_iter()
            .enumerate()
            .take(plies as usize)
        {
            let time = record.clock_initial_ms;
            let m = MoveRecord {
                ply: ply as u32,
                mv: mv.into(),
                blue_ms: time,
                red_ms: time,
            };
            store.insert_move(id, &m).unwrap();
        }
    }

    fn sweep(now: i64) -> Sweep {
        Sweep {
            now,
            opening_plies: 2,
            not_begun_ms: 30 * MINUTE,
            grace_ms: 5_000,
            limit: 100,
        }
    }

    /// Decides every game a sweep hands over as a time forfeit: which the store offered is the question.
    fn flag_all(_: &Unattended) -> Verdict {
        Ok(Some(Ending {
            result: "0-1",
            winner: Some("red"),
            termination: "time forfeit",
        }))
    }

    on_both_backends! {
        fn a_sweep_looks_only_at_games_that_may_be_overdue_and_decides_each_once(store) {
            stored(store, "one-minute", Some(1), 2);
            stored(store, "ten-minutes", Some(10), 2);
            stored(store, "untimed", None, 3);
            stored(store, "not-begun", Some(1), 1);
            stored(store, "over", Some(1), 2);
            assert!(store.finish("over", 2, "1-0", Some("blue"), "resignation").unwrap());
            let now = now_ms();
            assert!(store.decide_overdue(sweep(now), &mut flag_all).unwrap().decided.is_empty());
            // Two minutes on: the one-minute game's clock ran out (whoever is to move).
            let later = now + 2 * MINUTE;
            let mut seen = Vec::new();
            let decided = store
                .decide_overdue(sweep(later), &mut |game| {
                    seen.push(game.record.id.clone());
                    flag_all(game)
                })
                .unwrap()
                .decided;
            assert_eq!((seen.as_slice(), decided.as_slice()), (&["one-minute".to_string()][..], &["one-minute".to_string()][..]));
            assert_eq!(store.game("one-minute").unwrap().unwrap().termination.as_deref(), Some("time forfeit"));
            assert!(store.decide_overdue(sweep(later), &mut flag_all).unwrap().decided.is_empty(), "decided once");
            // The game not begun, half an hour after its move.
            let mut decided = store.decide_overdue(sweep(now + 31 * MINUTE), &mut flag_all).unwrap().decided;
            decided.sort();
            assert_eq!(decided, ["not-begun", "ten-minutes"]);
        }

        fn a_damaged_game_is_reported_and_the_others_are_decided(store) {
            for id in ["g1", "unreadable", "refused"] {
                stored(store, id, Some(1), 2);
            }
            // A clock that is no number of milliseconds (a hand-edited database).
            store.execute_raw("UPDATE moves SET blue_ms = -5 WHERE game_id = 'unreadable'").unwrap();
            let later = now_ms() + 2 * MINUTE;
            let mut swept = store
                .decide_overdue(sweep(later), &mut |game| match game.record.id.as_str() {
                    "refused" => Err("does not replay".into()),
                    _ => flag_all(game),
                })
                .unwrap();
            swept.damaged.sort();
            assert_eq!(swept.decided, ["g1"]);
            assert_eq!(swept.damaged[0], ("refused".to_string(), "does not replay".to_string()));
            assert_eq!(swept.damaged[1].0, "unreadable");
            assert!(swept.damaged[1].1.contains("blue_ms holds -5"), "{}", swept.damaged[1].1);
            assert_eq!(store.game("refused").unwrap().unwrap().result, None, "left undecided");
        }

        fn a_game_whose_engine_is_thinking_is_handed_over_as_such(store) {
            stored(store, "g1", Some(1), 2);
            let now = now_ms();
            store.claim_engine_job("g1", 2, "a", now, now + 10 * MINUTE).unwrap();
            let mut working = None;
            store
                .decide_overdue(sweep(now + 2 * MINUTE), &mut |game| {
                    working = Some(game.engine_working);
                    Ok(None)
                })
                .unwrap();
            assert_eq!(working, Some(true));
            assert_eq!(store.game("g1").unwrap().unwrap().result, None, "nothing decided");
        }

        fn of_sweeps_on_several_nodes_at_once_each_game_is_decided_once(store) {
            for i in 0..20 {
                stored(store, &format!("g{i}"), Some(1), 2);
            }
            let later = now_ms() + 2 * MINUTE;
            let decided: Vec<String> = std::thread::scope(|s| {
                let sweeps: Vec<_> = (0..3)
                    .map(|_| s.spawn(|| store.decide_overdue(sweep(later), &mut flag_all).unwrap().decided))
                    .collect();
                sweeps.into_iter().flat_map(|t| t.join().unwrap()).collect()
            });
            assert_eq!(decided.len(), 20, "each game decided by one sweep: {decided:?}");
            let mut games = decided;
            games.sort();
            games.dedup();
            assert_eq!(games.len(), 20);
        }
    }
}
