-- The account names of a Hidden Jungle game's players (none: a guest, or the engine), written with the seat
-- they take (src/hidden.rs), so the game shows who plays — on every node, and after a restart.
ALTER TABLE hidden_games ADD COLUMN blue_name TEXT;
ALTER TABLE hidden_games ADD COLUMN red_name TEXT;
