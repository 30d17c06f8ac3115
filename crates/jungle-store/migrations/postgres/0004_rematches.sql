-- A finished game's rematch: the game made when one of its players asked for it. Unique, so that two players
-- asking at once (on two server nodes) get one rematch: the second insert is refused and reads the first.
ALTER TABLE games ADD COLUMN rematch_of TEXT;
CREATE UNIQUE INDEX games_rematch_of ON games (rematch_of);
