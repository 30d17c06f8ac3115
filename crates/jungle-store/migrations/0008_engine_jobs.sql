-- Which server node is working out the engine's move in a game, and until when the job is its own: another
-- node takes over a job whose lease ran out (its node died). At most one row per game.
CREATE TABLE engine_jobs (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    -- the ply the engine is to play
    ply         INTEGER NOT NULL,
    node        TEXT NOT NULL,
    -- Unix milliseconds
    lease_until INTEGER NOT NULL
);
