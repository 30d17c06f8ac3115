-- The same as the SQLite migration 0015_puzzle_history.sql (see its comments), in PostgreSQL's types.
ALTER TABLE puzzle_attempts ADD COLUMN rating_before DOUBLE PRECISION;
ALTER TABLE puzzle_attempts ADD COLUMN rating_after DOUBLE PRECISION;
ALTER TABLE puzzle_attempts ADD COLUMN solver_attempt BIGINT;
CREATE INDEX puzzle_attempts_by_time ON puzzle_attempts (user_id, played_at DESC, solver_attempt DESC);
