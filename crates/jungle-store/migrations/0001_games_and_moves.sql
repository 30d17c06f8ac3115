-- Every game and every move, written as they happen. Times are Unix milliseconds.
CREATE TABLE games (
    id                 TEXT PRIMARY KEY,
    created_at         INTEGER NOT NULL,
    -- 'engine' (a person against the engine), 'friend' (two people), 'import' (a PGN brought in for analysis)
    mode               TEXT NOT NULL CHECK (mode IN ('engine', 'friend', 'import')),
    rules              TEXT NOT NULL,
    start_fen          TEXT NOT NULL,
    engine_level       INTEGER,
    engine_side        TEXT CHECK (engine_side IN ('blue', 'red')),
    -- secret seat tokens; NULL while a seat is free (or played by the engine)
    blue_token         TEXT,
    red_token          TEXT,
    blue_name          TEXT,
    red_name           TEXT,
    clock_initial_ms   INTEGER,
    clock_increment_ms INTEGER,
    -- the ending once there is one
    result             TEXT,
    winner             TEXT,
    termination        TEXT,
    finished_at        INTEGER
);

CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    mv        TEXT NOT NULL,
    -- both clocks right after the move (NULL in untimed games)
    blue_ms   INTEGER,
    red_ms    INTEGER,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE INDEX games_by_state ON games (finished_at, created_at);
