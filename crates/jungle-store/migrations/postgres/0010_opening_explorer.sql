-- The same as the SQLite migration 0016_opening_explorer.sql (see its comments), in PostgreSQL's types.
CREATE TABLE opening_moves (
    rules        TEXT NOT NULL,
    hash         BIGINT NOT NULL,
    mv           TEXT NOT NULL,
    games        BIGINT NOT NULL,
    blue_wins    BIGINT NOT NULL,
    draws        BIGINT NOT NULL,
    red_wins     BIGINT NOT NULL,
    rating_sum   BIGINT NOT NULL,
    rated_games  BIGINT NOT NULL,
    PRIMARY KEY (rules, hash, mv)
);

CREATE TABLE opening_games (
    game_id  TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE
);
