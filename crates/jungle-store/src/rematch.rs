//! A finished game's rematch, decided once by the database: the rematch records the game it follows
//! (`rematch_of`, unique), so of two players asking at the same moment — on two nodes that have not heard of
//! each other's — one stores the new game and the other is refused and reads it.

use super::db::params;
use super::{GameRecord, Store, StoreError, game_query, insert_game_on, read_game};

impl Store {
    /// Stores `game` as the rematch of the game `of`, unless `of` has one already: then nothing is stored and
    /// the rematch stored first (by whichever node) is returned.
    pub fn insert_rematch(
        &self,
        game: &GameRecord,
        of: &str,
    ) -> Result<Option<GameRecord>, StoreError> {
        let stored: Result<(), StoreError> = self.transaction(|tx| {
            insert_game_on(tx, game)?;
            tx.execute(
                "UPDATE games SET rematch_of = ?2 WHERE id = ?1",
                params![game.id, of],
            )?;
            Ok(())
        });
        match stored {
            Ok(()) => Ok(None),
            Err(refused) if refused.is_conflict() => match self.rematch_of(of)? {
                Some(first) => Ok(Some(first)),
                // A conflict of another key (the new game's id): not a rematch made elsewhere.
                None => Err(refused),
            },
            Err(e) => Err(e),
        }
    }

    /// The rematch of the game `of`, if one was made.
    pub fn rematch_of(&self, of: &str) -> Result<Option<GameRecord>, StoreError> {
        self.with(|conn| {
            conn.query_opt(game_query!("WHERE rematch_of = ?1"), params![of], read_game)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::on_both_backends;
    use crate::tests::record;

    on_both_backends! {
        fn a_game_has_one_rematch_whoever_asks_first(store) {
            store.insert_game(&record("old")).unwrap();
            assert!(store.rematch_of("old").unwrap().is_none());
            assert!(store.insert_rematch(&record("r1"), "old").unwrap().is_none());
            // The other player, on a node that has not heard of it: refused, and handed the first.
            let first = store.insert_rematch(&record("r2"), "old").unwrap().expect("the first rematch");
            assert_eq!(first.id, "r1");
            assert!(store.game("r2").unwrap().is_none(), "the second game is not stored");
            assert_eq!(store.rematch_of("old").unwrap().unwrap().id, "r1");
            // A rematch has a rematch of its own.
            assert!(store.insert_rematch(&record("r3"), "r1").unwrap().is_none());
        }

        fn of_two_rematches_asked_at_once_one_is_stored(store) {
            for round in 0..50 {
                let old = format!("old{round}");
                store.insert_game(&record(&old)).unwrap();
                let made: Vec<String> = std::thread::scope(|s| {
                    let askers: Vec<_> = ["a", "b"]
                        .into_iter()
                        .map(|node| {
                            let old = &old;
                            s.spawn(move || {
                                let mine = format!("{old}-{node}");
                                match store.insert_rematch(&record(&mine), old).unwrap() {
                                    None => mine,
                                    Some(first) => first.id,
                                }
                            })
                        })
                        .collect();
                    askers.into_iter().map(|t| t.join().unwrap()).collect()
                });
                assert_eq!(made[0], made[1], "round {round}: two rematches");
            }
        }
    }
}
