-- The same as the SQLite migration 0012_game_list.sql (see its comments), in PostgreSQL's types.
-- What the game lists show of a game's moves, kept on its row so that a list reads one row a game and never
-- its moves: the number of moves, when the last was played (Unix ms) and both clocks after it. A move's
-- insert, a takeback and an import write these in the same transaction as the moves (src/lib.rs). Before
-- this, every listed game counted its moves on every request: with 20 imported games of 12,800 plies one
-- `GET /api/games` cost the server 17.5 ms of CPU (docs/server.md, "What a list request costs").
ALTER TABLE games ADD COLUMN plies BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN last_move_at BIGINT;
ALTER TABLE games ADD COLUMN last_blue_ms BIGINT;
ALTER TABLE games ADD COLUMN last_red_ms BIGINT;

UPDATE games SET
    plies = (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id),
    last_move_at = (SELECT m.played_at FROM moves m WHERE m.game_id = games.id ORDER BY m.ply DESC LIMIT 1),
    last_blue_ms = (SELECT m.blue_ms FROM moves m WHERE m.game_id = games.id ORDER BY m.ply DESC LIMIT 1),
    last_red_ms = (SELECT m.red_ms FROM moves m WHERE m.game_id = games.id ORDER BY m.ply DESC LIMIT 1);

-- One index a list, whose condition is the list's own (a partial index serves only a query whose WHERE
-- repeats its condition): each list reads its newest `limit` entries from its index and stops, whatever
-- the number of games stored. The home page's games in progress, finished games and imports:
CREATE INDEX games_live_list ON games (created_at)
    WHERE finished_at IS NULL AND damaged IS NULL AND mode != 'import';
CREATE INDEX games_finished_list ON games (finished_at)
    WHERE finished_at IS NOT NULL AND termination IS DISTINCT FROM 'aborted' AND mode != 'import';
CREATE INDEX games_imported_list ON games (created_at) WHERE mode = 'import';
-- The index these replace: over every game by (finished_at, created_at), the planner preferred it for the
-- games in progress and walked through every import (and damaged game) to find them.
DROP INDEX games_by_state;
-- A player's finished games (the profile's list, search and export), per seat: the profile reads the
-- newest of each seat's index and merges them.
CREATE INDEX games_finished_by_blue_user ON games (blue_user_id, finished_at)
    WHERE finished_at IS NOT NULL AND termination IS DISTINCT FROM 'aborted' AND mode != 'import';
CREATE INDEX games_finished_by_red_user ON games (red_user_id, finished_at)
    WHERE finished_at IS NOT NULL AND termination IS DISTINCT FROM 'aborted' AND mode != 'import';
