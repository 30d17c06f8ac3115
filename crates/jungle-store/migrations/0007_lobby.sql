-- The lobby: open challenges (seeks) and the games it paired. Times are Unix milliseconds.
-- Kept in the database, not in one server's memory, so several servers on one database share one lobby.
CREATE TABLE seeks (
    id                 TEXT PRIMARY KEY,
    created_at         INTEGER NOT NULL,
    -- the account that made it, and its name as shown in the lobby
    creator_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    creator_name       TEXT NOT NULL,
    rules              TEXT NOT NULL,
    -- a real-time clock (minutes and increment) or days per move (correspondence): exactly one of the two
    clock_initial_ms   INTEGER,
    clock_increment_ms INTEGER,
    days_per_move      INTEGER,
    rated              INTEGER NOT NULL CHECK (rated IN (0, 1)),
    -- the creator's colour: 'blue', 'red' or 'random'
    colour             TEXT NOT NULL CHECK (colour IN ('blue', 'red', 'random')),
    -- the opponents' ratings it is open to (NULL: no bound)
    rating_min         INTEGER,
    rating_max         INTEGER,
    -- a direct challenge: only this account sees it and may accept it
    target_id          INTEGER REFERENCES users (id) ON DELETE CASCADE,
    target_name        TEXT,
    -- the target declined it (the creator sees so until they dismiss it)
    declined           INTEGER NOT NULL DEFAULT 0,
    -- when the creator's lobby page last asked for the lobby: a real-time seek whose creator is gone expires
    seen_at            INTEGER NOT NULL,
    CHECK ((clock_initial_ms IS NULL) != (days_per_move IS NULL))
);

CREATE INDEX seeks_by_creator ON seeks (creator_id);

-- A correspondence game's days per move, and the moment its side to move runs out (a stored moment, not a
-- ticking clock: a server that was down decides an overdue game when it comes back). NULL for other games.
ALTER TABLE games ADD COLUMN days_per_move INTEGER;
ALTER TABLE games ADD COLUMN deadline_at INTEGER;
CREATE INDEX games_by_deadline ON games (deadline_at);

-- The games the lobby paired, and the seek each came from (so the seek's creator is sent to the game).
-- Who sits on which side is in games.blue_user_id / red_user_id.
CREATE TABLE pairings (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seek_id    TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE INDEX pairings_by_seek ON pairings (seek_id);
CREATE INDEX pairings_by_time ON pairings (created_at);
