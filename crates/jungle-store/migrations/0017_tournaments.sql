-- Tournaments (docs/server.md, "Tournaments"): Swiss events and arenas. A tournament's pairing state is one
-- number, `current_round`: a Swiss round, or an arena's pairing wave. A node pairs a round only by moving it
-- from N to N+1 with `UPDATE … WHERE current_round = N` in the transaction that creates the round's games, so
-- of several nodes deciding at once exactly one creates games. Scores are never stored: they are recomputed
-- from the results of the tournament's games, so nothing is lost with a node.
CREATE TABLE tournaments (
    id                 TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    creator_id         INTEGER NOT NULL REFERENCES users (id),
    creator_name       TEXT NOT NULL,
    rules              TEXT NOT NULL,
    clock_initial_ms   INTEGER NOT NULL,
    clock_increment_ms INTEGER NOT NULL,
    -- 'swiss' with its number of rounds, or 'arena' with its length.
    kind               TEXT NOT NULL CHECK (kind IN ('swiss', 'arena')),
    rounds             INTEGER,
    duration_ms        INTEGER,
    starts_at          INTEGER NOT NULL,
    rated              INTEGER NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('upcoming', 'running', 'finished')),
    current_round      INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL,
    finished_at        INTEGER
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (creator_id, created_at);

-- Who entered. `active` is 0 for an arena player who left (they may come back) or a withdrawn Swiss player.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL REFERENCES users (id),
    name          TEXT NOT NULL,
    joined_at     INTEGER NOT NULL,
    active        INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (tournament_id, user_id)
);

-- A Swiss round's bye (it is not a game, so it has no row in `games`).
CREATE TABLE tournament_byes (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- A game's tournament and round (an arena's pairing wave).
ALTER TABLE games ADD COLUMN tournament_id TEXT;
ALTER TABLE games ADD COLUMN tournament_round INTEGER;
CREATE INDEX games_by_tournament ON games (tournament_id, tournament_round) WHERE tournament_id IS NOT NULL;
