//! Lesson progress: the best stars each signed-in learner earned on each stage of /learn.

use std::collections::BTreeMap;

use super::db::params;
use super::{Store, StoreError, now_ms};

impl Store {
    /// A learner's stars by stage key (`LESSON/STAGE`).
    pub fn lesson_progress(&self, user_id: i64) -> Result<BTreeMap<String, u8>, StoreError> {
        let rows = self.with(|conn| {
            conn.query_map(
                "SELECT stage, stars FROM lesson_progress WHERE user_id = ?1",
                params![user_id],
                |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?)),
            )
        })?;
        Ok(rows
            .into_iter()
            .map(|(stage, stars)| (stage, stars.clamp(0, 3) as u8))
            .collect())
    }

    /// Records `stars` on a stage, keeping the best the learner has earned there; answers the best.
    pub fn record_lesson_stars(
        &self,
        user_id: i64,
        stage: &str,
        stars: u8,
    ) -> Result<u8, StoreError> {
        self.transaction(|tx| {
            // CASE rather than MAX/GREATEST: the one spelling both SQLite and PostgreSQL read.
            tx.execute(
                "INSERT INTO lesson_progress (user_id, stage, stars, done_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (user_id, stage) DO UPDATE SET
                    stars = CASE WHEN excluded.stars > lesson_progress.stars
                                 THEN excluded.stars ELSE lesson_progress.stars END,
                    done_at = excluded.done_at",
                params![user_id, stage, i64::from(stars), now_ms()],
            )?;
            let best = tx.query_opt(
                "SELECT stars FROM lesson_progress WHERE user_id = ?1 AND stage = ?2",
                params![user_id, stage],
                |r| r.get::<i64>(0),
            )?;
            Ok(best.unwrap_or(0).clamp(0, 3) as u8)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::on_both_backends;

    on_both_backends! {
    fn the_best_stars_of_a_stage_are_kept(store) {
        let ann = store.insert_account("ann", "hash").unwrap().unwrap().id;
        let bob = store.insert_account("bob", "hash").unwrap().unwrap().id;
        assert!(store.lesson_progress(ann).unwrap().is_empty());
        assert_eq!(store.record_lesson_stars(ann, "jumps/1", 2).unwrap(), 2);
        assert_eq!(store.record_lesson_stars(ann, "jumps/1", 3).unwrap(), 3);
        // A worse attempt later does not take a star away.
        assert_eq!(store.record_lesson_stars(ann, "jumps/1", 1).unwrap(), 3);
        assert_eq!(store.record_lesson_stars(ann, "den/2", 1).unwrap(), 1);
        let progress = store.lesson_progress(ann).unwrap();
        assert_eq!(
            progress.into_iter().collect::<Vec<_>>(),
            [("den/2".to_string(), 1), ("jumps/1".to_string(), 3)]
        );
        assert!(store.lesson_progress(bob).unwrap().is_empty(), "each learner's own");
    }
    }
}
