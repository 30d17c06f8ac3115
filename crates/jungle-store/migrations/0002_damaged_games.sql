-- A game whose stored record no longer replays (a damaged file, a rule change): why, once found. Such a game
-- is left out of the live list and not reopened; the others start as usual.
ALTER TABLE games ADD COLUMN damaged TEXT;
