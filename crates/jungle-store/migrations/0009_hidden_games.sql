-- Hidden Jungle games (docs/hidden.md, "Web"). Each side's secret setup is kept here, server-side only: it is
-- sent to nobody but its own player before the game is over. The moves are stored as plain moves (`a3a4`);
-- what each revealed is worked out again by replaying them from both setups. Times are Unix milliseconds.
CREATE TABLE hidden_games (
    id           TEXT PRIMARY KEY,
    created_at   INTEGER NOT NULL,
    mode         TEXT NOT NULL CHECK (mode IN ('engine', 'friend')),
    rules        TEXT NOT NULL,
    engine_level INTEGER,
    engine_side  TEXT CHECK (engine_side IN ('blue', 'red')),
    blue_token   TEXT,
    red_token    TEXT,
    -- each side's setup (animal letters in start-square order), written once
    blue_setup   TEXT,
    red_setup    TEXT,
    result       TEXT,
    winner       TEXT,
    termination  TEXT,
    finished_at  INTEGER
);

-- One move per ply: of two writes for the same ply (two nodes, a replayed request) the second is refused.
CREATE TABLE hidden_moves (
    game_id   TEXT NOT NULL REFERENCES hidden_games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    mv        TEXT NOT NULL,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
