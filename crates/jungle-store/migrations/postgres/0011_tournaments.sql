-- The SQLite migration 0017_tournaments.sql for PostgreSQL (integers are BIGINT); its comments, again:
-- Tournaments (docs/server.md, "Tournaments"): Swiss events and arenas. A tournament's pairing state is one
-- number, `current_round`: a Swiss round, or an arena's pairing wave. A node pairs a round only by moving it
-- from N to N+1 with `UPDATE … WHERE current_round = N` in the transaction that creates the round's games, so
-- of several nodes deciding at once exactly one creates games. Scores are never stored: they are recomputed
-- from the results of the tournament's games, so nothing is lost with a node.
CREATE TABLE tournaments (
    id                 TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    creator_id         BIGINT NOT NULL REFERENCES users (id),
    creator_name       TEXT NOT NULL,
    rules              TEXT NOT NULL,
    clock_initial_ms   BIGINT NOT NULL,
    clock_increment_ms BIGINT NOT NULL,
    -- 'swiss' with its number of rounds, or 'arena' with its length.
    kind               TEXT NOT NULL CHECK (kind IN ('swiss', 'arena')),
    rounds             BIGINT,
    duration_ms        BIGINT,
    starts_at          BIGINT NOT NULL,
    rated              BIGINT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('upcoming', 'running', 'finished')),
    current_round      BIGINT NOT NULL DEFAULT 0,
    created_at         BIGINT NOT NULL,
    finished_at        BIGINT
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (creator_id, created_at);

-- Who entered. `active` is 0 for an arena player who left (they may come back) or a withdrawn Swiss player.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    user_id       BIGINT NOT NULL REFERENCES users (id),
    name          TEXT NOT NULL,
    joined_at     BIGINT NOT NULL,
    active        BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (tournament_id, user_id)
);

-- A Swiss round's bye (it is not a game, so it has no row in `games`).
CREATE TABLE tournament_byes (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round         BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- A game's tournament and round (an arena's pairing wave).
ALTER TABLE games ADD COLUMN tournament_id TEXT;
ALTER TABLE games ADD COLUMN tournament_round BIGINT;
CREATE INDEX games_by_tournament ON games (tournament_id, tournament_round) WHERE tournament_id IS NOT NULL;
