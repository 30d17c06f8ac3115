-- The puzzle history of a profile (docs/puzzles.md, "Playing"): each rated attempt keeps the solver's puzzle
-- rating before and after it, so the history can show what the attempt changed, and which of the solver's
-- rated attempts it was (1, 2, …: attempts within one millisecond keep their order). Attempts recorded
-- before this migration have none (NULL: the history shows no change for them). The index reads one
-- solver's attempts newest first without sorting them.
ALTER TABLE puzzle_attempts ADD COLUMN rating_before REAL;
ALTER TABLE puzzle_attempts ADD COLUMN rating_after REAL;
ALTER TABLE puzzle_attempts ADD COLUMN solver_attempt INTEGER;
CREATE INDEX puzzle_attempts_by_time ON puzzle_attempts (user_id, played_at DESC, solver_attempt DESC);
