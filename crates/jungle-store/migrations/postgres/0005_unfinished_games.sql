-- The unfinished games, in order of creation: what the sweep for games nobody holds reads every 30 s on every
-- node of a cluster (src/store/overdue.rs). Without it each sweep scans every game ever played; with it only
-- the unfinished ones (docs/deployment.md, "Limits of the current design", has the measurement). Partial, so a
-- move (which does not change its game's row) never writes it: a game enters it when created, leaves it when
-- it ends.
CREATE INDEX games_unfinished ON games (created_at) WHERE result IS NULL AND damaged IS NULL;
