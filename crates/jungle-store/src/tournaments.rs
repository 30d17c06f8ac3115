//! Tournaments' tables: the tournaments, their players, Swiss byes and the link from a game to its tournament
//! and round. Pairing is decided by the database: a round's games are created in the transaction that moves
//! `current_round` from N to N+1 (`UPDATE … WHERE current_round = N`), so of several nodes pairing the same
//! round at once exactly one creates games ([`Store::create_round`]). Scores are not stored: they are
//! recomputed from the results of the tournament's games ([`Store::tournament_games`]).

use jungle_rules::BySide;

use super::db::{Row, params};
use super::{
    Category, GameRecord, MarkRatedError, Store, StoreError, insert_game_on, mark_rated_on,
};

/// A Swiss event (a number of rounds) or an arena (a length).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TournamentKind {
    Swiss { rounds: u32 },
    Arena { duration_ms: u64 },
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    Upcoming,
    Running,
    Finished,
}

impl TournamentStatus {
    pub const fn name(self) -> &'static str {
        match self {
            TournamentStatus::Upcoming => "upcoming",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
        }
    }

    fn from_name(name: &str) -> Option<TournamentStatus> {
        [
            TournamentStatus::Upcoming,
            TournamentStatus::Running,
            TournamentStatus::Finished,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Tournament {
    pub id: String,
    pub name: String,
    pub creator_id: i64,
    pub creator_name: String,
    /// The canonical rule option string.
    pub rules: String,
    pub clock_initial_ms: u64,
    pub clock_increment_ms: u64,
    #[serde(flatten)]
    pub kind: TournamentKind,
    /// Unix ms.
    pub starts_at: i64,
    pub rated: bool,
    pub status: TournamentStatus,
    /// The last Swiss round (or arena pairing wave) created; 0 before the first.
    pub current_round: u32,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

impl Tournament {
    /// When an arena ends (its start plus its length); `None` for a Swiss event, which ends with its rounds.
    pub fn ends_at(&self) -> Option<i64> {
        match self.kind {
            TournamentKind::Arena { duration_ms } => Some(
                self.starts_at
                    .saturating_add(i64::try_from(duration_ms).unwrap_or(i64::MAX)),
            ),
            TournamentKind::Swiss { .. } => None,
        }
    }
}

const TOURNAMENT_COLUMNS: &str = "id, name, creator_id, creator_name, rules, clock_initial_ms, \
    clock_increment_ms, kind, rounds, duration_ms, starts_at, rated, status, current_round, created_at, \
    finished_at";

fn tournament_of_row(r: &Row) -> Result<Tournament, StoreError> {
    let kind: String = r.get(7)?;
    let kind = match (
        kind.as_str(),
        r.get::<Option<u32>>(8)?,
        r.get::<Option<u64>>(9)?,
    ) {
        ("swiss", Some(rounds), _) => TournamentKind::Swiss { rounds },
        ("arena", _, Some(duration_ms)) => TournamentKind::Arena { duration_ms },
        (other, ..) => {
            return Err(StoreError::Unreadable(format!(
                "tournament kind {other:?} without its length"
            )));
        }
    };
    let status: String = r.get(12)?;
    Ok(Tournament {
        id: r.get(0)?,
        name: r.get(1)?,
        creator_id: r.get(2)?,
        creator_name: r.get(3)?,
        rules: r.get(4)?,
        clock_initial_ms: r.get(5)?,
        clock_increment_ms: r.get(6)?,
        kind,
        starts_at: r.get(10)?,
        rated: r.get(11)?,
        status: TournamentStatus::from_name(&status)
            .ok_or_else(|| StoreError::Unreadable(format!("tournament status {status:?}")))?,
        current_round: r.get(13)?,
        created_at: r.get(14)?,
        finished_at: r.get(15)?,
    })
}

/// An entrant.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TournamentPlayer {
    pub user_id: i64,
    pub name: String,
    pub joined_at: i64,
    /// False for an arena player who left (for now) or a withdrawn Swiss player.
    pub active: bool,
}

/// A game of a tournament, with what the standings need of it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TournamentGame {
    pub id: String,
    pub round: u32,
    #[serde(skip)]
    pub players: BySide<i64>,
    pub blue_name: Option<String>,
    pub red_name: Option<String>,
    /// "1-0", "0-1", "1/2-1/2", or "*" for an aborted game; `None` while it is played.
    pub result: Option<String>,
    pub winner: Option<String>,
    pub plies: u32,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

impl TournamentGame {
    /// Whether the game was aborted (it counts for nobody).
    pub fn aborted(&self) -> bool {
        self.result.as_deref() == Some("*")
    }
}

/// One new game of a round: its record and the accounts on each side.
#[derive(Clone, Debug)]
pub struct RoundGame {
    pub record: GameRecord,
    pub players: BySide<i64>,
}

/// What joining answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// Entered (or, for an arena player who had left, back in).
    Entered,
    AlreadyIn,
    Full,
}

impl Store {
    pub fn insert_tournament(&self, t: &Tournament) -> Result<(), StoreError> {
        let (kind, rounds, duration) = match t.kind {
            TournamentKind::Swiss { rounds } => ("swiss", Some(rounds), None),
            TournamentKind::Arena { duration_ms } => ("arena", None, Some(duration_ms)),
        };
        self.with(|conn| {
            conn.execute(
                "INSERT INTO tournaments (id, name, creator_id, creator_name, rules, clock_initial_ms,
                    clock_increment_ms, kind, rounds, duration_ms, starts_at, rated, status, current_round,
                    created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    t.id,
                    t.name,
                    t.creator_id,
                    t.creator_name,
                    t.rules,
                    t.clock_initial_ms,
                    t.clock_increment_ms,
                    kind,
                    rounds,
                    duration,
                    t.starts_at,
                    t.rated,
                    t.status.name(),
                    t.current_round,
                    t.created_at
                ],
            )
        })?;
        Ok(())
    }

    pub fn tournament(&self, id: &str) -> Result<Option<Tournament>, StoreError> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?1");
        self.with(|conn| conn.query_opt(&sql, params![id], tournament_of_row))
    }

    /// The tournaments in `status`, soonest start first (the newest first for finished ones); a damaged row is
    /// left out.
    pub fn tournaments(
        &self,
        status: TournamentStatus,
        limit: u32,
    ) -> Result<Vec<Tournament>, StoreError> {
        let order = match status {
            TournamentStatus::Finished => "finished_at DESC",
            _ => "starts_at",
        };
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status = ?1 ORDER BY {order}, id LIMIT ?2"
        );
        self.with(|conn| {
            conn.query_readable(&sql, params![status.name(), limit], tournament_of_row)
        })
    }

    /// How many tournaments `creator_id` created since `since`, and how many of theirs are not finished.
    pub fn tournaments_created_by(
        &self,
        creator_id: i64,
        since: i64,
    ) -> Result<(u32, u32), StoreError> {
        self.with(|conn| {
            conn.query_one(
                "SELECT coalesce(SUM(CASE WHEN created_at >= ?2 THEN 1 ELSE 0 END), 0),
                        coalesce(SUM(CASE WHEN status != 'finished' THEN 1 ELSE 0 END), 0)
                 FROM tournaments WHERE creator_id = ?1",
                params![creator_id, since],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
    }

    /// Enters `user_id` in a tournament of at most `max_players` (an arena player who had left is back in).
    pub fn join_tournament(
        &self,
        id: &str,
        user_id: i64,
        name: &str,
        now: i64,
        max_players: u32,
    ) -> Result<Joined, StoreError> {
        self.transaction(|tx| {
            let entered = tx.query_opt(
                "SELECT active FROM tournament_players WHERE tournament_id = ?1 AND user_id = ?2",
                params![id, user_id],
                |r| r.get::<bool>(0),
            )?;
            match entered {
                Some(true) => return Ok(Joined::AlreadyIn),
                Some(false) => {
                    tx.execute(
                        "UPDATE tournament_players SET active = 1 WHERE tournament_id = ?1 AND user_id = ?2",
                        params![id, user_id],
                    )?;
                    return Ok(Joined::Entered);
                }
                None => {}
            }
            let count: u32 = tx.query_one(
                "SELECT COUNT(*) FROM tournament_players WHERE tournament_id = ?1",
                params![id],
                |r| r.get(0),
            )?;
            if count >= max_players {
                return Ok(Joined::Full);
            }
            tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at, active)
                 VALUES (?1, ?2, ?3, ?4, 1)",
                params![id, user_id, name, now],
            )?;
            Ok(Joined::Entered)
        })
    }

    /// Marks an entrant as playing or not (an arena player leaving or back, a Swiss player withdrawing);
    /// whether they were entered.
    pub fn set_tournament_player_active(
        &self,
        id: &str,
        user_id: i64,
        active: bool,
    ) -> Result<bool, StoreError> {
        let n = self.with(|conn| {
            conn.execute(
                "UPDATE tournament_players SET active = ?3 WHERE tournament_id = ?1 AND user_id = ?2",
                params![id, user_id, active],
            )
        })?;
        Ok(n == 1)
    }

    /// A Swiss player who has not played yet leaves the event altogether; whether they were entered.
    pub fn remove_tournament_player(&self, id: &str, user_id: i64) -> Result<bool, StoreError> {
        let n = self.with(|conn| {
            conn.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ?1 AND user_id = ?2",
                params![id, user_id],
            )
        })?;
        Ok(n == 1)
    }

    /// The entrants, in the order they joined.
    pub fn tournament_players(&self, id: &str) -> Result<Vec<TournamentPlayer>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT user_id, name, joined_at, active FROM tournament_players WHERE tournament_id = ?1
                 ORDER BY joined_at, user_id",
                params![id],
                |r| {
                    Ok(TournamentPlayer {
                        user_id: r.get(0)?,
                        name: r.get(1)?,
                        joined_at: r.get(2)?,
                        active: r.get(3)?,
                    })
                },
            )
        })
    }

    /// The tournament's games, in the order they were created.
    pub fn tournament_games(&self, id: &str) -> Result<Vec<TournamentGame>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT id, tournament_round, blue_user_id, red_user_id, blue_name, red_name, result, winner,
                    plies, created_at, finished_at
                 FROM games WHERE tournament_id = ?1 ORDER BY tournament_round, created_at, id",
                params![id],
                |r| {
                    Ok(TournamentGame {
                        id: r.get(0)?,
                        round: r.get(1)?,
                        players: BySide::new(r.get(2)?, r.get(3)?),
                        blue_name: r.get(4)?,
                        red_name: r.get(5)?,
                        result: r.get(6)?,
                        winner: r.get(7)?,
                        plies: r.get(8)?,
                        created_at: r.get(9)?,
                        finished_at: r.get(10)?,
                    })
                },
            )
        })
    }

    /// The Swiss byes: `(round, account)`.
    pub fn tournament_byes(&self, id: &str) -> Result<Vec<(u32, i64)>, StoreError> {
        self.with(|conn| {
            conn.query_map(
                "SELECT round, user_id FROM tournament_byes WHERE tournament_id = ?1 ORDER BY round",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
    }

    /// A game's tournament and round, if it is a tournament game.
    pub fn tournament_of_game(&self, game_id: &str) -> Result<Option<(String, u32)>, StoreError> {
        let found = self.with(|conn| {
            conn.query_opt(
                "SELECT tournament_id, tournament_round FROM games WHERE id = ?1",
                params![game_id],
                |r| Ok((r.get::<Option<String>>(0)?, r.get::<Option<u32>>(1)?)),
            )
        })?;
        Ok(match found {
            Some((Some(id), Some(round))) => Some((id, round)),
            _ => None,
        })
    }

    /// The upcoming tournaments whose start has come and the running ones: the sweep's work.
    pub fn tournaments_due(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.with(|conn| {
            conn.query_readable(
                "SELECT id FROM tournaments
                 WHERE status = 'running' OR (status = 'upcoming' AND starts_at <= ?1)
                 ORDER BY starts_at, id",
                params![now],
                |r| r.get(0),
            )
        })
    }

    /// Starts an upcoming tournament whose start has come; whether this call started it.
    pub fn start_tournament(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let n = self.with(|conn| {
            conn.execute(
                "UPDATE tournaments SET status = 'running'
                 WHERE id = ?1 AND status = 'upcoming' AND starts_at <= ?2",
                params![id, now],
            )
        })?;
        Ok(n == 1)
    }

    /// Ends a running tournament; whether this call ended it.
    pub fn finish_tournament(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let n = self.with(|conn| {
            conn.execute(
                "UPDATE tournaments SET status = 'finished', finished_at = ?2
                 WHERE id = ?1 AND status = 'running'",
                params![id, now],
            )
        })?;
        Ok(n == 1)
    }

    /// Creates round `after + 1` of a running tournament — its games (rated in `rated` when given) and its
    /// bye — in one transaction that first moves `current_round` from `after`: when another node moved it
    /// first, nothing is written and the answer is `false`.
    ///
    /// # Errors
    /// When the database fails, or the ratings refuse a game (then nothing is written).
    pub fn create_round(
        &self,
        id: &str,
        after: u32,
        games: &[RoundGame],
        bye: Option<i64>,
        rated: Option<Category>,
    ) -> Result<bool, MarkRatedError> {
        let round = after + 1;
        self.transaction(|tx| {
            let moved = tx.execute(
                "UPDATE tournaments SET current_round = ?3
                 WHERE id = ?1 AND current_round = ?2 AND status = 'running'",
                params![id, after, round],
            )?;
            if moved == 0 {
                return Ok(false);
            }
            for game in games {
                insert_game_on(tx, &game.record)?;
                tx.execute(
                    "UPDATE games SET blue_user_id = ?2, red_user_id = ?3, tournament_id = ?4,
                        tournament_round = ?5
                     WHERE id = ?1",
                    params![
                        game.record.id,
                        game.players.blue,
                        game.players.red,
                        id,
                        round
                    ],
                )?;
                if let Some(category) = rated {
                    mark_rated_on(tx, &game.record.id, game.players, category)?;
                }
            }
            if let Some(user_id) = bye {
                tx.execute(
                    "INSERT INTO tournament_byes (tournament_id, round, user_id) VALUES (?1, ?2, ?3)",
                    params![id, round, user_id],
                )?;
            }
            Ok(true)
        })
    }
}

#[cfg(test)]
mod tests {
    use jungle_rules::BySide;

    use super::*;
    use crate::testing::on_both_backends;
    use crate::tests::record;

    fn account(store: &Store, name: &str) -> i64 {
        store.insert_account(name, "hash").unwrap().unwrap().id
    }

    fn swiss(id: &str, creator: i64) -> Tournament {
        Tournament {
            id: id.into(),
            name: "Friday Swiss".into(),
            creator_id: creator,
            creator_name: "ann".into(),
            rules: "standard".into(),
            clock_initial_ms: 180_000,
            clock_increment_ms: 2_000,
            kind: TournamentKind::Swiss { rounds: 3 },
            starts_at: 1_000,
            rated: true,
            status: TournamentStatus::Upcoming,
            current_round: 0,
            created_at: 500,
            finished_at: None,
        }
    }

    fn round_game(id: &str, blue: i64, red: i64) -> RoundGame {
        let mut game = record(id);
        game.red_token = Some("r".into());
        RoundGame {
            record: game,
            players: BySide::new(blue, red),
        }
    }

    on_both_backends! {
        fn a_tournament_is_stored_joined_and_listed(store) {
            let ann = account(store, "ann");
            let bob = account(store, "bob");
            store.insert_tournament(&swiss("t1", ann)).unwrap();
            let mut arena = swiss("t2", ann);
            arena.kind = TournamentKind::Arena { duration_ms: 600_000 };
            arena.starts_at = 5_000;
            store.insert_tournament(&arena).unwrap();
            assert_eq!(store.tournament("t1").unwrap().unwrap(), swiss("t1", ann));
            assert_eq!(store.tournament("t2").unwrap().unwrap().kind, TournamentKind::Arena { duration_ms: 600_000 });
            assert!(store.tournament("nope").unwrap().is_none());
            let upcoming: Vec<String> =
                store.tournaments(TournamentStatus::Upcoming, 10).unwrap().into_iter().map(|t| t.id).collect();
            assert_eq!(upcoming, ["t1", "t2"]);
            assert_eq!(store.tournaments_created_by(ann, 0).unwrap(), (2, 2));
            assert_eq!(store.tournaments_created_by(ann, 501).unwrap(), (0, 2));

            assert_eq!(store.join_tournament("t1", ann, "ann", 10, 2).unwrap(), Joined::Entered);
            assert_eq!(store.join_tournament("t1", ann, "ann", 11, 2).unwrap(), Joined::AlreadyIn);
            assert_eq!(store.join_tournament("t1", bob, "bob", 12, 2).unwrap(), Joined::Entered);
            let cid = account(store, "cid");
            assert_eq!(store.join_tournament("t1", cid, "cid", 13, 2).unwrap(), Joined::Full);
            assert!(store.set_tournament_player_active("t1", bob, false).unwrap());
            let players = store.tournament_players("t1").unwrap();
            assert_eq!(players.iter().map(|p| (p.name.as_str(), p.active)).collect::<Vec<_>>(),
                [("ann", true), ("bob", false)]);
            // Back in after leaving, even when the event is full.
            assert_eq!(store.join_tournament("t1", bob, "bob", 14, 2).unwrap(), Joined::Entered);
            assert!(store.remove_tournament_player("t1", bob).unwrap());
            assert!(!store.remove_tournament_player("t1", bob).unwrap());

            assert_eq!(store.tournaments_due(999).unwrap(), Vec::<String>::new());
            assert_eq!(store.tournaments_due(1_000).unwrap(), ["t1"]);
            assert!(!store.start_tournament("t2", 1_000).unwrap(), "not its time yet");
            assert!(store.start_tournament("t1", 1_000).unwrap());
            assert!(!store.start_tournament("t1", 1_000).unwrap(), "started once");
            assert_eq!(store.tournaments_due(1_000).unwrap(), ["t1"]);
            assert!(store.finish_tournament("t1", 2_000).unwrap());
            assert!(!store.finish_tournament("t1", 2_001).unwrap());
            let done = store.tournament("t1").unwrap().unwrap();
            assert_eq!((done.status, done.finished_at), (TournamentStatus::Finished, Some(2_000)));
        }

        fn a_round_is_created_once_and_its_games_are_linked_and_rated(store) {
            let ann = account(store, "ann");
            let bob = account(store, "bob");
            let cid = account(store, "cid");
            store.insert_tournament(&swiss("t1", ann)).unwrap();
            let games = [round_game("g1", ann, bob)];
            assert!(!store.create_round("t1", 0, &games, Some(cid), None).unwrap(), "not running yet");
            assert!(store.start_tournament("t1", 1_000).unwrap());
            assert!(store.create_round("t1", 0, &games, Some(cid), Some(Category::Blitz)).unwrap());
            // The same round decided again (another node, a moment later): refused, nothing written.
            assert!(!store.create_round("t1", 0, &[round_game("g2", bob, ann)], None, None).unwrap());
            assert!(store.game("g2").unwrap().is_none());
            assert_eq!(store.tournament("t1").unwrap().unwrap().current_round, 1);
            assert_eq!(store.tournament_of_game("g1").unwrap(), Some(("t1".to_string(), 1)));
            assert_eq!(store.tournament_of_game("nope").unwrap(), None);
            assert_eq!(store.tournament_byes("t1").unwrap(), [(1, cid)]);
            assert!(store.rated_game("g1").unwrap().is_some(), "rated like a lobby game");
            store.finish("g1", 0, "1-0", Some("blue"), "resignation").unwrap();
            let games = store.tournament_games("t1").unwrap();
            assert_eq!(games.len(), 1);
            assert_eq!((games[0].round, games[0].players, games[0].winner.as_deref()), (1, BySide::new(ann, bob), Some("blue")));
            assert!(games[0].finished_at.is_some() && !games[0].aborted());
        }

        fn of_two_nodes_creating_a_round_at_once_one_does(store) {
            let ann = account(store, "ann");
            let bob = account(store, "bob");
            store.insert_tournament(&swiss("t1", ann)).unwrap();
            assert!(store.start_tournament("t1", 1_000).unwrap());
            for round in 0..20u32 {
                let made: Vec<bool> = std::thread::scope(|s| {
                    let nodes: Vec<_> = ["a", "b"]
                        .into_iter()
                        .map(|node| {
                            s.spawn(move || {
                                let game = round_game(&format!("g{round}{node}"), ann, bob);
                                store.create_round("t1", round, &[game], None, None).unwrap()
                            })
                        })
                        .collect();
                    nodes.into_iter().map(|t| t.join().unwrap()).collect()
                });
                assert_eq!(made.iter().filter(|&&m| m).count(), 1, "round {round}: {made:?}");
            }
            assert_eq!(store.tournament_games("t1").unwrap().len(), 20);
        }
    }
}
