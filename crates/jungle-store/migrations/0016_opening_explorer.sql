-- The opening explorer's index (docs/server.md, "Opening explorer"): for each rules (their canonical option
-- string), position (its Zobrist hash, as a signed 64-bit integer) and move played from it, how many games
-- between people played that move there and how they ended, with the sum of the games' average ratings over
-- the rated ones. The key is the explorer's one query: all the moves of one position, read from one range of
-- the key without touching another row, whatever the number of games stored (WITHOUT ROWID: the table is its
-- key's b-tree).
CREATE TABLE opening_moves (
    rules        TEXT NOT NULL,
    hash         INTEGER NOT NULL,
    mv           TEXT NOT NULL,
    games        INTEGER NOT NULL,
    blue_wins    INTEGER NOT NULL,
    draws        INTEGER NOT NULL,
    red_wins     INTEGER NOT NULL,
    rating_sum   INTEGER NOT NULL,
    rated_games  INTEGER NOT NULL,
    PRIMARY KEY (rules, hash, mv)
) WITHOUT ROWID;

-- The games counted in opening_moves, each once: the ending's transaction inserts its game here first and
-- counts its moves only if the insert added the row, and the backfill of games that ended before this table
-- existed (run when the store opens) takes the games not here. Dropped with its game.
CREATE TABLE opening_games (
    game_id  TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE
);
