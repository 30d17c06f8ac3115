-- Lessons (/learn): the best stars a signed-in learner earned on each stage, keyed by "LESSON/STAGE"
-- (e.g. "jumps/3"). Guests keep the same map in their browser; the course itself is embedded data, not rows.
CREATE TABLE lesson_progress (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    stage   TEXT NOT NULL,
    stars   BIGINT NOT NULL,
    done_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, stage)
);
