-- Lessons (/learn): the best stars a signed-in learner earned on each stage, keyed by "LESSON/STAGE"
-- (e.g. "jumps/3"). Guests keep the same map in their browser; the course itself is embedded data, not rows.
CREATE TABLE lesson_progress (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    stage TEXT NOT NULL,
    stars INTEGER NOT NULL,
    done_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, stage)
);
