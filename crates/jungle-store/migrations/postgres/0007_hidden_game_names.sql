-- The same as the SQLite migration 0013_hidden_game_names.sql (see its comments).
ALTER TABLE hidden_games ADD COLUMN blue_name TEXT;
ALTER TABLE hidden_games ADD COLUMN red_name TEXT;
