-- Ratings (docs/ratings.md): Glicko-2 per account and speed category. Times are Unix milliseconds; user ids
-- are accounts' (users.id).

-- The speed category a rated game is rated in, set when the game is made (the lobby pairs two accounts) and
-- fixed from then on; NULL: a casual game. The accounts it rates are the game's seats (blue_user_id,
-- red_user_id).
ALTER TABLE games ADD COLUMN rating_category TEXT
    CHECK (rating_category IN ('bullet', 'blitz', 'rapid', 'classical', 'correspondence'));

-- Each account's current rating in each category it has played rated games in, with its counts.
CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    -- the last rated game's end: an idle player's deviation grows from here
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, category)
);

-- One row per player of each rated game that ended: the ratings it was played with and the player's rating
-- after it. The key (game, player) makes an ending processed twice move nobody twice.
CREATE TABLE rating_history (
    game_id            TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id            INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category           TEXT NOT NULL,
    opponent_id        INTEGER NOT NULL,
    outcome            TEXT NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    rating_before      REAL NOT NULL,
    deviation_before   REAL NOT NULL,
    opponent_rating    REAL NOT NULL,
    opponent_deviation REAL NOT NULL,
    rating_after       REAL NOT NULL,
    deviation_after    REAL NOT NULL,
    volatility_after   REAL NOT NULL,
    at                 INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_history_by_user ON rating_history (user_id, category, at);
