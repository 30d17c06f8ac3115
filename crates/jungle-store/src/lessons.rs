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
